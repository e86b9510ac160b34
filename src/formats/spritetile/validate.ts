import { diagnostic, diagnosticFromError, isFormatError, type Diagnostic } from '../../binary/errors.js';
import { CELL_SIZE, LAYER_HEADER_SIZE, type SpriteTileLevel } from './model.js';
import { LEVEL_PREFIX, readSpriteTile, type ReadOptions } from './read.js';
import { layout } from './write.js';

/** Problems a readable level can still have. */
export function checkLevel(level: SpriteTileLevel): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!level.layers) {
    out.push(diagnostic('warning', 'not a level: there is no "lvlayrs" tag (a TileEditor groups file?); every tag is kept as it is'));
    return out;
  }
  const lv = layout(level).tags.find((t) => t.name === 'lvlayrs');
  let pos = (lv?.offset ?? 0) + 4;
  level.layers.forEach((l, i) => {
    if (!(l.layerLock >= 0 && l.layerLock <= 3)) {
      const reason = `layer ${i} has layerLock ${l.layerLock}; it must be 0 (None), 1 (X), 2 (Y) or 3 (XandY)`;
      const d = diagnostic('error', reason, { offset: pos + 31 });
      d.message = `${LEVEL_PREFIX}${reason} (at byte ${pos + 31})`;
      out.push(d);
    }
    pos += LAYER_HEADER_SIZE + l.width * l.height * CELL_SIZE;
  });
  return out;
}

/** Every problem in a `.bytes` file; never throws for bad input. */
export function validateSpriteTile(bytes: Uint8Array, options: ReadOptions = {}): Diagnostic[] {
  let level: SpriteTileLevel;
  try {
    level = readSpriteTile(bytes, options);
  } catch (e) {
    if (isFormatError(e)) return [diagnosticFromError(e)];
    throw e;
  }
  return checkLevel(level);
}
