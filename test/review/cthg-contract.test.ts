/** Independent conformance review: CTHG against docs/spec/cthg.md, one test per contract sentence. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { readCthg } from '../../src/formats/cthg/read.js';
import { writeCthg } from '../../src/formats/cthg/write.js';
import { validateCthg } from '../../src/formats/cthg/validate.js';
import { NONE, rawFile, TINY_SPRITE } from '../cthg/helpers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-review-cthg-'));
let n = 0;
function save(bytes: Uint8Array): string {
  const f = path.join(dir, `t${n++}.dat`);
  writeFileSync(f, bytes);
  return f;
}

describe('CTHG writing (contract: "every valid file re-writes to the same bytes")', () => {
  it('an animation name that is not valid UTF-8 (a warning, so the file is valid) re-writes to the same bytes', () => {
    const bytes = rawFile([
      TINY_SPRITE,
      { t: 'FR', elements: [{ sprite: 0 }] },
      { t: 'CA', name: 'x', frameCount: 1, views: [0, NONE, NONE, NONE] },
    ]);
    // Replace the one-byte name "x" with the Latin-1 byte 0xE9 ("é" in Windows-1252, invalid as UTF-8).
    const at = bytes.indexOf(0x78, 26 + 15 + 18);
    expect(bytes[at - 1]).toBe(1);
    bytes[at] = 0xe9;
    const diags = validateCthg(bytes);
    expect(diags.filter((d) => d.severity === 'error')).toEqual([]);
    expect(diags.some((d) => d.severity === 'warning')).toBe(true);
    expect(Buffer.from(writeCthg(readCthg(bytes))).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('CTHG play records (contract decision 12)', () => {
  it('records are {"tick","frame","sound"}: the view plays its frames in order and loops, one per tick', async () => {
    const bytes = rawFile([
      TINY_SPRITE,
      { t: 'FR', sound: 0, elements: [{ sprite: 0 }] },
      { t: 'FR', sound: 7, elements: [{ sprite: NONE }] },
      { t: 'FR', sound: 0, elements: [{ sprite: 0 }] },
      { t: 'CA', name: 'a', frameCount: 2, views: [NONE, 1, NONE, NONE] },
    ]);
    const r = await runCli(['play', save(bytes), '--ticks', '3', '--json']);
    expect(r.code).toBe(0);
    const recs = JSON.parse(r.stdout) as Record<string, unknown>[];
    for (const rec of recs) expect(Object.keys(rec)).toEqual(['tick', 'frame', 'sound']);
    expect(recs).toEqual([
      { tick: 0, frame: 1, sound: 7 },
      { tick: 1, frame: 2, sound: 0 },
      { tick: 2, frame: 1, sound: 7 },
    ]);
  });
});

describe('CTHG inspect --json (contract)', () => {
  it('decision 16: an element sprite reference 0xFFFFFFFF is "sprite": null; a missing view is null; header is what the file says', async () => {
    const bytes = rawFile(
      [
        TINY_SPRITE,
        { t: 'FR', elements: [{ sprite: NONE, x: -3, layerClass: 1, layerId: 2, flags: 0x10c }] },
        { t: 'CA', name: 'a', tileSize: 32, frameCount: 1, views: [NONE, NONE, 0, NONE] },
      ],
      [1, 1, 1, 2, 5],
    );
    const r = await runCli(['inspect', save(bytes), '--json']);
    expect(r.code).toBe(0);
    // Decision 2: a header count mismatch is a warning outside validate.
    expect(r.stderr).toMatch(/warning: .*sprite count is 2 but the file holds 1 \(at byte 18\)/);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['format', 'version', 'header', 'blockOrder', 'animations', 'frames', 'sprites']);
    expect(j.header).toEqual({ animations: 1, frames: 1, elements: 1, sprites: 2, spriteBytes: 5 });
    expect(j.blockOrder).toBe('SFA');
    expect(j.animations).toEqual([{ name: 'a', tileSize: 32, frameCount: 1, views: { north: null, east: null, south: 0, west: null } }]);
    expect(j.frames).toEqual([{ sound: 0, elements: [{ sprite: null, x: -3, y: 0, layerClass: 1, layerId: 2, flags: 0x10c }] }]);
    expect(j.sprites).toEqual([{ width: 2, height: 1, dataLength: 5 }]);
    const v = await runCli(['validate', save(bytes)]);
    expect(v.code).toBe(1);
    expect(v.stdout + v.stderr).toMatch(/error: the header's sprite count is 2 but the file holds 1 \(at byte 18\)/);
  });

  it('decisions 5 and 13: 0-length runs are legal inside the data, not after the last pixel; runs of 63', () => {
    const ok = rawFile([{ t: 'SP', width: 64, height: 1, data: [0x00, 0x40, 9, 0xc0, 1, 2, 0x3f, ...new Array(189).fill(7), 0x81] }]);
    expect(validateCthg(ok)).toEqual([]);
    const trailing = rawFile([{ t: 'SP', width: 2, height: 1, data: [0x01, 255, 0, 0, 0x81, 0x80] }]);
    expect(validateCthg(trailing)[0]).toMatchObject({ severity: 'error', message: expect.stringMatching(/unused byte/) });
  });

  it('decision 3: a reference to a frame or sprite not yet defined is an error naming the offset', async () => {
    const r = await runCli(['inspect', save(rawFile([{ t: 'FR', elements: [{ sprite: 0 }] }, TINY_SPRITE]))]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: .*\.dat: .* \(at byte 32\)\n$/);
  });
});
