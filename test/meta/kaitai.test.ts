/**
 * The Kaitai Struct specs in docs/kaitai/ against sprat: every .ksy is
 * compiled with the real compiler (npm `kaitai-struct-compiler`, JavaScript
 * target), the generated parser is evaluated with the `kaitai-struct`
 * runtime, and its parse of every sample (Hallgeir ones also rewritten in the
 * other byte order and with the length-prefixed identifier) must give the
 * same values as `sprat inspect --json` for every field both expose. The
 * .ksy files are read with the small YAML-subset reader in ../helpers/ksy-yaml.ts
 * (no YAML package is installed).
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { runCli } from '../helpers/cli.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';
import { createIsprite, readIsprite, writeIsprite, type IspriteDocument } from '../../src/formats/isprite/index.js';
import { readHallgeir, writeHallgeir, type HallgeirKind } from '../../src/formats/hallgeir/index.js';
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

// ------------------------------------------------------------- the tests

const ispriteSamples = fs
  .readdirSync(path.join(SAMPLES, 'isprite'))
  .filter((f) => f.endsWith('.isprite'))
  .sort();
const hallgeirSamples = fs
  .readdirSync(path.join(SAMPLES, 'hallgeir'))
  .filter((f) => path.extname(f) in HALLGEIR)
  .sort();

describe('Kaitai Struct specs (docs/kaitai) parse like sprat', () => {
  it('every .ksy compiles to JavaScript with kaitai-struct-compiler', async () => {
    const specs = fs.readdirSync(KSY_DIR).filter((f) => f.endsWith('.ksy'));
    expect(specs.sort()).toEqual(['hallgeir_map.ksy', 'hallgeir_obj.ksy', 'hallgeir_spr.ksy', 'isprite.ksy']);
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
