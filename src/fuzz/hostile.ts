/**
 * Hand-made hostile seeds: tiny documents that claim huge counts and sizes,
 * the hostile cases and their neighbours. Browser-safe.
 */
import type { FormatName } from '../formats/types.js';

export interface HostileSeed {
  name: string;
  format: FormatName;
  bytes: Uint8Array;
  /** The samples/ folder its resources come from (relative to samples/). */
  dir: string;
}

const text = (s: string) => new TextEncoder().encode(s);

const TEXT_SEEDS: { name: string; format: FormatName; dir: string; text: string }[] = [
  // Not hostile: a plain TexturePacker sheet over samples/interop/hero.png, as samples/ has none.
  {
    name: 'hero-tp.json',
    format: 'texturepacker',
    dir: 'interop',
    text: '{"frames":{"hero_0.png":{"frame":{"x":0,"y":0,"w":16,"h":16},"rotated":false,"trimmed":false,"spriteSourceSize":{"x":0,"y":0,"w":16,"h":16},"sourceSize":{"w":16,"h":16},"pivot":{"x":0.5,"y":1}},"hero_1.png":{"frame":{"x":17,"y":0,"w":16,"h":16},"rotated":false,"trimmed":false,"spriteSourceSize":{"x":0,"y":0,"w":16,"h":16},"sourceSize":{"w":16,"h":16},"pivot":{"x":0.5,"y":1}},"hero_2.png":{"frame":{"x":34,"y":0,"w":12,"h":14},"rotated":false,"trimmed":true,"spriteSourceSize":{"x":2,"y":1,"w":12,"h":14},"sourceSize":{"w":16,"h":16},"pivot":{"x":0.5,"y":1}},"hero_3.png":{"frame":{"x":47,"y":0,"w":16,"h":16},"rotated":false,"trimmed":false,"spriteSourceSize":{"x":0,"y":0,"w":16,"h":16},"sourceSize":{"w":16,"h":16},"pivot":{"x":0.5,"y":1}}},"animations":{"walk":["hero_0.png","hero_1.png","hero_2.png"],"back":["hero_0.png","hero_1.png","hero_2.png"],"idle":["hero_3.png"]},"meta":{"app":"https://www.codeandweb.com/texturepacker","version":"1.0","image":"hero.png","format":"RGBA8888","size":{"w":63,"h":16},"scale":"1"}}',
  },
  // Solarus line syntax: name image directions delay loop, then x y w h ox oy frames columns.
  {
    name: 'frames-1e9.dat',
    format: 'solarus',
    dir: 'solarus/sprites',
    text: 'a enemies/slime.png 1 100 0\n0\t0\t16\t16\t8\t13\t1000000000\t1\n',
  },
  {
    name: 'size-1e6.dat',
    format: 'solarus',
    dir: 'solarus/sprites',
    text: 'a enemies/slime.png 1 1 0\n0\t0\t1000000\t1000000\t0\t0\t2\t1\n',
  },
  { name: 'dirs-1e6.dat', format: 'solarus', dir: 'solarus/sprites', text: 'a enemies/slime.png 1000000 1 0\n0\t0\t16\t16\t8\t13\t1\t1\n' },
  {
    name: 'frames-1e9-lua.dat',
    format: 'solarus-lua',
    dir: 'solarus/sprites',
    text: 'animation{ name = "a", src_image = "enemies/slime.png", frame_delay = 1, frame_to_loop_on = 0, directions = { { x = 0, y = 0, frame_width = 16, frame_height = 16, num_frames = 1000000000, num_columns = 1 } } }\n',
  },
  {
    name: 'size-1e6-lua.dat',
    format: 'solarus-lua',
    dir: 'solarus/sprites',
    text: 'animation{ name = "a", src_image = "enemies/slime.png", frame_delay = 1, directions = { { x = 0, y = 0, frame_width = 1000000, frame_height = 1000000, num_frames = 3 } } }\n',
  },
  // Tiled: a layer 0 wide and 10^15 high; a tileset of 2^28 tiles with margin and spacing; a huge map.
  {
    name: 'layer-0x1e15.tmj',
    format: 'tiled',
    dir: 'interop',
    text: '{"type":"map","orientation":"orthogonal","renderorder":"right-down","width":1,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,"layers":[{"type":"tilelayer","name":"a","width":0,"height":1e15,"x":0,"y":0,"data":[]}],"tilesets":[]}',
  },
  {
    name: 'layer-0x2e31.tmj',
    format: 'tiled',
    dir: 'interop',
    text: '{"type":"map","orientation":"orthogonal","renderorder":"right-down","width":1,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,"layers":[{"type":"tilelayer","name":"a","width":0,"height":2147483647,"x":0,"y":0,"data":[]}],"tilesets":[]}',
  },
  {
    name: 'tilecount-2e28.tmj',
    format: 'tiled',
    dir: 'interop',
    text: '{"type":"map","orientation":"orthogonal","renderorder":"right-down","width":1,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,"layers":[{"type":"tilelayer","name":"a","width":1,"height":1,"x":0,"y":0,"data":[268435456]}],"tilesets":[{"firstgid":1,"name":"t","image":"tiles.png","imagewidth":16,"imageheight":16,"tilewidth":1,"tileheight":1,"tilecount":268435456,"columns":16384,"margin":1,"spacing":1}]}',
  },
  {
    name: 'map-1e5.tmj',
    format: 'tiled',
    dir: 'interop',
    text: '{"type":"map","orientation":"orthogonal","renderorder":"right-down","width":100000,"height":100000,"tilewidth":64,"tileheight":64,"infinite":false,"layers":[{"type":"tilelayer","name":"a","width":100000,"height":100000,"x":0,"y":0,"encoding":"base64","data":""}],"tilesets":[]}',
  },
  {
    name: 'chunks.tmj',
    format: 'tiled',
    dir: 'interop',
    text: '{"type":"map","orientation":"orthogonal","renderorder":"right-down","width":1,"height":1,"tilewidth":8,"tileheight":8,"infinite":true,"layers":[{"type":"tilelayer","name":"a","startx":-2147483648,"starty":0,"width":1,"height":1,"x":0,"y":0,"chunks":[{"x":-2147483648,"y":2147483647,"width":1,"height":1,"data":[1]},{"x":2147483647,"y":-2147483648,"width":1,"height":1,"data":[1]}]}],"tilesets":[{"firstgid":1,"name":"t","image":"tiles.png","imagewidth":16,"imageheight":16,"tilewidth":8,"tileheight":8,"tilecount":4,"columns":2}]}',
  },
  // Aseprite: a frame and a canvas of 10^6 x 10^6; a tag over 10^9 frames.
  {
    name: 'frame-1e6.json',
    format: 'aseprite',
    dir: 'interop',
    text: '{"frames":[{"filename":"a 0","frame":{"x":0,"y":0,"w":16,"h":16},"rotated":false,"trimmed":true,"spriteSourceSize":{"x":999984,"y":999984,"w":16,"h":16},"sourceSize":{"w":1000000,"h":1000000},"duration":1}],"meta":{"app":"http://www.aseprite.org/","version":"1.3","image":"hero.png","format":"RGBA8888","size":{"w":48,"h":16},"scale":"1","frameTags":[{"name":"t","from":0,"to":0,"direction":"forward"}]}}',
  },
  {
    name: 'tag-1e9.json',
    format: 'aseprite',
    dir: 'interop',
    text: '{"frames":[{"filename":"a 0","frame":{"x":0,"y":0,"w":16,"h":16},"rotated":false,"trimmed":false,"spriteSourceSize":{"x":0,"y":0,"w":16,"h":16},"sourceSize":{"w":16,"h":16},"duration":1}],"meta":{"app":"http://www.aseprite.org/","version":"1.3","image":"hero.png","format":"RGBA8888","size":{"w":48,"h":16},"scale":"1","frameTags":[{"name":"t","from":0,"to":1000000000,"direction":"pingpong","repeat":"1000000000"}]}}',
  },
  // TexturePacker: a trimmed frame in a 10^9 square source, an animation listing the frame 10^4 times.
  {
    name: 'source-1e9.json',
    format: 'texturepacker',
    dir: 'interop',
    text: '{"frames":{"a":{"frame":{"x":0,"y":0,"w":16,"h":16},"rotated":false,"trimmed":true,"spriteSourceSize":{"x":1000000000,"y":1000000000,"w":16,"h":16},"sourceSize":{"w":1000000000,"h":1000000000}}},"animations":{"a":["a","a"]},"meta":{"image":"hero.png","format":"RGBA8888","size":{"w":48,"h":16},"scale":"1"}}',
  },
  {
    name: 'anim-1e4.json',
    format: 'texturepacker',
    dir: 'interop',
    text: `{"frames":{"a":{"frame":{"x":0,"y":0,"w":16,"h":16},"rotated":true,"trimmed":false,"spriteSourceSize":{"x":0,"y":0,"w":16,"h":16},"sourceSize":{"w":16,"h":16}}},"animations":{"a":[${Array(10000).fill('"a"').join(',')}]},"meta":{"image":"hero.png","format":"RGBA8888","size":{"w":48,"h":16},"scale":"0.0001"}}`,
  },
];

/**
 * Binary hostile seeds (base64), made by the tests' writer (test/helpers/ase-writer.ts):
 * an indexed Aseprite file with a background, a group, an overlay layer with a negative
 * z-index, a reference layer, a linked cel, a 65535x65535 cel that inflates to one byte, a
 * ping-pong tag repeated 65535 times, a 9-slice with a pivot, and nested property vectors.
 */
const BINARY_SEEDS: { name: string; format: FormatName; dir: string; base64: string }[] = [
  {
    name: 'hostile-ase.aseprite',
    format: 'ase',
    dir: 'interop',
    base64:
      'gQIAAOClAgAIAAgACAADAAAAZAAAAAAAAAAAAAAAAAADAAEBAAAAABAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAC2AQAA+vEMAGQAAAAMAAAALAAAABkgAwAAAAAAAAACAAAAAAAAAAAAAAAAAAAAAP8AAP8AAP8AAAD/AIA0AAAAICAFAAAABwBob3N0aWxlIQAAAAEAAAAAAAAAAQAAAAEAdhEAAgAAABEA////fwAAGgAAAAQgCQAAAAAAAAAAAAAA/wAAAAIAYmcZAAAABCADAAEAAAAAAAAAAABkAAAAAQBnGQAAAAQgAwAAAAEAAAAAAAMA/wAAAAEAYRsAAAAEIEEAAAAAAAAAAAAAAP8AAAADAHJlZikAAAAYIAEAAAAAAAAAAAAAAAEAAv//AAAAAAAAAAAAAAYAYm91bmNlCgAAACAgAAAAAEYAAAAiIAEAAAADAAAAAAAAAAYAb3JpZ2luAAAAAAAAAAAAAAAACAAAAAgAAAABAAAAAQAAAAYAAAAGAAAABAAAAAgAAAAlAAAABSAAAAAAAAD/AgAAAAAAAAAACAAIAHicY6QQAAAIYABBHgAAAAUgAgD+/wMA/wAA//8AAAAAAAIAAgACAAECIwAAAAUgAwAAAAAA/wIAAAAAAAAAAAEAAQB4nGMEAAACAAJLAAAA+vECAP//AAACAAAAGAAAAAUgAAAAAAAA/wEAAAAAAAAAAAAAIwAAAAUgAgAAAAAA/wIAAAAAAAAAAP////94nGMAAAABAAE=',
  },
];

function fromBase64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

/** The hand-made hostile seeds of every format that has text syntax (and a plain TexturePacker sheet), and the binary ones. */
export function hostileSeeds(): HostileSeed[] {
  return [
    ...TEXT_SEEDS.map((s) => ({ name: s.name, format: s.format, dir: s.dir, bytes: text(s.text) })),
    ...BINARY_SEEDS.map((s) => ({ name: s.name, format: s.format, dir: s.dir, bytes: fromBase64(s.base64) })),
  ];
}

/**
 * Hostile variants of a binary file: its header (the first 64 bytes, and the
 * whole file when small) with one aligned 16- or 32-bit field at a time set to
 * a huge count, little and big endian. Up to `max` of them, spread over the header.
 */
export function headerVariants(bytes: Uint8Array, max = 24): Uint8Array[] {
  const out: Uint8Array[] = [];
  const head = bytes.subarray(0, Math.min(bytes.length, 64));
  for (let at = 0; at + 4 <= head.length; at += 4) {
    for (const [value, width, big] of [
      [0x7fffffff, 4, false],
      [0xffff, 2, true],
    ] as const) {
      const b = (bytes.length <= 4096 ? bytes : head).slice();
      for (let i = 0; i < width; i++) b[big ? at + width - 1 - i : at + i] = (value >>> (8 * i)) & 0xff;
      out.push(b);
    }
  }
  // Spread over the header when only a few are wanted.
  if (out.length <= max) return out;
  return Array.from({ length: max }, (_, i) => out[Math.floor((i * out.length) / max)]!);
}
