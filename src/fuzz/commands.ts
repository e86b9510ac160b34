/**
 * The commands the fuzzer runs on an input, each through the library calls the
 * command line makes (src/cli/*), and the classes of outcome it accepts.
 * Browser-safe: the resource loader is passed in.
 */
import { isFormatError, OptionError } from '../binary/errors.js';
import { LimitError } from '../binary/limits.js';
import { UnknownFormatError, convert, formatByName, load, play, references, render, validate } from '../api.js';
import { FORMATS } from '../registry.js';
import type { CommandOptions, FormatHandler, FormatName, ResourceLoader } from '../formats/types.js';
import { encodeRender } from '../render/output.js';
import { stringifyJson } from '../binary/json-chunks.js';

/** `read`, `validate`, `inspect` (JSON and text), `render-frame`, `render-anim`, `play`, `convert:FORMAT`. */
export type FuzzCommand = string;

/** The commands that apply to a file of `handler`'s format. */
export function commandsFor(handler: FormatHandler): FuzzCommand[] {
  const out: FuzzCommand[] = ['read', 'validate', 'inspect'];
  if (handler.picture) out.push('render-frame', 'render-anim');
  if (handler.play) out.push('play');
  for (const target of FORMATS) {
    if (target === handler ? !!(target.write || target.writeFiles) : !!(handler.toModel && target.fromModel))
      out.push(`convert:${target.name}`);
  }
  return out;
}

/** Every command name the fuzzer knows (for --command). */
export function allCommands(): FuzzCommand[] {
  return ['read', 'validate', 'inspect', 'render-frame', 'render-anim', 'play', ...FORMATS.map((f) => `convert:${f.name}`)];
}

/** Options a command gets besides the input: what the format needs to do anything (an ISPRITE play needs --ticks). */
export function optionsFor(format: FormatName | undefined, command: FuzzCommand): CommandOptions {
  const o: CommandOptions = {};
  if (format === 'hallgeir-sprite' || format === 'hallgeir-map' || format === 'hallgeir-object') o['frame-size'] = '16x16';
  if (command === 'play' && format === 'isprite') o.ticks = '120';
  if (command === 'render-frame') o.frame = '0';
  if (command.startsWith('render') && format === 'spritetile') o.tileset = '0=tiles.png:16x16';
  // A Solarus animation drawn from the map's tileset: drawn with one for animations, refused without one for frames.
  if (command === 'render-anim' && format?.startsWith('solarus')) o.tileset = 'enemies/slime.png';
  return o;
}

/** What happened. `finding` is true for every class but the accepted ones. */
export interface Outcome {
  /** ok, FormatError, OptionError, LimitError, UnknownFormatError, FsError; or the name of anything else. */
  cls: string;
  finding: boolean;
  message?: string;
  stack?: string;
}

/** The classes of outcome a command may end in: success or a one-line error the CLI reports with exit 1 or 2. */
export const ACCEPTED = ['ok', 'FormatError', 'OptionError', 'LimitError', 'UnknownFormatError', 'FsError'] as const;

/** Sorts an exception into an outcome class. */
export function classify(e: unknown): Outcome {
  const err = e as Error & { code?: unknown };
  let cls: string;
  if (isFormatError(e)) cls = 'FormatError';
  else if (e instanceof LimitError) cls = 'LimitError';
  else if (e instanceof OptionError) cls = 'OptionError';
  else if (e instanceof UnknownFormatError) cls = 'UnknownFormatError';
  // A resource the document names cannot be read (missing, a folder): the CLI reports it in one line, exit 1.
  else if (err && typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code)) cls = 'FsError';
  else cls = (err && typeof err.name === 'string' && err.name) || typeof e;
  const message = err && typeof err.message === 'string' ? err.message : String(e);
  let finding = !(ACCEPTED as readonly string[]).includes(cls);
  // docs/spec/README.md: an error is one line.
  if (!finding && /[\r\n]/.test(message)) {
    cls = `${cls}(multi-line message)`;
    finding = true;
  }
  return { cls, finding, message, stack: finding && err && typeof err.stack === 'string' ? err.stack : undefined };
}

export interface FuzzJob {
  bytes: Uint8Array;
  /** The name the input goes by (its extension takes part in detection). */
  fileName: string;
  /** The format to read it as (--format), or undefined to detect it. */
  format?: FormatName;
  command: FuzzCommand;
  options: CommandOptions;
  /** For render-anim: the animation's file format. */
  image?: 'gif' | 'apng';
}

/** Runs one command on one input, as the CLI would; never throws. */
export async function runCommand(job: FuzzJob, resources: ResourceLoader): Promise<Outcome> {
  try {
    await runOrThrow(job, resources);
    return { cls: 'ok', finding: false };
  } catch (e) {
    return classify(e);
  }
}

async function runOrThrow(job: FuzzJob, resources: ResourceLoader): Promise<void> {
  const { bytes, fileName, format, command, options } = job;
  if (command.startsWith('selftest:')) return selftest(command);
  if (command === 'validate') {
    for (const d of validate(bytes, fileName, format, options).diagnostics) oneLine('diagnostic', d.message);
    return;
  }
  const loaded = load(bytes, fileName, format, options);
  for (const w of loaded.warnings) oneLine('warning', w.message);
  if (command === 'read') return;
  if (command === 'inspect') {
    stringifyJson(loaded.handler.inspectJson(loaded.doc));
    loaded.handler.inspectText(loaded.doc);
    return;
  }
  if (command === 'render-frame' || command === 'render-anim') {
    const result = await render(loaded, options, resources);
    encodeRender(result, command === 'render-frame' || result.frames.length < 2 ? 'png' : (job.image ?? 'gif'));
    // The files the document names, which the CLI protects from its outputs (src/cli/render.ts).
    await references(loaded, resources, options);
    return;
  }
  if (command === 'play') {
    const { records, warnings } = play(loaded, options);
    for (const w of warnings) oneLine('warning', w);
    // As `play --json` prints them (src/cli/play.ts recordsJson): one JSON.stringify per record.
    for (const r of records) JSON.stringify(r);
    return;
  }
  if (command.startsWith('convert:')) {
    const target = formatByName(command.slice('convert:'.length));
    const { notes } = await convert(loaded, target, `out${target.extensions[0] ?? ''}`, resources, options);
    for (const n of notes) oneLine('note', n);
    // As src/cli/convert.ts: the files the document names, even those the conversion did not load.
    await references(loaded, resources, options);
    return;
  }
  throw new OptionError(`unknown fuzz command "${command}"`);
}

/** The CLI prints warnings, notes and diagnostics one per line: a line break inside one is a finding. */
function oneLine(kind: string, text: string): void {
  if (/[\r\n]/.test(text)) {
    const e = new Error(`a ${kind} of more than one line: ${JSON.stringify(text.slice(0, 200))}`);
    e.name = 'MultiLineMessage';
    throw e;
  }
}

/**
 * Commands that misbehave on purpose, for the pool's own tests: `selftest:spin`
 * burns CPU, `selftest:heap` fills the heap, `selftest:sleep` blocks without
 * using CPU, `selftest:throw` throws a TypeError.
 */
function selftest(command: string): void {
  if (command === 'selftest:spin') {
    let x = 0;
    for (;;) x = (x + 1) | 0;
  }
  if (command === 'selftest:heap') {
    const keep: number[][] = [];
    for (;;) keep.push(new Array(1 << 16).fill(keep.length + 0.5));
  }
  if (command === 'selftest:sleep') {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    return;
  }
  if (command === 'selftest:throw') throw new TypeError('selftest');
}
