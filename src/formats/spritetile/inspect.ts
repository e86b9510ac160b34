import { printableLines } from '../../binary/errors.js';
import { setsUsed, tilesPerSet, LAYER_LOCK_NAMES, type SpriteTileLevel } from './model.js';
import { layout } from './write.js';
import { budgetFrom } from '../../binary/limits.js';
import { jsonNumbers } from '../../binary/json-array.js';
import type { CommandOptions } from '../types.js';

/**
 * The fewest characters one cell takes in `sprat inspect --json`: four
 * numbers, each on its own line indented 10 spaces, a digit and ",\n".
 */
const MIN_JSON_PER_CELL = 4 * (10 + 1 + 2);

/**
 * The `inspect --json` object of docs/spec/spritetile.md (keys in its order).
 * A level whose cells alone would print more than `--max-json-bytes` is a
 * LimitError before any array is made (a few MB of LZF can hold 10^7 cells).
 */
/** The cells of every layer: what the inspect JSON lists. */
export function jsonItems(level: SpriteTileLevel): number {
  let cells = 0;
  for (const l of level.layers ?? []) cells += l.tiles.length;
  return cells;
}

export function inspectJson(level: SpriteTileLevel, options?: CommandOptions): unknown {
  const cells = jsonItems(level);
  budgetFrom(options).check('maxJsonBytes', cells * MIN_JSON_PER_CELL, `the JSON of ${cells} cells`);
  return {
    format: 'spritetile',
    littleEndian: level.littleEndian,
    version: level.version,
    numSets: level.numSets,
    tilesPerSet: tilesPerSet(level.numSets),
    tags: layout(level).tags.map((t) => ({ name: t.name, offset: t.offset, size: t.size })),
    layers: (level.layers ?? []).map((l) => ({
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
        tile: jsonNumbers(l.tiles),
        flags: jsonNumbers(l.flags),
        order: jsonNumbers(l.order),
        trigger: jsonNumbers(l.trigger),
      },
    })),
  };
}

/** A float32 printed with the digits it really has. */
const short = (v: number): number => Number(v.toPrecision(7));

const PREVIEW_CHARS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PREVIEW_MAX_WIDTH = 80;
const PREVIEW_MAX_HEIGHT = 40;

/** A readable summary, with an ASCII picture of small layers. */
export function inspectText(level: SpriteTileLevel): string {
  const lines: string[] = [];
  const per = tilesPerSet(level.numSets);
  lines.push(
    `SpriteTile level, version ${level.version}, ${level.littleEndian ? 'little' : 'big'}-endian, ${level.numSets} sets of ${per} tiles`,
  );
  const { tags } = layout(level);
  lines.push(`tags (${tags.length}): ${tags.map((t) => `${t.name} @${t.offset} (${t.size} bytes)`).join(', ')}`);
  if (!level.layers) {
    lines.push('no "lvlayrs" tag: not a level (a TileEditor groups file?)');
    return printableLines(lines) + '\n';
  }
  lines.push(`layers: ${level.layers.length}`);
  level.layers.forEach((l, i) => {
    let filled = 0;
    let colliders = 0;
    for (let k = 0; k < l.tiles.length; k++) {
      if (l.tiles[k]! !== -1) filled++;
      if (l.flags[k]! & 0x8000) colliders++;
    }
    const lock = LAYER_LOCK_NAMES[l.layerLock] ?? `invalid (${l.layerLock})`;
    lines.push(
      `layer ${i}: ${l.width}x${l.height} tiles of ${short(l.tileSizeX)}x${short(l.tileSizeY)}, z ${short(l.z)}, lock ${lock}, border ${l.addBorder}, ` +
        `${filled} filled, ${colliders} colliders, sets used: ${setsUsed(level, l).join(', ') || 'none'}`,
    );
    if (l.width > 0 && l.height > 0 && l.width <= PREVIEW_MAX_WIDTH && l.height <= PREVIEW_MAX_HEIGHT) {
      lines.push(`  preview (top row first; "." empty, else the tile number mod ${PREVIEW_CHARS.length} in base ${PREVIEW_CHARS.length}):`);
      for (let y = l.height - 1; y >= 0; y--) {
        let row = '';
        for (let x = 0; x < l.width; x++) {
          const t = l.tiles[y * l.width + x]!;
          row += t === -1 ? '.' : PREVIEW_CHARS[(t % per) % PREVIEW_CHARS.length];
        }
        lines.push('  ' + row);
      }
    }
  });
  return printableLines(lines) + '\n';
}
