/**
 * Differential tests against CorsixTH's real AnimationEncoder, built from
 * ../shared/tools/cthg-encoder (g++ and libpng-dev) once into os.tmpdir(),
 * keyed by a hash of its sources. The shared test script and generated
 * scripts (random animations, views, flags, alpha, display conditions,
 * recolour layers, sprites of every size, runs over 63 pixels, PNGs written
 * with fast-png) are compiled by both; the bytes must be the same, and a
 * script the encoder refuses sprat refuses too. Each file compiled, and the
 * corpus and sample files, decompile to a script that sprat (by default)
 * and the real encoder compile back to the same bytes.
 *
 * SPRAT_ENCODER_RUNS=N sets the number of generated scripts (default 60; in CI
 * 1,600, about 45 s with the decompile round trip, so that at least 1,000 of them compile to the same bytes:
 * "≥ 1,000 generated ones", checked below).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encode } from 'fast-png';
import { SAMPLES, SHARED } from '../../helpers/paths.js';
import { fsResourceLoader } from '../../../src/node/fs.js';
import { compileScript, decompileFiles, readScript } from '../../../src/formats/cthg/script/index.js';
import { readCthg, writeCthg } from '../../../src/formats/cthg/index.js';

const SRC = path.join(SHARED, 'tools', 'cthg-encoder');
const UNITS = ['ast', 'parser', 'scanner', 'main', 'image', 'storage'];
const RUNS = Number(process.env.SPRAT_ENCODER_RUNS ?? (process.env.CI ? 1600 : 60));

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'pipe' }).status === 0;
}

/** The encoder binary: built once per source hash, cached in the temp folder. */
function buildEncoder(): string | undefined {
  if (!existsSync(SRC) || !which('g++') || !existsSync('/usr/include/png.h')) return undefined;
  const hash = createHash('sha256');
  for (const f of [...UNITS.map((u) => `${u}.cpp`), 'ast.h', 'image.h', 'storage.h', 'scanparse.h', 'tokens.h']) {
    hash.update(f).update(readFileSync(path.join(SRC, f)));
  }
  const dir = path.join(os.tmpdir(), `sprat-cthg-encoder-${hash.digest('hex').slice(0, 16)}`);
  const exe = path.join(dir, 'encoder');
  if (existsSync(exe)) return exe;
  const work = mkdtempSync(path.join(os.tmpdir(), 'sprat-cthg-encoder-build-'));
  try {
    for (const u of UNITS)
      execFileSync('g++', ['-w', '-c', '-o', path.join(work, `${u}.o`), path.join(SRC, `${u}.cpp`)], { stdio: 'pipe' });
    execFileSync('g++', ['-o', path.join(work, 'encoder'), ...UNITS.map((u) => path.join(work, `${u}.o`)), '-lpng'], { stdio: 'pipe' });
    mkdirSync(dir, { recursive: true });
    // Another run may have built it meanwhile: a rename is atomic either way.
    renameSync(path.join(work, 'encoder'), exe);
    return exe;
  } catch {
    return undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let encoder: string | undefined;
const canBuild = existsSync(SRC) && which('g++') && existsSync('/usr/include/png.h');
// CI installs g++ and libpng-dev (.ci/run): there these tests must run, never be skipped.
if (!canBuild && process.env.CI) throw new Error('CI must have g++ and libpng-dev for the AnimationEncoder differential tests');

beforeAll(() => {
  encoder = buildEncoder();
  if (canBuild && !encoder) throw new Error(`building the AnimationEncoder from ${SRC} failed`);
}, 300_000);

function runEncoder(dir: string): Uint8Array | null {
  const r = spawnSync(encoder!, ['anims.txt', 'out.dat'], { cwd: dir, stdio: 'pipe' });
  if (r.status !== 0) {
    if (process.env.DEBUG_ENC) console.log(String(r.stderr).slice(0, 300));
    return null;
  }
  return new Uint8Array(readFileSync(path.join(dir, 'out.dat')));
}

/** Decompiles CTHG bytes into `dir` as anims.txt and its PNGs; returns the script's compile options (its "// sprat: compile" line). */
function decompileInto(dir: string, bytes: Uint8Array): string[] {
  mkdirSync(dir, { recursive: true });
  for (const f of decompileFiles(readCthg(bytes), 'anims.txt')) writeFileSync(path.join(dir, f.name), f.bytes);
  return readScript(new Uint8Array(readFileSync(path.join(dir, 'anims.txt')))).compileLine!.options;
}

async function runSprat(dir: string, options: Record<string, true> = {}): Promise<Uint8Array | null> {
  let doc;
  try {
    doc = readScript(new Uint8Array(readFileSync(path.join(dir, 'anims.txt'))));
  } catch {
    return null;
  }
  try {
    const { doc: cthg } = await compileScript(doc, fsResourceLoader(dir), options);
    return writeCthg(cthg);
  } catch (e) {
    if ((e as Error).name !== 'FormatError') throw e;
    return null;
  }
}

// ---------------------------------------------------------------- generated cases

interface GenImage {
  width: number;
  height: number;
  /** RGBA pixels. */
  data: Uint8Array;
  /** A recolour map (8-bit indexed), the same size. */
  map?: Uint8Array;
}

/** Rows of runs: the same alpha (0, 255, or partial) and colour over 1-130 pixels, so runs pass 63. */
const imageArb: fc.Arbitrary<GenImage> = fc
  .record({
    width: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 140 })),
    height: fc.integer({ min: 1, max: 6 }),
    runs: fc.array(
      fc.record({
        length: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 50, max: 130 })),
        alpha: fc.constantFrom(0, 255, 255, 255, 255, 128, 1, 254),
        colour: fc.constantFrom(
          [0, 0, 0],
          [255, 255, 255],
          [10, 200, 30],
          [0, 0, 9],
          [200, 0, 0],
          [12, 34, 56],
          [90, 90, 90],
          [250, 128, 3],
        ),
        noise: fc.boolean(),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    mapRuns: fc.option(
      fc.array(fc.record({ length: fc.integer({ min: 1, max: 90 }), value: fc.constantFrom(0, 0, 1, 2, 7, 255) }), {
        minLength: 1,
        maxLength: 8,
      }),
    ),
    seed: fc.integer({ min: 1, max: 1 << 30 }),
  })
  .map(({ width, height, runs, mapRuns, seed }) => {
    const n = width * height;
    const data = new Uint8Array(n * 4);
    let s = seed;
    for (let i = 0, r = 0, left = runs[0]!.length; i < n; i++, left--) {
      if (left === 0) {
        r = (r + 1) % runs.length;
        left = runs[r]!.length;
      }
      const run = runs[r]!;
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const jitter = run.noise ? (s >>> 24) & 15 : 0;
      data[i * 4] = (run.colour[0]! + jitter) & 255;
      data[i * 4 + 1] = run.colour[1]!;
      data[i * 4 + 2] = run.colour[2]!;
      data[i * 4 + 3] = run.alpha;
    }
    const img: GenImage = { width, height, data };
    if (mapRuns) {
      const map = new Uint8Array(n);
      for (let i = 0, r = 0, left = mapRuns[0]!.length; i < n; i++, left--) {
        if (left === 0) {
          r = (r + 1) % mapRuns.length;
          left = mapRuns[r]!.length;
        }
        map[i] = mapRuns[r]!.value;
      }
      img.map = map;
    }
    return img;
  });

const elementArb = (images: GenImage[]) =>
  fc.integer({ min: 0, max: images.length - 1 }).chain((ii) => {
    const img = images[ii]!;
    return fc.record({
      image: fc.constant(ii),
      rect: fc.option(
        fc
          .record({ left: fc.integer({ min: 0, max: img.width - 1 }), top: fc.integer({ min: 0, max: img.height - 1 }) })
          .chain(({ left, top }) =>
            fc.record({
              left: fc.constant(left),
              top: fc.constant(top),
              width: fc.option(fc.integer({ min: 1, max: img.width - left })),
              height: fc.option(fc.integer({ min: 1, max: img.height - top })),
            }),
          ),
      ),
      x: fc.option(fc.integer({ min: -200, max: 200 })),
      y: fc.option(fc.integer({ min: -200, max: 200 })),
      alpha: fc.option(fc.constantFrom(50, 75, 100)),
      horFlip: fc.boolean(),
      vertFlip: fc.boolean(),
      recolour: fc.boolean(),
      layer: fc.option(fc.record({ from: fc.integer({ min: 0, max: 255 }), to: fc.integer({ min: 0, max: 255 }) })),
      display: fc.option(fc.record({ c: fc.integer({ min: 0, max: 12 }), v: fc.integer({ min: 0, max: 255 }) })),
    });
  });

const NAMES = ['walker', 'a', 'B', 'plant_dead', 'zz', 'caf\u00e9', 'a b'];
const VIEW_NAMES = ['north', 'east', 'south', 'west'] as const;

const caseArb = fc.array(imageArb, { minLength: 1, maxLength: 4 }).chain((images) =>
  fc.record({
    images: fc.constant(images),
    groups: fc.array(
      fc.record({
        name: fc.constantFrom(...NAMES),
        views: fc.subarray([...VIEW_NAMES], { minLength: 1 }),
        frames: fc.integer({ min: 1, max: 2 }),
        tileSize: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    elements: fc.array(fc.array(elementArb(images), { minLength: 1, maxLength: 3 }), { minLength: 48, maxLength: 48 }),
    sounds: fc.array(fc.option(fc.integer({ min: 0, max: 30 })), { minLength: 48, maxLength: 48 }),
  }),
);

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function writeCase(dir: string, c: Case): void {
  c.images.forEach((img, i) => {
    writeFileSync(path.join(dir, `img${i}.png`), encode({ width: img.width, height: img.height, data: img.data, channels: 4, depth: 8 }));
    if (img.map) {
      const palette = Array.from({ length: 256 }, (_, k) => [k, 255 - k, (k * 7) & 255] as [number, number, number]);
      writeFileSync(
        path.join(dir, `map${i}.png`),
        encode({ width: img.width, height: img.height, data: img.map, channels: 1, depth: 8, palette }),
      );
    }
  });
  const lines: string[] = ['// generated'];
  let k = 0;
  const seen = new Set<string>();
  for (const g of c.groups) {
    if (seen.has(g.name)) continue; // one group per name: the views of a name share a frame count
    seen.add(g.name);
    for (const v of g.views) {
      lines.push(`animation "${g.name}" {`);
      if (g.tileSize) lines.push('  tile_size = 64;');
      lines.push(`  view = ${v};`);
      for (let f = 0; f < g.frames; f++, k++) {
        lines.push('  frame {');
        const sound = c.sounds[k % 48];
        if (sound !== null && sound !== undefined) lines.push(`    sound = ${sound};`);
        for (const e of c.elements[k % 48]!) {
          const img = c.images[e.image]!;
          const parts = [`base = "img${e.image}.png";`];
          if (e.rect) {
            parts.push(`left = ${e.rect.left};`, `top = ${e.rect.top};`);
            if (e.rect.width !== null) parts.push(`width = ${e.rect.width};`);
            if (e.rect.height !== null) parts.push(`height = ${e.rect.height};`);
          }
          if (e.x !== null) parts.push(`x_offset = ${e.x};`);
          if (e.y !== null) parts.push(`y_offset = ${e.y};`);
          if (e.alpha !== null) parts.push(`alpha = ${e.alpha};`);
          if (e.recolour && img.map) {
            parts.push(`recolour = "map${e.image}.png";`);
            if (e.layer) parts.push(`layer ${e.layer.from} = ${e.layer.to};`);
          }
          if (e.display) parts.push(`diplay_if ${e.display.c} = ${e.display.v};`);
          if (e.horFlip) parts.push('hor_flip');
          if (e.vertFlip) parts.push('vert_flip');
          lines.push(`    element { ${parts.join(' ')} }`);
        }
        lines.push('  }');
      }
      lines.push('}');
    }
  }
  writeFileSync(path.join(dir, 'anims.txt'), `${lines.join('\n')}\n`);
}

describe.skipIf(!canBuild)('against the real AnimationEncoder', () => {
  it('the shared test script: the encoder still writes gen_anims.dat, and so does sprat', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-encoder-'));
    try {
      const test = path.join(SHARED, 'corpus', 'cthg', 'encoder-test');
      for (const f of ['anims.txt', 'agahnim_f0.png', 'agahnim_f1.png', 'body.png', 'head_a.png', 'head_b.png', 'recol.png']) {
        writeFileSync(path.join(dir, f), readFileSync(path.join(test, f)));
      }
      const expected = new Uint8Array(readFileSync(path.join(test, 'gen_anims.dat')));
      expect(runEncoder(dir)).toEqual(expected);
      expect(await runSprat(dir)).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('decompiled scripts: the real encoder reads the "// sprat: compile" line as a comment (the file again, or what sprat writes with --ignore-header)', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sprat-encoder-decompiled-'));
    try {
      for (const file of [
        path.join(SHARED, 'corpus', 'cthg', 'plant_anim.dat'),
        path.join(SHARED, 'corpus', 'cthg', 'encoder-test', 'gen_anims.dat'),
        path.join(SAMPLES, 'cthg', 'fan.dat'),
      ]) {
        const dir = path.join(root, path.basename(file));
        const bytes = new Uint8Array(readFileSync(file));
        const options = decompileInto(dir, bytes);
        expect(readFileSync(path.join(dir, 'anims.txt'), 'utf8').split('\n')[1]).toBe(
          ['// sprat: compile', ...options.map((o) => `--${o}`)].join(' '),
        );
        const theirs = runEncoder(dir);
        expect(theirs, file).not.toBeNull();
        // sprat: the file's bytes by default; as the real encoder without the line's options.
        expect(await runSprat(dir)).toEqual(bytes);
        expect(theirs).toEqual(await runSprat(dir, { 'ignore-header': true }));
        if (options.length === 0) expect(theirs).toEqual(bytes);
        else expect(theirs).not.toEqual(bytes);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a run of one recolour table cut where two map values meet (`layer 1 = 2;`): the decompiled script cuts it there too', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sprat-encoder-cut-'));
    try {
      // 133x1: two opaque green pixels, five grey at alpha 254, repeated; map 1 (as table 2), then 2, then 7.
      const width = 133;
      const data = new Uint8Array(width * 4);
      for (let i = 0; i < width; i++) data.set(i % 7 < 2 ? [10, 200, 30, 255] : [90, 90, 90, 254], i * 4);
      const map = Uint8Array.from({ length: width }, (_, i) => (i < 88 ? 1 : i < 117 ? 2 : 7));
      const palette = Array.from({ length: 256 }, (_, k) => [k, k, k] as [number, number, number]);
      writeFileSync(path.join(root, 'img.png'), encode({ width, height: 1, data, channels: 4, depth: 8 }));
      writeFileSync(path.join(root, 'map.png'), encode({ width, height: 1, data: map, channels: 1, depth: 8, palette }));
      writeFileSync(
        path.join(root, 'anims.txt'),
        'animation "a" {\n  view = north;\n  frame { element { base = "img.png"; recolour = "map.png"; layer 1 = 2; } }\n}\n',
      );
      const theirs = runEncoder(root)!;
      expect(await runSprat(root)).toEqual(theirs);
      const again = path.join(root, 'decompiled');
      decompileInto(again, theirs);
      expect(readFileSync(path.join(again, 'anims.txt'), 'utf8')).toMatch(/layer \d+ = 2;/);
      expect(await runSprat(again)).toEqual(theirs);
      expect(runEncoder(again)).toEqual(theirs);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it(`generated scripts (${RUNS} runs): the same bytes, or both refuse`, async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sprat-encoder-gen-'));
    let n = 0;
    let compiled = 0;
    try {
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const dir = path.join(root, String(n++));
          mkdirSync(dir);
          writeCase(dir, c);
          const theirs = runEncoder(dir);
          const ours = await runSprat(dir);
          if (theirs) compiled++;
          expect(ours === null ? null : Buffer.from(ours).toString('hex')).toEqual(
            theirs === null ? null : Buffer.from(theirs).toString('hex'),
          );
          if (ours) {
            // Decompiled, the file compiles back to its bytes: by sprat with no option (every file), and by the
            // real encoder (every eighth compiled file: each run of the encoder is a process, and the suite's time).
            const again = path.join(dir, 'decompiled');
            expect(decompileInto(again, ours)).toEqual([]);
            expect(Buffer.from((await runSprat(again))!).toString('hex')).toBe(Buffer.from(ours).toString('hex'));
            if (compiled % 8 === 1) expect(Buffer.from(runEncoder(again)!).toString('hex')).toBe(Buffer.from(ours).toString('hex'));
          }
          rmSync(dir, { recursive: true, force: true });
        }),
        { numRuns: RUNS },
      );
      // Most generated scripts compile (the rest test the refusals: an area the encoder finds empty).
      if (process.env.SPRAT_ENCODER_RUNS || process.env.CI)
        console.log(`${compiled} of ${RUNS} generated scripts compiled, the rest refused by both`);
      expect(compiled).toBeGreaterThan(RUNS / 3);
      if (RUNS >= 1600) expect(compiled).toBeGreaterThanOrEqual(1000);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 600_000);
});
