// ISPRITE read/write speed on a >= 20 MB synthetic sprite (whole-pixel and
// fractional positions), next to a plain copy of the same bytes
// (Uint8Array.slice) in the same rounds. Target: 150 MB/s both ways.
import { beginSuite, compare, config, sameBytes } from './lib.mjs';
import { sprat } from './sprat.mjs';

const { createIsprite, readIsprite, writeIsprite } = sprat;

// `fractional`: every position has a fraction (the worst case: JS boxes each
// such number). Otherwise positions are whole pixels, as in pixel-art
// sprites, and only rotations, scales and radii have fractions.
export function makeDoc(targetBytes, fractional = false) {
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

export async function run() {
  beginSuite('isprite');
  const target = config.mode === 'tiny' ? 200e3 : config.mode === 'quick' ? 5e6 : 21e6;
  for (const fractional of [false, true]) {
    const doc = makeDoc(target, fractional);
    const bytes = writeIsprite(doc);
    const what = `${(bytes.length / 1e6).toFixed(1)} MB, ${doc.frames.length} frames, ${doc.frames.length * 40} elements, ${fractional ? 'every position fractional' : 'whole-pixel positions'}`;
    const back = readIsprite(bytes);
    const diff = sameBytes(writeIsprite(back), bytes);
    if (diff) throw new Error(`ISPRITE write(read(bytes)) differs from the bytes: ${diff}`);
    await compare(`ISPRITE read ${what}`, {
      amount: bytes.length,
      peers: [
        { name: 'sprat readIsprite', fn: () => readIsprite(bytes) },
        {
          name: "sprat readIsprite, then every frame's elements as objects",
          fn: () => {
            const d = readIsprite(bytes);
            let n = 0;
            for (const fr of d.frames) n += fr.elements.length;
            return n;
          },
          check: false,
          checkNote: 'more work: the reader checks and indexes the records, frames make their element objects on first use',
        },
        { name: 'plain copy (slice)', fn: () => bytes.slice(), check: false, checkNote: 'a floor, not a peer' },
      ],
      target: { rate: 150 },
      note: 'the round trip write(read(file)) gives the file back byte for byte (checked)',
    });
    await compare(`ISPRITE write ${what}`, {
      amount: bytes.length,
      peers: [
        { name: 'sprat writeIsprite', fn: () => writeIsprite(back) },
        {
          name: 'sprat writeIsprite of the document built in code (element objects)',
          fn: () => writeIsprite(doc),
          check: false,
          checkNote: 'the same bytes (checked above); every element encoded, where a read document copies its records',
        },
        { name: 'plain copy (slice)', fn: () => bytes.slice(), check: false, checkNote: 'a floor, not a peer' },
      ],
      target: { rate: 150 },
    });
  }
}
