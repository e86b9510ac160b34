/**
 * Compiling an AnimationEncoder script to a CTHG document exactly as the
 * real encoder does (storage.cpp `Encode`, image.cpp, ast.cpp
 * `WriteSprite`): groups sorted by tile size then name bytes, each view's
 * frames in north, east, south, west order, each sprite written before the
 * first frame that uses it and stored once by its encoded bytes. The pixel
 * runs are cthg/rle.ts `encodePixels`; the file is written by cthg/write.ts.
 */
import { FormatError, isFormatError } from '../../../binary/errors.js';
import { budgetFrom, limitsFrom, type Budget } from '../../../binary/limits.js';
import { encodeUtf8 } from '../../../binary/utf8.js';
import { decodeImage } from '../../../render/decode.js';
import { cropImage, type RgbaImage } from '../../../render/image.js';
import { PNG_COLOR_TYPES, decodeIndexedPng, pngHeader } from '../../../render/indexed.js';
import { isPng } from '../../../render/png.js';
import { flagOption } from '../../options.js';
import { describePath, loadResource } from '../../resources.js';
import type { CommandOptions, OptionSpec, ResourceLoader } from '../../types.js';
import {
  CTHG_VERSION,
  VIEWS,
  type CthgAnimation,
  type CthgDocument,
  type CthgElement,
  type CthgFrame,
  type CthgSprite,
  type CthgViewName,
} from '../model.js';
import { encodePixels } from '../rle.js';
import {
  SCRIPT_FORMAT,
  TILE_SIZE,
  type CthgScript,
  type ElementFieldName,
  type ScriptAnimation,
  type ScriptElement,
  type ScriptPos,
} from './syntax.js';

export const FIX_SOUNDS_OPTION: OptionSpec = {
  name: 'fix-sounds',
  type: 'flag',
  description: 'compiling a CorsixTH script: write each frame\'s "sound = N;" (the real encoder drops every sound)',
};
export const FIX_CROP_OPTION: OptionSpec = {
  name: 'fix-crop',
  type: 'flag',
  description:
    "compiling a CorsixTH script: crop each sprite by its pixels' alpha (the real encoder tests the wrong bytes and can cut visible pixels)",
};
export const KEEP_SPRITES_OPTION: OptionSpec = {
  name: 'keep-sprites',
  type: 'flag',
  description:
    "compiling a CorsixTH script: one sprite per image region named (file, rectangle, recolour), instead of the encoder's one per distinct bytes (keeps a decompiled file's sprite numbers)",
};

export const IGNORE_HEADER_OPTION: OptionSpec = {
  name: 'ignore-header',
  type: 'flag',
  description:
    'compiling a CorsixTH script: leave out the options its "// sprat: compile" line names (sprat writes one when it decompiles a file)',
};

/** The options a `// sprat: compile` line may name. */
export const SCRIPT_COMPILE_OPTIONS: readonly OptionSpec[] = [FIX_SOUNDS_OPTION, FIX_CROP_OPTION, KEEP_SPRITES_OPTION];

const flagList = (names: readonly string[]) => (names.length ? names.map((n) => `--${n}`).join(' ') : 'no options');

/**
 * The options to compile `script` with: those of its `// sprat: compile`
 * line (see readCompileLine), then the given ones on top, unless
 * `--ignore-header`. A given option the line does not name changes what
 * the script was decompiled from: a note says so; so does a line left out.
 * A name that is not a compile option is an error at the line.
 */
export function scriptCompileOptions(script: CthgScript, options: CommandOptions = {}): { options: CommandOptions; notes: string[] } {
  const line = script.compileLine;
  if (!line) return { options, notes: [] };
  const known = new Set(SCRIPT_COMPILE_OPTIONS.map((o) => o.name));
  for (const name of line.options) {
    if (!known.has(name))
      throw FormatError.atLine(
        SCRIPT_FORMAT,
        `the "// sprat: compile" line names --${name}, which is not a compile option (${flagList([...known])})`,
        line.line,
        line.column,
      );
  }
  const given = SCRIPT_COMPILE_OPTIONS.filter((o) => flagOption(options, o)).map((o) => o.name);
  if (flagOption(options, IGNORE_HEADER_OPTION)) {
    const left = line.options.filter((o) => !given.includes(o));
    const notes = left.length
      ? [`the "// sprat: compile" line (line ${line.line}) names ${flagList(left)}, left out (--ignore-header)`]
      : [];
    return { options, notes };
  }
  const merged: CommandOptions = { ...options };
  for (const name of line.options) merged[name] = true;
  const extra = given.filter((o) => !line.options.includes(o));
  const notes = extra.length
    ? [
        `${flagList(extra)} ${extra.length === 1 ? 'is' : 'are'} not on the "// sprat: compile" line (line ${line.line}: ${flagList(line.options)}): the compiled file may differ from the one the script was decompiled from`,
      ]
    : [];
  return { options: merged, notes };
}

export interface CompileResult {
  doc: CthgDocument;
  notes: string[];
}

interface BaseImage {
  path: string;
  image: RgbaImage;
}

/** The encoder's crop (image.cpp PerformCropping): the rectangle's transparent edges removed. */
export interface CropBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Crops the rectangle as the encoder does. The encoder reads the alpha of
 * column x at byte x + 3 of the row (not 4x + 3): `exact` reads each
 * pixel's own alpha instead (--fix-crop).
 */
export function cropBox(img: RgbaImage, box: CropBox, exact = false): CropBox {
  const d = img.data;
  const row = img.width * 4;
  const at = exact ? (x: number, y: number) => d[y * row + x * 4 + 3]! : (x: number, y: number) => d[y * row + x + 3]!;
  let left = box.left;
  let top = box.top;
  let right = box.left + box.width - 1;
  let bottom = box.top + box.height - 1;
  const colClear = (x: number) => {
    for (let y = top; y <= bottom; y++) if (at(x, y) !== 0) return false;
    return true;
  };
  const rowClear = (y: number) => {
    for (let x = left; x <= right; x++) if (at(x, y) !== 0) return false;
    return true;
  };
  while (left <= right && colClear(left)) left++;
  while (left <= right && colClear(right)) right--;
  while (top <= bottom && rowClear(top)) top++;
  while (top <= bottom && rowClear(bottom)) bottom--;
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/** Latin-1 decoding is one char per byte: a Map key for a sprite's bytes. */
const keyDecoder = new TextDecoder('latin1');

class Compiler {
  private readonly bases = new Map<string, Promise<BaseImage>>();
  private readonly maps = new Map<string, Promise<{ path: string; width: number; height: number; indices: Uint8Array }>>();
  private readonly spriteIndex = new Map<string, number>();
  readonly doc: CthgDocument = { version: CTHG_VERSION, header: null, blockOrder: '', animations: [], frames: [], sprites: [] };
  readonly notes: string[] = [];
  private order = '';
  private readonly budget: Budget;
  private readonly maxPixels: number;
  private readonly fixSounds: boolean;
  private readonly fixCrop: boolean;
  private readonly keepSprites: boolean;
  droppedSounds = 0;

  constructor(
    private readonly resources: ResourceLoader,
    options: CommandOptions,
  ) {
    this.budget = budgetFrom(options);
    this.maxPixels = limitsFrom(options).maxPixels;
    this.fixSounds = flagOption(options, FIX_SOUNDS_OPTION);
    this.fixCrop = flagOption(options, FIX_CROP_OPTION);
    this.keepSprites = flagOption(options, KEEP_SPRITES_OPTION);
  }

  private fail(msg: string, at: ScriptPos): never {
    throw FormatError.atLine(SCRIPT_FORMAT, msg, at.line, at.column);
  }

  private at(e: ScriptElement, field: ElementFieldName): ScriptPos {
    return e.at?.[field] ?? e;
  }

  /** Loads a file the script names; a loading error gets the field's position. */
  private async file(name: string, what: string, at: ScriptPos): Promise<{ path: string; bytes: Uint8Array }> {
    try {
      return await loadResource(this.resources, { format: SCRIPT_FORMAT, what, name });
    } catch (e) {
      if (isFormatError(e) && e.line === undefined) this.fail(e.reason, at);
      throw e;
    }
  }

  private base(name: string, at: ScriptPos): Promise<BaseImage> {
    let p = this.bases.get(name);
    if (!p) {
      p = (async () => {
        const { path, bytes } = await this.file(name, 'image', at);
        const shown = describePath(this.resources, path);
        if (!isPng(bytes)) this.fail(`image "${name}" (${shown}) is not a PNG file`, at);
        const h = this.header(bytes, name, at);
        if (h.bitDepth !== 8 || h.colorType !== 6) {
          this.fail(
            `image "${name}" is ${h.bitDepth}-bit ${PNG_COLOR_TYPES[h.colorType] ?? `colour type ${h.colorType}`}; the encoder reads only 8-bit RGBA PNGs`,
            at,
          );
        }
        try {
          return { path, image: decodeImage(bytes, shown, { maxPixels: this.maxPixels }) };
        } catch (e) {
          if (isFormatError(e)) this.fail(`image "${name}": ${e.reason}`, at);
          throw e;
        }
      })();
      this.bases.set(name, p);
    }
    return p;
  }

  private header(bytes: Uint8Array, name: string, at: ScriptPos) {
    try {
      return pngHeader(bytes);
    } catch (e) {
      if (isFormatError(e)) this.fail(`image "${name}": ${e.reason}`, at);
      throw e;
    }
  }

  private recolourMap(name: string, at: ScriptPos) {
    let p = this.maps.get(name);
    if (!p) {
      p = (async () => {
        const { path, bytes } = await this.file(name, 'recolour image', at);
        if (!isPng(bytes)) this.fail(`recolour image "${name}" (${describePath(this.resources, path)}) is not a PNG file`, at);
        const h = this.header(bytes, name, at);
        if (h.bitDepth !== 8 || h.colorType !== 3) {
          this.fail(
            `recolour image "${name}" is ${h.bitDepth}-bit ${PNG_COLOR_TYPES[h.colorType] ?? `colour type ${h.colorType}`}; the encoder reads only 8-bit indexed (palette) PNGs`,
            at,
          );
        }
        try {
          return { path, ...decodeIndexedPng(bytes, this.maxPixels) };
        } catch (e) {
          if (isFormatError(e)) this.fail(`recolour image "${name}": ${e.reason}`, at);
          throw e;
        }
      })();
      this.maps.set(name, p);
    }
    return p;
  }

  /** One element's sprite (image.cpp Load32Bpp / Load8Bpp, ast.cpp WriteSprite): its index, and the offsets after cropping. */
  private async sprite(e: ScriptElement): Promise<{ index: number; x: number; y: number }> {
    const name = e.base!;
    const baseAt = this.at(e, 'base');
    const { image, path } = await this.base(name, baseAt);
    const left = e.left ?? 0;
    const top = e.top ?? 0;
    let width = e.width ?? -1;
    let height = e.height ?? -1;
    if (width < 0) width = Math.max(0, image.width - left);
    if (height < 0) height = Math.max(0, image.height - top);
    if (image.width < left + width) {
      this.fail(
        `image "${name}" is not wide enough: the sprite needs ${left + width} columns (${left} + ${width}), the image has ${image.width}`,
        e,
      );
    }
    if (image.height < top + height) {
      this.fail(
        `image "${name}" is not high enough: the sprite needs ${top + height} rows (${top} + ${height}), the image has ${image.height}`,
        e,
      );
    }
    this.budget.spend('maxDrawPixels', Math.max(1024, width * height), `compiling the sprite of "${name}" at line ${e.line}`);
    const box = cropBox(image, { left, top, width, height }, this.fixCrop);
    if (box.width <= 0 || box.height <= 0) {
      this.fail(
        `the sprite from "${name}" is empty: ${this.fixCrop ? 'every pixel of the area is transparent' : 'the encoder finds the area transparent (it tests the wrong bytes; see --fix-crop)'}`,
        e,
      );
    }
    if (box.width > 0xffff || box.height > 0xffff)
      this.fail(`the sprite from "${name}" is ${box.width}x${box.height}; at most 65535x65535 fit`, e);
    const x = (e.xOffset ?? 0) + (box.left - left);
    const y = (e.yOffset ?? 0) + (box.top - top);
    let recolour: Uint8Array | null = null;
    if (e.recolour !== undefined && e.recolour !== '') {
      const rAt = this.at(e, 'recolour');
      const map = await this.recolourMap(e.recolour, rAt);
      if (map.width < box.left + box.width) {
        this.fail(
          `recolour image "${e.recolour}" is not wide enough: the sprite needs ${box.left + box.width} columns, the image has ${map.width}`,
          rAt,
        );
      }
      if (map.height < box.top + box.height) {
        this.fail(
          `recolour image "${e.recolour}" is not high enough: the sprite needs ${box.top + box.height} rows, the image has ${map.height}`,
          rAt,
        );
      }
      recolour = new Uint8Array(box.width * box.height);
      for (let r = 0; r < box.height; r++) {
        const s = (box.top + r) * map.width + box.left;
        recolour.set(map.indices.subarray(s, s + box.width), r * box.width);
      }
    }
    let layerNumbers: Uint8Array | undefined;
    if (e.layer) {
      layerNumbers = new Uint8Array(256);
      for (let i = 0; i < 256; i++) layerNumbers[i] = i;
      layerNumbers[e.layer.from] = e.layer.to;
    }
    const pixels = cropImage(image, box.left, box.top, box.width, box.height);
    const data = encodePixels(pixels, { recolour, layerNumbers });
    const key = this.keepSprites
      ? JSON.stringify([path, box, e.recolour ?? null, e.layer ?? null])
      : `${box.width}x${box.height}:${keyDecoder.decode(data)}`;
    let index = this.spriteIndex.get(key);
    if (index === undefined) {
      index = this.doc.sprites.length;
      const sprite: CthgSprite = { width: box.width, height: box.height, data };
      this.doc.sprites.push(sprite);
      this.spriteIndex.set(key, index);
      this.order += 'S';
    }
    return { index, x, y };
  }

  /** storage.cpp EncodeFrames: one view's frames; returns the first frame's index. */
  private async frames(a: ScriptAnimation): Promise<number> {
    const first = this.doc.frames.length;
    for (const f of a.frames) {
      this.budget.spend('maxItems', 1, `compiling frame ${this.doc.frames.length + 1}`);
      const elements: CthgElement[] = [];
      for (const e of f.elements) {
        const s = await this.sprite(e);
        for (const [v, what] of [
          [s.x, 'x'],
          [s.y, 'y'],
        ] as const) {
          if (v < -32768 || v > 32767) {
            this.fail(
              `the element's ${what} offset after cropping, ${v}, does not fit the file's 16-bit field`,
              this.at(e, what === 'x' ? 'xOffset' : 'yOffset'),
            );
          }
        }
        let flags = 0;
        if (e.vertFlip) flags |= 0x1;
        if (e.horFlip) flags |= 0x2;
        if (e.alpha === 50) flags |= 0x4;
        if (e.alpha === 75) flags |= 0x8;
        elements.push({
          sprite: s.index,
          x: s.x,
          y: s.y,
          layerClass: e.displayIf?.layerClass ?? 0,
          layerId: e.displayIf?.layerId ?? 0,
          flags,
        });
      }
      let sound = 0;
      if (f.sound !== undefined && f.sound !== 0) {
        if (!this.fixSounds) this.droppedSounds++;
        else if (f.sound > 0) {
          if (f.sound > 0xffff) this.fail(`sound ${f.sound} does not fit the file's 16-bit field`, f);
          sound = f.sound;
        }
      }
      const frame: CthgFrame = { sound, elements };
      this.doc.frames.push(frame);
      this.order += 'F';
    }
    return first;
  }

  async compile(script: CthgScript): Promise<CompileResult> {
    // main.cpp: animations grouped by (tile size, name), in std::map order (tile size, then the name's bytes).
    const groups = new Map<string, { tileSize: number; nameBytes: Uint8Array; views: Partial<Record<CthgViewName, ScriptAnimation>> }>();
    for (const a of script.animations) {
      const tileSize = a.tileSize ?? TILE_SIZE;
      const nameBytes = a.rawName ?? encodeUtf8(a.name);
      const key = `${tileSize}:${keyDecoder.decode(nameBytes)}`;
      const g = groups.get(key) ?? groups.set(key, { tileSize, nameBytes, views: {} }).get(key)!;
      g.views[a.view] = a;
    }
    const sorted = [...groups.values()].sort((p, q) => p.tileSize - q.tileSize || compareBytes(p.nameBytes, q.nameBytes));
    for (const g of sorted) {
      const views: Record<CthgViewName, number | null> = { north: null, east: null, south: null, west: null };
      let any: ScriptAnimation | undefined;
      for (const v of VIEWS) {
        const a = g.views[v];
        if (!a) continue;
        any ??= a;
        views[v] = await this.frames(a);
      }
      const a = any!;
      let raw = g.nameBytes;
      if (raw.length > 0xff) {
        this.notes.push(`the name "${a.name}" is ${raw.length} bytes long; its first 255 are written, as the encoder does`);
        raw = raw.slice(0, 0xff);
      }
      const anim: CthgAnimation = { name: new TextDecoder().decode(raw), tileSize: g.tileSize, frameCount: a.frames.length, views };
      if (raw !== g.nameBytes || a.rawName) anim.rawName = raw;
      this.doc.animations.push(anim);
      this.order += 'A';
    }
    if (this.droppedSounds) {
      this.notes.push(
        `${this.droppedSounds} frame sound${this.droppedSounds === 1 ? ' is' : 's are'} written as 0 (no sound), as the real encoder does; --fix-sounds writes them`,
      );
    }
    this.doc.blockOrder = this.order;
    return { doc: this.doc, notes: this.notes };
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Compiles a checked script (syntax.ts `readScript`) with its PNGs, found
 * relative to the script through `resources`. Options: --fix-sounds,
 * --fix-crop, and the --max-* budgets. Throws FormatError at the line and
 * column of the element whose image is missing or unusable.
 */
/**
 * Compiles a script as the real encoder does, with `options` and those of
 * the script's `// sprat: compile` line (scriptCompileOptions).
 */
export async function compileScript(script: CthgScript, resources: ResourceLoader, options: CommandOptions = {}): Promise<CompileResult> {
  const effective = scriptCompileOptions(script, options);
  const r = await new Compiler(resources, effective.options).compile(script);
  return effective.notes.length ? { ...r, notes: [...effective.notes, ...r.notes] } : r;
}
