/**
 * Decompiling a CTHG document to an AnimationEncoder script plus one PNG per
 * sprite (`STEM-N.png`, 8-bit RGBA) and one per recoloured sprite
 * (`STEM-N-recolour.png`, 8-bit indexed: index = recolour table, 0 = none,
 * the encoder's convention), such that compiling the script again gives
 * the file's bytes (for a file in the encoder's own layout; notes say what
 * differs otherwise).
 */
import { FormatError } from '../../../binary/errors.js';
import { createImage, type RgbaImage } from '../../../render/image.js';
import { encodeIndexedPng } from '../../../render/indexed.js';
import { encodePng } from '../../../render/png.js';
import type { OutputFile } from '../../types.js';
import { VIEWS, type CthgAnimation, type CthgDocument } from '../model.js';
import { encodeUtf8 } from '../../../binary/utf8.js';
import { decodePixels, encodePixels, runStarts } from '../rle.js';
import { canonicalLayout } from '../write.js';
import { cropBox } from './compile.js';
import {
  MAX_DISPLAY_CLASS,
  TILE_SIZE,
  quotable,
  type CthgScript,
  type ScriptAnimation,
  type ScriptElement,
  type ScriptFrame,
  withCompileLine,
} from './syntax.js';

interface SpriteFiles {
  base: string;
  image: RgbaImage;
  recolour?: { name: string; indices: Uint8Array; layer?: { from: number; to: number } };
  /** The column the sprite starts at in its PNG (padding, see `spriteImage`). */
  left: number;
}

export interface Decompiled {
  script: CthgScript;
  sprites: Map<number, SpriteFiles>;
  notes: string[];
  /** The compile options that give the file's bytes back (--fix-sounds, --keep-sprites): the script's `// sprat: compile` line. */
  flags: string[];
}

/** A palette for recolour maps: index 0 transparent (no recolour), the others distinct colours. */
const RECOLOUR_PALETTE: number[][] = Array.from({ length: 256 }, (_, i) =>
  i === 0 ? [0, 0, 0, 0] : [(i * 97 + 40) & 255, (i * 57 + 90) & 255, (i * 151 + 160) & 255, 255],
);

/**
 * The sprite's pixels as the PNG the encoder reads back to the same
 * sprite. Its crop test reads the wrong bytes (column x: byte x + 3 of the
 * row), so a sprite it would crop is placed right of an opaque white band
 * of P columns, P >= (W + 3) / 3, with `left = P`: every byte the test
 * reads is then in the band, and nothing is cropped.
 */
function spriteImage(img: RgbaImage): { image: RgbaImage; left: number } {
  const full = { left: 0, top: 0, width: img.width, height: img.height };
  const c = cropBox(img, full);
  if (c.left === 0 && c.top === 0 && c.width === img.width && c.height === img.height) return { image: img, left: 0 };
  const pad = Math.ceil((img.width + 3) / 3);
  const out = createImage(pad + img.width, img.height);
  const rowOut = out.width * 4;
  for (let y = 0; y < img.height; y++) {
    out.data.fill(255, y * rowOut, y * rowOut + pad * 4);
    out.data.set(img.data.subarray(y * img.width * 4, (y + 1) * img.width * 4), y * rowOut + pad * 4);
  }
  const again = cropBox(out, { left: pad, top: 0, width: img.width, height: img.height });
  if (again.left !== pad || again.width !== img.width || again.height !== img.height)
    throw new Error('internal: the padded sprite would be cropped');
  return { image: out, left: pad };
}

function padIndices(indices: Uint8Array, width: number, height: number, left: number): Uint8Array {
  if (!left) return indices;
  const out = new Uint8Array((width + left) * height);
  for (let y = 0; y < height; y++) out.set(indices.subarray(y * width, (y + 1) * width), y * (width + left) + left);
  return out;
}

/** The script and sprite images of a CTHG document; PNG names start with `stem`. */
export function decompileCthg(doc: CthgDocument, stem: string): Decompiled {
  if (!quotable(stem))
    throw new FormatError('cthg', `the output name "${stem}" cannot be written in a script (it holds a quote or a line break)`);
  const notes = new Set<string>();
  const flags = new Set<string>();
  const sprites = new Map<number, SpriteFiles>();
  const spriteFiles = (index: number, where: string): SpriteFiles => {
    const known = sprites.get(index);
    if (known) return known;
    const s = doc.sprites[index];
    if (!s) throw new FormatError('cthg', `${where} refers to sprite ${index}, which does not exist`);
    if (!s.width || !s.height)
      throw new FormatError(
        'cthg',
        `${where} shows sprite ${index}, which is ${s.width}x${s.height}: a script cannot make an empty sprite`,
      );
    const layers = new Int16Array(s.width * s.height);
    const img = decodePixels(s.data, s.width, s.height, undefined, layers);
    let recolour: SpriteFiles['recolour'];
    const used = new Set<number>();
    for (const l of layers) if (l >= 0) used.add(l);
    if (used.size) {
      // A map value 0 means "not recoloured": table 0 needs another value and `layer V = 0;` (one per element).
      let spare = 0;
      if (used.has(0)) {
        for (let v = 1; v < 256; v++) {
          if (!used.has(v)) {
            spare = v;
            break;
          }
        }
        if (!spare) throw new FormatError('cthg', `sprite ${index} uses all 256 recolour tables; a script can name at most 255`);
      }
      const indices = new Uint8Array(layers.length);
      for (let i = 0; i < layers.length; i++) indices[i] = layers[i]! < 0 ? 0 : layers[i] === 0 ? spare : layers[i]!;
      recolour = { name: `${stem}-${index}-recolour.png`, indices, ...(spare ? { layer: { from: spare, to: 0 } } : {}) };
      if (!spare) {
        const cut = cutRecolourRuns(s.data, img, layers, used);
        if (cut && sameBytes(encodeAs(img, { ...recolour, ...cut }), s.data)) recolour = { ...recolour, ...cut };
      }
    }
    const again = encodeAs(img, recolour);
    if (!sameBytes(again, s.data)) {
      notes.add(`sprite ${index}'s pixel runs are not cut as the encoder cuts them: the compiled file has the same pixels in other bytes`);
    }
    const placed = spriteImage(img);
    if (recolour) recolour.indices = padIndices(recolour.indices, s.width, s.height, placed.left);
    const files: SpriteFiles = { base: `${stem}-${index}.png`, image: placed.image, left: placed.left, ...(recolour ? { recolour } : {}) };
    sprites.set(index, files);
    return files;
  };

  const script: CthgScript = { animations: [] };
  const seen = new Set<string>();
  for (const a of doc.animations) {
    if (!quotable(a.name))
      throw new FormatError('cthg', `the animation name "${a.name}" cannot be written in a script (it holds a quote or a line break)`);
    const key = `${a.tileSize}:${a.name}`;
    if (seen.has(key))
      notes.add(`animation "${a.name}" (tile size ${a.tileSize}) appears twice; the encoder refuses a script with one view twice`);
    seen.add(key);
    if (a.tileSize !== TILE_SIZE) notes.add(`animation "${a.name}" has tile size ${a.tileSize}; the encoder refuses any but ${TILE_SIZE}`);
    for (const v of VIEWS) {
      const first = a.views[v];
      if (first === null) continue;
      const anim: ScriptAnimation = { line: 0, column: 0, name: a.name, tileSize: a.tileSize, view: v, frames: [] };
      if (a.rawName) anim.rawName = a.rawName;
      for (let k = 0; k < a.frameCount; k++) {
        const fi = first + k;
        const fr = doc.frames[fi];
        if (!fr) throw new FormatError('cthg', `the ${v} view of "${a.name}" refers to frame ${fi}, which does not exist`);
        const frame: ScriptFrame = { line: 0, column: 0, elements: [] };
        if (fr.sound) {
          frame.sound = fr.sound;
          notes.add(
            'frames have sounds: the real encoder drops them; the script\'s "// sprat: compile" line has --fix-sounds, with which sprat keeps them',
          );
          flags.add('--fix-sounds');
        }
        if (!fr.elements.length) throw new FormatError('cthg', `frame ${fi} has no elements; a script frame needs at least one`);
        for (const el of fr.elements) {
          if (el.sprite === null) throw new FormatError('cthg', `frame ${fi} has an element without a sprite; a script cannot say that`);
          const sf = spriteFiles(el.sprite, `frame ${fi}`);
          const e: ScriptElement = { line: 0, column: 0, base: sf.base };
          if (sf.recolour) {
            e.recolour = sf.recolour.name;
            if (sf.recolour.layer) e.layer = sf.recolour.layer;
          }
          if (sf.left) e.left = sf.left;
          e.xOffset = el.x;
          e.yOffset = el.y;
          const alpha = el.flags & 0xc;
          if (alpha === 0x4) e.alpha = 50;
          else if (alpha === 0x8) e.alpha = 75;
          else if (alpha === 0xc) notes.add(`frame ${fi} has an element with both alpha flags (50 % and 75 %); the script says neither`);
          if (el.flags & 0x2) e.horFlip = true;
          if (el.flags & 0x1) e.vertFlip = true;
          if (el.flags & ~0xf)
            notes.add(`frame ${fi} has element flags 0x${el.flags.toString(16)}; a script holds only the flips and alpha (0xf)`);
          if (el.layerClass || el.layerId) {
            e.displayIf = { layerClass: el.layerClass, layerId: el.layerId };
            if (el.layerClass > MAX_DISPLAY_CLASS)
              notes.add(
                `frame ${fi} shows an element under layer class ${el.layerClass}; the encoder refuses classes over ${MAX_DISPLAY_CLASS}`,
              );
          }
          frame.elements.push(e);
        }
        anim.frames.push(frame);
      }
      script.animations.push(anim);
    }
  }
  // The encoder stores sprites of equal bytes once, and groups in the order of tile size, then name.
  const byBytes = new Map<string, number>();
  for (const i of [...sprites.keys()].sort((p, q) => p - q)) {
    const s = doc.sprites[i]!;
    const key = `${s.width}x${s.height}:${latin1.decode(s.data)}`;
    const twin = byBytes.get(key);
    if (twin !== undefined) {
      notes.add(
        `sprites ${twin} and ${i} have the same bytes, which the encoder stores once; the script's "// sprat: compile" line has --keep-sprites, with which sprat keeps both`,
      );
      flags.add('--keep-sprites');
    } else byBytes.set(key, i);
  }
  // Blocks no animation uses are not in the script; the rest must already be in the encoder's layout.
  const usedFrames = new Set<number>();
  for (const a of doc.animations) {
    for (const v of VIEWS) if (a.views[v] !== null) for (let k = 0; k < a.frameCount; k++) usedFrames.add(a.views[v]! + k);
  }
  const unusedFrames = doc.frames.length - [...usedFrames].filter((f) => f < doc.frames.length).length;
  const unusedSprites = doc.sprites.length - sprites.size;
  if (unusedFrames || unusedSprites) {
    notes.add(`${unusedFrames} frame(s) and ${unusedSprites} sprite(s) that no animation shows are not in the script`);
  }
  const canonical = canonicalLayout(doc);
  if (
    !canonical ||
    (doc.blockOrder !== null && canonical.order !== doc.blockOrder) ||
    JSON.stringify(canonical.doc.frames) !== JSON.stringify(doc.frames) ||
    JSON.stringify(canonical.doc.animations.map((a) => a.views)) !== JSON.stringify(doc.animations.map((a) => a.views))
  ) {
    notes.add("the file's blocks are not in the encoder's order: the compiled file holds the same animations in its own layout");
  }
  if (doc.animations.some((a, i) => i > 0 && compareGroups(doc.animations[i - 1]!, a) > 0)) {
    notes.add("the animations are not in the encoder's order (tile size, then name): the compiled file has them sorted");
  }
  // Compile options in the file's order of SCRIPT_COMPILE_OPTIONS, so the line is the same for the same file.
  const options = ['fix-sounds', 'keep-sprites'].filter((o) => flags.has(`--${o}`));
  withCompileLine(script, { line: 0, column: 0, options });
  return { script, sprites, notes: [...notes], flags: options.map((o) => `--${o}`) };
}

const latin1 = new TextDecoder('latin1');

function compareGroups(a: CthgAnimation, b: CthgAnimation): number {
  if (a.tileSize !== b.tileSize) return a.tileSize - b.tileSize;
  const x = a.rawName ?? encodeUtf8(a.name);
  const y = b.rawName ?? encodeUtf8(b.name);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function encodeAs(img: RgbaImage, recolour: SpriteFiles['recolour']): Uint8Array {
  return encodePixels(
    img,
    recolour ? { recolour: recolour.indices, layerNumbers: recolour.layer ? identityWith(recolour.layer) : undefined } : {},
  );
}

/**
 * A recolour map that makes the encoder cut the file's runs of one table
 * where the file cuts them. The encoder ends a run of recoloured pixels
 * only where the map value or the alpha changes, or after 63 pixels
 * (AnimationEncoder's `GetRecolourInformation`), so a cut between two runs
 * of one table at the same alpha within 63 pixels comes from two map values
 * that name it: the map switches there between the table's own value and a
 * free one, with `layer FREE = TABLE;` (an element has one such line).
 * Undefined when the file has no such cut, has them in more than one table,
 * or no value is free.
 */
function cutRecolourRuns(
  data: Uint8Array,
  img: RgbaImage,
  layers: Int16Array,
  used: ReadonlySet<number>,
): { indices: Uint8Array; layer: { from: number; to: number } } | undefined {
  const starts = runStarts(data, img.width, img.height);
  const cuts = new Uint8Array(layers.length);
  let table = -1;
  for (let i = 1, runStart = 0; i < layers.length; i++) {
    if (!starts[i]) continue;
    const l = layers[i]!;
    const cut = l >= 0 && layers[i - 1] === l && img.data[i * 4 + 3] === img.data[i * 4 - 1] && i - runStart < 63;
    runStart = i;
    if (!cut) continue;
    if (table >= 0 && table !== l) return undefined;
    table = l;
    cuts[i] = 1;
  }
  if (table < 0) return undefined;
  let free = 0;
  for (let v = 1; v < 256 && !free; v++) if (!used.has(v)) free = v;
  if (!free) return undefined;
  const indices = new Uint8Array(layers.length);
  let other = false;
  for (let i = 0; i < layers.length; i++) {
    const l = layers[i]!;
    if (l < 0) continue;
    if (cuts[i]) other = !other;
    indices[i] = l === table && other ? free : l;
  }
  return { indices, layer: { from: free, to: table } };
}

function identityWith(layer: { from: number; to: number }): Uint8Array {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) t[i] = i;
  t[layer.from] = layer.to;
  return t;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The PNG files of a decompiled document (names relative to the script's folder). */
export function spritePngs(d: Decompiled): OutputFile[] {
  const out: OutputFile[] = [];
  for (const s of [...d.sprites.entries()].sort((p, q) => p[0] - q[0]).map((e) => e[1])) {
    out.push({ name: s.base, bytes: encodePng(s.image) });
    if (s.recolour)
      out.push({ name: s.recolour.name, bytes: encodeIndexedPng(s.image.width, s.image.height, s.recolour.indices, RECOLOUR_PALETTE) });
  }
  return out;
}
