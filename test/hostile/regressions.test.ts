/**
 * Issue 10's crashes and hangs after reading, one test each (in-process;
 * the full-size files run in child processes in sweep.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { limitError } from '../helpers/errors.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';
import { bigSpriteTile } from './cases.js';
import { stringifyJson, stringifyJsonChunks } from '../../src/binary/json-chunks.js';
import { Budget, LimitError, LIMIT_SPECS, limitsFrom } from '../../src/binary/limits.js';
import { commonCanvas, encodeApng } from '../../src/render/apng.js';
import { drawPicture, MIN_DRAW_CHARGE } from '../../src/render/pipeline.js';
import { translate } from '../../src/render/matrix.js';
import { unzlibSync } from 'fflate';
import { encodeGif } from '../../src/render/gif.js';
import { createImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import { timelineText, type IspritePlayRecord } from '../../src/formats/isprite/play-cli.js';
import { createIsprite, writeIsprite } from '../../src/formats/isprite/index.js';

let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-hostile-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function put(name: string, data: string | Uint8Array): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, data);
  return p;
}

const TILED_HEAD = {
  type: 'map',
  version: '1.10',
  tiledversion: '1.10.2',
  orientation: 'orthogonal',
  renderorder: 'right-down',
  infinite: false,
  width: 4,
  height: 3,
  tilewidth: 8,
  tileheight: 8,
};
const layer = (width: number, height: number, data: number[]) => ({
  type: 'tilelayer',
  id: 1,
  name: 'l',
  width,
  height,
  x: 0,
  y: 0,
  opacity: 1,
  visible: true,
  data,
});

describe('crashes after reading', () => {
  it('a 41-byte Solarus sheet with nb_frames 10^9 converts to a one-line error naming --max-items, not a heap abort', async () => {
    put('x.png', encodePng(createImage(1, 1)));
    const f = put('big.dat', 'a x.png 1 100 0\n0\t0\t1\t1\t0\t0\t1000000000\t1\n');
    for (const to of ['aseprite', 'isprite', 'texturepacker']) {
      const r = await runCli(['convert', f, path.join(dir, `out-${to}`), '--to', to]);
      limitError(r, 'max-items');
      expect(r.stderr).toContain('the 1000000000 frames of animation "a" direction 0 would need');
    }
    // line -> Lua converts field by field (FormatHandler.convertTo): no frame is made, nb_frames is kept
    const lua = await runCli(['convert', f, path.join(dir, 'out-lua.dat'), '--to', 'solarus-lua']);
    expect(lua.stderr).toBe('');
    expect(lua.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out-lua.dat'), 'utf8')).toContain('1000000000');
    // within the budget it converts; a smaller budget refuses
    const ok = put('ok.dat', 'a x.png 1 100 0\n0\t0\t1\t1\t0\t0\t1000\t1\n');
    expect((await runCli(['convert', ok, path.join(dir, 'ok.json'), '--to', 'aseprite'])).code).toBe(0);
    limitError(await runCli(['convert', ok, path.join(dir, 'ok2.json'), '--to', 'aseprite', '--max-items', '999']), 'max-items');
  });

  it('6 x 10^7 Solarus frames of 1x1 (under the pixel limit) are not drawn one by one as an animation', async () => {
    put('x.png', encodePng(createImage(1, 1)));
    const f = put('tiny.dat', 'a x.png 1 10 0\n0\t0\t1\t1\t0\t0\t60000000\t1\n');
    limitError(await runCli(['render', f, '-o', path.join(dir, 'tiny.gif')]), 'max-items');
    expect((await runCli(['render', f, '--frame', '5', '-o', path.join(dir, 'one.png')])).code).toBe(0);
  });

  it('a SpriteTile level of millions of cells (a big level that compresses well): inspect --json and convert to Tiled are one-line errors', async () => {
    const f = put('big.bytes', bigSpriteTile(6_000_000, 3000));
    expect(fs.statSync(f).size).toBeLessThan(600_000);
    const j = await runCli(['inspect', f, '--json']);
    limitError(j, 'max-json-bytes');
    expect(j.stdout).toBe('');
    limitError(await runCli(['convert', f, path.join(dir, 'big.tmj'), '--to', 'tiled']), 'max-items');
    expect(fs.existsSync(path.join(dir, 'big.tmj'))).toBe(false);
    // the summary and validation still work
    expect((await runCli(['inspect', f])).code).toBe(0);
    expect((await runCli(['validate', f])).code).toBe(0);
  });

  it('a level within the budgets prints and converts; --max-json-bytes and --max-items refuse it when set lower', async () => {
    const f = put('small.bytes', bigSpriteTile(40_000, 200));
    const j = await runCli(['inspect', f, '--json']);
    expect(j.code).toBe(0);
    expect((JSON.parse(j.stdout) as { layers: { cells: { tile: number[] } }[] }).layers[0]!.cells.tile).toHaveLength(40_000);
    limitError(await runCli(['inspect', f, '--json', '--max-json-bytes', '100000']), 'max-json-bytes');
    expect((await runCli(['convert', f, path.join(dir, 'small.tmj'), '--to', 'tiled'])).code).toBe(0);
    limitError(await runCli(['convert', f, path.join(dir, 'small2.tmj'), '--to', 'tiled', '--max-items', '39999']), 'max-items');
  });

  it('play of a looping long trigger stops at --max-json-bytes with one line (it grew to 4.2 GB), with and without --json', async () => {
    const doc = createIsprite(30);
    doc.frames.push({ holdTime: 1, loopPoint: false, label: '', triggers: 't'.repeat(65_000), notes: '', elements: [] });
    doc.tree.push({ kind: 'sequence', name: 'loop', loopPoint: 0, followUp: '', frames: [0] });
    const f = put('loop.isprite', writeIsprite(doc));
    for (const json of [['--json'], []]) {
      const r = await runCli(['play', f, '--ticks', '100000', '--script', '0:play loop', '--max-json-bytes', '5000000', ...json]);
      limitError(r, 'max-json-bytes');
      expect(r.stdout).toBe('');
    }
    const small = await runCli(['play', f, '--ticks', '10', '--script', '0:play loop', '--json']);
    expect(small.code).toBe(0);
    expect(JSON.parse(small.stdout)).toHaveLength(10);
  });

  it('play hero.isprite --ticks 1000000 runs (the timeline spread a million rows: Maximum call stack size exceeded)', async () => {
    const hero = path.join(SAMPLES, 'isprite', 'hero.isprite');
    const r = await runCli(['play', hero, '--ticks', '1000000']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/same for \d+ more ticks/);
    const rows: IspritePlayRecord[] = Array.from({ length: 300_000 }, (_, t) => ({
      tick: t,
      sequence: 'a',
      position: t,
      frame: 0,
      triggers: [],
      stopped: false,
    }));
    expect(timelineText(rows).split('\n').length).toBe(300_002);
    limitError(await runCli(['play', hero, '--ticks', '1000001', '--json']), 'max-records');
  });

  it('GIF and APNG canvases of more than 150,000 frames (spreading them overflowed the call stack)', () => {
    const frames = Array.from({ length: 160_000 }, (_, i) => createImage(1 + (i % 3), 1));
    expect(commonCanvas(frames)).toMatchObject({ width: 3, height: 1 });
    const gif = encodeGif(
      frames.slice(0, 160_000).map(() => createImage(1, 1)),
      [],
    );
    expect(gif.length).toBeGreaterThan(160_000);
  }, 60_000);

  it('an APNG of many tiny frames stores them (fflate set up ~170 KB per zlib stream: 200,000 frames took 15 s); every frame still inflates', () => {
    const frames = Array.from({ length: 5000 }, (_, i) => {
      const f = createImage(2, 2);
      f.data.set([i & 255, 0, 0, 255]);
      return f;
    });
    const t0 = process.cpuUsage();
    const apng = encodeApng(
      frames,
      frames.map(() => 10),
    );
    const us = process.cpuUsage(t0);
    expect((us.user + us.system) / 1e6).toBeLessThan(3);
    const streams: Uint8Array[] = [];
    for (let o = 8; o < apng.length; ) {
      const len = new DataView(apng.buffer, apng.byteOffset + o).getUint32(0);
      const type = String.fromCharCode(apng[o + 4]!, apng[o + 5]!, apng[o + 6]!, apng[o + 7]!);
      if (type === 'IDAT') streams.push(apng.subarray(o + 8, o + 8 + len));
      if (type === 'fdAT') streams.push(apng.subarray(o + 12, o + 8 + len));
      o += 12 + len;
    }
    expect(streams).toHaveLength(5000);
    for (const z of streams) expect(unzlibSync(z)).toHaveLength(2 * (1 + 2 * 4)); // RGBA (5,000 colours): 2 rows of a filter byte and 2 pixels
  }, 30_000);
});

describe('the draw budget counts draws, not only pixels', () => {
  it('a level of 12 million one-pixel cells is refused at once (each draw costs at least MIN_DRAW_CHARGE), a 1,000 x 1,000 level still renders', async () => {
    const big = put('cells.bytes', bigSpriteTile(12_000_000, 4000));
    // Refused from the count of draws before any is made (no wall-clock assertion: the machine's load would decide it).
    limitError(await runCli(['render', big, '-o', path.join(dir, 'cells.png')]), 'max-draw-pixels');
    expect(fs.existsSync(path.join(dir, 'cells.png'))).toBe(false);
    expect(MIN_DRAW_CHARGE).toBe(1024);
    // few small draws within a small budget; more than it allows is refused before drawing
    const img = createImage(1, 1);
    const parts = Array.from({ length: 10 }, (_, i) => ({ image: img, transform: translate(i, 0) }));
    const canvas = { x: 0, y: 0, width: 10, height: 1 };
    expect(
      drawPicture({ frames: [{ parts }], canvas }, new Budget(limitsFrom({ 'max-draw-pixels': String(10 * MIN_DRAW_CHARGE) }))).frames,
    ).toHaveLength(1);
    expect(() =>
      drawPicture({ frames: [{ parts }], canvas }, new Budget(limitsFrom({ 'max-draw-pixels': String(10 * MIN_DRAW_CHARGE - 1) }))),
    ).toThrow(/--max-draw-pixels/);
  }, 60_000);
});

describe('hangs', () => {
  it('a Tiled layer of width 0 x height 10^15 converts to SpriteTile and renders without walking its rows', async () => {
    const f = put('tall.tmj', JSON.stringify({ ...TILED_HEAD, layers: [layer(0, 1e15, [])], tilesets: [] }));
    const c = await runCli(['convert', f, path.join(dir, 'tall.bytes'), '--to', 'spritetile']);
    // (a writer that checks its field ranges refuses the height: then one line, exit 1)
    expect([0, 1]).toContain(c.code);
    if (c.code === 1) expect(c.stderr).toMatch(/^sprat: error: [^\n]+\n$/);
    const r = await runCli(['render', f, '-o', path.join(dir, 'tall.png')]);
    expect(r.code).toBe(1);
    // (the reader now refuses a height past 2^31-1 with a located error)
    expect(r.stderr).toMatch(/^sprat: error: [^\n]*tall\.tmj: [^\n]*(pixel|height)[^\n]*\n$/);
    expect(r.stderr).not.toMatch(/internal error|too large to make/);
    // the tallest layer the reader takes: 0 x (2^31-1) converts (or fails) at once, and renders at once
    // (as Tiled draws it: the picture is the 4 x 3 map, the layer holds no cell)
    const g = put('tall2.tmj', JSON.stringify({ ...TILED_HEAD, layers: [layer(0, 2 ** 31 - 1, [])], tilesets: [] }));
    const c2 = await runCli(['convert', g, path.join(dir, 'tall2.bytes'), '--to', 'spritetile']);
    expect([0, 1]).toContain(c2.code);
    const r2 = await runCli(['render', g, '-o', path.join(dir, 'tall2.png')]);
    expect(r2.code, r2.stderr).toBe(0);
    const tall = await runCli([
      'render',
      put('tall3.tmj', JSON.stringify({ ...TILED_HEAD, height: 2 ** 31 - 1, layers: [], tilesets: [] })),
      '-o',
      path.join(dir, 'tall3.png'),
    ]);
    expect(tall.stderr).toMatch(/^sprat: error: [^\n]*tall3\.tmj: [^\n]*pixel[^\n]*--max-pixels\)\n$/);
  }, 10_000);

  it('Tiled tilesets with tilecount 2^27 and margin/spacing render at once (the cut looped over every declared tile)', async () => {
    put('t.png', encodePng(createImage(8, 8)));
    const ts = (firstgid: number, tilecount: number, columns: number) => ({
      firstgid,
      name: `s${firstgid}`,
      image: 't.png',
      imagewidth: 8,
      imageheight: 8,
      tilewidth: 1,
      tileheight: 1,
      margin: 1,
      spacing: 1,
      tilecount,
      columns,
    });
    const f = put(
      'sets.tmj',
      JSON.stringify({
        ...TILED_HEAD,
        layers: [layer(4, 3, [1, 2, 3, 4, 5, 6, 1 << 26, 3, 2, 1, 2, 2 ** 27 + 2])],
        tilesets: [ts(1, 2 ** 27, 0), ts(2 ** 27 + 1, 2 ** 27 - 1, 16384)],
      }),
    );
    const r = await runCli(['render', f, '-o', path.join(dir, 'sets.png')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // the honest tileset of the samples still cuts as before
    const d = await runCli(['render', path.join(SAMPLES, 'interop', 'dungeon.tmj'), '-o', path.join(dir, 'dungeon.png')]);
    expect(d.code).toBe(0);
  }, 10_000);
});

describe('the JSON writer within --max-json-bytes', () => {
  it('stops with the LimitError as soon as the text passes the limit, and prints the same text below it', () => {
    const v = { a: Array.from({ length: 1000 }, (_, i) => ({ i, s: 'x'.repeat(i % 7) })) };
    const text = JSON.stringify(v, null, 2);
    expect(stringifyJson(v, 2, { maxJsonBytes: text.length })).toBe(text);
    expect(() => stringifyJson(v, 2, { maxJsonBytes: text.length - 1 })).toThrow(LimitError);
    expect(() => stringifyJson(v, 2, { maxJsonBytes: text.length - 1 })).toThrow(/raise it with --max-json-bytes/);
    const chunks = stringifyJsonChunks(v, 2)!;
    expect(chunks.join('')).toBe(text);
  });

  it('walks a big array lazily: a 5-million-entry array past the limit fails fast and small', () => {
    const big = new Array(5_000_000).fill(7);
    const t0 = process.cpuUsage();
    expect(() => stringifyJson({ big }, 2, { maxJsonBytes: 1_000_000 })).toThrow(LimitError);
    const us = process.cpuUsage(t0);
    expect((us.user + us.system) / 1e6).toBeLessThan(2);
  });

  it('--max-items is a budget of src/binary/limits.ts like the others', () => {
    expect(LIMIT_SPECS.find((s) => s.key === 'maxItems')).toMatchObject({ option: 'max-items', default: 1 << 18 });
  });
});

describe('no spreading of possibly large arrays into calls', () => {
  it('src/ has no push(...x), Math.max(...x), Math.min(...x) or fn(...x) over arrays', () => {
    const offenders: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts')) {
          fs.readFileSync(p, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (/^\s*(\/\/|\*)/.test(line)) return;
              if (/(\.push|\.unshift|Math\.max|Math\.min|String\.fromCharCode)\((?:[^(){}]*,\s*)?\.\.\./.test(line))
                offenders.push(`${path.relative(ROOT, p)}:${i + 1}: ${line.trim()}`);
            });
        }
      }
    };
    walk(path.join(ROOT, 'src'));
    // Fixed-size spreads are fine: the four bytes of a PNG chunk type, a command-line's arguments.
    const allowed = [
      /Math\.max\(h\.length, \.\.\.rows\.map/,
      /String\.fromCharCode\(\.\.\.bytes\.subarray\(12, 16\)\)/,
      /positionals\.push\(\.\.\.argv\.slice/,
      /Math\.max\(\.\.\.COMMANDS/,
      /Math\.max\(0, \.\.\.rows\.map/,
      /Math\.max\(\.\.\.rows\.map\(\(r\) => r\[c\]/,
      /Math\.(min|max)\(\.\.\.(xs|ys)\)/,
    ];
    expect(offenders.filter((o) => !allowed.some((a) => a.test(o)))).toEqual([]);
  });
});
