/** CTHG ⇄ the common sprite model (src/model/types.ts). */
import { FormatError } from '../../binary/errors.js';
import { fitInt, rangePolicy } from '../../binary/writer.js';
import { timingNotes, type FrameAt } from '../../model/timing.js';
import { budgetFrom } from '../../binary/limits.js';
import type { CommandOptions } from '../types.js';
import { listed, NOTE_NAMES } from '../options.js';
import { cropImage, createImage, type RgbaImage } from '../../render/image.js';
import type { LevelModel, ModelAnimation, ModelFrame, ModelPart, SpriteModel } from '../../model/types.js';
import { unusedAnimation } from '../../model/unused.js';
import { compassOfNumber } from '../../model/directions.js';
import {
  FLAG_ALPHA_50,
  FLAG_ALPHA_75,
  FLAG_FLIP_HORIZONTAL,
  FLAG_FLIP_VERTICAL,
  VIEWS,
  createCthg,
  type CthgDocument,
  type CthgElement,
  type CthgViewName,
} from './model.js';
import { TICK_MS } from './play.js';
import { elementOpacity } from './render.js';
import { decodeSprite, spriteFromImage } from './rle.js';

/**
 * To the common model: one sheet per sprite (decoded; recolour runs in the
 * grey ramp), one model animation per view (direction = the view name),
 * one frame per tick (90 ms), looping. Elements on a layer (layer id ≠ 0)
 * are left out (the model has no layer selection).
 */
export function cthgToModel(doc: CthgDocument, name = 'cthg'): SpriteModel {
  const notes: string[] = [];
  const sheets = doc.sprites.map((s, i) => ({ path: `sprite_${i}`, image: decodeSprite(s), nearest: true }));
  let layered = 0;
  let recolour = false;
  for (const s of doc.sprites) {
    // A type 3 run anywhere means recoloured pixels: they are shown in grey.
    let p = 0;
    let done = 0;
    const total = s.width * s.height;
    while (done < total && p < s.data.length) {
      const b = s.data[p]!;
      const t = b >> 6;
      const c = b & 63;
      if (t === 3) {
        recolour = true;
        break;
      }
      p += t === 0 ? 1 + 3 * c : t === 1 ? 2 + 3 * c : 1;
      done += c;
    }
    if (recolour) break;
  }
  const animations: ModelAnimation[] = [];
  const played = new Set<number>();
  const frameOf = (f: CthgDocument['frames'][number]): ModelFrame => {
    const parts: ModelPart[] = [];
    for (const e of f.elements) {
      if (e.layerId !== 0) {
        layered++;
        continue;
      }
      if (e.sprite === null) continue;
      const s = doc.sprites[e.sprite]!;
      if (!s.width || !s.height) continue;
      // The model flips about the pivot (the part's upper-left corner); CTHG flips within the sprite's box.
      const flipX = !!(e.flags & FLAG_FLIP_HORIZONTAL);
      const flipY = !!(e.flags & FLAG_FLIP_VERTICAL);
      const part: ModelPart = {
        sheet: e.sprite,
        sx: 0,
        sy: 0,
        sw: s.width,
        sh: s.height,
        x: e.x + (flipX ? s.width : 0),
        y: e.y + (flipY ? s.height : 0),
      };
      if (flipX) part.flipX = true;
      if (flipY) part.flipY = true;
      const op = elementOpacity(e.flags);
      if (op !== 1) part.opacity = op;
      parts.push(part);
    }
    return { durationMs: TICK_MS, parts, events: f.sound ? [String(f.sound)] : [] };
  };
  for (const a of doc.animations) {
    for (const v of VIEWS) {
      const first = a.views[v];
      if (first === null) continue;
      const frames = [];
      for (let k = 0; k < a.frameCount; k++) {
        played.add(first + k);
        frames.push(frameOf(doc.frames[first + k]!));
      }
      animations.push({ name: a.tileSize === 64 ? a.name : `${a.name}@${a.tileSize}`, direction: v, frames, loopTo: 0 });
    }
  }
  // Frames no animation's views play are kept (as an animation marked unused), labelled by their index.
  if (played.size < doc.frames.length) {
    const rest = unusedAnimation(
      animations,
      doc.frames.flatMap((f, i) => (played.has(i) ? [] : [{ ...frameOf(f), label: `frame ${i}` }])),
    );
    if (rest) animations.push(rest);
  }
  if (layered) notes.push(`${layered} element${layered === 1 ? ' is' : 's are'} on a selectable layer (layer id ≠ 0) and were left out`);
  if (recolour) notes.push('recoloured pixels are shown with the grey ramp (no recolour tables)');
  return { kind: 'sprite', name, sheets, animations, ...(notes.length ? { notes } : {}) };
}

function rotateCcw(img: RgbaImage): RgbaImage {
  // A slice stored rotated 90° clockwise in its sheet: turn it back.
  const out = createImage(img.height, img.width);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const o = ((img.width - 1 - x) * out.width + y) * 4;
      out.data.set(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4), o);
    }
  }
  return out;
}

/**
 * From the common model: animations are grouped by name into CA blocks
 * (tile size 64; a name ending in "@N" gives tile size N); a direction
 * north/east/south/west picks the view (no direction: north), a numbered
 * one (Solarus's) the view src/model/directions.ts gives it; each part
 * becomes a sprite cut from its sheet (identical cuts share a sprite);
 * flips become flags 0x2 (horizontal) and 0x1 (vertical); opacity 0.5 and
 * 0.25 become flags 0x4 and 0x8, other opacities are multiplied into the
 * pixels; a frame's first numeric event becomes its sound. Rotation and
 * scaling cannot be expressed and are an error.
 */
export function cthgFromModel(model: SpriteModel | LevelModel, options: CommandOptions = {}): CthgDocument {
  if (model.kind !== 'sprite') throw new FormatError('cthg', 'a level cannot be converted to a CTHG animation file');
  const budget = budgetFrom(options);
  const doc = createCthg();
  const notes: string[] = [];
  const policy = rangePolicy(options.clamp === true, notes);
  const timing: { at: FrameAt; fromMs: number; toMs: number }[] = [];
  let rounded = 0;
  const lostEvents: string[] = [];
  const groups = new Map<string, { tileSize: number; views: Map<CthgViewName, ModelAnimation> }>();
  // Animations with no direction, written as their north view: reading the file back gives them one.
  const viewless: string[] = [];
  const numbered = new Map<string, string[]>();
  for (const a of model.animations) {
    if (a.direction === undefined) viewless.push(JSON.stringify(a.name));
    const m = /^(.*)@(\d+)$/.exec(a.name);
    const name = m ? m[1]! : a.name;
    const tileSize = m ? Number(m[2]) : 64;
    const key = `${name}\u0000${tileSize}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { tileSize, views: new Map() }));
    let dir = (a.direction ?? 'north').toLowerCase();
    // A numbered direction (Solarus's) becomes its view by the one table both ways (src/model/directions.ts).
    if (/^\d+$/.test(dir)) {
      const n = model.animations.filter((b) => b.name === a.name).length;
      const view = compassOfNumber(Number(dir), n);
      if (view) {
        numbered.set(a.name, [...(numbered.get(a.name) ?? []), `${dir} -> ${view}`]);
        dir = view;
      }
    }
    if (!(VIEWS as readonly string[]).includes(dir)) {
      throw new FormatError('cthg', `animation "${a.name}" has direction "${a.direction}"; CTHG views are north, east, south and west`);
    }
    if (g.views.has(dir as CthgViewName)) throw new FormatError('cthg', `animation "${a.name}" has two ${dir} views`);
    if (a.frames.length === 0) throw new FormatError('cthg', `animation "${a.name}" has no frames`);
    g.views.set(dir as CthgViewName, a);
  }
  const spriteKeys = new Map<string, number>();
  const spriteFor = (p: ModelPart, opacityIntoPixels: number): number => {
    const key = `${p.sheet},${p.sx},${p.sy},${p.sw},${p.sh},${p.rotatedInSheet ? 1 : 0},${opacityIntoPixels}`;
    const known = spriteKeys.get(key);
    if (known !== undefined) return known;
    const sheet = model.sheets[p.sheet];
    if (!sheet?.image) throw new FormatError('cthg', `sheet ${p.sheet} (${sheet?.path ?? 'missing'}) has no pixels loaded`);
    // Checked before the crop allocates: whole pixels, and the output-pixel budget.
    if (![p.sx, p.sy, p.sw, p.sh].every(Number.isInteger) || p.sw < 0 || p.sh < 0) {
      throw new FormatError(
        'cthg',
        `sheet ${p.sheet} (${sheet.path}): the part ${p.sw}x${p.sh} at (${p.sx}, ${p.sy}) is not a whole-pixel rectangle`,
      );
    }
    budget.spend('maxPixels', p.sw * p.sh, `a ${p.sw}x${p.sh} sprite`);
    const img = p.rotatedInSheet
      ? rotateCcw(cropImage(sheet.image, p.sx, p.sy, p.sh, p.sw))
      : cropImage(sheet.image, p.sx, p.sy, p.sw, p.sh);
    if (opacityIntoPixels !== 1) {
      for (let i = 3; i < img.data.length; i += 4) img.data[i] = Math.round(img.data[i]! * opacityIntoPixels);
    }
    const idx = doc.sprites.length;
    doc.sprites.push(spriteFromImage(img));
    spriteKeys.set(key, idx);
    return idx;
  };
  for (const [key, g] of groups) {
    const name = key.split('\u0000')[0]!;
    const counts = new Set([...g.views.values()].map((a) => a.frames.length));
    if (counts.size > 1)
      throw new FormatError('cthg', `the views of "${name}" have different frame counts (${[...counts].join(', ')}); CTHG needs the same`);
    const frameCount = [...counts][0]!;
    const views = { north: null, east: null, south: null, west: null } as Record<CthgViewName, number | null>;
    for (const v of VIEWS) {
      const a = g.views.get(v);
      if (!a) continue;
      views[v] = doc.frames.length;
      for (const [fi, f] of a.frames.entries()) {
        const elements: CthgElement[] = [];
        timing.push({ at: { animation: a.name, direction: a.direction, frame: fi }, fromMs: f.durationMs, toMs: TICK_MS });
        for (const p of f.parts) {
          if ((p.rotation ?? 0) % 360 !== 0 || (p.scaleX ?? 1) !== 1 || (p.scaleY ?? 1) !== 1) {
            throw new FormatError('cthg', `animation "${a.name}" rotates or scales a part; CTHG elements can only be flipped`);
          }
          const op = p.opacity ?? 1;
          let flags = 0;
          let intoPixels = 1;
          if (op === 0.5) flags |= FLAG_ALPHA_50;
          else if (op === 0.25) flags |= FLAG_ALPHA_75;
          else intoPixels = op;
          if (p.flipX) flags |= FLAG_FLIP_HORIZONTAL;
          if (p.flipY) flags |= FLAG_FLIP_VERTICAL;
          const w = p.rotatedInSheet ? p.sh : p.sw;
          const h = p.rotatedInSheet ? p.sw : p.sh;
          // The pivot is in the unflipped part; a flip mirrors the part about its own box.
          const ox = p.originX ?? 0;
          const oy = p.originY ?? 0;
          const exactLeft = p.x - (p.flipX ? w - ox : ox);
          const exactTop = p.y - (p.flipY ? h - oy : oy);
          if (!Number.isInteger(exactLeft) || !Number.isInteger(exactTop)) rounded++;
          const at = () => `animation "${a.name}" ${v} frame ${fi} element ${elements.length}`;
          const left = fitInt('cthg', 'i16', Math.round(exactLeft), `${at()} x`, policy);
          const top = fitInt('cthg', 'i16', Math.round(exactTop), `${at()} y`, policy);
          elements.push({ sprite: spriteFor(p, intoPixels), x: left, y: top, layerClass: 0, layerId: 0, flags });
        }
        const sound = (f.events ?? []).map(Number).find((n) => Number.isInteger(n) && n > 0 && n <= 0xffff) ?? 0;
        for (const e of f.events ?? [])
          if (e !== '' && e !== String(sound)) lostEvents.push(`"${a.name}" ${v} frame ${fi}: ${JSON.stringify(e)}`);
        doc.frames.push({ sound, elements });
      }
    }
    doc.animations.push({ name, tileSize: g.tileSize, frameCount, views });
  }
  policy.finish();
  if (viewless.length) {
    notes.push(`cthg: animations with no view are written as view north: ${listed(viewless, NOTE_NAMES)}`);
  }
  if (numbered.size) {
    const which = [...numbered.keys()].map((name) => JSON.stringify(name));
    notes.push(
      `cthg: numbered directions are written as views (0 east, 1 north, 2 west, 3 south; a lone direction: north): ${listed(which, NOTE_NAMES)}`,
    );
  }
  for (const n of timingNotes('cthg', `every CTHG frame lasts one game tick (${TICK_MS} ms)`, timing)) notes.push(n);
  // The game plays every animation round and round from its first frame (toModel reads them with loopTo 0).
  const notLooping = [
    ...new Set(
      model.animations
        .filter((a) => a.loopTo !== 0 && a.frames.length > 1)
        .map((a) => `${JSON.stringify(a.name)} (${a.loopTo === null ? 'stops' : `loops to frame ${a.loopTo}`})`),
    ),
  ];
  if (notLooping.length) notes.push(`cthg: every CTHG animation loops from its first frame: ${listed(notLooping, NOTE_NAMES)}`);
  if (rounded) notes.push(`cthg: ${rounded} element position${rounded === 1 ? '' : 's'} rounded to whole pixels`);
  if (lostEvents.length) {
    notes.push(
      `cthg: a frame holds one sound number; these events were left out: ${lostEvents.slice(0, 10).join('; ')}${lostEvents.length > 10 ? `; … (${lostEvents.length} in all)` : ''}`,
    );
  }
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return doc;
}
