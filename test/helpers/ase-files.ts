/**
 * Aseprite files the tests write (test/helpers/ase-writer.ts), shared by the
 * command-line tests (test/interop/ase-play.test.ts) and the viewer's
 * (test/web/ase.test.ts).
 */
import { aseFile, rgbaPixels, type WLayer } from './ase-writer.js';

type Rgba = [number, number, number, number];

/**
 * 6 x 5 pixels, 3 frames (100, 150, 50 ms), layers with groups, blend modes
 * and opacity:
 *
 *     0 bg          normal, opaque gradient
 *     1 body        group (opacity 160: counts only with composed groups)
 *     2 body/arm    multiply, layer opacity 200
 *     3 body/hat    screen, cel opacity 128
 *     4 fx          group hidden in the file
 *     5 fx/glow     (hidden with its group)
 *     6 ref         reference layer
 *     7 top         overlay, layer opacity 100
 *
 * Tags: walk 0-2 ping-pong, 3 times; back 0-2 reverse, 2 times; idle 1-1
 * forever; bounce 0-2 ping-pong reverse forever. `compose` sets header flag
 * 2 (Aseprite's "composite groups"); `edit` changes the layers (a test's
 * expected picture: the same file with layers hidden in it).
 */
export function groupedAse(compose = false, edit?: (layers: WLayer[]) => void): Uint8Array {
  const layers: WLayer[] = [
    { name: 'bg' },
    { name: 'body', type: 1, opacity: 160 },
    { name: 'arm', childLevel: 1, blend: 1, opacity: 200 },
    { name: 'hat', childLevel: 1, blend: 2 },
    { name: 'fx', type: 1, flags: 2 },
    { name: 'glow', childLevel: 1 },
    { name: 'ref', flags: 3 | 64 },
    { name: 'top', blend: 3, opacity: 100 },
  ];
  edit?.(layers);
  const grad = (f: number) => rgbaPixels(6, 5, (x, y): Rgba => [40 * x + 10 * f, 50 * y, 200 - 30 * x, 255]);
  const square = (c: Rgba, w = 3, h = 3) => rgbaPixels(w, h, (x, y): Rgba => (x + y === 0 ? [0, 0, 0, 0] : c));
  const frame = (f: number, duration: number) => ({
    duration,
    cels: [
      { layer: 0, w: 6, h: 5, pixels: grad(f), kind: 'compressed' as const },
      { layer: 2, x: f, y: 1, w: 3, h: 3, pixels: square([250, 120, 30, 230]) },
      { layer: 3, x: 2, y: f, w: 3, h: 3, pixels: square([20, 200, 90, 255]), opacity: 128 },
      { layer: 5, x: 0, y: 0, w: 6, h: 5, pixels: rgbaPixels(6, 5, (): Rgba => [255, 255, 0, 255]) },
      { layer: 6, x: 0, y: 0, w: 6, h: 5, pixels: rgbaPixels(6, 5, (): Rgba => [0, 255, 255, 255]) },
      { layer: 7, x: 3 - f, y: 2, w: 3, h: 3, pixels: square([180, 60, 220, 200]) },
    ],
  });
  return aseFile({
    width: 6,
    height: 5,
    flags: compose ? 3 : 1,
    layers,
    frames: [frame(0, 100), frame(1, 150), frame(2, 50)],
    tags: [
      { from: 0, to: 2, direction: 2, repeat: 3, name: 'walk' },
      { from: 0, to: 2, direction: 1, repeat: 2, name: 'back' },
      { from: 1, to: 1, name: 'idle' },
      { from: 0, to: 2, direction: 3, name: 'bounce' },
    ],
  });
}
