/**
 * `sprat diff` at the library level (browser-safe): a structural diff of two
 * documents through their `inspect --json` shapes, a stable text form of one
 * document (git's `textconv`), and a pixel diff of every frame that changed.
 *
 * The JSON of a document becomes a tree whose paths read as the document's
 * own words:
 * - an array of objects that all have a `name` (or, ISPRITE's tree, a
 *   `group` / `sequence` name) is matched by name: `animation walking`,
 *   `group Armed`; other arrays by index: `direction 2`, `frame 3`. The
 *   item's word is the array's key made singular;
 * - an object under a plural key (Aseprite's frame hash, CTHG views) is a
 *   list of items too: `frame hero 0.aseprite`, `view north`;
 * - a level layer (an object with `width`, `height` and a grid of
 *   `width` × `height` cells: SpriteTile `cells`, Tiled `data`) is a grid of
 *   `cell (x, y)` / `tile (x, y)` items;
 * - arrays of at most SHORT_ARRAY numbers or strings are one value.
 * A change reads `animation walking, direction 2, frame 3: x 4 -> 5`, an added
 * or removed item `+ animation jump` / `animation walk: - frame 7`.
 */
import type { Loaded } from './api.js';
import { UnknownFormatError, render, renderViews } from './api.js';
import { OptionError } from './binary/errors.js';
import { Budget, budgetFrom } from './binary/limits.js';
import { plainJson } from './binary/json-array.js';
import type { CommandOptions, ResourceLoader } from './formats/types.js';
import { createImage, type RgbaImage } from './render/image.js';
import { translate } from './render/matrix.js';
import { drawPicture, type PicturePart } from './render/pipeline.js';
import { comparePlayback, type PlaybackChange } from './model/playback.js';
import type { SpriteModel } from './model/types.js';

/** Arrays of plain values up to this length are compared as one value. */
export const SHORT_ARRAY = 16;
/** Objects and lists nested deeper than this (a hostile ISPRITE group tree) are compared as one value. */
export const MAX_DIFF_DEPTH = 100;
const TOO_DEEP = `(nested deeper than ${MAX_DIFF_DEPTH} levels)`;

type Plain = string | number | boolean | null;

/** A value of the tree: a plain value (or a short array of them), or a node of named entries. */
export type DiffTree = { leaf: true; value: unknown } | { leaf: false; entries: Map<string, Entry>; json?: unknown };

interface Entry {
  tree: DiffTree;
  /** True for an item of a list (`frame 3`), false for a field (`x`). */
  item: boolean;
}

export interface DiffChange {
  op: 'changed' | 'added' | 'removed';
  /** The items and objects leading to the change, e.g. ["animation walking", "direction 2"]. */
  path: string[];
  /** The field (`x`) or item (`frame 3`) that changed, was added or removed. */
  name: string;
  /** Set when `name` is an item of a list (`frame 3`, `tile (0, 1)`) rather than a field (`x`). */
  item?: true;
  /** The old value (changed, removed); an added or removed list or object is given as its JSON. */
  from?: unknown;
  to?: unknown;
}

const isPlain = (v: unknown): v is Plain => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `animations` -> `animation`, `properties` -> `property`, `children` -> `child`. */
export function singular(key: string): string {
  if (key === 'children') return 'child';
  if (/[^aeiou]ies$/.test(key)) return key.slice(0, -3) + 'y';
  if (/[^su]s$/.test(key)) return key.slice(0, -1);
  return key;
}

const isPlural = (key: string) => singular(key) !== key;

/** A list compared as one value: 1 to SHORT_ARRAY plain values. An empty list is a list of no items (its items, once added, are `+ frame 0`, ...). */
const isShortList = (v: unknown[]) => v.length > 0 && v.length <= SHORT_ARRAY && v.every(isPlain);

/** A name as a path word: as is when plain, else quoted. */
function nameText(name: string): string {
  return /^[\w.\-/ ]+$/.test(name) && !/^ | $/.test(name) ? name : JSON.stringify(name);
}

/** The name an array item is matched by, or undefined. */
function itemName(v: unknown, word: string): string | undefined {
  if (!isObject(v)) return undefined;
  for (const k of ['group', 'sequence']) if (typeof v[k] === 'string') return `${k} ${nameText(v[k] as string)}`;
  if (typeof v.name === 'string' && v.name !== '') return `${word} ${nameText(v.name)}`;
  return undefined;
}

class TreeBuilder {
  constructor(private budget: Budget) {}

  build(v: unknown, depth = 0): DiffTree {
    if (isPlain(v)) return { leaf: true, value: v };
    if (depth > MAX_DIFF_DEPTH) return { leaf: true, value: TOO_DEEP };
    if (Array.isArray(v)) {
      if (isShortList(v)) return { leaf: true, value: v };
      const entries = new Map<string, Entry>();
      this.addList(entries, 'item', v, depth);
      return { leaf: false, entries, json: v };
    }
    if (!isObject(v)) return { leaf: true, value: String(v) };
    const entries = new Map<string, Entry>();
    const grid = this.gridOf(v);
    for (const [k, x] of Object.entries(v)) {
      if (grid && k === grid.key) {
        this.addGrid(entries, grid);
        continue;
      }
      if (Array.isArray(x) && !isShortList(x)) this.addList(entries, singular(k), x, depth);
      else if (isObject(x) && isPlural(k)) {
        for (const [name, y] of Object.entries(x)) this.put(entries, `${singular(k)} ${nameText(name)}`, this.build(y, depth + 1), true);
      } else this.put(entries, k, this.build(x, depth + 1), false);
    }
    return { leaf: false, entries, json: v };
  }

  private put(entries: Map<string, Entry>, label: string, tree: DiffTree, item: boolean): void {
    let l = label;
    for (let n = 2; entries.has(l); n++) l = `${label} #${n}`;
    entries.set(l, { tree, item });
  }

  /** A list's items, by name when every item has one, else by index. */
  private addList(entries: Map<string, Entry>, word: string, list: unknown[], depth: number): void {
    this.budget.spend('maxItems', list.length, `the diff of a list of ${list.length} ${word}s`);
    const names = list.map((x) => itemName(x, word));
    const named = list.length > 0 && names.every((n) => n !== undefined);
    list.forEach((x, i) => this.put(entries, named ? names[i]! : `${word} ${i}`, this.build(x, depth + 1), true));
  }

  /** A level layer's grid of width × height cells: SpriteTile's parallel `cells` arrays or Tiled's `data`. */
  private gridOf(v: Record<string, unknown>): { key: string; width: number; word: string; columns: [string, unknown[]][] } | undefined {
    const { width, height } = v;
    if (typeof width !== 'number' || typeof height !== 'number' || !(width > 0) || !(height > 0)) return undefined;
    const n = width * height;
    if (Array.isArray(v.data) && v.data.length === n) return { key: 'data', width, word: 'tile', columns: [['', v.data]] };
    if (isObject(v.cells)) {
      const columns = Object.entries(v.cells);
      if (columns.length && columns.every(([, c]) => Array.isArray(c) && c.length === n))
        return { key: 'cells', width, word: 'cell', columns: columns as [string, unknown[]][] };
    }
    return undefined;
  }

  private addGrid(entries: Map<string, Entry>, grid: { width: number; word: string; columns: [string, unknown[]][] }): void {
    const n = grid.columns[0]![1].length;
    this.budget.spend('maxItems', n, `the diff of a grid of ${n} cells`);
    for (let i = 0; i < n; i++) {
      const label = `${grid.word} (${i % grid.width}, ${Math.floor(i / grid.width)})`;
      if (grid.columns.length === 1 && grid.columns[0]![0] === '') {
        this.put(entries, label, this.build(grid.columns[0]![1][i]), true);
        continue;
      }
      const cell = new Map<string, Entry>();
      for (const [k, c] of grid.columns) cell.set(k, { tree: this.build(c[i]), item: false });
      this.put(entries, label, { leaf: false, entries: cell }, true);
    }
  }
}

/** The diff tree of a document's JSON (its `inspect --json` object); list items and grid cells are spent from `--max-items`. */
export function diffTree(json: unknown, budget: Budget = new Budget()): DiffTree {
  return new TreeBuilder(budget).build(json);
}

/** The JSON a tree stands for (for added and removed items in `--json`): the document's own, or made from the entries (a grid cell). */
function treeJson(t: DiffTree): unknown {
  if (t.leaf) return t.value;
  if (t.json !== undefined) return t.json;
  const o: Record<string, unknown> = {};
  for (const [k, e] of t.entries) o[k] = treeJson(e.tree);
  return o;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}

/** The changes from tree `a` to tree `b`: `a`'s order first, then what only `b` has. */
export function diffTrees(a: DiffTree, b: DiffTree, path: string[] = []): DiffChange[] {
  const out: DiffChange[] = [];
  walkDiff(a, b, path, out);
  return out;
}

function walkDiff(a: DiffTree, b: DiffTree, path: string[], out: DiffChange[]): void {
  if (a.leaf || b.leaf) {
    // only reached for the roots: entries are compared in the loop below
    if (!(a.leaf && b.leaf && sameValue(a.value, b.value))) out.push({ op: 'changed', path, name: '', from: treeJson(a), to: treeJson(b) });
    return;
  }
  for (const [k, ea] of a.entries) {
    const eb = b.entries.get(k);
    if (!eb) {
      out.push({ op: 'removed', path, name: k, from: treeJson(ea.tree) });
      continue;
    }
    if (!ea.tree.leaf && !eb.tree.leaf) {
      walkDiff(ea.tree, eb.tree, [...path, k], out);
      continue;
    }
    if (ea.tree.leaf && eb.tree.leaf) {
      if (!sameValue(ea.tree.value, eb.tree.value))
        out.push({ op: 'changed', path, name: k, ...(ea.item ? { item: true as const } : {}), from: ea.tree.value, to: eb.tree.value });
      continue;
    }
    // a value that became a list or object (or back)
    out.push({ op: 'changed', path, name: k, from: treeJson(ea.tree), to: treeJson(eb.tree) });
  }
  for (const [k, eb] of b.entries) if (!a.entries.has(k)) out.push({ op: 'added', path, name: k, to: treeJson(eb.tree) });
}

/** The changes from one document's JSON to another's. */
export function diffJson(a: unknown, b: unknown, budget: Budget = new Budget()): DiffChange[] {
  return diffTrees(diffTree(a, budget), diffTree(b, budget));
}

/** The changes between two loaded documents, through their `inspect --json` objects. */
export function diffDocuments(a: Loaded, b: Loaded, options: CommandOptions = {}): DiffChange[] {
  const budget = budgetFrom(options);
  // The items of both sides, before either JSON is made (the diff's trees hold each of them once more).
  for (const [side, l] of [['A', a] as const, ['B', b] as const]) {
    const n = l.handler.jsonItems?.(l.doc);
    if (n) budget.check('maxItems', n, `the diff of ${side}`);
  }
  return diffJson(plainJson(a.handler.inspectJson(a.doc, options)), plainJson(b.handler.inspectJson(b.doc, options)), budget);
}

const MAX_VALUE_TEXT = 80;

/** A value as a diff line shows it: numbers and booleans as is, strings quoted, short lists in brackets, objects as `{...}`. */
export function valueText(v: unknown): string {
  if (Array.isArray(v)) {
    const t = `[${v.map(valueText).join(', ')}]`;
    return t.length > MAX_VALUE_TEXT ? `[${v.length} values]` : t;
  }
  if (isObject(v)) return '{...}';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

/** One change as a line: `animation walking, direction 2: x 4 -> 5`, `+ animation jump`, `animation walk: - frame 7`. */
export function changeText(c: DiffChange): string {
  const where = c.path.join(', ');
  const item = (c.from !== undefined && isObject(c.from)) || (c.to !== undefined && isObject(c.to));
  let what: string;
  if (c.op === 'changed') {
    if (c.item) return `${[...c.path, c.name].join(', ')}: ${valueText(c.from)} -> ${valueText(c.to)}`;
    if (c.name === '') what = `${valueText(c.from)} -> ${valueText(c.to)}`;
    else what = `${c.name} ${valueText(c.from)} -> ${valueText(c.to)}`;
  } else {
    const sign = c.op === 'added' ? '+' : '-';
    const v = c.op === 'added' ? c.to : c.from;
    what = item ? `${sign} ${c.name}` : `${sign} ${c.name} ${valueText(v)}`;
  }
  return where ? `${where}: ${what}` : what;
}

/**
 * A stable text form of a document for git's `textconv`: one line per
 * object, its path then its plain fields (`animation walking, direction 2:
 * x 0, y 32, frameWidth 16, ...`), a line per list value; so git's line
 * diff of two versions names the animation, direction or cell that changed.
 */
export function textForm(json: unknown, budget: Budget = new Budget()): string {
  const lines: string[] = [];
  const push = (line: string) => {
    budget.spend('maxJsonBytes', line.length + 1, 'the text form');
    lines.push(line);
  };
  const walk = (t: DiffTree, path: string[]) => {
    if (t.leaf) {
      push(valueText(t.value));
      return;
    }
    const fields: string[] = [];
    const items: [string, unknown][] = [];
    const nodes: [string, DiffTree][] = [];
    for (const [k, e] of t.entries) {
      if (!e.tree.leaf) nodes.push([k, e.tree]);
      else if (e.item) items.push([k, e.tree.value]);
      else fields.push(`${k} ${valueText(e.tree.value)}`);
    }
    const where = path.join(', ');
    if (fields.length || (!items.length && !nodes.length))
      lines.push(where ? `${where}: ${fields.join(', ')}`.trimEnd() : fields.join(', '));
    for (const [k, v] of items) push(`${[...path, k].join(', ')}: ${valueText(v)}`);
    for (const [k, n] of nodes) walk(n, [...path, k]);
  };
  walk(diffTree(json, budget), []);
  return lines.join('\n') + '\n';
}

/** One frame that differs in pixels between two documents: A, B and the changed pixels side by side. */
export interface FrameDiff {
  /** The picture's label (`renderViews`: an animation, a direction, a view). */
  view: string;
  frame: number;
  /** How many pixels differ. */
  changed: number;
  image: RgbaImage;
}

/** The colour of changed pixels in a pixel diff. */
export const CHANGED_COLOUR = [255, 0, 64, 255] as const;
/** Between and behind the three panels of a pixel diff. */
const BACKGROUND = [48, 48, 48, 255] as const;
const GAP = 2;

interface Drawn {
  frames: RgbaImage[];
  originX: number;
  originY: number;
}

async function drawViews(
  loaded: Loaded,
  resources: ResourceLoader,
  options: CommandOptions,
  budget: Budget,
  notes: string[],
  side: string,
): Promise<Map<string, Drawn>> {
  const out = new Map<string, Drawn>();
  // the selection options given (--animation, --direction...) keep the pictures they name; none named: the selection itself
  const all = renderViews(loaded);
  let views = all.filter((v) => Object.entries(v.options).every(([k, x]) => options[k] === undefined || options[k] === x));
  if (all.length && !views.length) views = [{ label: 'selection', options: {} }];
  for (const v of views) {
    try {
      const r = (await render(loaded, { ...options, ...v.options }, resources, budget)) as Drawn;
      out.set(v.label, { frames: r.frames, originX: r.originX ?? 0, originY: r.originY ?? 0 });
    } catch (e) {
      // a picture that needs the user's word (a Solarus tileset, a Hallgeir frame size) is left out quietly
      if (e instanceof OptionError) continue;
      notes.push(`${side}: ${v.label} not drawn: ${(e as Error).message}`);
    }
  }
  return out;
}

function pixelAt(d: Drawn | undefined, img: RgbaImage | undefined, x: number, y: number): number {
  if (!d || !img) return 0;
  const ix = x + d.originX;
  const iy = y + d.originY;
  if (ix < 0 || iy < 0 || ix >= img.width || iy >= img.height) return 0;
  const o = (iy * img.width + ix) * 4;
  const a = img.data[o + 3]!;
  // every fully transparent pixel is the same pixel
  return a === 0 ? 0 : ((img.data[o]! << 24) | (img.data[o + 1]! << 16) | (img.data[o + 2]! << 8) | a) >>> 0;
}

/**
 * The frames whose pixels differ between two documents: every picture they
 * offer (matched by label; with selection options such as `animation`, those
 * they name) drawn through the one pipeline, frame by frame,
 * aligned on the picture's origin; each changed frame as one image of A, B
 * and B dimmed with the changed pixels marked, side by side. `notes` get the
 * pictures that could not be drawn.
 */
export async function pixelDiff(
  a: Loaded,
  aResources: ResourceLoader,
  b: Loaded,
  bResources: ResourceLoader,
  options: CommandOptions = {},
  budget: Budget = budgetFrom(options),
): Promise<{ frames: FrameDiff[]; notes: string[] }> {
  const notes: string[] = [];
  const va = await drawViews(a, aResources, options, budget, notes, 'A');
  const vb = await drawViews(b, bResources, options, budget, notes, 'B');
  const labels = [...va.keys(), ...[...vb.keys()].filter((k) => !va.has(k))];
  const frames: FrameDiff[] = [];
  for (const label of labels) {
    const da = va.get(label);
    const db = vb.get(label);
    const n = Math.max(da?.frames.length ?? 0, db?.frames.length ?? 0);
    for (let i = 0; i < n; i++) {
      const fa = da?.frames[i];
      const fb = db?.frames[i];
      // the union of both canvases, in picture coordinates
      const boxes = [
        ...(da && fa ? [[-da.originX, -da.originY, fa.width, fa.height]] : []),
        ...(db && fb ? [[-db.originX, -db.originY, fb.width, fb.height]] : []),
      ] as [number, number, number, number][];
      const x0 = boxes.reduce((m, r) => Math.min(m, r[0]), Infinity);
      const y0 = boxes.reduce((m, r) => Math.min(m, r[1]), Infinity);
      const w = boxes.reduce((m, r) => Math.max(m, r[0] + r[2]), -Infinity) - x0;
      const h = boxes.reduce((m, r) => Math.max(m, r[1] + r[3]), -Infinity) - y0;
      budget.spend('maxPixels', w * h, `the pixel diff of ${label}, frame ${i}`);
      const mask = createImage(w, h);
      let changed = 0;
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          if (pixelAt(da, fa, x + x0, y + y0) === pixelAt(db, fb, x + x0, y + y0)) continue;
          changed++;
          mask.data.set(CHANGED_COLOUR, (y * w + x) * 4);
        }
      }
      if (changed === 0 && !!fa === !!fb) continue;
      const parts: PicturePart[] = [];
      const at = (img: RgbaImage, d: Drawn, panel: number, opacity = 1) =>
        parts.push({ image: img, transform: translate(panel * (w + GAP) - d.originX - x0, -d.originY - y0), opacity });
      if (fa && da) at(fa, da, 0);
      if (fb && db) {
        at(fb, db, 1);
        at(fb, db, 2, 0.3);
      }
      parts.push({ image: mask, transform: translate(2 * (w + GAP), 0) });
      const picture = drawPicture(
        {
          frames: [{ parts }],
          canvas: { x: -GAP, y: -GAP, width: 3 * w + 4 * GAP, height: h + 2 * GAP },
          background: BACKGROUND,
          what: `the pixel diff of ${label}, frame ${i}`,
        },
        budget,
      );
      frames.push({ view: label, frame: i, changed, image: picture.frames[0]! });
    }
  }
  return { frames, notes };
}

/** A document's sprite model, read as `convert` reads it (`toModel`, with its sheets and textures through `resources`). */
export async function playbackModel(loaded: Loaded, resources: ResourceLoader, options: CommandOptions = {}): Promise<SpriteModel> {
  const h = loaded.handler;
  if (!h.toModel)
    throw new UnknownFormatError(`diff --playback: ${h.name} files cannot be read as a sprite (no conversion from ${h.name})`);
  const model = await h.toModel(loaded.doc, resources, options);
  if (model.kind !== 'sprite') throw new UnknownFormatError(`diff --playback compares sprites; this ${h.name} file is a level`);
  return model;
}

/**
 * `sprat diff --playback`: how B plays differently from A, for files of any
 * two sprite formats (src/model/playback.ts). `notes` are what each model
 * could not carry from its file (`A: ...`, `B: ...`): what the comparison
 * does not see.
 */
export async function diffPlayback(
  a: Loaded,
  aResources: ResourceLoader,
  b: Loaded,
  bResources: ResourceLoader,
  options: CommandOptions = {},
  budget: Budget = budgetFrom(options),
): Promise<{ changes: PlaybackChange[]; notes: string[] }> {
  const ma = await playbackModel(a, aResources, options);
  const mb = await playbackModel(b, bResources, options);
  const notes = [...(ma.notes ?? []).map((n) => `A: ${n}`), ...(mb.notes ?? []).map((n) => `B: ${n}`)];
  return { changes: comparePlayback(ma, mb, { budget }), notes };
}
