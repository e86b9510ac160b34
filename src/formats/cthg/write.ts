import { ByteWriter } from '../../binary/writer.js';
import { FormatError } from '../../binary/errors.js';
import { decodeUtf8 } from '../../binary/utf8.js';
import { checkPixelData } from './rle.js';
import { CTHG_VERSION, NO_REF, VIEWS, countsOf, type CthgDocument } from './model.js';

/** Throws a FormatError when a document cannot be written (a value out of range, a reference to nothing). */
export function checkWritable(doc: CthgDocument): void {
  const err = (m: string) => new FormatError('cthg', m);
  const u = (v: number, max: number) => Number.isInteger(v) && v >= 0 && v <= max;
  doc.sprites.forEach((s, i) => {
    if (!u(s.width, 0xffff) || !u(s.height, 0xffff)) throw err(`sprite ${i} has a bad size ${s.width}x${s.height}`);
    try {
      checkPixelData(s.data, 0, s.data.length, s.width, s.height);
    } catch (e) {
      throw err(`sprite ${i} has bad pixel data: ${(e as FormatError).message}`);
    }
  });
  doc.frames.forEach((f, i) => {
    if (!u(f.sound, 0xffff)) throw err(`frame ${i} has a bad sound number ${f.sound}`);
    if (f.elements.length > 0xffff) throw err(`frame ${i} has ${f.elements.length} elements; at most 65535 fit`);
    for (const e of f.elements) {
      if (e.sprite !== null && !(u(e.sprite, NO_REF - 1) && e.sprite < doc.sprites.length)) {
        throw err(`frame ${i} refers to sprite ${e.sprite}, which does not exist`);
      }
      if (!Number.isInteger(e.x) || !Number.isInteger(e.y) || e.x < -32768 || e.x > 32767 || e.y < -32768 || e.y > 32767) {
        throw err(`frame ${i} has an element at (${e.x}, ${e.y}), outside the 16-bit range`);
      }
      if (!u(e.layerClass, 255) || !u(e.layerId, 255) || !u(e.flags, 0xffff)) {
        throw err(`frame ${i} has an element with a bad layer class, layer id or flags`);
      }
    }
  });
  doc.animations.forEach((a, i) => {
    if (!u(a.tileSize, 0xffff)) throw err(`animation "${a.name}" has a bad tile size ${a.tileSize}`);
    if (!u(a.frameCount, NO_REF) || a.frameCount === 0) throw err(`animation "${a.name}" has a bad frame count ${a.frameCount}`);
    for (const v of VIEWS) {
      const first = a.views[v];
      if (first === null) continue;
      if (!u(first, NO_REF - 1) || first + a.frameCount > doc.frames.length) {
        throw err(`the ${v} view of animation ${i} ("${a.name}") refers to frames that do not exist`);
      }
    }
  });
}

/** True when `order` (S/F/A letters) lays out this document with every reference defined first. */
export function orderFits(doc: CthgDocument, order: string | null): boolean {
  if (!order) return false;
  let s = 0;
  let f = 0;
  let a = 0;
  for (let i = 0; i < order.length; i++) {
    const c = order[i];
    if (c === 'S') s++;
    else if (c === 'F') {
      const frame = doc.frames[f++];
      if (!frame) return false;
      for (const e of frame.elements) if (e.sprite !== null && e.sprite >= s) return false;
    } else if (c === 'A') {
      const anim = doc.animations[a++];
      if (!anim) return false;
      for (const v of VIEWS) {
        const first = anim.views[v];
        if (first !== null && first + anim.frameCount > f) return false;
      }
    } else return false;
  }
  return s === doc.sprites.length && f === doc.frames.length && a === doc.animations.length;
}

/**
 * The canonical (encoder's) layout: for each animation, for each existing
 * view north, east, south, west, for each frame: the sprites not yet written
 * that it uses, then the frame; then the CA block. Frames and sprites no
 * animation uses follow at the end. Returns the document renumbered in that
 * order and its block order, or null when renumbering would break a view's
 * run of consecutive frames (views that partly overlap).
 */
export function canonicalLayout(doc: CthgDocument): { doc: CthgDocument; order: string } | null {
  const spriteNew = new Array<number>(doc.sprites.length).fill(-1);
  const frameNew = new Array<number>(doc.frames.length).fill(-1);
  const spriteOrder: number[] = [];
  const frameOrder: number[] = [];
  let order = '';
  const emitFrame = (fi: number) => {
    if (frameNew[fi] !== -1) return;
    for (const e of doc.frames[fi]!.elements) {
      if (e.sprite !== null && spriteNew[e.sprite] === -1) {
        spriteNew[e.sprite] = spriteOrder.length;
        spriteOrder.push(e.sprite);
        order += 'S';
      }
    }
    frameNew[fi] = frameOrder.length;
    frameOrder.push(fi);
    order += 'F';
  };
  for (const a of doc.animations) {
    for (const v of VIEWS) {
      const first = a.views[v];
      if (first === null) continue;
      for (let k = 0; k < a.frameCount; k++) emitFrame(first + k);
      for (let k = 1; k < a.frameCount; k++) {
        if (frameNew[first + k] !== frameNew[first]! + k) return null;
      }
    }
    order += 'A';
  }
  for (let fi = 0; fi < doc.frames.length; fi++) emitFrame(fi);
  for (let si = 0; si < doc.sprites.length; si++) {
    if (spriteNew[si] === -1) {
      spriteNew[si] = spriteOrder.length;
      spriteOrder.push(si);
      order += 'S';
    }
  }
  const renumbered: CthgDocument = {
    ...doc,
    sprites: spriteOrder.map((i) => doc.sprites[i]!),
    frames: frameOrder.map((i) => {
      const f = doc.frames[i]!;
      return { sound: f.sound, elements: f.elements.map((e) => ({ ...e, sprite: e.sprite === null ? null : spriteNew[e.sprite]! })) };
    }),
    animations: doc.animations.map((a) => {
      const views = { ...a.views };
      for (const v of VIEWS) if (views[v] !== null) views[v] = frameNew[views[v]!]!;
      return { ...a, views };
    }),
  };
  return { doc: renumbered, order };
}

/** A layout that keeps every index: each block as late as possible before its first use. */
function indexPreservingOrder(doc: CthgDocument): string {
  let order = '';
  let s = 0;
  let a = 0;
  const lastFrameOf = doc.animations.map((an) => {
    let last = -1;
    for (const v of VIEWS) if (an.views[v] !== null) last = Math.max(last, an.views[v]! + an.frameCount - 1);
    return last;
  });
  const flushAnims = (framesDone: number) => {
    while (a < doc.animations.length && lastFrameOf[a]! < framesDone) {
      order += 'A';
      a++;
    }
  };
  flushAnims(0);
  doc.frames.forEach((f, fi) => {
    let need = 0;
    for (const e of f.elements) if (e.sprite !== null) need = Math.max(need, e.sprite + 1);
    while (s < need) {
      order += 'S';
      s++;
    }
    order += 'F';
    flushAnims(fi + 1);
  });
  while (s < doc.sprites.length) {
    order += 'S';
    s++;
  }
  return order;
}

/**
 * Writes a CTHG 513 file. The header counts are computed. The block order
 * the document was read in is reused while it fits; otherwise the canonical
 * order (renumbering frames and sprites when needed).
 */
export function writeCthg(doc: CthgDocument): Uint8Array {
  checkWritable(doc);
  let d = doc;
  let order: string;
  if (orderFits(doc, doc.blockOrder)) order = doc.blockOrder!;
  else {
    const c = canonicalLayout(doc);
    if (c) {
      d = c.doc;
      order = c.order;
    } else order = indexPreservingOrder(doc);
  }
  const counts = countsOf(d);
  const w = new ByteWriter({ format: 'cthg', initialSize: 26 + counts.spriteBytes + counts.elements * 12 + 1024 });
  w.ascii('CTHG').u16(CTHG_VERSION);
  w.u32(counts.animations).u32(counts.frames).u32(counts.elements).u32(counts.sprites).u32(counts.spriteBytes);
  let s = 0;
  let f = 0;
  let a = 0;
  for (let i = 0; i < order.length; i++) {
    const c = order[i];
    if (c === 'S') {
      const sp = d.sprites[s++]!;
      w.ascii('SP').u16(sp.width).u16(sp.height).u32(sp.data.length).bytes(sp.data);
    } else if (c === 'F') {
      const fr = d.frames[f++]!;
      w.ascii('FR').u16(fr.sound).u16(fr.elements.length);
      for (const e of fr.elements) {
        w.u32(e.sprite === null ? NO_REF : e.sprite)
          .i16(e.x)
          .i16(e.y)
          .u8(e.layerClass)
          .u8(e.layerId)
          .u16(e.flags);
      }
    } else {
      const an = d.animations[a++]!;
      w.ascii('CA').u16(an.tileSize).u32(an.frameCount);
      const raw = an.rawName;
      if (raw && raw.length <= 0xff && decodeUtf8(raw).text === an.name) w.u8(raw.length).bytes(raw);
      else w.str8(an.name, 'animation name');
      for (const v of VIEWS) w.u32(an.views[v] === null ? NO_REF : an.views[v]!);
    }
  }
  return w.finish();
}
