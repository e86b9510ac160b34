// Types for the tests that reuse the interop bench's inputs (test/interop/tiled-gids.test.ts).
export function asepriteJson(n: number): Uint8Array;
/** `n` GIDs for layer `seed`: a fifth of the cells empty, a quarter flipped. */
export function tiledGids(n: number, seed: number): number[];
/** Tile layer `l` (id l + 1, name `L${l}`) of a W x W map holding `data`. */
export function tiledTileLayer(W: number, l: number, data: unknown): Record<string, unknown>;
export function tiledJson(W: number): Uint8Array;
/** A W x W Tiled map (the object) with these layers and one 8 x 8 tileset of 16 x 16 tiles. */
export function tiledMap(W: number, layers: unknown[]): Record<string, unknown>;
export function sheetSprite(frames: number): unknown;
export function packRects(n: number): { id: number; width: number; height: number }[];
export function run(): Promise<void>;
