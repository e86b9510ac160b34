/**
 * A decompiled script's compile options: `// sprat: compile --a --b` among
 * the leading comments (sprat writes it; the real encoder reads a comment),
 * so `convert fan.dat fan.txt && convert fan.txt back.dat` gives fan.dat
 * back; options on the command line add to it (a note when the line does
 * not name one), `--ignore-header` leaves it out (a note naming what).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FormatError } from '../../../src/binary/errors.js';
import { cthgScriptHandler, printScript, readCompileLine, readScript } from '../../../src/formats/cthg/script/index.js';
import { runCli } from '../../helpers/cli.js';
import { SAMPLES } from '../../helpers/paths.js';

const FAN = path.join(SAMPLES, 'cthg', 'fan.dat');
const enc = (s: string) => new TextEncoder().encode(s);
const ONE = 'animation "a" { view = north; frame { element { base = "a.png"; } } }\n';

async function decompiledFan(): Promise<{ dir: string; script: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-compile-line-'));
  const script = path.join(dir, 'fan.txt');
  const r = await runCli(['convert', FAN, script]);
  expect(r.code, r.stderr).toBe(0);
  return { dir, script };
}

describe('the "// sprat: compile" line', () => {
  it('is read from the leading comments: its options and place; elsewhere it is an ordinary comment', () => {
    expect(readCompileLine(enc(`// hello\n\n  // sprat: compile --fix-sounds --keep-sprites\n${ONE}`))).toEqual({
      line: 3,
      column: 3,
      options: ['fix-sounds', 'keep-sprites'],
    });
    expect(readCompileLine(enc(`\ufeff//sprat: compile\r\n${ONE}`))).toEqual({ line: 1, column: 1, options: [] });
    expect(readCompileLine(enc(ONE))).toBeUndefined();
    expect(readCompileLine(enc(`${ONE}// sprat: compile --fix-sounds\n`))).toBeUndefined();
    expect(readCompileLine(enc(`// sprat: compiled by hand\n${ONE}`))).toBeUndefined();
    // Out of the document's data (a non-enumerable extra), printed again by the writer.
    const doc = readScript(enc(`// sprat: compile --fix-crop\n${ONE}`));
    expect(Object.keys(doc)).toEqual(['animations']);
    expect(doc.compileLine?.options).toEqual(['fix-crop']);
    expect(new TextDecoder().decode(printScript(doc))).toMatch(/^\/\/ sprat: compile --fix-crop\nanimation "a" \{/);
  });

  it('a word that is not an option, a second line, or an unknown option: an error at its line and column', () => {
    // validate gives each as one error diagnostic with its place.
    const at = (text: string) => {
      const d = cthgScriptHandler.validate(enc(text)).find((x) => x.severity === 'error');
      return d && `${d.message} ${d.line}:${d.column}`;
    };
    expect(() => readScript(enc(`// sprat: compile fix-sounds\n${ONE}`))).toThrow(FormatError);
    expect(at(`// sprat: compile fix-sounds\n${ONE}`)).toMatch(/takes options such as --fix-sounds, not "fix-sounds".* 1:19$/);
    expect(at(`// sprat: compile\n// sprat: compile --fix-crop\n${ONE}`)).toMatch(
      /a second "\/\/ sprat: compile" line \(the first is line 1\).* 2:1$/,
    );
    expect(at(`\n// sprat: compile --fix-colours\n${ONE}`)).toMatch(
      /names --fix-colours, which is not a compile option \(--fix-sounds --fix-crop --keep-sprites\).* 2:1$/,
    );
  });

  it("decompile then compile gives fan.dat back with no option given; the line is what the script's second line says", async () => {
    const { dir, script } = await decompiledFan();
    expect(readFileSync(script, 'utf8').split('\n')[1]).toBe('// sprat: compile --fix-sounds --keep-sprites');
    const r = await runCli(['convert', script, path.join(dir, 'back.dat')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(new Uint8Array(readFileSync(path.join(dir, 'back.dat')))).toEqual(new Uint8Array(readFileSync(FAN)));
    // An option the line names, given again: nothing to say.
    const again = await runCli(['convert', script, path.join(dir, 'again.dat'), '--fix-sounds']);
    expect(again.stderr).toBe('');
    expect(readFileSync(path.join(dir, 'again.dat'))).toEqual(readFileSync(FAN));
    // validate: the sounds are kept when sprat compiles it.
    const v = await runCli(['validate', script]);
    expect(v.stderr).toMatch(/the real encoder drops frame sounds \(sprat keeps them: the "\/\/ sprat: compile" line has --fix-sounds\)/);
  });

  it('an option the line does not name is added, with a note', async () => {
    const { dir, script } = await decompiledFan();
    const r = await runCli(['convert', script, path.join(dir, 'crop.dat'), '--fix-crop']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `${script}: note: --fix-crop is not on the "// sprat: compile" line (line 2: --fix-sounds --keep-sprites): the compiled file may differ from the one the script was decompiled from\n`,
    );
    // The line's options still apply: the sounds are there.
    const j = JSON.parse((await runCli(['inspect', path.join(dir, 'crop.dat'), '--json'])).stdout);
    expect(j.frames.some((f: { sound: number }) => f.sound)).toBe(true);
  });

  it('--ignore-header compiles as the real encoder does (with the options given), naming what it left out', async () => {
    const { dir, script } = await decompiledFan();
    const r = await runCli(['convert', script, path.join(dir, 'plain.dat'), '--ignore-header']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /note: the "\/\/ sprat: compile" line \(line 2\) names --fix-sounds --keep-sprites, left out \(--ignore-header\)\n/,
    );
    expect(r.stderr).toMatch(/1 frame sound is written as 0/);
    const j = JSON.parse((await runCli(['inspect', path.join(dir, 'plain.dat'), '--json'])).stdout);
    expect(j.frames.every((f: { sound: number }) => f.sound === 0)).toBe(true);
    const some = await runCli(['convert', script, path.join(dir, 'some.dat'), '--ignore-header', '--fix-sounds']);
    expect(some.stderr).toMatch(/names --keep-sprites, left out \(--ignore-header\)\n/);
  });

  it('re-writing the script keeps the line; a hand-written script without one compiles as before', async () => {
    const { dir, script } = await decompiledFan();
    const copy = path.join(dir, 'copy.txt');
    expect((await runCli(['convert', script, copy])).code).toBe(0);
    expect(readFileSync(copy, 'utf8').split('\n')[0]).toBe('// sprat: compile --fix-sounds --keep-sprites');
    const r = await runCli(['convert', copy, path.join(dir, 'copy.dat')]);
    expect(r.stderr).toBe('');
    expect(readFileSync(path.join(dir, 'copy.dat'))).toEqual(readFileSync(FAN));
    writeFileSync(path.join(dir, 'plain.txt'), readFileSync(script, 'utf8').split('\n').slice(2).join('\n'));
    const plain = await runCli(['convert', path.join(dir, 'plain.txt'), path.join(dir, 'plain.dat')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(/1 frame sound is written as 0/);
  });
});
