/**
 * Drawing ISPRITE frames: graphic elements from their slices (rotated slices
 * turned back, mirroring, rotation and scale about the element's origin
 * point, opacity), optionally the collision shapes and attachment points in
 * outline. `sprat render FILE.isprite -o OUT [--animation PATH|NAME]
 * [--frame K | --frame-id N] [--shapes] [--filter nearest|bilinear]`.
 *
 * Placement: an element's position is where its slice's upper-left corner
 * goes when it is neither rotated nor scaled; rotation (clockwise degrees),
 * scale and mirroring turn about the origin point (slice pixels from the
 * upper-left). For a simple graphic the origin is the slice centre, which
 * makes no difference since it has no rotation or scale. A slice's x, y,
 * width and height are its rectangle in the texture as stored; one stored
 * rotated 90° clockwise is turned back counter-clockwise, so it shows
 * height × width. The geometry is the common model's (graphicPart and
 * partMatrix), so a render and a conversion always agree.
 */
import { FormatError, isFormatError } from '../../binary/errors.js';
import { ANIMATION_OPTION, FRAME_OPTION, ORIGIN_OPTION } from '../selections.js';
import type { CommandOptions, OptionSpec, RenderResult, RenderView, ResourceLoader } from '../types.js';
import { choiceOption, flagOption, intOption, namesNothing, parsedOption, selectIndex, stringOption } from '../options.js';
import { transformedBounds, type Rect } from '../../render/compose.js';
import type { RgbaImage } from '../../render/image.js';
import { compose, IDENTITY, rotate, translate } from '../../render/matrix.js';
import {
  drawPicture,
  rectOutline,
  withOriginCross,
  type Overlay,
  type Picture,
  type PictureFrame,
  type PicturePart,
  type Rgba,
} from '../../render/pipeline.js';
import { budgetFrom, type Budget } from '../../binary/limits.js';
import { partMatrix } from '../../model/bake.js';
import { graphicPart, textureRequest } from './convert.js';
import { dirOf, imageCache, joinPath, loadResource, MissingFiles } from '../resources.js';
import type { IspriteAttachment, IspriteDocument, IspriteFrame, IspriteSequence } from './model.js';
import { pointTransform, toPlacement } from './attach.js';
import { elementName } from './interpolate.js';
import { readIsprite } from './read.js';
import { elementsOf } from './compact.js';
import { Player } from './play.js';
import { effectiveFrameRate, findSequence, getDefaultSequence, listSequences, namesEqual } from './paths.js';

const FRAME_ID_OPTION: OptionSpec = { name: 'frame-id', type: 'int', min: 0, description: 'ISPRITE: draw this frame ID alone' };
const SHAPES_OPTION: OptionSpec = {
  name: 'shapes',
  type: 'flag',
  description: 'ISPRITE: outline collision shapes (red) and attachment points (blue)',
};
const FILTER_OPTION = {
  name: 'filter',
  type: 'string',
  choices: ['nearest', 'bilinear'],
  description: 'texture filtering (default: nearest for textures flagged so, else bilinear)',
} as const satisfies OptionSpec;

/** `--attach POINT=FILE.isprite`: another sprite drawn at the attachment points of that name. */
export const ATTACH_OPTION = {
  name: 'attach',
  type: 'string',
  value: 'POINT=FILE.isprite',
  description:
    'ISPRITE: draw another ISPRITE sprite at every attachment point of that name, where the point is in the display order; it plays its default sequence (else its first) on its own hold times and frame rate from the first frame drawn',
  parse(text: string): { point: string; file: string } | undefined {
    const m = /^([^=]+)=(.+)$/.exec(text);
    return m ? { point: m[1]!, file: m[2]! } : undefined;
  },
  paths: (value: string, resolve: (p: string) => string) => value.replace(/=(.+)$/, (_, p: string) => `=${resolve(p)}`),
} as const satisfies OptionSpec;

export const ispriteRenderOptions: readonly OptionSpec[] = [
  ANIMATION_OPTION,
  FRAME_OPTION,
  FRAME_ID_OPTION,
  SHAPES_OPTION,
  ORIGIN_OPTION,
  FILTER_OPTION,
  ATTACH_OPTION,
];

/** Loads every texture the document names (PATH.png, or PATH as given when it has an extension). */
export async function loadTextures(
  doc: IspriteDocument,
  resources: ResourceLoader,
  needed?: Set<number>,
  options?: CommandOptions,
  /** For `render`: a texture that cannot be had is null, its file a warning (else the error). */
  missing?: MissingFiles,
): Promise<(RgbaImage | null)[]> {
  const load = imageCache(resources, options);
  const one = async (i: number) => (await load(textureRequest(doc, i))).image;
  return Promise.all(
    doc.textures.map(async (_, i) =>
      needed && !needed.has(i) ? null : missing ? ((await missing.attempt(() => one(i), 'the graphics on it')) ?? null) : one(i),
    ),
  );
}

function union(a: Rect | null, b: Rect): Rect {
  if (!a) return b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/** The bounds of a frame in sprite space (graphics, and shapes when asked). */
export function frameBounds(doc: IspriteDocument, frame: IspriteFrame, withShapes = false): Rect | null {
  let r: Rect | null = null;
  for (const e of elementsOf(frame)) {
    if (e.type === 'graphic') {
      const p = graphicPart(doc, e);
      if (!p?.sw || !p.sh) continue;
      r = union(r, transformedBounds(p.sw, p.sh, partMatrix(p)));
    } else if (withShapes && e.type === 'rect') {
      r = union(r, transformedBounds(e.width, e.height, compose(rotate(e.rotation), translate(e.x, e.y))));
    } else if (withShapes && e.type === 'circle') {
      r = union(r, { x: e.x - e.radius, y: e.y - e.radius, width: 2 * e.radius, height: 2 * e.radius });
    } else if (withShapes && e.type === 'attachment') {
      r = union(r, { x: e.x - 3, y: e.y - 3, width: 6, height: 6 });
    }
  }
  return r;
}

const RED = [230, 30, 30, 255] as const;
const BLUE = [30, 90, 230, 255] as const;

/** Collision shapes (red outlines) and attachment points (blue crosses) of a frame, in sprite space. */
function shapeOverlays(frame: IspriteFrame): Overlay[] {
  const out: Overlay[] = [];
  const line = (x0: number, y0: number, x1: number, y1: number, colour: Rgba) => out.push({ kind: 'line', x0, y0, x1, y1, colour });
  for (const e of elementsOf(frame)) {
    if (e.type === 'rect') {
      for (const o of rectOutline(compose(rotate(e.rotation), translate(e.x, e.y)), e.width, e.height, RED)) out.push(o);
    } else if (e.type === 'circle') {
      const n = Math.max(16, Math.ceil(e.radius * 6));
      for (let i = 0; i < n; i++) {
        const a0 = (2 * Math.PI * i) / n;
        const a1 = (2 * Math.PI * (i + 1)) / n;
        line(
          e.x + e.radius * Math.cos(a0),
          e.y + e.radius * Math.sin(a0),
          e.x + e.radius * Math.cos(a1),
          e.y + e.radius * Math.sin(a1),
          RED,
        );
      }
    } else if (e.type === 'attachment') {
      line(e.x - 2, e.y, e.x + 2, e.y, BLUE);
      line(e.x, e.y - 2, e.x, e.y + 2, BLUE);
    }
  }
  return out;
}

/** What one frame holds, in sprite space: its graphics (and its shapes when asked). */
export function framePicture(
  doc: IspriteDocument,
  frame: IspriteFrame,
  textures: (RgbaImage | null)[],
  opts: { shapes?: boolean; filter?: 'nearest' | 'bilinear'; attached?: (e: IspriteAttachment) => PicturePart[] } = {},
): PictureFrame {
  const parts: PicturePart[] = [];
  let attachedAny = false;
  for (const e of elementsOf(frame)) {
    if (e.type === 'attachment' && opts.attached) {
      // Drawn where the point is in the display order: elements after it appear over it.
      for (const p of opts.attached(e)) {
        parts.push(p);
        attachedAny = true;
      }
    }
    if (e.type !== 'graphic') continue;
    const p = graphicPart(doc, e);
    const tex = p && textures[p.sheet];
    if (!p || !tex) continue;
    const filter = opts.filter ?? (doc.textures[p.sheet]?.nearest ? 'nearest' : 'bilinear');
    parts.push({ image: tex, sx: p.sx, sy: p.sy, sw: p.sw, sh: p.sh, transform: partMatrix(p), opacity: p.opacity ?? 1, filter });
  }
  const overlays = opts.shapes ? shapeOverlays(frame) : undefined;
  // With an attached sprite the frame is what its parts touch.
  return attachedAny ? { parts, overlays } : { parts, overlays, extent: frameBounds(doc, frame, opts.shapes) };
}

/** The attached sprite of `--attach`: its document, and its frames drawn by frame ID (textures relative to its own folder). */
async function attachedSprite(
  options: CommandOptions,
  resources: ResourceLoader,
  filter: 'nearest' | 'bilinear' | undefined,
): Promise<{ point: string; doc: IspriteDocument; picture: (id: number | null) => PictureFrame | undefined } | undefined> {
  const spec = parsedOption(options, ATTACH_OPTION);
  if (!spec) return undefined;
  const { path, bytes } = await loadResource(resources, { format: 'isprite', what: '--attach sprite', name: spec.file });
  let child: IspriteDocument;
  try {
    child = readIsprite(bytes);
  } catch (e) {
    if (isFormatError(e)) throw new FormatError('isprite', `--attach sprite "${spec.file}": ${e.message}`);
    throw e;
  }
  // Its textures are named relative to its own file.
  const dir = dirOf(path);
  const beside: ResourceLoader = {
    load: (p) => resources.load(joinPath(dir, p)),
    exists: (p) => resources.exists(joinPath(dir, p)),
    describe: (p) => resources.describe?.(joinPath(dir, p)) ?? joinPath(dir, p),
  };
  const textures = await loadTextures(child, beside, undefined, options);
  const drawn = new Map<number, PictureFrame>();
  const picture = (id: number | null) => {
    const f = id === null ? undefined : child.frames[id];
    if (!f || id === null) return undefined;
    if (!drawn.has(id)) drawn.set(id, framePicture(child, f, textures, { filter }));
    return drawn.get(id);
  };
  return { point: spec.point, doc: child, picture };
}

/** One picture of a sprite with an attached one: the parent's frame (index into the frames drawn), the child's frame ID, how long it shows. */
interface AttachedStep {
  parent: number;
  child: number | null;
  delayMs: number | undefined;
}

/** Times closer than this (ms) are the same time (sums of fractional step lengths). */
const SAME_TIME_MS = 1e-6;

/**
 * The attached sprite's frames over the parent's, by docs/spec/isprite.md's
 * playback rules: each sprite plays on its own hold times and frame rate.
 * The parent shows frame i for `delaysMs[i]`; the child starts with it, on
 * its default sequence (else its first), at position 0, and steps every
 * 1000 / rate ms of its current sequence's effective rate (100 ms at rate 0,
 * as the parent's delays count), moving on by its hold times, follow-ups and
 * loop point (`Player.step`). A parent frame during which the child changes
 * is drawn once per child frame, each for as long as it shows. Every child
 * step counts against `--max-records`.
 */
export function attachedTimeline(delaysMs: readonly number[], child: IspriteDocument, budget: Budget): AttachedStep[] {
  const player = new Player(child);
  if (player.sequenceIndex < 0) {
    const first = listSequences(child)[0];
    if (first) player.setSequence(first.path);
  }
  const stepMs = () => (player.frameRate > 0 ? 1000 / player.frameRate : 100);
  const out: AttachedStep[] = [];
  let now = 0;
  let next = stepMs();
  for (let i = 0; i < delaysMs.length; i++) {
    const end = now + delaysMs[i]!;
    let start = now;
    let shown = player.frameId;
    while (next < end - SAME_TIME_MS && !player.stopped) {
      budget.spend('maxRecords', 1, 'the attached sprite’s steps');
      player.step();
      const at = next;
      next += stepMs();
      if (player.frameId === shown) continue;
      if (at - start > SAME_TIME_MS) out.push({ parent: i, child: shown, delayMs: at - start });
      start = at;
      shown = player.frameId;
    }
    out.push({ parent: i, child: shown, delayMs: end - start });
    now = end;
  }
  return out;
}

/**
 * The sequence `--animation` names: a path from Root, else the first
 * sequence in file order with that name anywhere in the tree (names compared
 * case-insensitively for the 52 ASCII latin letters, as the document's
 * "Setting Animation" says, and contract/isprite.md's setAnimation); a
 * near miss gets a "did you mean"; without the option,
 * the default sequence, else the first one.
 */
export function pickSequence(doc: IspriteDocument, options: CommandOptions): IspriteSequence {
  const want = stringOption(options, ANIMATION_OPTION);
  const all = listSequences(doc);
  if (want !== undefined) {
    const seq = findSequence(doc, want) ?? all.find((e) => namesEqual(e.sequence.name, want))?.sequence;
    if (!seq)
      throw namesNothing(
        'animation',
        want,
        'sequence',
        'the sprite',
        all.map((e) => e.path),
        [...all.map((e) => e.sequence.name), ...all.map((e) => e.path)],
      );
    return seq;
  }
  const seq = getDefaultSequence(doc) ?? all[0]?.sequence;
  if (!seq) throw new FormatError('isprite', 'the sprite has no sequences to draw (use --frame-id)');
  return seq;
}

/** `sprat render` for ISPRITE: the chosen frames, as a picture for the pipeline. */
export async function ispritePicture(doc: IspriteDocument, options: CommandOptions, resources: ResourceLoader): Promise<Picture> {
  const filterOpt = choiceOption(options, FILTER_OPTION);
  const shapes = flagOption(options, SHAPES_OPTION);
  const frameId = intOption(options, FRAME_ID_OPTION);
  let frames: IspriteFrame[];
  let delaysMs: number[] | undefined;
  let loops: number | undefined;
  /** With `--frame K`: the sequence's delays, for the attached sprite's time at position K. */
  let seqDelays: number[] | undefined;
  let position: number | undefined;
  if (frameId !== undefined) {
    frames = [doc.frames[selectIndex('frame-id', frameId, doc.frames.length, 'frame ID', 'the sprite')]!];
  } else {
    const seq = pickSequence(doc, options);
    const ids = seq.frames;
    const pos = intOption(options, FRAME_OPTION);
    if (pos !== undefined) selectIndex('frame', pos, ids.length, 'frame', `sequence "${seq.name}"`);
    if (ids.length === 0) throw new FormatError('isprite', `sequence "${seq.name}" has no frames`);
    const chosen = pos === undefined ? ids : [ids[pos]!];
    frames = chosen.map((id) => {
      const f = doc.frames[id];
      if (!f) throw new FormatError('isprite', `sequence "${seq.name}" names frame ${id}, which does not exist`);
      return f;
    });
    const rate = effectiveFrameRate(doc, seq);
    const msPerStep = rate > 0 ? 1000 / rate : 100;
    delaysMs = frames.map((f) => Math.max(1, f.holdTime) * msPerStep);
    loops = seq.loopPoint !== null && seq.loopPoint < ids.length ? 0 : 1;
    if (pos !== undefined) {
      position = pos;
      seqDelays = ids.map((id) => Math.max(1, doc.frames[id]?.holdTime ?? 1) * msPerStep);
    }
  }
  const needed = new Set<number>();
  for (const f of frames) for (const e of elementsOf(f)) if (e.type === 'graphic') needed.add(doc.slices[e.slice]?.texture ?? -1);
  // A texture that cannot be had: the graphics on it are left out (MissingFiles), unless none is left to draw.
  const missing = new MissingFiles(options);
  const textures = await loadTextures(doc, resources, needed, options, missing);
  if (!missing.empty && !textures.some((t) => t !== null)) throw missing.firstError;
  const filter = filterOpt as 'nearest' | 'bilinear' | undefined;
  const child = await attachedSprite(options, resources, filter);
  // Which child frame shows with which parent frame, and for how long (its own hold times); without a child, the frames as they are.
  let steps: AttachedStep[] = frames.map((_, i) => ({ parent: i, child: null, delayMs: delaysMs?.[i] }));
  if (child) {
    const budget = budgetFrom(options);
    if (position !== undefined && seqDelays) {
      // One position: the child as it is when that position starts.
      const first = attachedTimeline(seqDelays.slice(0, position + 1), child.doc, budget).find((s) => s.parent === position);
      steps = [{ parent: 0, child: first?.child ?? null, delayMs: delaysMs?.[0] }];
    } else if (delaysMs) steps = attachedTimeline(delaysMs, child.doc, budget);
    else steps = [{ parent: 0, child: attachedTimeline([1], child.doc, budget)[0]?.child ?? null, delayMs: undefined }];
  }
  return {
    frames: steps.map((step) => {
      const f = frames[step.parent]!;
      const childFrame = child?.picture(step.child);
      const attached = childFrame
        ? (e: IspriteAttachment): PicturePart[] => {
            if (elementName(doc, e) !== child!.point) return [];
            const at = toPlacement(pointTransform(e));
            return [...childFrame.parts].map((p) => ({
              ...p,
              transform: compose(p.transform ?? IDENTITY, at.matrix),
              opacity: (p.opacity ?? 1) * at.opacity,
            }));
          }
        : undefined;
      const pf = { ...framePicture(doc, f, textures, { shapes, filter, attached }), delayMs: step.delayMs };
      return flagOption(options, ORIGIN_OPTION) ? withOriginCross(pf, 0, 0) : pf;
    }),
    loops,
    what: 'the ISPRITE frames',
    ...(missing.empty ? {} : { warnings: missing.warnings }),
  };
}

/** `sprat render` for ISPRITE, drawn through the pipeline. */
export async function renderIsprite(doc: IspriteDocument, options: CommandOptions, resources: ResourceLoader): Promise<RenderResult> {
  return drawPicture(await ispritePicture(doc, options, resources), budgetFrom(options));
}

/** What the viewer offers: every sequence, by its path. */
export function ispriteViews(doc: IspriteDocument): RenderView[] {
  return listSequences(doc).map((e) => ({ label: e.path, options: { animation: e.path } }));
}
