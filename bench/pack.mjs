// The atlas packer (src/model/pack.ts packRects, what `sprat pack` and
// packAtlas lay frames out with) against maxrects-packer, potpack and
// free-tex-packer-core's MaxRects (its PackProcessor, every heuristic, as
// its "optimal" packer tries them), on real frame sizes (every trimmed frame
// of the 55 Solarus Quest Editor sprites, the CTHG corpus' sprites, the
// corpus's interop JSON sheets) and synthetic ones (random rectangles, many
// equal ones): occupancy (the rectangles' area over the pages' area) and CPU
// time, printed as sprat / peer ratios. Every layout is checked first (every
// rectangle placed once, inside its page, none overlapping); then each peer
// faster than half a second is timed in interleaved rounds (the median of
// config.rounds), a slower one by that first run. No rotation, no padding,
// one unbounded page (potpack has neither bounds nor rotation).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import potpack from 'potpack';
import { MaxRectsPacker } from 'maxrects-packer/dist/maxrects-packer.mjs';
import { beginSuite, config, cpuMs, log, printTable, record, stats } from './lib.mjs';
import { mod, sprat } from './sprat.mjs';

const require = createRequire(import.meta.url);
const PackProcessor = require('free-tex-packer-core/PackProcessor.js');
const OptimalPacker = require('free-tex-packer-core/packers/OptimalPacker.js');
const { packRects } = await mod('model/pack');
const { packAtlas } = await mod('model/packatlas');
const { spriteAtlasFrames } = await mod('interop/sheet');
const { fsResourceLoader } = await mod('node/fs');

const SHARED = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'corpus');
const CORPUS = path.join(SHARED, 'interop');

/** Every file under dir whose name ends with ext, in name order. */
function filesUnder(dir, ext) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, ext));
    else if (e.name.endsWith(ext)) out.push(p);
  }
  return out;
}

/**
 * The rectangles `sprat pack --trim` lays out for sprite files: each file read and drawn through the common model
 * (its sheets loaded beside it), every frame of every animation trimmed, identical frames stored once (packAtlas
 * does both; its layout is not used, only the sizes of the distinct frames).
 */
async function spriteSet(files) {
  const frames = [];
  for (const f of files) {
    const loaded = sprat.load(new Uint8Array(fs.readFileSync(f)), f);
    const model = await loaded.handler.toModel(loaded.doc, fsResourceLoader(path.dirname(f)), {});
    if (model.kind !== 'sprite') continue;
    for (const fr of spriteAtlasFrames(model).frames) frames.push({ name: `${f}/${fr.name}`, image: fr.image });
  }
  if (!frames.length) return [];
  const [atlas] = packAtlas(frames, { trim: true });
  const seen = new Set();
  const sizes = [];
  for (const fr of atlas.frames) {
    const key = `${fr.page} ${fr.frame.x} ${fr.frame.y}`;
    if (seen.has(key)) continue;
    seen.add(key);
    sizes.push({ w: fr.frame.w, h: fr.frame.h });
  }
  return sizes;
}

/** The frame sizes of every JSON sheet under the corpus's interop folder (TexturePacker and Aseprite files: `frames` hash or array). */
function realSet() {
  const sizes = [];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) {
        let doc;
        try {
          doc = JSON.parse(fs.readFileSync(p, 'utf8'));
        } catch {
          continue;
        }
        const frames = doc && typeof doc.frames === 'object' && doc.frames ? Object.values(doc.frames) : [];
        for (const f of frames) {
          const r = f && f.frame;
          if (r && Number.isInteger(r.w) && Number.isInteger(r.h) && r.w > 0 && r.h > 0) sizes.push({ w: r.w, h: r.h });
        }
      }
    }
  };
  walk(CORPUS);
  return sizes;
}

/** n rectangles of 4..64 pixels a side, from a fixed seed. */
function randomSet(n) {
  let s = 12345;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
  return Array.from({ length: n }, () => ({ w: 4 + Math.floor(next() * 61), h: 4 + Math.floor(next() * 61) }));
}

/** Checks a layout: every rectangle once, inside its page, no two overlapping on a page. Returns the occupancy. */
function occupancy(name, rects, placed, pages) {
  if (placed.length !== rects.length) throw new Error(`${name} placed ${placed.length} of ${rects.length} rectangles`);
  let area = 0;
  for (const r of rects) area += r.w * r.h;
  const byPage = new Map();
  for (const p of placed) {
    const page = pages[p.page];
    if (p.x < 0 || p.y < 0 || p.x + p.w > page.w || p.y + p.h > page.h) throw new Error(`${name}: a rectangle leaves its page`);
    (byPage.get(p.page) ?? byPage.set(p.page, []).get(p.page)).push(p);
  }
  for (const list of byPage.values()) {
    list.sort((a, b) => a.x - b.x);
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length && list[j].x < list[i].x + list[i].w; j++) {
        const a = list[i];
        const b = list[j];
        if (a.y < b.y + b.h && b.y < a.y + a.h) throw new Error(`${name}: two rectangles overlap`);
      }
  }
  let pageArea = 0;
  for (const p of pages) pageArea += p.w * p.h;
  return area / pageArea;
}

const PEERS = [
  {
    name: 'sprat packRects',
    run(rects) {
      const r = packRects(rects);
      return {
        placed: r.placements.map((p, i) => ({ page: p.page, x: p.x, y: p.y, w: rects[i].w, h: rects[i].h })),
        pages: r.pages.map((p) => ({ w: p.width, h: p.height })),
      };
    },
  },
  {
    name: 'maxrects-packer (smart)',
    run(rects) {
      const packer = new MaxRectsPacker(1 << 14, 1 << 14, 0, { smart: true, pot: false, square: false, allowRotation: false });
      packer.addArray(rects.map((r, i) => ({ width: r.w, height: r.h, i })));
      const placed = [];
      packer.bins.forEach((b, page) => {
        for (const r of b.rects) placed.push({ page, x: r.x, y: r.y, w: r.width, h: r.height });
      });
      return { placed, pages: packer.bins.map((b) => ({ w: b.width, h: b.height })) };
    },
  },
  {
    name: 'potpack',
    run(rects) {
      const boxes = rects.map((r) => ({ w: r.w, h: r.h }));
      const { w, h } = potpack(boxes);
      return { placed: boxes.map((b) => ({ page: 0, x: b.x, y: b.y, w: b.w, h: b.h })), pages: [{ w, h }] };
    },
  },
  {
    name: 'free-tex-packer-core (optimal)',
    // Its MaxRects picks the best rectangle for every step (quadratic in the count): capped.
    limit: 1500,
    run(rects) {
      const images = Object.fromEntries(rects.map((r, i) => [`r${String(i).padStart(6, '0')}`, { width: r.w, height: r.h }]));
      let out;
      PackProcessor.pack(images, { packer: OptimalPacker, allowRotation: false, width: 1 << 14, height: 1 << 14 }, (res) => (out = res));
      if (!out) throw new Error('free-tex-packer-core packed nothing');
      const placed = [];
      const pages = [];
      out.forEach((sheet, page) => {
        let w = 0;
        let h = 0;
        for (const r of sheet) {
          placed.push({ page, x: r.frame.x, y: r.frame.y, w: r.frame.w, h: r.frame.h });
          w = Math.max(w, r.frame.x + r.frame.w);
          h = Math.max(h, r.frame.y + r.frame.h);
        }
        pages.push({ w, h });
      });
      return { placed, pages };
    },
  },
];

/** A peer's layout of the set, checked, with the CPU time of that run. */
function checkedRun(p, rects) {
  const t0 = cpuMs();
  const layout = p.run(rects);
  const ms = cpuMs() - t0;
  return { occ: occupancy(p.name, rects, layout.placed, layout.pages), ms };
}

/**
 * Medians of interleaved rounds (the order reversed every other round), each about config.roundMs of calls (the
 * calls per round counted on warm runs, so a round is long enough to pay for its own garbage collection).
 */
function timeRounds(peers, rects) {
  const reps = peers.map((p) => {
    const t0 = cpuMs();
    let k = 0;
    do {
      p.run(rects);
      k++;
    } while (cpuMs() - t0 < Math.min(config.roundMs, 20));
    return Math.max(1, Math.ceil(config.roundMs / ((cpuMs() - t0) / k)));
  });
  const times = peers.map(() => []);
  for (let r = 0; r < config.warmup + config.rounds; r++) {
    const order = peers.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const t0 = cpuMs();
      for (let k = 0; k < reps[i]; k++) peers[i].run(rects);
      if (r >= config.warmup) times[i].push((cpuMs() - t0) / reps[i]);
    }
  }
  return times.map((t) => stats(t).median);
}

/** A peer slower than this (its first, checked run) is timed by that run alone. */
const ONE_RUN_MS = 500;

export async function run() {
  beginSuite('pack');
  const n = config.mode === 'tiny' ? 200 : config.mode === 'quick' ? 2000 : 10000;
  const sets = [
    {
      title: 'Quest Editor sprites: every frame, trimmed, aliases once',
      rects: await spriteSet(filesUnder(path.join(SHARED, 'solarus', 'quest-editor-initial', 'data', 'sprites'), '.dat')),
    },
    { title: 'CTHG corpus: every frame, trimmed, aliases once', rects: await spriteSet(filesUnder(path.join(SHARED, 'cthg'), '.dat')) },
    { title: `corpus interop sheets' frames`, rects: realSet() },
    { title: `${n} random rectangles (4-64 px)`, rects: randomSet(n) },
    { title: `${n / 10} equal rectangles (37x23)`, rects: Array.from({ length: n / 10 }, () => ({ w: 37, h: 23 })) },
  ].filter((s) => s.rects.length > 0);
  for (const set of sets) {
    const peers = PEERS.filter((p) => !p.limit || set.rects.length <= p.limit);
    const first = peers.map((p) => checkedRun(p, set.rects));
    const quick = peers.map((_, i) => i).filter((i) => first[i].ms < ONE_RUN_MS);
    const medians = timeRounds(
      quick.map((i) => peers[i]),
      set.rects,
    );
    const ms = first.map((f, i) => (quick.includes(i) ? medians[quick.indexOf(i)] : f.ms));
    const rows = [];
    for (const p of PEERS) {
      const i = peers.indexOf(p);
      if (i < 0) {
        rows.push([p.name, 'skipped', `(over ${p.limit} rectangles)`, '', '']);
        continue;
      }
      rows.push([
        p.name,
        `${(first[i].occ * 100).toFixed(1)}%`,
        `${ms[i].toFixed(ms[i] < 10 ? 2 : 1)} ms${quick.includes(i) ? '' : ' (1 run)'}`,
        (first[0].occ / first[i].occ).toFixed(3),
        (ms[i] / Math.max(ms[0], 0.001)).toFixed(2),
      ]);
    }
    const best = Math.max(...first.slice(1).map((f) => f.occ));
    const mrp = peers.findIndex((p) => p.name.startsWith('maxrects-packer'));
    log(`\npack: ${set.title} (${set.rects.length})`);
    printTable(['packer', 'occupancy', 'CPU', 'sprat occupancy / its', 'its time / sprat'], rows, '  ');
    log(
      `  goals: occupancy >= the best peer's: ${first[0].occ >= best ? 'met' : 'NOT met'}; ` +
        `time <= maxrects-packer's: ${ms[0] <= ms[mrp] ? 'met' : 'NOT met'} (${(ms[mrp] / Math.max(ms[0], 0.001)).toFixed(2)}x)`,
    );
    record({
      kind: 'pack',
      title: set.title,
      count: set.rects.length,
      head: ['packer', 'occupancy', 'cpu', 'occupancy ratio', 'time ratio'],
      rows,
    });
  }
}
