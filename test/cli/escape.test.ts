/**
 * Names cannot drive the terminal: control characters in animation, tag and
 * file names are shown visibly (`\e`, `\x07`, `\r`, `\n`) in every text
 * output, through the one escaping function (printable, src/binary/errors.ts),
 * as JSON escapes them by its own rules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printable } from '../../src/binary/errors.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { tempTree } from '../helpers/tree.js';

/** An OSC title sequence, a clear screen, a CR and a line break forging a line of its own. */
const EVIL = 'w\u001b]0;owned\u0007\u001b[2J\r\nfake: ok';
const SHOWN = 'w\\e]0;owned\\x07\\e[2J\\r\\nfake: ok';

const { dir, place } = tempTree('sprat-escape-');
const hero = JSON.parse(fs.readFileSync(path.join(SAMPLES, 'interop', 'hero.json'), 'utf8'));
hero.meta.frameTags[0].name = EVIL;
place('evil.json', JSON.stringify(hero));
place('hero.png', fs.readFileSync(path.join(SAMPLES, 'interop', 'hero.png')));

/** No control character but the line break ending each line. */
function clean(text: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  expect(text).not.toMatch(/^fake: ok/m);
}

describe('printable', () => {
  it('shows every control character but the tab, and nothing else changes', () => {
    expect(printable(EVIL)).toBe(SHOWN);
    expect(printable('\u0000\u0008\t\u007f\u0085\u009b\u2028\u2029é😀')).toBe('\\x00\\x08\t\\x7f\\x85\\x9b\\u2028\\u2029é😀');
    expect(printable(printable(EVIL))).toBe(SHOWN);
  });
});

describe('text output escapes names', () => {
  it('inspect and play: a tag name', async () => {
    const i = await runCli(['inspect', 'evil.json'], dir);
    expect(i.code).toBe(0);
    expect(i.stdout).toContain(`tag "${SHOWN}": frames 0-2`);
    clean(i.stdout);
    const p = await runCli(['play', 'evil.json', '--animation', EVIL], dir);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain(`tag "${SHOWN}"`);
    clean(p.stdout);
    // JSON keeps the name as it is (escaped by JSON's rules).
    const j = await runCli(['inspect', 'evil.json', '--json'], dir);
    expect(JSON.stringify(JSON.parse(j.stdout))).toContain(JSON.stringify(EVIL).slice(1, -1));
  });

  it('check, validate and batch lines: file names found by a walk', async () => {
    place(`walk/${EVIL}.isprite`, 'not a sprite');
    place('walk/ok/hero.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite', 'hero.isprite')));
    place('walk/ok/hero.png', fs.readFileSync(path.join(SAMPLES, 'isprite', 'hero.png')));
    const c = await runCli(['check', 'walk'], dir);
    expect(c.code).toBe(1);
    expect(c.stdout).toMatch(new RegExp(`^walk/${SHOWN.replace(/[\\[\]]/g, '\\$&')}\\.isprite: error: `, 'm'));
    clean(c.stdout);
    const v = await runCli(['validate', 'walk'], dir);
    expect(v.code).toBe(1);
    clean(v.stdout);
    clean(v.stderr);
    fs.mkdirSync(path.join(dir, 'many'));
    place(`many/${EVIL}.json`, JSON.stringify({ ...hero, meta: { ...hero.meta, image: '../hero.png' } }));
    const r = await runCli(['render', 'many', '-o', 'pictures'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`wrote ${path.join('pictures', SHOWN)}.png\n`);
    clean(r.stdout);
    clean(r.stderr);
  });

  it('check --merge: a report whose paths, messages and formats hold control characters', async () => {
    const report = {
      files: [{ path: `${EVIL}.dat`, format: `cthg${EVIL}`, problems: [{ severity: 'error', message: `bad ${EVIL}` }] }],
    };
    place('report.json', JSON.stringify(report));
    const m = await runCli(['check', '--merge', 'report.json'], dir);
    expect(m.code).toBe(1);
    expect(m.stdout).toContain(`${SHOWN}.dat: error: bad ${SHOWN}\n`);
    expect(m.stdout).toContain(`cthg${SHOWN}`);
    clean(m.stdout);
  });

  it('diff --git-driver: the header names the path as git gives it', async () => {
    const file = path.join(dir, 'hero.png');
    const d = await runCli(['diff', '--git-driver', EVIL, file, '0'.repeat(40), '100644', file, '0'.repeat(40), '100644'], dir);
    expect(d.stdout.split('\n')[0]).toBe(`diff --sprat a/${SHOWN} b/${SHOWN}`);
    clean(d.stdout);
    clean(d.stderr);
  });
});
