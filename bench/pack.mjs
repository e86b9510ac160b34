// The atlas packer (src/model/pack.ts packRects, what `sprat pack` and
// packAtlas lay frames out with) against maxrects-packer, potpack and
// free-tex-packer-core's MaxRects (its PackProcessor, every heuristic, as
// its "optimal" packer tries them), on the frame sizes of the corpus's real
// sheets and on random rectangles: occupancy (the rectangles' area over the
// pages' area) and CPU time, printed as sprat / peer ratios. Every layout is
// checked first (every rectangle placed once, inside its page, none
// overlapping); the second of two runs is timed (one run for big sets). No rotation, no padding, one unbounded page (potpack has
// neither bounds nor rotation).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import potpack from 'potpack';
import { MaxRectsPacker } from 'maxrects-packer/dist/maxrects-packer.mjs';
import { beginSuite, config, cpuMs, log, printTable, record } from './lib.mjs';
import { mod } from './sprat.mjs';

const require = createRequire(import.meta.url);
const PackProcessor = require('free-tex-packer-core/PackProcessor.js');
const OptimalPacker = require('free-tex-packer-core/packers/OptimalPacker.js');
const { packRects } = await mod('model/pack');

const CORPUS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'corpus', 'interop');

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

export async function run() {
  beginSuite('pack');
  const n = config.mode === 'tiny' ? 200 : config.mode === 'quick' ? 2000 : 10000;
  const sets = [
    { title: `corpus sheets' frames`, rects: realSet() },
    { title: `${n} random rectangles (4-64 px)`, rects: randomSet(n) },
  ].filter((s) => s.rects.length > 0);
  for (const set of sets) {
    const rows = [];
    let base;
    for (const p of PEERS) {
      if (p.limit && set.rects.length > p.limit) {
        rows.push([p.name, 'skipped', `(over ${p.limit} rectangles)`, '', '']);
        continue;
      }
      // A first run warms the JIT up; the second is timed (big sets: one run, long enough to be warm).
      if (set.rects.length <= 2000) p.run(set.rects);
      const t0 = cpuMs();
      const layout = p.run(set.rects);
      const ms = cpuMs() - t0;
      const occ = occupancy(p.name, set.rects, layout.placed, layout.pages);
      base ??= { occ, ms };
      rows.push([
        p.name,
        `${(occ * 100).toFixed(1)}%`,
        `${ms.toFixed(1)} ms`,
        (base.occ / occ).toFixed(3),
        (ms / Math.max(base.ms, 0.01)).toFixed(2),
      ]);
    }
    log(`\npack: ${set.title} (${set.rects.length})`);
    printTable(['packer', 'occupancy', 'CPU', 'sprat occupancy / its', 'its time / sprat'], rows, '  ');
    record({
      kind: 'pack',
      title: set.title,
      count: set.rects.length,
      head: ['packer', 'occupancy', 'cpu', 'occupancy ratio', 'time ratio'],
      rows,
    });
  }
}
