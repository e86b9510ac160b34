/**
 * readFileBytes (src/node/fs.ts) reads a big input into one buffer of its
 * size, at once (it used to read 16 MiB pieces, join them and copy the
 * join: a 100 MB file cost 300 MB for a moment; the memory is measured by
 * `npm run bench -- sweep`): the bytes are the file's.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileBytes } from '../../src/node/fs.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-read-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readFileBytes', () => {
  it('reads a file larger than its old 16 MiB pieces into one buffer of the file’s size', async () => {
    const size = (1 << 24) + 12345;
    const data = new Uint8Array(size);
    for (let i = 0; i < size; i += 4099) data[i] = (i * 31) & 0xff;
    const p = path.join(dir, 'big.bin');
    fs.writeFileSync(p, data);
    const got = await readFileBytes(p);
    expect(got.length).toBe(size);
    expect(Buffer.compare(Buffer.from(got.buffer, got.byteOffset, got.length), Buffer.from(data))).toBe(0);
    // One buffer: the file's size and the one byte past it that tells the end.
    expect(got.buffer.byteLength).toBeLessThanOrEqual(size + 1);
  });

  it('reads an empty file and a small one', async () => {
    fs.writeFileSync(path.join(dir, 'empty'), '');
    fs.writeFileSync(path.join(dir, 'small'), 'abc');
    expect((await readFileBytes(path.join(dir, 'empty'))).length).toBe(0);
    expect([...(await readFileBytes(path.join(dir, 'small')))]).toEqual([97, 98, 99]);
  });
});
