/**
 * The Kaitai Struct specs in docs/kaitai/ against sprat: every .ksy is
 * compiled with the real compiler (npm `kaitai-struct-compiler`, JavaScript
 * target), the generated parser is evaluated with the `kaitai-struct`
 * runtime, and its parse of every sample and corpus file (Hallgeir ones also
 * rewritten in the other byte order and with the length-prefixed identifier;
 * SpriteTile levels decompressed by sprat's LZF first, as Kaitai has no LZF)
 * must give the same values as `sprat inspect --json` for every field both
 * expose; CTHG pixel runs, expanded here, must give sprat's decoded pixels. The
 * .ksy files are read with the small YAML-subset reader in ../helpers/ksy-yaml.ts
 * (no YAML package is installed).
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { runCli } from '../helpers/cli.js';
import { CORPUS, ROOT, SAMPLES, SHARED } from '../helpers/paths.js';
import { createIsprite, readIsprite, writeIsprite, type IspriteDocument } from '../../src/formats/isprite/index.js';
import { readHallgeir, writeHallgeir, type HallgeirKind } from '../../src/formats/hallgeir/index.js';
import { decodePixels, readCthg, writeCthg, type CthgDocument } from '../../src/formats/cthg/index.js';
import { readSpriteTile, writeSpriteTile } from '../../src/formats/spritetile/index.js';
import { compress, decompress } from '../../src/lzf/index.js';
import { parseKsyYaml } from '../helpers/ksy-yaml.js';

const KSY_DIR = path.join(ROOT, 'docs', 'kaitai');

interface KsCompiler {
  compile(lang: string, ksy: unknown, importer: unknown, debug: boolean): Promise<Record<string, string>>;
}
const require = createRequire(import.meta.url);
const compiler = require('kaitai-struct-compiler') as KsCompiler;
/** The runtime the generated parsers import (loaded untyped: its .d.ts augments global types). */
type KaitaiStream = object;
const KaitaiStream = (require('kaitai-struct') as { KaitaiStream: new (buffer: ArrayBuffer) => KaitaiStream }).KaitaiStream;

/** Generated parsers are untyped. */
type Ks = any;
type Parser = new (io: KaitaiStream) => Ks;

const compiled = new Map<string, Promise<Parser>>();

/** Compiles one .ksy (once) and evaluates the generated UMD module (CommonJS branch) with the runtime. */
function compileKsy(file: string): Promise<Parser> {
  let p = compiled.get(file);
  if (!p) compiled.set(file, (p = compileUncached(file)));
  return p;
}

async function compileUncached(file: string): Promise<Parser> {
  const ksy = parseKsyYaml(fs.readFileSync(path.join(KSY_DIR, file), 'utf8')) as { meta: { id: string } };
  const files = await compiler.compile('javascript', ksy, null, false);
  const exports: Record<string, unknown> = {};
  const req = (name: string) => {
    if (name === 'kaitai-struct/KaitaiStream') return KaitaiStream;
    throw new Error(`${file}: unexpected import ${name}`);
  };
  for (const source of Object.values(files)) new Function('exports', 'require', source)(exports, req);
  const className = ksy.meta.id.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
  const parser = exports[className];
  if (typeof parser !== 'function') throw new Error(`${file}: no ${className} in ${Object.keys(files).join(', ')}`);
  return parser as Parser;
}

function parse(parser: Parser, bytes: Uint8Array): Ks {
  return new parser(new KaitaiStream(new Uint8Array(bytes).buffer));
}

async function inspect(file: string): Promise<Record<string, unknown>> {
  const r = await runCli(['inspect', '--json', file]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

// ------------------------------------------------------------- ISPRITE

const NO_NAME = 0xffff;
const NO_LOOP = 0xffffffff;

function dateOf(t: Ks): unknown {
  if (t.isUnknown) return null;
  return { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second, centisecond: t.centisecond };
}

function elementOf(e: Ks): unknown {
  const name = e.name === NO_NAME ? null : e.name;
  const b = e.body;
  switch (e.marker) {
    case 0x67:
    case 0x47: {
      const base = {
        type: 'graphic',
        expanded: e.marker === 0x47,
        name,
        slice: b.slice,
        x: b.position.x.value,
        y: b.position.y.value,
        flipX: (b.mirror & 1) !== 0,
        flipY: (b.mirror & 2) !== 0,
      };
      if (e.marker === 0x67) return base;
      return {
        ...base,
        originX: b.origin.x.value,
        originY: b.origin.y.value,
        rotation: b.rotation.value,
        scaleX: b.scaleX.value,
        scaleY: b.scaleY.value,
        opacity: b.opacity,
      };
    }
    case 0x41:
      return {
        type: 'attachment',
        name,
        id: b.id,
        x: b.position.x.value,
        y: b.position.y.value,
        flipX: (b.mirror & 1) !== 0,
        flipY: (b.mirror & 2) !== 0,
        rotation: b.rotation.value,
        scaleX: b.scaleX.value,
        scaleY: b.scaleY.value,
        opacity: b.opacity,
      };
    case 0x43: {
      const at = { name, id: b.id, x: b.position.x.value, y: b.position.y.value };
      const s = b.shapeFields;
      if (b.shape === 0x72) return { type: 'rect', ...at, width: s.width.value, height: s.height.value, rotation: s.rotation.value };
      if (b.shape === 0x63) return { type: 'circle', ...at, radius: s.radius.value };
      throw new Error(`collision shape ${b.shape}`);
    }
    default:
      return { type: 'unknown', marker: e.marker, name, size: e.size };
  }
}

/** TIER's flat markers as sprat's tree: "G" opens a group, "C" closes the latest one. */
function treeOf(entries: Ks[]): unknown[] {
  const root: unknown[] = [];
  const stack: unknown[][] = [root];
  for (const t of entries) {
    const out = stack[stack.length - 1]!;
    if (t.marker === 0x47) {
      const children: unknown[] = [];
      out.push({ group: t.body.name.value, children });
      stack.push(children);
    } else if (t.marker === 0x53) {
      const s = t.body;
      out.push({
        sequence: s.name.value,
        loopPoint: s.loopPoint === NO_LOOP ? null : s.loopPoint,
        followUp: s.followUp.value,
        frames: [...s.frames],
      });
    } else if (t.marker === 0x43) stack.pop();
    else throw new Error(`TIER marker ${t.marker}`);
  }
  return root;
}

/** The Kaitai parse in the shape of `inspect --json` (every field the spec exposes). */
function ispriteAsInspect(k: Ks): unknown {
  const h = k.header;
  const chunk = (id: string) => (k.chunks as Ks[]).find((c) => c.id === id)?.body;
  const meta = chunk('META');
  const extra = chunk('MET+');
  const known = new Set(['META', 'MET+', 'TEX ', 'SLIC', 'NAME', 'TIER', 'FRAM']);
  return {
    format: 'isprite',
    version: [h.major, h.minor],
    nonStandard: h.nonStandard,
    workFile: h.workFile,
    nonStandardId: (h.nonStandardId as string).replace(/\0+$/, ''),
    frameRate: h.frameRate,
    meta: meta
      ? {
          created: dateOf(meta.created),
          saved: dateOf(meta.saved),
          workTimeMs: meta.workTimeMs,
          tags: meta.tags.value,
          title: meta.title.value,
          project: meta.project.value,
          author: meta.author.value,
          company: meta.company.value,
          contact: meta.contact.value,
          url: meta.url.value,
          copyright: meta.copyright.value,
          comments: meta.comments.value,
          originatingProgram: meta.originatingProgram.value,
          program: meta.program.value,
        }
      : null,
    extraMeta: extra ? (extra.entries as Ks[]).map((e) => [e.name.value, e.value.value]) : null,
    textures: ((chunk('TEX ')?.textures ?? []) as Ks[]).map((t) => ({ path: t.path.value, nearest: t.record.nearest })),
    slices: ((chunk('SLIC')?.slices ?? []) as Ks[]).map((s) => ({
      texture: s.texture,
      rotated: s.rotated,
      x: s.x,
      y: s.y,
      width: s.width,
      height: s.height,
    })),
    names: ((chunk('NAME')?.names ?? []) as Ks[]).map((n) => n.value),
    tree: treeOf(chunk('TIER')?.entries ?? []),
    frames: ((chunk('FRAM')?.frames ?? []) as Ks[]).map(({ body: f }) => ({
      holdTime: f.holdTime,
      loopPoint: f.loopPoint,
      label: f.label.value,
      triggers: f.triggers.value,
      notes: f.notes.value,
      elements: (f.elements as Ks[]).map(elementOf),
    })),
    unknownChunks: (k.chunks as Ks[]).filter((c) => !known.has(c.id)).map((c) => ({ id: c.id, size: c.size })),
  };
}

// ------------------------------------------------------------- Hallgeir

const HALLGEIR: Record<string, { kind: HallgeirKind; ksy: string }> = {
  '.spr': { kind: 'sprite', ksy: 'hallgeir_spr.ksy' },
  '.obj': { kind: 'object', ksy: 'hallgeir_obj.ksy' },
  '.map': { kind: 'map', ksy: 'hallgeir_map.ksy' },
};

function hallgeirAsInspect(kind: HallgeirKind, k: Ks): unknown {
  const littleEndian = k.order === 1;
  if (kind === 'sprite') {
    const s = k.sprite;
    return {
      format: 'hallgeir-sprite',
      littleEndian,
      name: s.name.value,
      texture: s.texture.value,
      animations: (s.animations as Ks[]).map((a) => ({
        name: a.name.value,
        frames: (a.frames as Ks[]).map((f) => ({ x: f.x, y: f.y, delay: f.delay, next: f.next })),
      })),
    };
  }
  if (kind === 'object') return { format: 'hallgeir-object', littleEndian, name: k.object.name.value, sprite: k.object.sprite.value };
  return {
    format: 'hallgeir-map',
    littleEndian,
    textures: (k.map.textures as Ks[]).map((t) => ({ path: t.path.value, name: t.name.value })),
    objects: (k.map.objects as Ks[]).map((o) => ({ x: o.x, y: o.y, object: o.object.value })),
  };
}

// ------------------------------------------------------------- CTHG

const NO_REF = 0xffffffff;
const ref = (v: number): number | null => (v === NO_REF ? null : v);

/** The Kaitai parse in the shape of `inspect --json` (blocks counted per type for the arrays). */
function cthgAsInspect(k: Ks): unknown {
  const blocks = k.blocks as Ks[];
  const of = (id: string) => blocks.filter((b) => b.blockId === id).map((b) => b.body);
  return {
    format: 'cthg',
    version: k.version,
    header: {
      animations: k.animationCount,
      frames: k.frameCount,
      elements: k.elementCount,
      sprites: k.spriteCount,
      spriteBytes: k.spriteBytes,
    },
    blockOrder: blocks.map((b) => ({ SP: 'S', FR: 'F', CA: 'A' })[b.blockId as string]).join(''),
    animations: of('CA').map((a) => ({
      name: a.name,
      tileSize: a.tileSize,
      frameCount: a.frameCount,
      views: { north: ref(a.north), east: ref(a.east), south: ref(a.south), west: ref(a.west) },
    })),
    frames: of('FR').map((f) => ({
      sound: f.sound,
      elements: (f.elements as Ks[]).map((e) => ({
        sprite: ref(e.sprite),
        x: e.x,
        y: e.y,
        layerClass: e.layerClass,
        layerId: e.layerId,
        flags: e.flags,
      })),
    })),
    sprites: of('SP').map((s) => ({ width: s.width, height: s.height, dataLength: s.dataLength })),
  };
}

/**
 * What a Kaitai spec cannot do: expand a sprite's runs to straight-alpha
 * RGBA (recolour indices through the grey ramp, as sprat without tables).
 * Returns the pixels and how many the runs cover.
 */
function expandRuns(runs: Ks[], width: number, height: number): { rgba: Uint8Array; covered: number } {
  const rgba = new Uint8Array(width * height * 4);
  let at = 0;
  for (const r of runs) {
    for (let i = 0; i < r.count; i++, at++) {
      const o = at * 4;
      if (r.kind === 2) continue;
      if (r.kind === 3) {
        const v = r.indices[i] as number;
        rgba.set([v, v, v, r.opacity], o);
      } else {
        const c = r.colours[i];
        rgba.set([c.r, c.g, c.b, r.opacity], o);
      }
    }
  }
  return { rgba, covered: at };
}

// ------------------------------------------------------------- SpriteTile

/** The Kaitai parse of decompressed level data in the shape of `inspect --json`. */
function spriteTileAsInspect(k: Ks): unknown {
  const tags = k.level.tags as Ks[];
  const body = (name: string) => tags.find((t) => t.name === name)?.body;
  const numSets = body('numsets')?.value ?? 32;
  const layers = body('lvlayrs')?.layers as Ks[] | undefined;
  return {
    format: 'spritetile',
    littleEndian: k.endianness === 1,
    version: k.level.version,
    numSets,
    tilesPerSet: 32768 / numSets,
    tags: tags.map((t) => ({ name: t.name, offset: t.offset, size: t.size })),
    layers: (layers ?? []).map((l) => {
      const cells = l.cells as Ks[];
      return {
        tileSizeX: l.tileSizeX,
        tileSizeY: l.tileSizeY,
        scrollX: l.scrollX,
        scrollY: l.scrollY,
        previewSize: l.previewSize,
        z: l.z,
        layerLock: l.layerLock,
        addBorder: l.addBorder,
        width: l.width,
        height: l.height,
        cells: {
          tile: cells.map((c) => c.tile),
          flags: cells.map((c) => c.flags),
          order: cells.map((c) => c.order),
          trigger: cells.map((c) => c.trigger),
        },
      };
    }),
  };
}

// ------------------------------------------------------------- the tests

const ispriteSamples = fs
  .readdirSync(path.join(SAMPLES, 'isprite'))
  .filter((f) => f.endsWith('.isprite'))
  .sort();
const cthgFiles = [
  ...fs
    .readdirSync(path.join(SAMPLES, 'cthg'))
    .filter((f) => f.endsWith('.dat'))
    .map((f) => path.join(SAMPLES, 'cthg', f)),
  path.join(CORPUS, 'cthg', 'plant_anim.dat'),
  path.join(CORPUS, 'cthg', 'encoder-test', 'gen_anims.dat'),
].sort();
const spriteTileFiles = [
  ...fs
    .readdirSync(path.join(SAMPLES, 'spritetile'))
    .filter((f) => f.endsWith('.bytes'))
    .map((f) => path.join(SAMPLES, 'spritetile', f)),
  ...fs
    .readdirSync(path.join(CORPUS, 'spritetile'))
    .filter((f) => f.endsWith('.bytes'))
    .map((f) => path.join(CORPUS, 'spritetile', f)),
].sort();
/** A file's name in a test title: `samples/...` or `shared/corpus/...`. */
const titled = (files: string[]) =>
  files.map((file) => [file.startsWith(SHARED) ? `shared/${path.relative(SHARED, file)}` : path.relative(ROOT, file), file] as const);

const hallgeirSamples = fs
  .readdirSync(path.join(SAMPLES, 'hallgeir'))
  .filter((f) => path.extname(f) in HALLGEIR)
  .sort();

describe('Kaitai Struct specs (docs/kaitai) parse like sprat', () => {
  it('every .ksy compiles to JavaScript with kaitai-struct-compiler', async () => {
    const specs = fs.readdirSync(KSY_DIR).filter((f) => f.endsWith('.ksy'));
    expect(specs.sort()).toEqual([
      'cthg.ksy',
      'hallgeir_map.ksy',
      'hallgeir_obj.ksy',
      'hallgeir_spr.ksy',
      'isprite.ksy',
      'spritetile_level.ksy',
    ]);
    for (const f of specs) expect(typeof (await compileKsy(f))).toBe('function');
  });

  it.each(ispriteSamples)('isprite.ksy reads samples/isprite/%s as inspect --json does', async (name) => {
    expect(ispriteSamples.length).toBeGreaterThan(0);
    const parser = await compileKsy('isprite.ksy');
    const file = path.join(SAMPLES, 'isprite', name);
    const k = parse(parser, fs.readFileSync(file));
    expect(ispriteAsInspect(k)).toStrictEqual(await inspect(file));
  });

  it('isprite.ksy reads what sprat writes with every element kind, nested groups, an unknown chunk and no chunks at all', async () => {
    const parser = await compileKsy('isprite.ksy');
    const hero = readIsprite(new Uint8Array(fs.readFileSync(path.join(SAMPLES, 'isprite', 'hero.isprite'))));
    const first = hero.frames[0]!;
    const full: IspriteDocument = {
      ...hero,
      version: [1, 3],
      nonStandard: true,
      workFile: true,
      nonStandardId: 'AB',
      meta: hero.meta && { ...hero.meta, created: null },
      tree: [{ kind: 'group', name: 'Outer', children: [{ kind: 'group', name: 'Inner', children: hero.tree }] }, ...hero.tree],
      frames: [
        {
          ...first,
          elements: [
            ...first.elements,
            {
              type: 'graphic',
              expanded: true,
              name: 2,
              slice: 1,
              x: -1.5,
              y: 2.25,
              flipX: true,
              flipY: false,
              originX: 3,
              originY: -4.5,
              rotation: 90.5,
              scaleX: -2,
              scaleY: 0.5,
              opacity: 1234,
            },
            { type: 'circle', name: null, id: 7, x: 1.5, y: -2, radius: 6.75 },
            { type: 'rect', name: 3, id: 2, x: -3, y: 4, width: 5.5, height: 6, rotation: -45 },
            {
              type: 'attachment',
              name: null,
              id: 9,
              x: 0,
              y: 0,
              flipX: false,
              flipY: true,
              rotation: 12,
              scaleX: 1,
              scaleY: -1,
              opacity: 0,
            },
            { type: 'unknown', marker: 0x5a, name: 1, data: new Uint8Array([1, 2, 3]) },
          ],
        },
        ...hero.frames.slice(1),
      ],
      unknownChunks: [{ id: 'XTRA', data: new Uint8Array([9, 8, 7, 6, 5]) }],
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-kaitai-'));
    try {
      for (const [name, doc] of [
        ['full', full],
        ['empty', createIsprite(0)],
      ] as const) {
        const bytes = writeIsprite(doc);
        const file = path.join(dir, `${name}.isprite`);
        fs.writeFileSync(file, bytes);
        expect(ispriteAsInspect(parse(parser, bytes)), name).toStrictEqual(await inspect(file));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(titled(cthgFiles))("cthg.ksy reads %s as inspect --json does, and its runs give sprat's pixels", async (_title, file) => {
    const parser = await compileKsy('cthg.ksy');
    const bytes = new Uint8Array(fs.readFileSync(file));
    const k = parse(parser, bytes);
    expect(cthgAsInspect(k)).toStrictEqual(await inspect(file));
    // The pixel runs, expanded in the test, against sprat's decoder, sprite by sprite.
    const doc = readCthg(bytes);
    const sprites = (k.blocks as Ks[]).filter((b) => b.blockId === 'SP').map((b) => b.body);
    expect(sprites.length).toBe(doc.sprites.length);
    expect(sprites.length).toBeGreaterThan(0);
    sprites.forEach((s, i) => {
      const runs = s.pixels.runs as Ks[];
      const { rgba, covered } = expandRuns(runs, s.width, s.height);
      expect(covered, `sprite ${i}: pixels the runs cover`).toBe(s.width * s.height);
      const sprat = decodePixels(doc.sprites[i]!.data, s.width, s.height);
      expect(Buffer.from(rgba).equals(Buffer.from(sprat.data)), `sprite ${i}: pixels`).toBe(true);
    });
  });

  it('cthg.ksy reads a file with no-sprite elements, absent views, an empty sprite and runs of 0 pixels', async () => {
    const parser = await compileKsy('cthg.ksy');
    const fan = readCthg(new Uint8Array(fs.readFileSync(path.join(SAMPLES, 'cthg', 'fan.dat'))));
    const first = fan.sprites[0]!;
    // Runs of 0 pixels (an opaque and a transparent one) before the sprite's own runs.
    const zeroRuns: CthgDocument['sprites'][number] = { ...first, data: new Uint8Array([0x00, 0x80, ...first.data]) };
    const doc: CthgDocument = {
      ...fan,
      header: null,
      blockOrder: null,
      animations: [
        ...fan.animations,
        { name: 'odd', tileSize: 32, frameCount: 1, views: { north: null, east: fan.frames.length, south: null, west: null } },
      ],
      frames: [
        ...fan.frames,
        {
          sound: 7,
          elements: [
            { sprite: null, x: -1, y: 2, layerClass: 3, layerId: 4, flags: 0xfff0 },
            { sprite: fan.sprites.length, x: 0, y: 0, layerClass: 0, layerId: 0, flags: 0 },
            { sprite: fan.sprites.length + 1, x: 0, y: 0, layerClass: 0, layerId: 0, flags: 3 },
          ],
        },
      ],
      sprites: [...fan.sprites, { width: 0, height: 0, data: new Uint8Array(0) }, zeroRuns],
    };
    const bytes = writeCthg(doc);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-kaitai-'));
    try {
      const file = path.join(dir, 'odd.dat');
      fs.writeFileSync(file, bytes);
      const k = parse(parser, bytes);
      const expected = (await inspect(file)) as { sprites: unknown[] };
      expect(cthgAsInspect(k)).toStrictEqual(expected);
      const sprites = (k.blocks as Ks[]).filter((b) => b.blockId === 'SP').map((b) => b.body);
      const last = sprites[sprites.length - 1]!;
      expect((last.pixels.runs as Ks[]).slice(0, 2).map((r) => [r.kind, r.count])).toEqual([
        [0, 0],
        [2, 0],
      ]);
      expect(
        Buffer.from(expandRuns(last.pixels.runs, last.width, last.height).rgba).equals(
          Buffer.from(decodePixels(first.data, first.width, first.height).data),
        ),
      ).toBe(true);
      expect(sprites[sprites.length - 2]!.pixels.runs).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the CTHG files hold runs of every kind (opaque, translucent, transparent, recolour)', async () => {
    const parser = await compileKsy('cthg.ksy');
    const kinds = new Set<number>();
    for (const file of cthgFiles) {
      for (const b of parse(parser, fs.readFileSync(file)).blocks as Ks[]) {
        if (b.blockId === 'SP') for (const r of b.body.pixels.runs as Ks[]) kinds.add(r.kind);
      }
    }
    expect([...kinds].sort()).toEqual([0, 1, 2, 3]);
  });

  it.each(titled(spriteTileFiles))('spritetile_level.ksy reads %s, decompressed by sprat, as inspect --json does', async (_title, file) => {
    const parser = await compileKsy('spritetile_level.ksy');
    const data = decompress(new Uint8Array(fs.readFileSync(file)));
    expect(spriteTileAsInspect(parse(parser, data))).toStrictEqual(await inspect(file));
  });

  it('spritetile_level.ksy reads a big-endian level with a numsets tag as inspect --json does', async () => {
    const parser = await compileKsy('spritetile_level.ksy');
    const level = readSpriteTile(new Uint8Array(fs.readFileSync(path.join(SAMPLES, 'spritetile', 'level.bytes'))));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-kaitai-'));
    try {
      for (const [name, variant] of [
        ['big', { ...level, littleEndian: false, numSets: 8 }],
        ['little', { ...level, numSets: 4 }],
      ] as const) {
        const bytes = writeSpriteTile(variant);
        const file = path.join(dir, `${name}.bytes`);
        fs.writeFileSync(file, bytes);
        const expected = (await inspect(file)) as { littleEndian: boolean; numSets: number };
        expect([expected.littleEndian, expected.numSets]).toEqual([name === 'little', variant.numSets]);
        expect(spriteTileAsInspect(parse(parser, decompress(bytes))), name).toStrictEqual(expected);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cthg.ksy and spritetile_level.ksy refuse what sprat refuses: a wrong version, an unknown block, a cut file, a bad endianness byte or layer marker', async () => {
    const cthg = await compileKsy('cthg.ksy');
    const level = await compileKsy('spritetile_level.ksy');
    const fan = new Uint8Array(fs.readFileSync(path.join(SAMPLES, 'cthg', 'fan.dat')));
    const data = decompress(new Uint8Array(fs.readFileSync(path.join(SAMPLES, 'spritetile', 'level.bytes'))));
    const marker = Buffer.from(data).indexOf('lyrdata');
    expect(marker).toBeGreaterThan(0);
    const changed = (bytes: Uint8Array, at: number, values: number[]) => {
      const out = bytes.slice();
      out.set(values, at);
      return out;
    };
    const cases: [string, Parser, Uint8Array, Uint8Array][] = [
      ['cthg version 512', cthg, changed(fan, 4, [0, 2]), changed(fan, 4, [0, 2])],
      ['cthg unknown block ID', cthg, changed(fan, 26, [0x58, 0x58]), changed(fan, 26, [0x58, 0x58])],
      ['cthg cut in a block', cthg, fan.slice(0, fan.length - 3), fan.slice(0, fan.length - 3)],
      ['spritetile endianness 2', level, changed(data, 15, [2]), compress(changed(data, 15, [2]))],
      ['spritetile layer marker', level, changed(data, marker, [0x4c]), compress(changed(data, marker, [0x4c]))],
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-kaitai-'));
    try {
      for (const [name, parser, parsed, file] of cases) {
        // The level's tag bodies are instances, parsed when read: read them all.
        expect(() => (parser === level ? spriteTileAsInspect(parse(parser, parsed)) : parse(parser, parsed)), name).toThrow();
        const at = path.join(dir, `${name.replaceAll(' ', '-')}.${parser === cthg ? 'dat' : 'bytes'}`);
        fs.writeFileSync(at, file);
        const r = await runCli(['inspect', '--json', '--format', parser === cthg ? 'cthg' : 'spritetile', at]);
        expect(r.code, name).toBe(1);
        expect(r.stderr, name).toMatch(/^sprat: error: /);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(hallgeirSamples)(
    'the Hallgeir .ksy reads samples/hallgeir/%s in both byte orders and identifier forms as inspect --json does',
    async (name) => {
      const { kind, ksy } = HALLGEIR[path.extname(name)]!;
      const parser = await compileKsy(ksy);
      const bytes = new Uint8Array(fs.readFileSync(path.join(SAMPLES, 'hallgeir', name)));
      const doc = readHallgeir(bytes, kind);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-kaitai-'));
      try {
        const orders = new Set<boolean>();
        // Also with a first int of 0 (the same bytes in both orders), where the spec looks at the next int.
        const zeroFirst = doc.kind === 'map' ? { ...doc, textures: [] } : { ...doc, name: '' };
        for (const [form, base] of [
          ['as is', doc],
          ['first int 0', zeroFirst],
        ] as const) {
          for (const endian of ['little', 'big'] as const) {
            for (const lengthPrefixedId of [false, true]) {
              const variant = writeHallgeir({ ...base, lengthPrefixedId }, { endian });
              const file = path.join(dir, `${form === 'as is' ? '' : 'zero-'}${endian}-${lengthPrefixedId ? 'prefixed' : 'plain'}-${name}`);
              fs.writeFileSync(file, variant);
              const expected = await inspect(file);
              expect(expected.littleEndian).toBe(endian === 'little');
              orders.add(expected.littleEndian as boolean);
              expect(
                hallgeirAsInspect(kind, parse(parser, variant)),
                `${form}, ${endian}-endian, ${lengthPrefixedId ? 'length-prefixed' : '3-byte'} identifier`,
              ).toStrictEqual(expected);
            }
          }
        }
        expect(orders.size).toBe(2);
        // The sample itself, as stored.
        expect(hallgeirAsInspect(kind, parse(parser, bytes))).toStrictEqual(await inspect(path.join(SAMPLES, 'hallgeir', name)));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
