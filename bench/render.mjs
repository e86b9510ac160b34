// The compositor against Skia (@napi-rs/canvas) doing the same draws, and
// against the per-pixel reference compositor of the tests (exact); PNG
// encoding against pngjs (node's zlib) and Skia, PNG decoding against pngjs;
// GIF and APNG encoding. Pixels are compared before timing: the reference
// must match exactly, Skia within the tolerance stated per case (it keeps
// premultiplied pixels, rounds its blending differently and anti-aliases the
// edges of transformed images).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beginSuite, compare, config, pixelsWithin, tolText } from './lib.mjs';
import { tempDir } from './native.mjs';
import { LIB, mod, sprat } from './sprat.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const {
  createImage,
  createCanvasImage,
  placeOnCanvas,
  fillImage,
  drawImage,
  setComposeKernels,
  compose,
  rotate,
  scale,
  translate,
  encodePng,
  decodePng,
  encodeGif,
  encodeApng,
  setZlibDeflate,
} = sprat;
// PNG writing in Node uses node's zlib (the command line and `sprat/node` install it), in browsers fflate's: both are measured.
const { nodeDeflate } = await mod('node/zlib');
const withNodeZlib = (f) => () => {
  setZlibDeflate(nodeDeflate);
  return f();
};
const withFflate = (f) => () => {
  setZlibDeflate(null);
  return f();
};

/** The reference compositor from test/render/reference.ts (transpiled for dist/). */
async function loadReference() {
  if (LIB === 'src') return import(pathToFileURL(path.join(here, '../test/render/reference.ts')).href);
  const ts = (await import('typescript')).default;
  const js = ts
    .transpileModule(readFileSync(path.join(here, '../test/render/reference.ts'), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    })
    .outputText.replaceAll('../../src/render/', `${pathToFileURL(path.join(here, '../dist/render/')).href}`);
  const out = path.join(tempDir(), 'reference.mjs');
  (await import('node:fs')).writeFileSync(out, js);
  return import(pathToFileURL(out).href);
}

/** An n×n sprite: an opaque disc with a soft (semi-transparent) rim n/32 px wide, transparent corners. */
export function sprite(n = 256) {
  const img = createImage(n, n);
  const c = n / 2;
  const rim = Math.max(1, n / 32);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const r = Math.hypot(x + 0.5 - c, y + 0.5 - c);
      const o = (y * n + x) * 4;
      img.data[o] = x;
      img.data[o + 1] = y;
      img.data[o + 2] = (x * y) & 255;
      img.data[o + 3] = r < c - rim ? 255 : r < c ? Math.round(((c - r) / rim) * 255) : 0;
    }
  }
  return img;
}

function opaque(n = 256) {
  const img = sprite(n);
  for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
  return img;
}

export async function run() {
  beginSuite('render');
  const skia = require('@napi-rs/canvas');
  const ref = await loadReference();
  const S = config.mode === 'tiny' ? 32 : 256;
  const C = config.mode === 'tiny' ? 128 : 1024;
  const spr = sprite(S);
  const opq = opaque(S);
  const skiaImage = (img) => {
    const c = skia.createCanvas(img.width, img.height);
    c.getContext('2d').putImageData(new skia.ImageData(new Uint8ClampedArray(img.data), img.width, img.height), 0, 0);
    return c;
  };
  const sImg = new Map([
    [spr, skiaImage(spr)],
    [opq, skiaImage(opq)],
  ]);
  // sprat draws onto a canvas image (pixels in WebAssembly memory, drawn in place by the SIMD kernels),
  // and onto a plain image (pixels copied in and out of the kernels' memory) and with the JS kernels.
  const canvas = (make = createImage) => {
    const c = make(C, C);
    fillImage(c, 96, 80, 64, 255);
    return c;
  };
  const skiaCanvas = () => {
    const c = skia.createCanvas(C, C);
    const ctx = c.getContext('2d');
    ctx.fillStyle = 'rgb(96,80,64)';
    ctx.fillRect(0, 0, C, C);
    return ctx;
  };
  const skiaDraw = (ctx, src, o) => {
    const m = o.transform;
    ctx.setTransform(m[0], m[1], m[2], m[3], m[4], m[5]);
    ctx.globalAlpha = o.opacity ?? 1;
    ctx.imageSmoothingEnabled = o.filter === 'bilinear';
    ctx.imageSmoothingQuality = 'low';
    ctx.drawImage(sImg.get(src), 0, 0);
  };
  const N = S * S;
  const room = C - S;
  const pos = (i) => translate((i * 97) % room, (i * 61) % room);
  // Transformed draws whose bounding box is `size` px: never clipped, so every sprite pixel counted is drawn.
  const posIn = (i, size) => translate((i * 97) % (C - size), (i * 61) % (C - size));
  const k = S / 256;
  // [name, source, options(i), area factor, Skia tolerance]
  // Skia's tolerances, from its measured differences: plain draws within 2 on
  // 99.5 % of the pixels (its premultiplied source and its rounding), within 8
  // everywhere; rotated and bilinear draws within 3 but on the edges, which
  // Skia anti-aliases and sprat does not.
  const exactish = { tol: 2, share: 0.995, maxTol: 8 };
  // (All but a 1 px band along the 8 drawn sprites' edges: 8 × 4 × S × 1.3 pixels.)
  const edges = { tol: 3, allowed: Math.round(8 * 4 * S * 1.3), allowedText: 'the edges' };
  // The reference: exact for nearest draws, within 1 for bilinear ones (as the tests require).
  const refTol = (o) => (o.filter === 'bilinear' ? { tol: 1, share: 1 } : { tol: 0 });
  const cases = [
    ['blit opaque', opq, (i) => ({ transform: pos(i) }), 1, exactish],
    ['blit sprite with alpha (disc, soft rim)', spr, (i) => ({ transform: pos(i) }), 1, exactish],
    ['blit sprite, opacity 0.5', spr, (i) => ({ transform: pos(i), opacity: 0.5 }), 1, exactish],
    ['flip X + scale 2, nearest', spr, (i) => ({ transform: compose(scale(-2, 2), translate(2 * S + (i % 8), 8 + (i % 8))) }), 4, exactish],
    ['rotate 90°, nearest', spr, (i) => ({ transform: compose(rotate(90), pos(i), translate(S, 0)) }), 1, exactish],
    ['rotate 30°, nearest', spr, (i) => ({ transform: compose(rotate(30), posIn(i, 350 * k), translate(128 * k, 0)) }), 1, edges],
    [
      'rotate 30°, bilinear, opaque',
      opq,
      (i) => ({ transform: compose(rotate(30), posIn(i, 350 * k), translate(128 * k, 0)), filter: 'bilinear' }),
      1,
      edges,
    ],
    [
      'rotate 30°, bilinear, opacity 0.5',
      spr,
      (i) => ({ transform: compose(rotate(30), posIn(i, 350 * k), translate(128 * k, 0)), filter: 'bilinear', opacity: 0.5 }),
      1,
      edges,
    ],
    [
      'rotate 30° + scale 1.3, bilinear',
      spr,
      (i) => ({ transform: compose(rotate(30), scale(1.3), posIn(i, 456 * k), translate(167 * k, 0)), filter: 'bilinear' }),
      1.69,
      edges,
    ],
  ];
  for (const [name, src, opts, area, tol] of cases) {
    // The output compared: 8 draws onto a fresh canvas, by each peer.
    const probe = (draw) => {
      for (let i = 0; i < 8; i++) draw(i);
    };
    // The canvas image's source lives in its memory (placeOnCanvas), as sprat's picture pipeline places
    // decoded frames and sheets, and as Skia's source is an image in its own memory.
    let dst = canvas((w, h) => createCanvasImage(w, h, src.data.length));
    let placed = placeOnCanvas(dst, src);
    let plainDst = canvas();
    let p = 0;
    let ctx = skiaCanvas();
    let refDst = canvas();
    let jsDst = canvas();
    let js = 0;
    /** drawImage with its JavaScript kernels (the reference of the WebAssembly SIMD ones). */
    const jsDraw = (n) => {
      const was = setComposeKernels('js');
      try {
        drawImage(jsDst, src, opts(n));
      } finally {
        setComposeKernels(was);
      }
    };
    let i = 0;
    let j = 0;
    let r = 0;
    await compare(`compositor: ${name} (${S}² onto ${C}²)`, {
      amount: N * area,
      unit: 'Mpx/s',
      peers: [
        {
          name: 'sprat drawImage (canvas image)',
          fn: () => {
            if (i === 0) probe((n) => drawImage(dst, placed, opts(n)));
            else drawImage(dst, placed, opts(i));
            i++;
            return i === 1 ? dst.data.slice() : null;
          },
        },
        {
          name: 'Skia (@napi-rs/canvas)',
          fn: () => {
            if (j === 0) probe((n) => skiaDraw(ctx, src, opts(n)));
            else skiaDraw(ctx, src, opts(j));
            j++;
            return j === 1 ? ctx.getImageData(0, 0, C, C).data : null;
          },
          roundEnd: () => ctx.getImageData(0, 0, 1, 1),
          check: (a, b) => pixelsWithin(a, b, tol),
          checkNote: tolText(tol),
        },
        {
          name: 'sprat drawImage, plain image',
          fn: () => {
            if (p === 0) probe((n) => drawImage(plainDst, src, opts(n)));
            else drawImage(plainDst, src, opts(p));
            p++;
            return p === 1 ? plainDst.data.slice() : null;
          },
        },
        {
          name: 'sprat drawImage, JS kernels',
          fn: () => {
            if (js === 0) probe(jsDraw);
            else jsDraw(js);
            js++;
            return js === 1 ? jsDst.data.slice() : null;
          },
        },
        {
          name: 'reference (tests)',
          fn: () => {
            if (r === 0) probe((n) => ref.refDrawImage(refDst, src, opts(n)));
            else ref.refDrawImage(refDst, src, opts(r));
            r++;
            return r === 1 ? refDst.data.slice() : null;
          },
          check: (a, b) => pixelsWithin(a, b, refTol(opts(0))),
          checkNote: tolText(refTol(opts(0))),
          maxReps: 50,
        },
      ],
      target: { peer: 'Skia (@napi-rs/canvas)', ratio: name.includes('rotate 30') || name.includes('bilinear') ? 0.7 : 0.5 },
      note: 'sprite pixels drawn per second; each peer draws onto its own canvas (sprat: createCanvasImage with the source placed in its memory by placeOnCanvas, createImage, createImage with the JS kernels)',
    });
    // The canvases are dropped: the next case starts on fresh ones (they stay opaque, as a game screen).
    dst = placed = plainDst = ctx = refDst = jsDst = null;
  }
  await pngs(skia);
}

async function pngs(skia) {
  const { PNG } = require('pngjs');
  const fastPng = await import('fast-png');
  // A sheet-like RGBA image: sprites with soft edges on transparency, drawn by sprat.
  const W = config.mode === 'tiny' ? 96 : 1024;
  const img = createImage(W, W);
  const spr = sprite(96);
  for (let y = 0; y + 96 <= W; y += 100) for (let x = 0; x + 96 <= W; x += 100) drawImage(img, spr, { transform: translate(x, y) });
  // Fully transparent pixels carry no colour (so Skia's premultiplied copy is exact there).
  for (let p = 0; p < img.data.length; p += 4) if (img.data[p + 3] === 0) img.data.fill(0, p, p + 4);
  const px = W * W;
  const decoded = (png) => decodePng(png).data;
  const c = skia.createCanvas(W, W);
  c.getContext('2d').putImageData(new skia.ImageData(new Uint8ClampedArray(img.data), W, W), 0, 0);
  // Skia keeps premultiplied pixels: colours of nearly transparent pixels are lost (measured: 0.3 % off by more than 32).
  const skiaTol = { tol: 3, share: 0.96 };
  await compare(`PNG encode, RGBA ${W}x${W} sheet`, {
    amount: px,
    unit: 'Mpx/s',
    peers: [
      { name: 'sprat encodePng (node zlib)', fn: withNodeZlib(() => decoded(encodePng(img))) },
      {
        name: 'pngjs (node zlib)',
        fn: () => decoded(PNG.sync.write({ width: W, height: W, data: Buffer.from(img.data.buffer) })),
        checkNote: 'decodes to the same pixels',
      },
      { name: 'sprat encodePng, fflate (browsers)', fn: withFflate(() => decoded(encodePng(img))) },
      { name: 'fast-png encode', fn: () => decoded(fastPng.encode({ width: W, height: W, data: img.data, channels: 4, depth: 8 })) },
      {
        name: 'Skia encodeSync',
        fn: () => decoded(c.encodeSync('png')),
        check: (a, b) => pixelsWithin(a, b, skiaTol),
        checkNote: `decodes to ${tolText(skiaTol)} (premultiplied)`,
      },
    ],
    checkNote: 'decodes to the same pixels',
    target: { peer: 'pngjs (node zlib)', ratio: 0.9 },
  }).catch((e) => {
    throw e;
  });
  // The timed calls encode only (decoding was for the check above).
  const sizes = {
    sprat: withNodeZlib(() => encodePng(img))().length,
    fflate: withFflate(() => encodePng(img))().length,
    pngjs: PNG.sync.write({ width: W, height: W, data: Buffer.from(img.data.buffer) }).length,
    skia: c.encodeSync('png').length,
  };
  await compare(`PNG encode, RGBA ${W}x${W} sheet (encoding alone)`, {
    amount: px,
    unit: 'Mpx/s',
    peers: [
      { name: 'sprat encodePng (node zlib)', fn: withNodeZlib(() => encodePng(img)) },
      {
        name: 'pngjs (node zlib)',
        fn: () => PNG.sync.write({ width: W, height: W, data: Buffer.from(img.data.buffer) }),
        check: false,
        checkNote: 'pixels checked above',
      },
      {
        name: 'sprat encodePng, fflate (browsers)',
        fn: withFflate(() => encodePng(img)),
        check: false,
        checkNote: 'pixels checked above',
      },
      { name: 'Skia encodeSync', fn: () => c.encodeSync('png'), check: false, checkNote: 'pixels checked above' },
      {
        name: 'fast-png encode',
        fn: () => fastPng.encode({ width: W, height: W, data: img.data, channels: 4, depth: 8 }),
        check: false,
        checkNote: 'pixels checked above',
      },
    ],
    target: { peer: 'pngjs (node zlib)', ratio: 0.9 },
    note: `PNG sizes: sprat ${sizes.sprat} (fflate ${sizes.fflate}), pngjs ${sizes.pngjs}, Skia ${sizes.skia}, fast-png ${fastPng.encode({ width: W, height: W, data: img.data, channels: 4, depth: 8 }).length} bytes`,
  });
  // From here on as the command line writes them (node's zlib).
  setZlibDeflate(nodeDeflate);
  const png = encodePng(img);
  await compare(`PNG decode, RGBA ${W}x${W} sheet (${png.length} bytes)`, {
    amount: px,
    unit: 'Mpx/s',
    peers: [
      { name: 'sprat decodePng', fn: () => decodePng(png).data },
      { name: 'pngjs', fn: () => PNG.sync.read(Buffer.from(png)).data },
    ],
    checkNote: 'pixels equal',
  });

  // Animations: 8 frames of a 128×128 sprite turning, with transparency.
  const frames = [];
  for (let k = 0; k < 8; k++) {
    const f = createImage(128, 128);
    drawImage(f, sprite(96), { transform: compose(translate(-48, -48), rotate(k * 45), translate(64, 64)), filter: 'bilinear' });
    frames.push(f);
  }
  const delays = frames.map(() => 100);
  const fpx = frames.length * 128 * 128;
  await compare('GIF encode, 8 frames 128x128 (gifenc inside)', {
    amount: fpx,
    unit: 'Mpx/s',
    peers: [{ name: 'sprat encodeGif', fn: () => encodeGif(frames, delays) }],
  });
  await compare('APNG encode, 8 frames 128x128', {
    amount: fpx,
    unit: 'Mpx/s',
    peers: [
      { name: 'sprat encodeApng', fn: () => encodeApng(frames, delays) },
      {
        name: '8 x pngjs PNG (no animation)',
        fn: () => frames.map((f) => PNG.sync.write({ width: 128, height: 128, data: Buffer.from(f.data.buffer) })),
        check: false,
        checkNote: 'different work (8 stills)',
      },
    ],
  });
}
