/**
 * The error sweep ("no crash, no source text, ever"): every command over
 * every file of samples/ and of ../shared/corpus (the interop corpus's real
 * Aseprite and TexturePacker items included), in-process through runCli:
 * inspect, inspect --json, validate, check, render -o x.png (the default
 * selection), play --json where the format plays, convert, diff FILE FILE.
 * Each run ends with exit 0, or exit 1 with exactly one clean error line
 * (`sprat: error: ...`; validate and check print theirs on stdout): no
 * stack, no `at` frame, no source text, no line over 400 characters.
 *
 * Conversions: each file to every format it converts to, but for the 469
 * Solarus sprites (the first of each collection and syntax to every target,
 * each other one to one target in turn), to keep the test within ~30 s on a
 * quiet machine (the full cross product is ~35 s, and clean).
 * Files that are no sprite or level (PNGs, READMEs, licences) run the same
 * commands and must fail cleanly.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFormatOf } from '../../src/check.js';
import type { FormatHandler } from '../../src/formats/types.js';
import { FORMATS } from '../../src/registry.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { problemOf } from '../helpers/clean-output.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-sweep-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** The formats `handler`'s documents convert to (as src/fuzz/commands.ts finds them). */
function targetsOf(handler: FormatHandler): FormatHandler[] {
  return FORMATS.filter((t) => (t === handler ? !!(t.write || t.writeFiles) : !!(handler.toModel && t.fromModel)));
}

interface Run {
  command: string;
  argv: string[];
}

/** A Solarus tileset image of the corpus quest, for the animations drawn from the map's tileset. */
const TILESET = path.join(CORPUS, 'solarus', 'quest-editor-initial', 'data', 'tilesets', 'castle.tiles.png');

/** What a user gives a command for a format that needs it (the format does not store it): anything else is exit 2. */
function needed(handler: FormatHandler | undefined, command: string): string[] {
  const name = handler?.name ?? '';
  const reencode = command === `convert --to ${name}`;
  if ((command === 'render' || (command.startsWith('convert') && !reencode)) && /^hallgeir-(sprite|object)$/.test(name))
    return ['--frame-size', '16x16'];
  if (command === 'play --json' && name === 'isprite') return ['--ticks', '120'];
  if (command === 'render' && name.startsWith('solarus')) return ['--tileset', TILESET];
  return [];
}

/** The runs for `file` (as typed from its root folder). */
function runsFor(root: string, file: string, index: number, converted: Set<string>): Run[] {
  const handler = checkFormatOf(fs.readFileSync(path.join(root, file)), file);
  const out = path.join(tmp, String(index));
  const runs: Run[] = [
    { command: 'inspect', argv: ['inspect', file] },
    { command: 'inspect --json', argv: ['inspect', '--json', file] },
    { command: 'validate', argv: ['validate', file] },
    { command: 'check', argv: ['check', file] },
    { command: 'render', argv: ['render', file, '-o', path.join(out, 'x.png')] },
    { command: 'diff', argv: ['diff', file, file] },
  ];
  if (!handler || handler.play) runs.push({ command: 'play --json', argv: ['play', file, '--json'] });
  // Every target for every file, but the Solarus sprites (469 of one kind): the first of each collection and syntax to
  // every target, each other one to a target in turn.
  const targets = handler ? targetsOf(handler) : FORMATS.slice(0, 1);
  const group = `${handler?.name}:${file.split(path.sep).slice(0, 2).join('/')}`;
  const all = handler && (!handler.name.startsWith('solarus') || !converted.has(group));
  const chosen = all ? targets : [targets[index % targets.length]!];
  converted.add(group);
  for (const t of chosen) {
    const name = `${t.name}${t.extensions[0] ?? '.out'}`;
    runs.push({ command: `convert --to ${t.name}`, argv: ['convert', file, path.join(out, name), '--to', t.name] });
  }
  for (const r of runs) r.argv.push(...needed(handler, r.command));
  return runs;
}

describe('every command over every sample and corpus file', () => {
  it('exit 0, or exit 1 with one clean error line', async () => {
    // Each path as a user in that folder types it.
    const files = [SAMPLES, CORPUS].flatMap((root) => walk(root).map((f) => ({ root, file: path.relative(root, f) })));
    expect(files.length).toBeGreaterThan(700);
    expect(files.filter((f) => f.root === CORPUS && f.file.startsWith('interop')).length).toBeGreaterThanOrEqual(44);
    const converted = new Set<string>();
    const problems: string[] = [];
    for (const [i, { root, file }] of files.entries()) {
      for (const run of runsFor(root, file, i, converted)) {
        const p = problemOf(run.command, await runCli(run.argv, root));
        if (p) problems.push(`${run.argv.join(' ')}: ${p}`);
      }
      fs.rmSync(path.join(tmp, String(i)), { recursive: true, force: true });
    }
    if (problems.length) console.log(problems.join('\n'));
    expect(problems).toEqual([]);
  }, 300_000);
});

describe('the sweep tells a clean run from a bad one', () => {
  const r = (code: number, stderr: string, stdout = ''): CliResult => ({ code, stdout, stderr });
  it('accepts exit 0 with warnings and notes, exit 1 with one error line last, validate and check saying why on stdout', () => {
    expect(problemOf('inspect', r(0, 'a.dat: warning: odd\n'))).toBeNull();
    expect(problemOf('convert', r(1, 'a.dat: warning: odd\nsprat: error: a.dat: bad (at byte 4)\n'))).toBeNull();
    expect(problemOf('validate', r(1, '', 'a.dat: error: bad (at byte 4)\n'))).toBeNull();
  });
  it('refuses a stack, source text, a long line, two error lines, another exit status', () => {
    expect(problemOf('inspect', r(1, 'sprat: error: a: b\n    at main (dist/cli/sprat.cjs:1:2)\n'))).toMatch(/stack/);
    expect(problemOf('inspect', r(1, '/x/sprat.cjs:128\nfunction f(){throw new E}\n         ^\n\nE: x\n'))).toMatch(/stack/);
    expect(problemOf('inspect', r(1, `sprat: error: ${'x'.repeat(400)}\n`))).toMatch(/characters/);
    expect(problemOf('inspect', r(1, 'sprat: error: a\nsprat: error: b\n'))).toMatch(/exactly one/);
    expect(problemOf('inspect', r(70, 'sprat: internal error: x (run with --debug for the stack)\n'))).toMatch(/exit 70/);
    expect(problemOf('inspect', r(2, 'sprat: error: option --x names nothing\n'))).toMatch(/exit 2/);
    expect(problemOf('inspect', r(0, 'oops\n'))).toMatch(/stderr/);
  });
});
