/**
 * The collection of real maps and sheets from public projects, read where their Debian and
 * npm packages install them: the project keeps no copies (test/fixtures/REAL-FILES.md lists each
 * source, version, path and licence). Every map reads (validate); every orthogonal one renders, and
 * where tmxrasterizer (Debian's tiled 1.8) draws it, sprat draws the same pixels, within the stated
 * tolerance and its reason; isometric, staggered and hexagonal ones say in one line that they are not
 * drawn. The sheets and Aseprite files: test/interop/real-sheets.test.ts. A missing source skips its
 * tests here and fails them in CI.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tiledHandler } from '../../src/interop/tiled/index.js';
import type { RgbaImage } from '../../src/render/image.js';
import { decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { qtUnpremultiplyTolerance } from '../helpers/qt-rcp.js';
import { copyOf, filesUnder, haveSource, type RealSource, SOURCES } from '../helpers/real.js';

const TMXRASTERIZER = '/usr/bin/tmxrasterizer';
const haveRasterizer = fs.existsSync(TMXRASTERIZER);
if (!haveRasterizer && process.env.CI) throw new Error("CI must have Debian's tiled (tmxrasterizer) for the real-file tests");
const ENV = { ...process.env, QT_QPA_PLATFORM: 'offscreen' };

/** What a map of the collection must do, where it is not simply "reads, renders as tmxrasterizer does". */
interface Expect {
  /** Not valid: one error line matching this (and Tiled rejects it too). */
  invalid?: RegExp;
  /** Valid, but names a file its package does not ship: render and check say so in one line matching this. */
  missing?: RegExp;
  /** Compared within this many levels per channel, for the reason given. */
  tolerance?: number;
  /** And this many pixels may differ by more (counted: a regression shows as a higher count), for the reason given. */
  allow?: number;
  why?: string;
  /** Read and rendered, but not compared, for this reason. */
  notCompared?: string;
}

/**
 * Qt draws into premultiplied ARGB32 and rounds each translucent texel's blend its own way (the
 * premultiplication, then the source-over, each to 8 bits); sprat blends straight alpha with exact
 * rounding. Opaque and fully transparent texels match exactly; each translucent one may differ by one
 * level per blend, so a pixel under several translucent layers by a few.
 */
/** Pixels allowed to differ beyond the tolerance in the sticker-knight maps (scaled objects' edges); measured, rounded up. */
const ALLOW = { sandbox: 50_000, sandbox2: 32_500, title: 900 };

const QT_BLEND = 'translucent texels: Qt rounds premultiplied ARGB32 blends its own way (one level per blend)';

/** Qt's nearest sampling of a scaled or flipped image, in 16.16 fixed point, takes the texel before a sample that falls on a texel's edge and repeats the edge texel where that leaves the image; sprat samples the texel under each pixel's centre. */
const QT_SAMPLING =
  "scaled and flipped objects at fractional places: Qt's nearest sampling takes the texel before an edge and repeats the edge texel";

const MAPS: { source: RealSource; match: RegExp; expect: Record<string, Expect> }[] = [
  {
    source: SOURCES.tiled,
    match: /\.(tmx|tmx\.gz)$|^title\.json(\.gz)?$/,
    expect: {
      'sewers.tmx': { tolerance: 1, why: QT_BLEND },
      // Two flipped tile objects (21 and 32) at y = n + 0.5.
      'orthogonal-outside.tmx': { tolerance: 4, allow: 240, why: QT_SAMPLING },
      'sticker-knight/map/sandbox.tmx': { tolerance: 2, allow: ALLOW.sandbox, why: `${QT_BLEND}; ${QT_SAMPLING}` },
      'sticker-knight/map/sandbox2.tmx': { tolerance: 2, allow: ALLOW.sandbox2, why: `${QT_BLEND}; ${QT_SAMPLING}` },
      'sticker-knight/ui/title.json': {
        tolerance: 2,
        allow: ALLOW.title,
        why: `${QT_BLEND}; a layer's opacity 0.49 in 1/256 steps; ${QT_SAMPLING}`,
      },
    },
  },
  {
    source: SOURCES.btanks,
    match: /\.tmx$/,
    expect: {
      // Its tilesets are named "../../../data/tilesets/...": outside the game's data folder.
      'maps/four_rooms.tmx': { missing: /"\.\.\/\.\.\/\.\.\/data\/tilesets\/terrains\.png" not found .*and 8 more/ },
      ...Object.fromEntries(
        [
          'aqua_world',
          'arena',
          'baykonur',
          'curfew',
          'dune',
          'gaddino',
          'hell_swamp',
          'lenin_square',
          'paintball',
          'platform',
          'university',
          'wastes',
        ].map((m) => [`maps/${m}.tmx`, { tolerance: 5, why: QT_BLEND }]),
      ),
    },
  },
  {
    source: SOURCES.tmxParser,
    match: /\.tmx$/,
    expect: {
      // The file closes <map> where <objectgroup> is open: Tiled says "Opening and ending tag mismatch" too.
      'object-properties-csv.tmx': { invalid: /not valid XML: Expected closing tag 'objectgroup'/ },
      'vapor-test.tmx': {
        notCompared:
          'its tileset says tiles.png is 256x256, the shipped one is 64x192: Tiled draws the tiles past the image as red "missing" marks, sprat leaves them empty',
      },
      // The package ships tiles.png and implicit_tiles.png, not the other maps' images.
      'animation.tmx': { missing: /"effect_fire\.png" not found/ },
      'collision.tmx': { missing: /not found/ },
    },
  },
  { source: SOURCES.animatedTiles, match: /\.json$/, expect: {} },
];

/** Files of a source as the tests see them: in the temporary copy for sources shipped gzipped or written beside. */
function mapFiles(s: RealSource, match: RegExp): { dir: string; files: string[] } {
  const dir = s === SOURCES.btanks ? s.dir : copyOf(s);
  return { dir, files: filesUnder(dir, match).filter((f) => !path.basename(f).startsWith('.sprat-')) };
}

function tmxrasterize(dir: string, file: string, out: string): RgbaImage {
  execFileSync(TMXRASTERIZER, ['--no-smoothing', file, out], { cwd: dir, env: ENV, stdio: 'pipe' });
  return decodePng(fs.readFileSync(out));
}

/**
 * Pixels that differ (transparent pixels equal whatever their colour); the first one described. With a
 * tolerance, pixels are compared as Qt holds them, premultiplied (colour × alpha / 255, and alpha), each
 * channel within `tolerance`: a faint pixel's straight colour says little (at alpha 16 one premultiplied
 * level is 16 straight ones).
 */
function differences(a: RgbaImage, b: RgbaImage, tolerance = 0): { count: number; first?: string } {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let count = 0;
  let first: string | undefined;
  for (let i = 0; i < a.data.length; i += 4) {
    const aa = a.data[i + 3]!;
    const ba = b.data[i + 3]!;
    if (aa === 0 && ba === 0) continue;
    let d = Math.abs(aa - ba);
    for (let c = 0; c < 3; c++) {
      const x = a.data[i + c]!;
      const y = b.data[i + c]!;
      d = Math.max(d, tolerance ? Math.abs((x * aa) / 255 - (y * ba) / 255) : Math.abs(x - y));
    }
    if (d > tolerance) {
      count++;
      first ??= `(${(i / 4) % a.width}, ${Math.floor(i / 4 / a.width)}): tiled ${a.data.subarray(i, i + 4).join(',')}, sprat ${b.data.subarray(i, i + 4).join(',')}`;
    }
  }
  return { count, first };
}

const counted = { maps: 0 };

describe('real maps from public projects', () => {
  for (const { source, match, expect: expected } of MAPS) {
    describe.skipIf(!haveSource(source))(`${source.name} (${source.package})`, () => {
      const { dir, files } = haveSource(source) ? mapFiles(source, match) : { dir: '', files: [] };
      counted.maps += files.length;
      it('ships the maps this test expects', () => {
        expect(files.length).toBeGreaterThan(0);
        for (const f of Object.keys(expected)) expect(files, f).toContain(f);
      });
      const only = process.env.SPRAT_REAL_ONLY; // a developer's filter: SPRAT_REAL_ONLY=sandbox
      for (const file of files.filter((f) => !only || f.includes(only))) {
        const e = expected[file] ?? {};
        it(`${file}: reads${e.invalid ? ' (or says in one line why not)' : ', and renders as tmxrasterizer does'}`, async () => {
          const at = path.join(dir, path.dirname(file));
          const name = path.basename(file);
          const v = await runCli(['validate', name], at);
          if (e.invalid) {
            expect(v.code).toBe(1);
            expect(v.stdout + v.stderr).toMatch(e.invalid);
            expect(
              (await runCli(['render', name, '-o', path.join(os.tmpdir(), 'sprat-never.png')], at)).stderr.trim().split('\n'),
            ).toHaveLength(1);
            return;
          }
          expect(v.code, v.stdout + v.stderr).toBe(0);
          if (e.missing) {
            // tmxrasterizer draws a placeholder where a tileset image is missing; sprat draws the rest and names the
            // file in a warning, or stops with --strict.
            const never = path.join(os.tmpdir(), 'sprat-never.png');
            const r = await runCli(['render', name, '-o', path.join(os.tmpdir(), 'sprat-rest.png')], at);
            expect(r.code, r.stderr).toBe(0);
            expect(r.stderr).toMatch(/: warning: .*not found/);
            const strict = await runCli(['render', name, '--strict', '-o', never], at);
            expect(strict.code).toBe(1);
            expect(strict.stderr.trim().split('\n')).toHaveLength(1);
            expect(strict.stderr).toMatch(e.missing);
            const c = await runCli(['check', name], at);
            expect(c.code).toBe(1);
            // check names each missing file on its own line (render's one line ends "and N more")
            expect(c.stdout).toMatch(new RegExp(e.missing.source.replace(/ \.\*and \d+ more$/, '')));
            return;
          }
          const doc = tiledHandler.read(new Uint8Array(fs.readFileSync(path.join(dir, file))));
          const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-real-map-'));
          if (doc.orientation !== 'orthogonal') {
            const r = await runCli(['render', name, '-o', path.join(out, 'x.png')], at);
            expect(r.code).toBe(1);
            const errors = r.stderr.split('\n').filter((l) => l.startsWith('sprat: error:'));
            expect(errors).toHaveLength(1);
            expect(errors[0]).toMatch(/maps are not drawn/);
            return;
          }
          const target = name;
          const r = await runCli(['render', target, '-o', path.join(out, 'sprat.png')], at);
          expect(r.code, r.stderr).toBe(0);
          const sprat = decodePng(fs.readFileSync(path.join(out, 'sprat.png')));
          if (!haveRasterizer || e.notCompared) return;
          const tiled = tmxrasterize(at, target, path.join(out, 'tiled.png'));
          // Shapes are exact where this CPU's RCPSS is the one sprat's Qt port measured (test/helpers/qt-rcp.ts).
          const d = differences(tiled, sprat, e.tolerance ?? qtUnpremultiplyTolerance());
          if (e.allow) expect(d.count, `${e.why}; first: ${d.first}`).toBeLessThanOrEqual(e.allow);
          else expect(d, e.why).toEqual({ count: 0, first: undefined });
        }, 180_000);
      }
    });
  }
});

describe('the collection', () => {
  it.skipIf(!process.env.CI && !Object.values(SOURCES).every((s) => fs.existsSync(s.dir)))(
    'holds at least 40 maps from public projects',
    () => {
      expect(counted.maps).toBeGreaterThanOrEqual(40);
    },
  );
});
