// ISPRITE read/write speed on a >= 20 MB synthetic sprite, next to a plain
// copy of the same bytes (Uint8Array.slice) measured in the same run.
// Needs `npm run build` first (imports dist/).
import { createIsprite, readIsprite, writeIsprite } from '../dist/index.js';

// `fractional`: every position has a fraction (the worst case: JS boxes each
// such number). Otherwise positions are whole pixels, as in pixel-art
// sprites, and only rotations, scales and radii have fractions.
function makeDoc(targetBytes, fractional) {
  const half = fractional ? 0.5 : 0;
  const quarter = fractional ? 0.25 : 1;
  const doc = createIsprite(30);
  doc.meta = null;
  doc.textures = [{ path: 'sheets/bench', nearest: true }];
  for (let i = 0; i < 256; i++) doc.slices.push({ texture: 0, rotated: false, x: (i % 16) * 32, y: (i >> 4) * 32, width: 32, height: 32 });
  doc.names = ['hand', 'hurtbox', 'hitbox', 'weapon'];
  let size = 0;
  let f = 0;
  const seqFrames = [];
  while (size < targetBytes) {
    const elements = [];
    for (let e = 0; e < 40; e++) {
      const k = e % 8;
      if (k < 4)
        elements.push({
          type: 'graphic',
          expanded: false,
          name: null,
          slice: (f + e) & 255,
          x: e - 20 - half,
          y: -Math.round(e * quarter),
          flipX: (e & 1) === 1,
          flipY: false,
        });
      else if (k === 4)
        elements.push({
          type: 'graphic',
          expanded: true,
          name: 3,
          slice: e,
          x: 1 + half,
          y: -2,
          flipX: false,
          flipY: true,
          originX: 16,
          originY: 16,
          rotation: f % 360,
          scaleX: 1,
          scaleY: 0.5,
          opacity: 65535,
        });
      else if (k === 5)
        elements.push({
          type: 'attachment',
          name: 0,
          id: 0,
          x: 4 + half,
          y: -12,
          flipX: false,
          flipY: false,
          rotation: 0,
          scaleX: 1,
          scaleY: 1,
          opacity: 65535,
        });
      else if (k === 6) elements.push({ type: 'rect', name: 1, id: e, x: -6 - half, y: -20, width: 12, height: 20, rotation: 0 });
      else elements.push({ type: 'circle', name: 2, id: e, x: half, y: -10, radius: 6.5 });
    }
    doc.frames.push({
      holdTime: 1 + (f % 3),
      loopPoint: false,
      label: f % 10 === 0 ? `frame ${f}` : '',
      triggers: f % 7 === 0 ? 'step' : '',
      notes: '',
      elements,
    });
    seqFrames.push(f);
    size += 16 + 20 * 13 + 5 * (30 + 25 + 24 + 17) + 4;
    f++;
  }
  const per = 500;
  const groups = [];
  for (let i = 0; i < seqFrames.length; i += per * 4) {
    const children = [];
    for (let j = i; j < Math.min(i + per * 4, seqFrames.length); j += per) {
      children.push({ kind: 'sequence', name: `seq${j}`, loopPoint: 0, followUp: '', frames: seqFrames.slice(j, j + per) });
    }
    groups.push({ kind: 'group', name: `g${i}`, children });
  }
  doc.tree = groups;
  return doc;
}

// Best (and median) of several runs after a warm-up. The heap is collected
// once before a series, not before every run: a forced full GC shrinks the
// heap, and the next run then pays for growing it again (that is what a
// one-shot read of a big file in a fresh process costs: about half these
// speeds for reading). On a loaded machine the best run is the one that
// got a core to itself; the median says how often that happened.
function time(fn, minMs = 1500) {
  fn();
  globalThis.gc?.();
  const times = [];
  const end = performance.now() + minMs;
  while (times.length < 5 || performance.now() < end) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const best = times[0];
  return Object.assign(new Number(best), { median: times[times.length >> 1] });
}

const rate = (mb, t) => (mb / (t / 1000)).toFixed(0);
const target = 150;
for (const fractional of [false, true]) {
  let doc = makeDoc(21 * 1024 * 1024, fractional);
  const bytes = writeIsprite(doc);
  const mb = bytes.length / (1024 * 1024);
  const frames = doc.frames.length;
  console.log(
    `ISPRITE synthetic sprite, ${fractional ? 'every position fractional' : 'whole-pixel positions'}: ` +
      `${mb.toFixed(1)} MB, ${frames} frames, ${frames * 40} elements`,
  );
  const tCopy = time(() => bytes.slice());
  const tRead = time(() => readIsprite(bytes));
  doc = readIsprite(bytes);
  const tWrite = time(() => writeIsprite(doc));
  console.log(`  copy  (Uint8Array.slice): ${tCopy.toFixed(1).padStart(7)} ms ${rate(mb, tCopy).padStart(6)} MB/s`);
  console.log(
    `  read  (readIsprite):      ${tRead.toFixed(1).padStart(7)} ms ${rate(mb, tRead).padStart(6)} MB/s  (${(tRead / tCopy).toFixed(0)}x the copy's time; median ${rate(mb, tRead.median)} MB/s)`,
  );
  console.log(
    `  write (writeIsprite):     ${tWrite.toFixed(1).padStart(7)} ms ${rate(mb, tWrite).padStart(6)} MB/s  (${(tWrite / tCopy).toFixed(0)}x the copy's time; median ${rate(mb, tWrite.median)} MB/s)`,
  );
  for (const [what, t] of [
    ['read', tRead],
    ['write', tWrite],
  ]) {
    if (mb / (t / 1000) < target) console.log(`  note: ${what} is below the ${target} MB/s target`);
  }
}
