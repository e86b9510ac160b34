/**
 * The round-trip matrix (browser-safe): for a file of sprite format X and a
 * format Y, convert X -> Y -> X in memory through the very calls `sprat
 * convert` makes (`load`, `convert` of src/api.ts; the sheets and images a
 * conversion writes are served to the next step as if written beside the
 * input), and judge the file that comes back against the original with
 * `comparePlayback` (src/model/playback.ts): it plays the same, or it is
 * lossy (each kind of change, the animations it affects, and whether a note
 * the conversions printed says so), or a step failed (the one-line error,
 * and whether converting there refused it or the written file did not come
 * back).
 *
 * A source-only format comes back as the format it compiles to: a native
 * `.aseprite` file as Aseprite JSON, a CorsixTH AnimationEncoder script as
 * a CTHG file (`compilesTo` of the handler). Which formats make the matrix,
 * and which files, is the caller's choice (scripts/matrix.ts).
 */
import { convert, formatByName, load, UnknownFormatError, type Loaded } from './api.js';
import { isFormatError, oneLine, OptionError } from './binary/errors.js';
import { Budget, LimitError } from './binary/limits.js';
import { joinPath } from './formats/resources.js';
import type { CommandOptions, FormatHandler, OutputFile, ResourceLoader } from './formats/types.js';
import { comparePlayback, PLAYBACK_CHANGE_KINDS, type PlaybackChange, type PlaybackChangeKind } from './model/playback.js';
import type { SpriteModel } from './model/types.js';
import { hallgeirFrameSizeOf } from './formats/hallgeir/convert.js';

/**
 * Which notes explain which kind of loss: a note the conversions printed
 * that matches one of the kind's patterns says that kind was lost. The
 * writers' and readers' own words (src/interop/sheet.ts `sheetLossNotes`,
 * src/model/timing.ts `timingNotes`, each format's `fromModel` and
 * `toModel`); the one place this mapping lives.
 */
export const LOSS_NOTES: Readonly<Record<PlaybackChangeKind, readonly RegExp[]>> = {
  added: [
    // src/api.ts: frames no animation plays become an animation of their own.
    /frames no animation plays are kept as the animation/,
    /animations with no (view|direction) are written as/,
    /are written into the animation names/,
    // A direction name one way and a number the other (src/model/directions.ts): a lone view comes back north.
    /compass directions are written as Solarus numbers them/,
  ],
  removed: [
    /animations with no (view|direction) are written as/,
    /are written into the animation names/,
    /compass directions are written as Solarus numbers them/,
  ],
  'frame-count': [/repeats \d+ times; only \d+ kept/, /never shown by playback, dropped/],
  duration: [
    // timingNotes (src/model/timing.ts) with each writer's reason
    /every CTHG frame lasts one game tick/,
    /Solarus has one frame_delay per animation/,
    /Aseprite stores whole milliseconds/,
    /frame durations rounded to whole frames/,
    /frames shown forever or longer than \d+ ms were given/,
    /frames shown forever were given duration 0/,
    /frame durations are not stored/,
    /frames of 0 ms are written as frames that hold forever/,
    /the last frame of an animation that stops holds forever/,
    /a frame rate of 0 .*gives frames that last forever/,
  ],
  loop: [
    /how animations loop is not stored/,
    /every CTHG animation loops from its first frame/,
    /Aseprite loops to the first/,
    /loop_on_frame -1 disappear after their last frame/,
    /loop_on_frame -?\d+ is out of range and was dropped/,
    // A sprite that stops (an Aseprite tag with a repeat) holds its last frame forever: it comes back looping.
    /the last frame of an animation that stops holds forever/,
  ],
  next: [/follow-up animations \("next"\) were dropped/, /follow-up "[^"]*" names no sequence/],
  pixels: [
    // src/formats/hallgeir/convert.ts: a Hallgeir frame is drawn from its corner.
    /a frame is drawn from its upper-left corner; the sprite origin moved there/,
    /element positions? rounded to whole pixels/,
    /shown with the grey ramp/,
    /the frames have several sizes/,
    /\bclamped\b/,
  ],
};

/** One kind of loss in a cell. */
export interface MatrixLoss {
  kind: PlaybackChangeKind;
  /** The animations it affects (`name` or `name/direction`), in order, each once. */
  animations: string[];
  /** The note the conversions printed that says this was lost; absent when none does. */
  note?: string;
  /** Of `animations`, those the note does not name (a note should name every animation it affects). */
  unnamed?: string[];
}

export type MatrixCell =
  | { status: 'same'; notes: string[] }
  | { status: 'lossy'; losses: MatrixLoss[]; changes: PlaybackChange[]; notes: string[] }
  /**
   * A step failed, with its one-line error (`crash`: an error that is not a
   * refusal, which is a bug). `stage`: `there` when converting X to Y refused
   * it; `back` when Y's file did not come back (reading it, converting it to
   * X, or reading that refused it: a sheet the written file names but no
   * step wrote, a name or label the way back cannot take).
   */
  | { status: 'error'; stage: MatrixStage; message: string; crash?: true; notes: string[] };

/** Where a round trip failed (see MatrixCell). */
export type MatrixStage = 'there' | 'back';

/** A file to take round the matrix: its bytes, its name, and where its sheets are. */
export interface MatrixSource {
  bytes: Uint8Array;
  /** The file's name (its extension tells the format when `format` is not given). */
  name: string;
  format?: string;
  /** What reading it needs (a Hallgeir sprite's `frame-size`). */
  options?: CommandOptions;
  /** Its sheets and images, relative to its folder. */
  resources: ResourceLoader;
  /** Its folder as `resources` names it (default ""): the conversions' files are written there, beside it. */
  dir?: string;
}

/** The written files of a conversion first, then what was there before: the files as `convert` leaves them beside its input. */
function besideLoader(files: readonly OutputFile[], under: ResourceLoader, dir: string): ResourceLoader {
  const written = new Map(files.map((f) => [joinPath(dir, f.name), f.bytes]));
  return {
    load: async (p) => written.get(joinPath(dir, p)) ?? under.load(p),
    exists: async (p) => written.has(joinPath(dir, p)) || under.exists(p),
    ...(under.describe ? { describe: (p: string) => under.describe!(p) } : {}),
  };
}

/** True for the errors that refuse an input or an option (a one-line message); anything else is a bug. */
function isRefusal(e: unknown): boolean {
  return isFormatError(e) || e instanceof UnknownFormatError || e instanceof LimitError || e instanceof OptionError;
}

async function spriteModel(loaded: Loaded, resources: ResourceLoader, options: CommandOptions): Promise<SpriteModel> {
  const h = loaded.handler;
  if (!h.toModel) throw new UnknownFormatError(`converting from ${h.name} is not supported`);
  const m = await h.toModel(loaded.doc, resources, options);
  if (m.kind !== 'sprite') throw new UnknownFormatError(`${h.name}: the file is a level, not a sprite`);
  return m;
}

/** What reading a file of `format` needs beyond `options`: a Hallgeir sprite's frame size, the one the writer gave the sprite it was written from. */
function readOptionsFor(format: FormatHandler, model: SpriteModel, options: CommandOptions): CommandOptions {
  if (format.name !== 'hallgeir-sprite' || options['frame-size'] !== undefined) return options;
  const size = hallgeirFrameSizeOf(model);
  return size ? { ...options, 'frame-size': `${size.width}x${size.height}` } : options;
}

/** `name` with its extension replaced: `hero.isprite` -> `hero.via.json`. */
function renamed(name: string, tag: string, format: FormatHandler): string {
  const base = name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'sprite';
  return `${base}.${tag}${format.extensions[0] ?? ''}`;
}

/** The format a file of `source` comes back as after a round trip: its own, or for a format no conversion writes the one it compiles to. */
export function backFormatOf(source: FormatHandler): FormatHandler {
  if (source.fromModel) return source;
  const to = Object.values(source.compilesTo ?? {})[0];
  return to ? formatByName(to) : source;
}

/** An animation as a loss names it: `walk`, or `walk/north` when it has a direction. */
function animationLabel(c: PlaybackChange): string {
  return c.direction !== undefined ? `${c.animation}/${c.direction}` : c.animation;
}

/** The changes grouped by kind (in PLAYBACK_CHANGE_KINDS order), each with the note that explains it, if any. */
export function lossesOf(changes: readonly PlaybackChange[], notes: readonly string[]): MatrixLoss[] {
  const out: MatrixLoss[] = [];
  for (const kind of PLAYBACK_CHANGE_KINDS) {
    const of = changes.filter((c) => c.kind === kind);
    if (!of.length) continue;
    const animations = [...new Set(of.map(animationLabel))];
    // Of the notes that say this kind, the one naming most of the animations it affects (the first on a tie).
    const names = [...new Set(of.map((c) => c.animation))];
    let note: string | undefined;
    let best = -1;
    for (const n of notes) {
      if (!LOSS_NOTES[kind].some((re) => re.test(n))) continue;
      const named = names.filter((a) => n.includes(a)).length;
      if (named > best) [note, best] = [n, named];
    }
    // A kind may be said by several notes (timingNotes: one per change of duration): an animation any of them names is named.
    const saying = notes.filter((n) => LOSS_NOTES[kind].some((re) => re.test(n)));
    const unnamed = note === undefined ? [] : names.filter((a) => !saying.some((n) => n.includes(a)));
    out.push({ kind, animations, ...(note !== undefined ? { note } : {}), ...(unnamed.length ? { unnamed } : {}) });
  }
  return out;
}

/**
 * Takes one file X -> `via` -> X (or the format a source-only file compiles
 * to) in memory and judges what comes back against the file as read. The
 * file itself must read and convert to a sprite: that failing throws (it is
 * not a cell of the matrix).
 */
export async function roundTrip(source: MatrixSource, via: FormatHandler | string, budget: Budget = new Budget()): Promise<MatrixCell> {
  const options = source.options ?? {};
  const dir = source.dir ?? '';
  const loaded = load(source.bytes, source.name, source.format, options);
  const original = await spriteModel(loaded, source.resources, options);
  const target = typeof via === 'string' ? formatByName(via) : via;
  const back = backFormatOf(loaded.handler);
  const notes: string[] = [];
  let step = `${loaded.handler.name} -> ${target.name}`;
  let stage: MatrixStage = 'there';
  try {
    const viaName = renamed(source.name, 'via', target);
    // Written beside the file: the input's folder is OUT's.
    const there = await convert(loaded, target, viaName, source.resources, options, { dir, inputDir: dir, resources: source.resources });
    for (const n of there.notes) notes.push(n);
    const viaResources = besideLoader(there.files, source.resources, dir);
    const viaOptions = readOptionsFor(target, original, options);
    step = `reading the ${target.name} file`;
    stage = 'back';
    const viaLoaded = load(there.files[0]!.bytes, viaName, target.name, viaOptions);
    step = `${target.name} -> ${back.name}`;
    const backName = renamed(source.name, 'back', back);
    const home = await convert(viaLoaded, back, backName, viaResources, viaOptions, { dir, inputDir: dir, resources: viaResources });
    for (const n of home.notes) notes.push(n);
    step = `reading the ${back.name} file`;
    const backOptions = readOptionsFor(back, original, options);
    const backLoaded = load(home.files[0]!.bytes, backName, back.name, backOptions);
    // (A sheet the file names but nobody wrote is an error here, as drawing it is.)
    const returned = await spriteModel(backLoaded, besideLoader(home.files, viaResources, dir), backOptions);
    const changes = comparePlayback(original, returned, { budget });
    if (!changes.length) return { status: 'same', notes };
    return { status: 'lossy', losses: lossesOf(changes, notes), changes, notes };
  } catch (e) {
    const message = `${step}: ${oneLine(e instanceof Error ? e.message : String(e))}`;
    return isRefusal(e) ? { status: 'error', stage, message, notes } : { status: 'error', stage, message, crash: true, notes };
  }
}

/** The row of the matrix a file of `format` belongs to: the format it comes back as (`backFormatOf`). */
export function matrixRowOf(format: string): string {
  return backFormatOf(formatByName(format)).name;
}

/** One file's results: a cell per format it went through. */
export interface MatrixRow {
  file: string;
  format: string;
  /** By the name of the format the file went through. */
  cells: Record<string, MatrixCell>;
}

/**
 * The matrix as a Markdown table: a row per format of `formats` (the files'
 * `matrixRowOf`), a column per format they went through; a cell is `same`
 * when every file came back playing the same, else `lossy:` and the kinds of
 * loss any file had, with how many files converting there refused and how
 * many did not come back; `—` where no file was taken that way.
 */
export function matrixTable(rows: readonly MatrixRow[], formats: readonly string[]): string {
  const head = `| from \\ via | ${formats.join(' | ')} |`;
  const rule = `| --- |${formats.map(() => ' --- |').join('')}`;
  const lines = [head, rule];
  for (const from of formats) {
    const mine = rows.filter((r) => matrixRowOf(r.format) === from);
    const cells = formats.map((via) => {
      const got = mine.map((r) => r.cells[via]).filter((c): c is MatrixCell => c !== undefined);
      if (!got.length) return '—';
      const kinds = PLAYBACK_CHANGE_KINDS.filter((k) => got.some((c) => c.status === 'lossy' && c.losses.some((l) => l.kind === k)));
      const parts: string[] = [];
      if (kinds.length) parts.push(`lossy: ${kinds.join(', ')}`);
      const count = (n: number, what: string) => {
        if (n) parts.push(n === got.length ? what : `${n} of ${got.length} ${what}`);
      };
      count(got.filter((c) => c.status === 'error' && c.stage === 'there').length, 'refused');
      count(got.filter((c) => c.status === 'error' && c.stage === 'back').length, 'not back');
      return parts.length ? parts.join('; ') : 'same';
    });
    lines.push(`| ${from} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
