/**
 * readFileBytes reads a file into one buffer of its size (memory: no chunks joined into a
 * second copy), follows a file whose size stat does not tell (it grows the buffer), and stops one
 * byte past --max-file-bytes. readFileBytesSync (what `check` reads a tree's files with in its
 * workers) does the same by synchronous calls, and refuses a folder or a FIFO as readFileBytes does.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readFileBytes as readAsync, readFileBytesSync } from '../../src/node/fs.js';

const READERS = {
  readFileBytes: readAsync,
  readFileBytesSync: async (p: string, limits?: { maxFileBytes?: number }) => readFileBytesSync(p, limits),
};

describe.each(Object.entries(READERS))('%s', (_, readFileBytes) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-read-'));

  it('reads a file whole, in one buffer of its size', async () => {
    const data = new Uint8Array(3 * (1 << 20) + 17).map((_, i) => (i * 31) & 255);
    const f = path.join(dir, 'a.bin');
    fs.writeFileSync(f, data);
    const got = await readFileBytes(f);
    expect(got.length).toBe(data.length);
    expect(Buffer.from(got).equals(Buffer.from(data))).toBe(true);
    // One byte more than the file (to see a file that grew), never a second copy.
    expect(got.buffer.byteLength).toBe(data.length + 1);
    fs.writeFileSync(path.join(dir, 'empty'), '');
    expect((await readFileBytes(path.join(dir, 'empty'))).length).toBe(0);
  });

  it('reads a file whose size stat gives as 0 (a /proc file) by growing its buffer', async () => {
    if (!fs.existsSync('/proc/self/status')) return;
    const text = new TextDecoder().decode(await readFileBytes('/proc/self/status'));
    expect(text).toMatch(/^Name:/);
    expect(text).toMatch(/VmHWM:/);
  });

  it('stops past --max-file-bytes', async () => {
    const f = path.join(dir, 'b.bin');
    fs.writeFileSync(f, new Uint8Array(5000));
    await expect(readFileBytes(f, { maxFileBytes: 4999 })).rejects.toThrow(/max-file-bytes/);
    expect((await readFileBytes(f, { maxFileBytes: 5000 })).length).toBe(5000);
  });

  it('refuses a folder and a FIFO (without waiting for a writer)', async () => {
    await expect(readFileBytes(dir)).rejects.toMatchObject({ code: 'EISDIR' });
    const fifo = path.join(dir, `pipe-${Math.random().toString(36).slice(2)}`);
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo here
    }
    await expect(readFileBytes(fifo)).rejects.toMatchObject({ code: 'EFTYPE' });
  });
});
