import type { Diagnostic } from '../binary/errors.js';
import type { SpriteModel, LevelModel } from '../model/types.js';
import type { Picture } from '../render/pipeline.js';

/**
 * Every format name the command line accepts for --format / --from / --to,
 * in the registry's order (src/registry.ts FORMATS: the order detection tries
 * them). The one list of names: test/meta/formats.test.ts checks the two
 * match, and that no other list of format names lives in src/.
 */
export const FORMAT_NAMES = [
  'isprite',
  'cthg',
  'spritetile',
  'hallgeir-sprite',
  'hallgeir-object',
  'hallgeir-map',
  'ase',
  'aseprite',
  'texturepacker',
  'tiled',
  'cthg-script',
  'solarus',
  'solarus-lua',
] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/**
 * Where a document's external files (sheets, textures, tilesets, palettes,
 * objects) come from. Every format finds and loads them through
 * src/formats/resources.ts (`loadImage`, `loadResource`), never by hand.
 *
 * Paths: as the document names them, relative to the document's folder
 * (`..` allowed), or absolute (what the command line makes of the paths the
 * user types, which are relative to the current folder). `/` separates
 * folders. The Node side (src/node/fs.ts `fsResourceLoader`) reads only
 * regular files, within --max-file-bytes; the browser viewer reads dropped
 * files or asks its server.
 */
export interface ResourceLoader {
  /**
   * Loads the bytes of `path`. Rejects when it cannot: an error with
   * `code` 'ENOENT' when there is no such file, another code (EISDIR,
   * EACCES, EFTYPE for a FIFO or device) or a LimitError otherwise.
   */
  load(path: string): Promise<Uint8Array>;
  /**
   * True when `path` is there (used to try several candidate places): a
   * file, or anything but a folder; with a trailing `/` (`../sprites/`), a
   * folder. Never throws.
   */
  exists(path: string): Promise<boolean>;
  /** How to name `path` to the user (the Node loader: relative to the current folder). Default: as given. */
  describe?(path: string): string;
}

/**
 * Where `convert` writes OUT, for a writer whose document names files from a
 * folder other than its own (a Solarus sheet names its images from the
 * quest's `sprites/` folder). Paths as `resources` names them.
 */
export interface OutputPlace {
  /** OUT's folder. */
  dir: string;
  /**
   * The folder the document's file names are relative to when it was made
   * from the common model (the input's folder); absent for a document read
   * from a file (a re-encode, a conversion within a family).
   */
  modelDir?: string;
  /** Tells which files are there (existence only). */
  resources: ResourceLoader;
  /** Takes a note on what the written files cannot do as the input did (once per kind). */
  note?(message: string): void;
}

/** Options given on the command line (or by a program), by long name without `--`. */
export type CommandOptions = Record<string, string | boolean | undefined>;

/**
 * The declaration of one option a command or a format accepts: its kind and
 * what values it takes. The command line checks every value given against
 * its spec before any file is read (src/cli/args.ts), and the library reads
 * values through the same spec (src/formats/options.ts), so a bad value gets
 * the same OptionError wording from both.
 */
export interface OptionSpec {
  name: string;
  /**
   * `flag` takes no value; the others take one: `string` any text (limited
   * by `choices` or `parse`), `int` a whole number and `number` any finite
   * number (both limited by `min` / `max`), `size` WIDTHxHEIGHT (each side
   * limited by `min` / `max`).
   */
  type: 'flag' | 'string' | 'int' | 'number' | 'size';
  description: string;
  /**
   * The value names files the user typed, relative to the current folder:
   * the command line resolves them before the library sees them. `true`:
   * the whole value is one path; a function: rewrites each path inside a
   * structured value (`0=tiles.png:16x16`) with `resolve`.
   */
  paths?: true | ((value: string, resolve: (path: string) => string) => string);
  /** `string`: the only values accepted (compared exactly). */
  choices?: readonly string[];
  /** `int`, `number`, `size`: the smallest value accepted. */
  min?: number;
  /** `int`, `number`, `size`: the largest value accepted. */
  max?: number;
  /**
   * Older spellings the command line still takes for this option (`new
   * --anim` for `--animation`); the value is stored under `name`, and
   * --help lists them as aliases.
   */
  aliases?: readonly string[];
  /** How the value is written, for --help and messages (e.g. `CLASS=ID,...`); defaults by type. */
  value?: string;
  /**
   * `string`: checks the value's syntax (without reading any file) and
   * returns it parsed; throws (any error) or returns undefined when the
   * value is wrong. Its message is added to the option's one.
   */
  parse?(text: string): unknown;
}

/** What a read produces besides the document: warnings found on the way. */
export interface ReadContext {
  /** Called for every non-fatal problem the reader notices. */
  warn?(d: Diagnostic): void;
  /**
   * The reader may keep views of `bytes` in the document instead of copies:
   * the caller will never change them (a file the CLI has just read).
   */
  keepBytes?: boolean;
}

/** The result of `render` (defined in src/render, which sits below formats/). */
export type { RenderResult } from '../render/image.js';

/** One picture a document offers (an animation, a view, a direction): a label and the render options that select it. */
export interface RenderView {
  label: string;
  options: CommandOptions;
}

/** Where a part of a text file is (1-based). */
export interface LinePosition {
  line: number;
  column?: number;
}

export interface OutputFile {
  name: string;
  /** The file's bytes (of a file made in chunks: made from them, all at once, when first read). */
  readonly bytes: Uint8Array;
  /**
   * The same bytes as pieces made one at a time, in order, strings standing for their UTF-8 (a big JSON
   * file, src/binary/json-chunks.ts jsonFile): a writer that writes each piece before asking for the next
   * never holds the whole file. Each call starts again from the first piece.
   */
  readonly chunks?: () => Iterable<string | Uint8Array>;
}

/**
 * One value of a document that can be changed in place (`FormatHandler.edits`,
 * src/edit.ts): a Solarus animation's frame_delay, an ISPRITE frame's hold
 * time, an element's position. The viewer lists them for the picture shown
 * and saves the changed document through the format's writer.
 */
export interface EditableValue<Doc = unknown> {
  /** The same value of the same item always has the same key (`animation 2 frame_delay`). */
  key: string;
  /** What it is, in the format's own words, with the item it belongs to (`animation "walking" frame_delay`). */
  label: string;
  /** Its parts (one, or `x` and `y`): name, current value and the values the format takes. */
  parts: readonly EditablePart[];
  /**
   * The document with the parts set to `values` (one per part; the document
   * given is left as it is). A value the format cannot hold is a one-line
   * FormatError naming the item, the field and the range.
   */
  apply(values: readonly number[]): Doc;
}

export interface EditablePart {
  name: string;
  value: number;
  min: number;
  max: number;
  /** The values are multiples of it: 1 for whole numbers, 1/256 for ISPRITE's fixed point. */
  step: number;
}

/** One format: everything the library and the command line can do with it. */
export interface FormatHandler<Doc = any> {
  name: FormatName;
  /** A human name, e.g. "Vision Riders Integrated Sprite". */
  title: string;
  /** Lower-case extensions with the dot, most usual first. */
  extensions: readonly string[];
  /**
   * For a source language: the format `convert` writes for an OUT with this
   * extension when --to is not given (a CorsixTH script: `.dat` is CTHG).
   */
  compilesTo?: Readonly<Record<string, FormatName>>;
  /** True for a text format (JSON, Lua, lines): the fuzzer mutates it as text. */
  text?: boolean;
  /** True when the content is certainly this format (magic bytes or a syntax test). */
  sniff?(bytes: Uint8Array): boolean;

  read(bytes: Uint8Array, ctx?: ReadContext & { options?: CommandOptions }): Doc;
  /** Options every command that reads this format accepts (e.g. `endian`); passed as ctx.options and to validate. */
  readOptions?: readonly OptionSpec[];
  write?(doc: Doc, options?: CommandOptions): Uint8Array;
  /**
   * For formats that are several files (a JSON description plus a PNG sheet):
   * the files to write, the first being OUT itself; names are relative to
   * OUT's folder. When present, `convert` uses it instead of `write`.
   */
  writeFiles?(doc: Doc, outName: string, options?: CommandOptions, place?: OutputPlace): Promise<OutputFile[]>;
  /** Notes on what writing the document changes (Tiled: a zstd layer is written as zlib); `convert` prints them. */
  writeNotes?(doc: Doc): string[];
  /** Options `convert` accepts when writing this format (e.g. `lzf`, `endian`). */
  writeOptions?: readonly OptionSpec[];

  /** All problems, errors and warnings; never throws on bad input. */
  validate(bytes: Uint8Array, options?: CommandOptions): Diagnostic[];

  /** The `inspect --json` object of docs/spec/ (the format's page); `options` carries the `--max-*` budgets (src/binary/limits.ts). */
  inspectJson(doc: Doc, options?: CommandOptions): unknown;
  /**
   * How many items (cells, frames) the `inspect --json` object lists, counted without making it: `diff`
   * spends them from `--max-items` before it builds the JSON of each side. Formats whose readers already
   * spend their items leave it out.
   */
  jsonItems?(doc: Doc): number;
  /** A readable summary for `inspect` without --json. */
  inspectText(doc: Doc): string;
  /**
   * Where parts of the inspect JSON lie in the file read (`bytes`): byte
   * ranges [start, end) keyed by JSON pointer (`/frames/3`), for the
   * viewer's field tree. Binary formats that know them; never throws.
   */
  byteRanges?(doc: Doc, bytes: Uint8Array): Record<string, [number, number]>;
  /**
   * Text formats: where parts of the inspect JSON were in the file read
   * (1-based line, and column where known), keyed by JSON pointer, for the
   * viewer's field tree. Only for documents a reader made (from `bytes`).
   */
  linePositions?(doc: Doc, bytes: Uint8Array): Record<string, LinePosition>;

  /** `sprat play`: the records docs/spec/ prints for the format, plus warnings for stderr. */
  play?(doc: Doc, options: CommandOptions): { records: unknown[]; warnings: string[]; text?: string };
  playOptions?: readonly OptionSpec[];

  /**
   * `sprat render` (and the viewer): what the selected frames hold, as a
   * picture description; api.render draws it through the one pipeline
   * (src/render/pipeline.ts) into frames to write as PNG, GIF or APNG.
   */
  picture?(doc: Doc, options: CommandOptions, resources: ResourceLoader): Promise<Picture>;
  /** Every picture the document offers (animations, views, directions) as render options; default one view, no options. */
  renderViews?(doc: Doc): RenderView[];
  renderOptions?: readonly OptionSpec[];
  /**
   * Options naming resources (--images, --tileset, ...) that both `render`
   * and `toModel` use: `render` and `convert` both take them.
   */
  resourceOptions?: readonly OptionSpec[];
  /** Options `convert` takes from this format as its input, for `toModel` (Aseprite: the layer choices that draw its sheet). */
  convertOptions?: readonly OptionSpec[];

  /**
   * A direct conversion to another format of the same family (the two
   * Solarus syntaxes), which `convert` tries before the common model: every
   * field kept, no resource loaded, nothing redrawn. Returns the document
   * `target` writes and notes on what changed, or undefined when it does not
   * convert to `target` directly. A conversion that reads the document's
   * files (a CorsixTH script compiled with its PNGs) uses `resources` and
   * may return a promise.
   */
  convertTo?(
    doc: Doc,
    target: FormatHandler,
    options?: CommandOptions,
    resources?: ResourceLoader,
  ): { doc: unknown; notes: string[] } | undefined | Promise<{ doc: unknown; notes: string[] } | undefined>;

  /**
   * The files the document names (textures, sheets, tilesets, objects, and
   * the files given with resource options), found through the same
   * requests the format loads them with (src/formats/resources.ts) but only
   * asked for by existence (`foundResources`): images are not decoded; a
   * small file that names others (a Hallgeir object, a Tiled tileset) is
   * read to follow its names. Paths as the loader takes them. Missing files
   * are left out; never throws on a bad document. `convert` and `render`
   * call it through a recording loader so no output replaces any of them,
   * even when the conversion loads none (a same-format re-encode).
   */
  references?(doc: Doc, resources: ResourceLoader, options?: CommandOptions): Promise<string[]>;
  /**
   * `validate` for what the document cannot be read without (a Tiled map's
   * external tilesets): problems loading them through `resources`, so that
   * validate fails where render and convert would.
   */
  /**
   * What `check` verifies beyond validation: the files the document leans on
   * (e.g. the Hallgeir map -> object -> sprite -> texture chain), each broken
   * link one problem. `validate` does not call it: those files are not part
   * of the document.
   */
  checkResources?(doc: Doc, resources: ResourceLoader, options?: CommandOptions): Promise<Diagnostic[]>;
  validateResources?(doc: Doc, resources: ResourceLoader, options?: CommandOptions): Promise<Diagnostic[]>;
  /** To the common model (for conversions to other formats). */
  toModel?(doc: Doc, resources: ResourceLoader, options?: CommandOptions): Promise<SpriteModel | LevelModel>;
  /** True when the format stores frames outside any animation (the model's `unused` frames are written so, without a note). */
  holdsUnusedFrames?: boolean;
  /**
   * True when the format stores how an animation walks its frames (the
   * model's `playback`: Aseprite tag direction and repeat; TexturePacker in
   * meta.sprat), so they come back; to the others `convert` says, once per
   * kind, which animations lose theirs.
   */
  holdsPlayback?: boolean;
  /**
   * True when the format stores (or says itself what it does with) the
   * frames' points and collision shapes (`ModelFrame.shapes`) and events
   * (`ModelFrame.events`); to the others `convert` says, once per kind,
   * which animations lose them.
   */
  holdsShapes?: boolean;
  holdsEvents?: boolean;
  /**
   * The values of the picture `view` (render options, as `renderViews` gives
   * them) at its frame `frame` (0-based) that can be changed and written
   * back with `write` in the file's own style (src/edit.ts). Formats that
   * offer no edit leave it out.
   */
  edits?(doc: Doc, view: CommandOptions, frame: number): EditableValue<Doc>[];
  /** From the common model; the result is written with `write`. */
  fromModel?(model: SpriteModel | LevelModel, options?: CommandOptions): Promise<Doc> | Doc;
}
