export { asepriteHandler, type AsepriteDoc } from './aseprite.js';
export { texturePackerHandler, type TexturePackerDoc } from './texturepacker.js';
export { tiledHandler, type TiledDoc, orientationToBits, bitsToOrientation, FLIP_H, FLIP_V, FLIP_D } from './tiled.js';
export { packShelves } from '../model/pack.js';
