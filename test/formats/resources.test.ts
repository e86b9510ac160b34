import { describe, expect, it } from 'vitest';
import { load, preview } from '../../src/api.js';
import { FormatError } from '../../src/binary/errors.js';
import { LimitError } from '../../src/binary/limits.js';
import { foundResources, imageCache, joinPath, loadImage, loadResource, questRoot, sharingImages } from '../../src/formats/resources.js';
import type { ResourceLoader } from '../../src/formats/types.js';
import { decodeImage, IMAGE_DECODERS } from '../../src/render/decode.js';
import { createImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import { droppedLoader, serverLoader } from '../../web/loaders.js';

/** Files by normalised path from the document's folder ("../x" as "../x"); folders are implied. */
function memory(files: Record<string, Uint8Array>, log: string[] = []): ResourceLoader {
  return {
    async load(p) {
      log.push(`load ${p}`);
      const b = files[joinPath('', p)];
      if (!b) throw Object.assign(new Error('no'), { code: 'ENOENT' });
      return b;
    },
    async exists(p) {
      log.push(`exists ${p}`);
      const k = joinPath('', p);
      return p.endsWith('/') ? Object.keys(files).some((f) => f.startsWith(k + '/')) : k in files;
    },
  };
}

const png = (w: number, h: number) => encodePng(createImage(w, h));

describe('the resource layer', () => {
  it('joinPath resolves . and .. and keeps absolute paths', () => {
    expect(joinPath('a/b', '../c.png')).toBe('a/c.png');
    expect(joinPath('', '../../x')).toBe('../../x');
    expect(joinPath('a', '/abs/x.png')).toBe('/abs/x.png');
    expect(joinPath('/q/data', '../sprites/./x.png')).toBe('/q/sprites/x.png');
    expect(joinPath('a\\b', 'c')).toBe('a/b/c');
  });

  it('finds the first candidate; a miss names the path as written and every place searched', async () => {
    const res = memory({ 'tex.bmp': png(1, 1) });
    const r = await loadResource(res, { format: 'f', what: 'texture', name: 'tex', candidates: ['tex', 'tex.png', 'tex.bmp'] });
    expect(r.path).toBe('tex.bmp');
    await expect(
      loadResource(res, { format: 'f', what: 'texture', name: 'x', candidates: ['x', 'x.png'], hint: 'try harder' }),
    ).rejects.toThrow(new FormatError('f', 'texture "x" not found (looked for x, x.png); try harder'));
  });

  it('loadImage decodes by content and checks --max-pixels first; imageCache reads each file once', async () => {
    const log: string[] = [];
    const res = memory({ 'a.png': png(4, 4) }, log);
    expect((await loadImage(res, { format: 'f', what: 'sheet', name: 'a.png' })).image.width).toBe(4);
    await expect(loadImage(res, { format: 'f', what: 'sheet', name: 'a.png' }, { maxPixels: 15 })).rejects.toThrow(LimitError);
    log.length = 0;
    const load = imageCache(res);
    await Promise.all([
      load({ format: 'f', what: 'sheet', name: 'a.png' }),
      load({ format: 'f', what: 'sheet', name: './a.png', candidates: ['a.png'] }),
    ]);
    expect(log.filter((l) => l.startsWith('load'))).toEqual(['load a.png']);
  });

  it('sharingImages: every imageCache made from it reads each file once (per --max-pixels); the loader given stays unshared', async () => {
    const log: string[] = [];
    const res = memory({ 'a.png': png(4, 4) }, log);
    const req = { format: 'f', what: 'sheet', name: 'a.png' };
    const shared = sharingImages(res);
    await imageCache(shared)(req);
    await imageCache(shared)(req);
    await expect(imageCache(shared, { 'max-pixels': '15' })(req)).rejects.toThrow(LimitError);
    expect(log.filter((l) => l.startsWith('load'))).toEqual(['load a.png', 'load a.png']);
    await imageCache(res)(req);
    await imageCache(sharingImages(res))(req);
    expect(log.filter((l) => l.startsWith('load'))).toHaveLength(4);
  });

  it("the viewer's preview decodes a sheet once for all the animations drawn from it", async () => {
    const log: string[] = [];
    const anim = (name: string) =>
      `animation{ name = "${name}", src_image = "s.png", directions = { { x = 0, y = 0, frame_width = 2, frame_height = 2, origin_x = 0, origin_y = 0 } } }\n`;
    const loaded = load(new TextEncoder().encode(anim('a') + anim('b') + anim('c')), 'x.dat', 'solarus-lua');
    const p = await preview(loaded, memory({ 'sprites/s.png': png(4, 4) }, log));
    expect(p.animations).toHaveLength(3);
    expect(log.filter((l) => l.startsWith('load'))).toEqual(['load sprites/s.png']);
  });

  it('a loader that already shares images is kept: previews through it decode each sheet once across calls', async () => {
    const log: string[] = [];
    const loaded = load(
      new TextEncoder().encode(
        'animation{ name = "a", src_image = "s.png", directions = { { x = 0, y = 0, frame_width = 2, frame_height = 2, origin_x = 0, origin_y = 0 } } }\n',
      ),
      'x.dat',
      'solarus-lua',
    );
    const shared = sharingImages(memory({ 'sprites/s.png': png(4, 4) }, log));
    expect(sharingImages(shared)).toBe(shared);
    await preview(loaded, shared);
    await preview(loaded, shared);
    expect(log.filter((l) => l.startsWith('load'))).toEqual(['load sprites/s.png']);
  });

  it('foundResources: a request that cannot be made is left out, never an unhandled rejection while an earlier one is awaited', async () => {
    const rejected: unknown[] = [];
    const onRejection = (e: unknown) => rejected.push(e);
    process.on('unhandledRejection', onRejection);
    try {
      const files = memory({ 'a.png': png(1, 1), 'b.png': png(1, 1) });
      const slow = new Promise<{ format: string; what: string; name: string }>((resolve) =>
        setTimeout(() => resolve({ format: 't', what: 'image', name: 'a.png' }), 20),
      );
      const failing = Promise.reject(new Error('an option it needs is missing'));
      const found = await foundResources(files, [slow, failing, { format: 't', what: 'image', name: 'b.png' }]);
      expect(found).toEqual(['a.png', 'b.png']);
      // A turn of the event loop: Node reports an unhandled rejection after the microtasks run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(rejected).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('questRoot: the nearest folder up that holds quest.dat or a sprites/ folder', async () => {
    expect(await questRoot(memory({ '../../../../quest.dat': new Uint8Array() }))).toBe('../../../../');
    expect(await questRoot(memory({ '../sprites/x.dat': new Uint8Array() }))).toBe('../');
    expect(await questRoot(memory({}))).toBeUndefined();
  });

  it('decodeImage: one decoder per format, picked by content', () => {
    expect(IMAGE_DECODERS.map((d) => d.name)).toEqual(['png', 'bmp']);
    expect(decodeImage(png(2, 3), 'x.bmp').height).toBe(3);
    expect(() => decodeImage(new Uint8Array([1, 2, 3]), 'x.png')).toThrow(/"x.png" is neither a PNG nor a BMP image/);
    expect(() => decodeImage(png(100, 100), 'big.png', { maxPixels: 9999 })).toThrow(
      /decoding big.png \(a 100x100 PNG image\) would need 10000 pixels/,
    );
  });
});

describe("the viewer's loaders", () => {
  it('dropped files: relative to the document, then by base name; folders with a trailing /', async () => {
    const files = new Map<string, Uint8Array>([
      ['q/data/quest.dat', new Uint8Array()],
      ['q/data/sprites/hero/x.dat', new Uint8Array([1])],
      ['q/data/sprites/enemies/slime.png', new Uint8Array([2])],
      ['loose.png', new Uint8Array([3])],
    ]);
    const res = droppedLoader(files, 'q/data/sprites/hero/x.dat');
    expect(await questRoot(res)).toBe('../../');
    expect(await res.load('../../sprites/enemies/slime.png')).toEqual(new Uint8Array([2]));
    expect(await res.load('somewhere/loose.png')).toEqual(new Uint8Array([3]));
    expect(await res.exists('../../sprites/')).toBe(true);
    expect(await res.exists('../nothing/')).toBe(false);
    await expect(res.load('gone.png')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('served files: a 404 is ENOENT, a network failure is "not there"', async () => {
    const seen: string[] = [];
    const fake = (async (url: string, init?: { method?: string }) => {
      seen.push(`${init?.method ?? 'GET'} ${url}`);
      if (url.endsWith('boom')) throw new Error('offline');
      return url.endsWith('a%20b%2Epng') ? new Response(new Uint8Array([7])) : new Response('', { status: 404, statusText: 'Not Found' });
    }) as typeof fetch;
    const res = serverLoader(3, fake);
    expect(await res.load('d/a b.png')).toEqual(new Uint8Array([7]));
    await expect(res.load('nope.png')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await res.exists('boom')).toBe(false);
    expect(seen[0]).toBe('GET files/3/res/d%2Fa%20b%2Epng');
  });
});
