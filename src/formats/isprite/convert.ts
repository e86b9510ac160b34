/**
 * ISPRITE <-> the common SpriteModel. Each sequence becomes an animation
 * named by its path (`Root/Armed/attack`); graphic elements become parts,
 * attachment points and collision objects become shapes.
 *
 * Placement: an element's position is where the upper-left corner of its
 * (unrotated, unscaled) slice goes; rotation, scale and mirroring are about
 * its origin point, which for a simple ("g") element is the slice centre.
 */
import { FormatError, isFormatError } from '../../binary/errors.js';
import { chooseFrameRate, timingNotes, type FrameAt } from '../../model/timing.js';
import { limitsFrom } from '../../binary/limits.js';
import { loadImage, type ResourceRequest } from '../resources.js';
import type { ModelAnimation, ModelFrame, ModelPart, ModelShape, ModelSheet, SpriteModel, LevelModel } from '../../model/types.js';
import type { CommandOptions, ResourceLoader } from '../types.js';
import { unusedAnimation } from '../../model/unused.js';
import {
  createIsprite,
  sliceCentre,
  type IspriteDocument,
  type IspriteElement,
  type IspriteFrame,
  type IspriteGraphic,
  type IspriteGroup,
  type IspriteNode,
  type IspriteSequence,
  type IspriteSlice,
} from './model.js';
import { allSequences, effectiveFrameRate, namesEqual, resolveFollowUps, sequenceFrameRates, setSequenceFrameRate } from './paths.js';
import { elementsOf } from './compact.js';
import { listed, NOTE_NAMES } from '../options.js';

/** A sequence name the model reads as a direction of the animation named by its group (how fromModel stores them). */
const DIRECTION = /^(north|east|south|west|\d+)$/i;

/**
 * The model's name for a sequence path: the path without `Root/`; a sequence
 * named like a direction (north, east, south, west, or a number) inside a
 * group is that direction of an animation named by the group's path.
 */
export function modelNameOf(path: string): { name: string; direction?: string } {
  const segs = path.split('/').slice(1);
  const last = segs[segs.length - 1]!;
  if (segs.length >= 2 && DIRECTION.test(last)) return { name: segs.slice(0, -1).join('/'), direction: last };
  return { name: segs.join('/') };
}

/** Where texture `i` is looked for: PATH.png, or PATH as given first when it has an extension (the document's folder). */
export function textureRequest(doc: IspriteDocument, i: number): ResourceRequest {
  const p = doc.textures[i]!.path;
  return {
    format: 'isprite',
    what: `texture ${i}`,
    name: p,
    candidates: /\.[a-z0-9]{2,4}$/i.test(p) ? [p, `${p}.png`] : [`${p}.png`],
  };
}

export async function ispriteToModel(doc: IspriteDocument, resources?: ResourceLoader, options?: CommandOptions): Promise<SpriteModel> {
  const notes: string[] = [];
  const sheets: ModelSheet[] = [];
  const limits = limitsFrom(options);
  for (const [i, t] of doc.textures.entries()) {
    const sheet: ModelSheet = { path: t.path, nearest: t.nearest };
    if (resources) {
      try {
        sheet.image = (await loadImage(resources, textureRequest(doc, i), limits)).image;
      } catch (e) {
        if (!isFormatError(e)) throw e;
        sheet.loadError = e.message;
        notes.push(`${e.message}; the sheet has no pixels`);
      }
    }
    sheets.push(sheet);
  }
  const rates = sequenceFrameRates(doc);
  const followUps = resolveFollowUps(doc);
  const animations: ModelAnimation[] = [];
  let zeroRate = false;
  for (const ref of allSequences(doc)) {
    const s = ref.sequence;
    const rate = effectiveFrameRate(doc, s, rates);
    if (rate === 0) zeroRate = true;
    const frames: ModelFrame[] = [];
    for (const id of s.frames) {
      const fr = doc.frames[id];
      if (!fr) {
        notes.push(`sequence ${ref.path}: frame ${id} does not exist; left out`);
        continue;
      }
      frames.push(frameToModel(doc, fr, rate));
    }
    const anim: ModelAnimation = {
      ...modelNameOf(ref.path),
      frames,
      loopTo: s.loopPoint !== null && s.loopPoint < frames.length ? s.loopPoint : null,
    };
    if (s.followUp) {
      const next = followUps.get(s);
      if (next) anim.next = modelNameOf(next.path).name;
      else notes.push(`sequence ${ref.path}: follow-up "${s.followUp}" names no sequence`);
    }
    animations.push(anim);
  }
  // Frames no sequence plays are kept (as an animation marked unused), at the sprite's frame rate.
  const played = new Set<number>();
  for (const ref of allSequences(doc)) for (const id of ref.sequence.frames) played.add(id);
  if (played.size < doc.frames.length) {
    const rest = unusedAnimation(
      animations,
      doc.frames.flatMap((fr, id) => (played.has(id) ? [] : [frameToModel(doc, fr, doc.frameRate)])),
    );
    if (rest) animations.push(rest);
  }
  if (zeroRate) notes.push('a frame rate of 0 (the application steps by hand) gives frames that last forever');
  return { kind: 'sprite', name: doc.meta?.title || 'sprite', sheets, animations, notes };
}

/**
 * A graphic element as a model part: its slice as stored in the texture, the
 * origin point as the pivot (default: the centre of the upright slice), and
 * the position as where the upright slice's upper-left corner goes when it
 * is neither rotated nor scaled. Null when the slice does not exist.
 */
export function graphicPart(doc: IspriteDocument, el: IspriteGraphic): ModelPart | null {
  const s = doc.slices[el.slice];
  if (!s) return null;
  const [cx, cy] = sliceCentre(s);
  const ox = el.expanded ? (el.originX ?? cx) : cx;
  const oy = el.expanded ? (el.originY ?? cy) : cy;
  const part: ModelPart = {
    sheet: s.texture,
    sx: s.x,
    sy: s.y,
    sw: s.width,
    sh: s.height,
    x: el.x + ox,
    y: el.y + oy,
    originX: ox,
    originY: oy,
  };
  if (el.flipX) part.flipX = true;
  if (el.flipY) part.flipY = true;
  if (el.expanded) {
    if ((el.rotation ?? 0) !== 0) part.rotation = el.rotation;
    if ((el.scaleX ?? 1) !== 1) part.scaleX = el.scaleX;
    if ((el.scaleY ?? 1) !== 1) part.scaleY = el.scaleY;
    if ((el.opacity ?? 65535) !== 65535) part.opacity = (el.opacity ?? 65535) / 65535;
  }
  if (s.rotated) part.rotatedInSheet = true;
  return part;
}

function frameToModel(doc: IspriteDocument, fr: IspriteFrame, rate: number): ModelFrame {
  const hold = fr.holdTime || 1;
  const frame: ModelFrame = { durationMs: rate > 0 ? (hold * 1000) / rate : Infinity, parts: [] };
  const shapes: ModelShape[] = [];
  for (const el of elementsOf(fr)) {
    const name = el.name !== null ? (doc.names[el.name] ?? '') : '';
    if (el.type === 'graphic') {
      const part = graphicPart(doc, el);
      if (!part) continue;
      if (name) part.name = name;
      frame.parts.push(part);
    } else if (el.type === 'attachment') {
      const p: ModelShape = { type: 'point', name, x: el.x, y: el.y };
      if (el.rotation !== 0) p.rotation = el.rotation;
      shapes.push(p);
    } else if (el.type === 'rect') {
      const r: ModelShape = { type: 'rect', name, x: el.x, y: el.y, width: el.width, height: el.height };
      if (el.rotation !== 0) r.rotation = el.rotation;
      shapes.push(r);
    } else if (el.type === 'circle') {
      shapes.push({ type: 'circle', name, x: el.x, y: el.y, radius: el.radius });
    }
  }
  if (shapes.length) frame.shapes = shapes;
  if (fr.triggers) frame.events = [fr.triggers];
  if (fr.label) frame.label = fr.label;
  return frame;
}

const RATES = [1, 2, 4, 5, 6, 8, 10, 12, 15, 20, 24, 25, 30, 50, 60];

/**
 * The smallest common frame rate that makes every duration a whole number of
 * frames; when none of the common rates does, the rate up to 255 fps with the
 * smallest largest error (model/timing.ts chooseFrameRate, which the
 * converters report their timing error with), not a fixed 60.
 */
function pickFrameRate(durations: number[]): number {
  const finite = durations.filter((d) => Number.isFinite(d) && d > 0);
  for (const r of RATES) {
    if (
      finite.every((d) => {
        const h = (d * r) / 1000;
        return h >= 1 && h <= 0xffff && Math.abs(h - Math.round(h)) < 1e-6;
      })
    )
      return r;
  }
  return chooseFrameRate(finite.map((d) => d / 1000)).fps;
}

function fixedOk(v: number): boolean {
  return Number.isFinite(v) && v >= -32768 && v <= FIXED_MAX;
}

/** The largest 24-bit fixed-point value (8 fraction bits). */
const FIXED_MAX = 32767.99609375;

/** A graphic element's fixed-point fields, in the order their errors are reported. */
const FIXED_FIELDS = ['x', 'y', 'originX', 'originY', 'rotation', 'scaleX', 'scaleY'] as const;

export function ispriteFromModel(model: SpriteModel | LevelModel, options: { clamp?: boolean } = {}): IspriteDocument {
  if (model.kind !== 'sprite') throw new FormatError('isprite', 'an ISPRITE file holds a sprite, not a level');
  const doc = createIsprite();
  doc.textures = model.sheets.map((s) => ({ path: s.path.replace(/\.png$/i, ''), nearest: s.nearest ?? false }));
  if (doc.textures.length > 255) throw new FormatError('isprite', `${doc.textures.length} sheets; an ISPRITE file holds at most 255`);
  const durations = model.animations.flatMap((a) => a.frames.map((f) => f.durationMs));
  doc.frameRate = pickFrameRate(durations);
  const sliceIds = new Map<string, number>();
  const nameIds = new Map<string, number>();
  const nameOf = (n: string | undefined): number | null => {
    if (!n) return null;
    let id = nameIds.get(n);
    if (id === undefined) {
      id = doc.names.length;
      doc.names.push(n);
      nameIds.set(n, id);
    }
    return id;
  };
  const sliceOf = (p: ModelPart): number => {
    const key = `${p.sheet},${p.sx},${p.sy},${p.sw},${p.sh},${p.rotatedInSheet ? 1 : 0}`;
    let id = sliceIds.get(key);
    if (id === undefined) {
      id = doc.slices.length;
      const s: IspriteSlice = { texture: p.sheet, rotated: !!p.rotatedInSheet, x: p.sx, y: p.sy, width: p.sw, height: p.sh };
      doc.slices.push(s);
      sliceIds.set(key, id);
    }
    return id;
  };
  const manual: IspriteSequence[] = [];
  const changes: { at: FrameAt; fromMs: number; toMs: number }[] = [];
  const clampNotes: string[] = [];
  const sliceExtras = new Set<string>();
  for (const anim of model.animations) {
    const ids: number[] = [];
    // Frames that all last forever: a sequence the application steps by hand (frame rate 0, erratum 6),
    // which toModel reads back as frames that last forever.
    const forever = anim.frames.length > 0 && anim.frames.every((f) => f.durationMs === Infinity);
    for (const [fi, mf] of anim.frames.entries()) {
      let hold = forever ? 1 : Number.isFinite(mf.durationMs) ? Math.round((mf.durationMs * doc.frameRate) / 1000) : 0xffff;
      hold = Math.min(0xffff, Math.max(1, hold));
      if (!forever)
        changes.push({
          at: { animation: anim.name, direction: anim.direction, frame: fi },
          fromMs: mf.durationMs,
          toMs: (hold * 1000) / doc.frameRate,
        });
      const elements: IspriteElement[] = [];
      for (const p of mf.parts) {
        const ox = p.originX ?? 0;
        const oy = p.originY ?? 0;
        const x = p.x - ox;
        const y = p.y - oy;
        const rot = p.rotation ?? 0;
        const sx = p.scaleX ?? 1;
        const sy = p.scaleY ?? 1;
        const op = Math.round(Math.max(0, Math.min(1, p.opacity ?? 1)) * 65535);
        const centred = ox === p.sw / 2 && oy === p.sh / 2;
        const simple = rot === 0 && sx === 1 && sy === 1 && op === 65535 && (centred || (!p.flipX && !p.flipY));
        const values = { x, y, originX: ox, originY: oy, rotation: rot, scaleX: sx, scaleY: sy };
        for (const k of FIXED_FIELDS) {
          const v = values[k];
          if (fixedOk(v)) continue;
          const what = `animation "${anim.name}" frame ${fi} part ${elements.length} ${k} ${v}`;
          if (!options.clamp || Number.isNaN(v))
            throw new FormatError('isprite', `${what} does not fit the file's fixed-point field (-32768 to 32767.99609375)`);
          values[k] = Math.min(FIXED_MAX, Math.max(-32768, v));
          clampNotes.push(`${what} clamped to ${values[k]} (the file's fixed-point field)`);
        }
        const base = { name: nameOf(p.name), slice: sliceOf(p), x: values.x, y: values.y, flipX: !!p.flipX, flipY: !!p.flipY };
        elements.push(
          simple
            ? { type: 'graphic', expanded: false, ...base }
            : {
                type: 'graphic',
                expanded: true,
                ...base,
                originX: values.originX,
                originY: values.originY,
                rotation: values.rotation,
                scaleX: values.scaleX,
                scaleY: values.scaleY,
                opacity: op,
              },
        );
      }
      let pointId = 0;
      let shapeId = 0;
      for (const s of mf.shapes ?? []) {
        if (s.type === 'point') {
          elements.push({
            type: 'attachment',
            name: nameOf(s.name),
            id: pointId++,
            x: s.x,
            y: s.y,
            flipX: false,
            flipY: false,
            rotation: s.rotation ?? 0,
            scaleX: 1,
            scaleY: 1,
            opacity: 65535,
          });
        } else if (s.type === 'rect') {
          if (s.center || s.pivot || s.color !== undefined || s.userData !== undefined) sliceExtras.add(s.name);
          elements.push({
            type: 'rect',
            name: nameOf(s.name),
            id: shapeId++,
            x: s.x,
            y: s.y,
            width: s.width,
            height: s.height,
            rotation: s.rotation ?? 0,
          });
        } else {
          elements.push({ type: 'circle', name: nameOf(s.name), id: shapeId++, x: s.x, y: s.y, radius: s.radius });
        }
      }
      ids.push(doc.frames.length);
      doc.frames.push({
        holdTime: hold,
        loopPoint: false,
        // The source's own frame name when the model has it (a sheet sprat wrote keeps it in meta.sprat), else its label.
        label: mf.name ?? mf.label ?? '',
        triggers: (mf.events ?? []).join('\n'),
        notes: '',
        elements,
      });
    }
    // A direction becomes a sequence of that name in a group named by the animation (toModel reads it back).
    const fullName = anim.direction ? `${anim.name}/${anim.direction}` : anim.name;
    const segs = fullName.split('/').filter((s) => s !== '');
    if (segs.length > 1 && namesEqual(segs[0]!, 'Root')) segs.shift();
    const seqName = segs.pop() ?? '';
    let children: IspriteNode[] = doc.tree;
    for (const g of segs) {
      let group = children.find((n): n is IspriteGroup => n.kind === 'group' && n.name === g);
      if (!group) {
        group = { kind: 'group', name: g, children: [] };
        children.push(group);
      }
      children = group.children;
    }
    const seq: IspriteSequence = {
      kind: 'sequence',
      name: seqName,
      loopPoint: anim.loopTo ?? null,
      followUp: anim.next ? (anim.next.split('/').pop() ?? '') : '',
      frames: ids,
    };
    children.push(seq);
    if (forever && doc.frameRate !== 0) manual.push(seq);
  }
  for (const seq of manual) setSequenceFrameRate(doc, seq, 0);
  const notes = timingNotes(
    'isprite',
    `frame durations rounded to whole frames at ${doc.frameRate} fps (ISPRITE holds each frame 1 to 65535 frames)`,
    changes,
  );
  if (sliceExtras.size)
    notes.push(
      `isprite: a collision rectangle holds no 9-patch centre, pivot, colour or user data; those of these slices were dropped: ${listed(
        [...sliceExtras].map((n) => JSON.stringify(n)),
        NOTE_NAMES,
      )}`,
    );
  for (const n of clampNotes.slice(0, 20)) notes.push(n);
  if (clampNotes.length > 20) notes.push(`${clampNotes.length - 20} more values clamped`);
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return doc;
}
