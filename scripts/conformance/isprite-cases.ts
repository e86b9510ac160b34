/**
 * The cases of the ISPRITE conformance suite (conformance/isprite/, made by
 * scripts/make-conformance.ts). Each tests one rule of the specification
 * (../shared/specs/000_555b3e60290eaabb.txt, sections as its table of
 * contents numbers them) or one erratum or rule of the contract
 * (docs/spec/isprite.md), and states by hand what must come of it:
 * the error class and byte offset of a file that does not read, the class
 * and offset of each problem `validate` reports, facts of the `inspect
 * --json` document (JSON pointers), and the `play --json` records of its
 * scripts. The generator checks sprat against these before writing anything.
 *
 * Files are made by the byte builder (./bytes.ts: every field spelled out,
 * for invalid files and exact layouts) or by sprat's own writer (valid
 * sprites built as documents).
 */
import {
  createIsprite,
  writeIsprite,
  type IspriteDocument,
  type IspriteElement,
  type IspriteNode,
} from '../../src/formats/isprite/index.js';
import {
  C,
  G,
  S,
  ascii,
  attachment,
  cat,
  chunk,
  chunkAt,
  circle,
  element,
  expanded,
  extraMetaAt,
  file,
  frame,
  frameAt,
  fram,
  fx,
  fxp,
  names,
  rawStr,
  rect,
  sequenceAt,
  simple,
  slic,
  str,
  tex,
  tier,
  u16,
  u32,
  u8,
  type HeaderOptions,
} from './bytes.js';

/** A class of problem: what another implementation must report, told apart from the others by its id. */
export interface ProblemClass {
  id: string;
  severity: 'error' | 'warning';
  /** `read`: the file cannot be read (every command fails, exit 1); `validate`: found by `validate` in a file that reads. */
  stage: 'read' | 'validate' | 'play';
  description: string;
  /** How sprat's message for it reads. */
  pattern: RegExp;
}

/** One `play --json` record by hand: [sequence, position, frame, triggers, stopped]; the tick is its index. */
export type Rec = [string | null, number | null, number | null, string[], boolean];

export interface PlayRun {
  ticks: number;
  script?: string;
  records: Rec[];
  /** Classes of the warnings `play` prints on stderr, in order. */
  warnings?: string[];
}

/** A byte offset, or how to find it in the case's bytes (with the locators of ./bytes.ts). */
export type Offset = number | ((b: Uint8Array) => number);

export interface Case {
  id: string;
  /** The spec section (number and title) and/or the contract erratum or rule it tests. */
  section: string;
  /** The rule, in one sentence. */
  rule: string;
  bytes: Uint8Array;
  /** The file does not read: this error, at this byte. */
  error?: { class: string; offset: Offset };
  /** What `validate` reports besides `error` (the file reads). */
  problems?: { class: string; offset?: Offset | null }[];
  /** JSON pointer into `inspect --json` -> value. */
  facts?: Record<string, unknown>;
  play?: PlayRun[];
}

// ------------------------------------------------------------ problem classes

const R = (id: string, description: string, pattern: RegExp): ProblemClass => ({
  id,
  severity: 'error',
  stage: 'read',
  description,
  pattern,
});
const V = (id: string, description: string, pattern: RegExp): ProblemClass => ({
  id,
  severity: 'error',
  stage: 'validate',
  description,
  pattern,
});
const W = (id: string, description: string, pattern: RegExp, stage: ProblemClass['stage'] = 'validate'): ProblemClass => ({
  id,
  severity: 'warning',
  stage,
  description,
  pattern,
});

export const CLASSES: ProblemClass[] = [
  R('not-isprite', 'the file does not start with the magic "ISPRITE " (offset 0)', /^not an ISPRITE file/),
  R('header-truncated', 'the file is shorter than the 24-byte header (offset: the file length)', /^unexpected end of header/),
  R('file-size-mismatch', 'the file size field is not the file length − 12 (erratum 9; offset 8)', /^file size field says/),
  R('major-version', 'a major version other than 1 (erratum 8; offset 12)', /^unsupported major version/),
  R(
    'chunk-header-truncated',
    'fewer than 8 bytes left for a chunk header (offset: where it starts)',
    /^unexpected end of file: a chunk header/,
  ),
  R('chunk-size-past-end', "a chunk's size runs past the end of the file (offset: its size field)", /^chunk ".*" size \d+ is larger than/),
  R('duplicate-chunk', 'a known chunk appears twice (offset: the second one)', /^duplicate ".*" chunk/),
  R(
    'record-truncated',
    'a chunk, or a TIER sequence record, too short for its fixed fields (offset: where they start)',
    /^unexpected end of (the (META|TEX|SLIC|NAME|FRAM) chunk|sequence): needs/,
  ),
  R(
    'string-past-end',
    "a string's length runs past the end of its chunk or frame, or its 2-byte length does not fit (offset: the length field)",
    /( of \d+ bytes is longer than the \d+ bytes left|needs a 2-byte length)/,
  ),
  R(
    'chunk-leftover',
    'bytes left over at the end of a known chunk, in a file of minor version 0 (erratum 15; offset: the first left-over byte)',
    /unexpected bytes? at the end of the .* chunk/,
  ),
  R(
    'count-past-end',
    'a record count that the bytes left cannot hold (offset: the count field)',
    / count \d+ needs (at least )?\d+ bytes but only \d+ remain/,
  ),
  R('stride-too-small', "a TEX or SLIC stride smaller than this version's record (offset: the stride byte)", /stride \d+ is smaller than/),
  R('extra-meta-no-value', 'a MET+ field name with no value after it (offset: the end of the chunk)', /^MET\+ field .* has no value/),
  R(
    'tier-unknown-marker',
    'a TIER marker other than "G", "S", "C" (erratum 14; offset: the marker)',
    /unknown marker .* in the TIER chunk/,
  ),
  R(
    'tier-close-at-root',
    'a TIER closing marker "C" with no open group (erratum 14; offset: the marker)',
    /^closing marker "C" with no open group/,
  ),
  R(
    'tier-unclosed',
    'TIER ends with a group not closed (erratum 14; offset: the innermost open "G")',
    /the TIER chunk ends with \d+ groups? not closed/,
  ),
  R('frame-missing', 'FRAM ends before its frame count is reached (offset: where the next frame would start)', /frame \d+ is missing/),
  R('frame-marker', 'a frame record not starting with "F" (erratum 17; offset: the marker)', /marker .* is not "F"/),
  R(
    'frame-size-too-small',
    "a frame size smaller than a frame's fixed part (offset: the size field)",
    /size \d+ is smaller than the \d+ bytes every frame needs/,
  ),
  R(
    'frame-size-past-end',
    'a frame size running past the end of FRAM (erratum 12; offset: the size field)',
    /runs past the end of the FRAM chunk/,
  ),
  R(
    'frame-trailing-bytes',
    "bytes after a frame's last element, in minor version 0 (erratum 15; offset: the first one)",
    /unexpected bytes? after its elements/,
  ),
  R(
    'element-truncated',
    'an element header that does not fit in its frame (offset: the element)',
    /element \d+: unexpected end of the frame/,
  ),
  R(
    'element-size-past-frame',
    "an element's size byte runs past the end of its frame (offset: the size byte)",
    /element \d+: size \d+ runs past the end of the frame/,
  ),
  R(
    'element-size-mismatch',
    "a known element's size byte is not its record's (minor 0) or smaller than it (later minors) (erratum 15; offset: the size byte)",
    /size \d+ (is not|is smaller than) \d+/,
  ),
  R(
    'collision-too-small',
    'a collision object too small to hold its type letter (offset: the size byte)',
    /too small to hold its type letter/,
  ),
  R(
    'collision-unknown-type',
    'a collision type letter other than "r" or "c", in minor version 0 (errata 15, 19; offset: the letter)',
    /unknown collision type/,
  ),

  V('slice-texture-range', 'a slice names a texture that does not exist (offset: the slice record)', /^slice \d+ uses texture \d+/),
  V('slice-zero-size', 'a slice of width or height 0 (offset: the slice record)', /^slice \d+ is \d+x\d+ pixels/),
  V('element-name-range', 'an element names a name index past the NAME table (offset: its frame)', /element \d+ uses name \d+/),
  V('element-slice-range', 'a graphic element names a slice that does not exist (offset: its frame)', /element \d+ uses slice \d+/),
  V(
    'sequence-frame-range',
    'a sequence lists a frame ID that does not exist (offset: its "S" marker)',
    /^sequence .* position \d+ uses frame \d+/,
  ),

  W(
    'chunk-missing',
    'one of TEX, SLIC, NAME, TIER, FRAM is absent and reads as empty (erratum 13; no offset)',
    /^no (TEX|SLIC|NAME|TIER|FRAM) chunk/,
  ),
  W('header-flags', 'header flag bits other than 0 and 1 are set (offset 14)', /^header flags 0x[0-9A-F]+ set bits other than 0 and 1/),
  W('header-reserved', 'reserved header bytes 19-23 are not zero; ignored (erratum 1; offset 19)', /^the reserved header bytes/),
  W('meta-not-first', 'META is not the first chunk (erratum 16; offset: the META chunk)', /^the META chunk is not the first chunk/),
  W('date-invalid', 'a META date whose fields are out of range (no offset)', /is not a valid date and time/),
  W(
    'stride-larger',
    "a TEX or SLIC stride larger than this version's record; extra bytes skipped (erratum 18; offset: the stride byte)",
    /stride \d+ is larger than/,
  ),
  W('texture-path-empty', 'a texture with an empty path (offset: the texture record)', /^texture \d+ has an empty path/),
  W('utf8-invalid', 'a string that is not valid UTF-8, read with U+FFFD (offset: the string bytes)', /is not valid UTF-8/),
  W(
    'max-element-count',
    "FRAM's maximum element count is below the largest frame's element count (offset: the field)",
    /^FRAM maximum element count/,
  ),
  W('hold-time-zero', 'a frame with hold time 0, played as 1 (erratum 10; offset: the frame)', /has hold time 0/),
  W('element-unknown', 'an element with a marker this version does not know, kept as is (offset: its frame)', /has an unknown marker \d+/),
  W(
    'loop-flag-unused',
    'a frame flagged as a loop point that no sequence using it loops to (erratum 7; offset: the frame)',
    /is flagged as a loop point/,
  ),
  W('sequence-empty', 'a sequence with no frames (offset: its "S" marker)', /^sequence .* has no frames/),
  W(
    'follow-up-unresolved',
    'a follow-up name that no sequence in the sequence\'s group or above has (offset: its "S" marker)',
    /has follow-up .*, which names no sequence/,
  ),
  W(
    'duplicate-name',
    'two groups or two sequences of one name (case-insensitive) in one group (no offset)',
    /has more than one (group|sequence) named/,
  ),
  W(
    'default-sequence-unresolved',
    'MET+ default-sequence names no sequence (erratum 6; offset: the field)',
    /^MET\+ default-sequence .* names no sequence/,
  ),
  W(
    'frame-rate-key-unresolved',
    'MET+ sequence-frame-rate:PATH names no sequence (erratum 6; offset: the field)',
    /^MET\+ sequence-frame-rate:.* names no sequence/,
  ),
  W('frame-rate-value', 'MET+ sequence-frame-rate:PATH value is not a decimal 0-255 (erratum 6; offset: the field)', /is not a frame rate/),
  W(
    'play-group-unknown',
    '`play`: a `group PATH` command names no group; the active group stays',
    /^tick \d+: group .* names no group/,
    'play',
  ),
];

// ------------------------------------------------------------------- helpers

const TEX1 = tex([{ flags: 1, path: 'sheet' }]);
const SLIC1 = slic([{ width: 16, height: 16 }]);
const NAME0 = names([]);
const g0 = () => simple({ x: fx(-8), y: fx(-16) });

interface Parts {
  header?: HeaderOptions;
  before?: number[][];
  tex?: number[];
  slic?: number[];
  names?: number[];
  tier?: number[];
  fram?: number[];
  after?: number[][];
}

/** A file of the five chunks in canonical order, each given or a small default (one texture, slice, sequence and frame). */
function sprite(p: Parts = {}): Uint8Array {
  return file(
    p.header ?? {},
    ...(p.before ?? []),
    p.tex ?? TEX1,
    p.slic ?? SLIC1,
    p.names ?? NAME0,
    p.tier ?? tier(S('idle', [0], 0)),
    p.fram ?? fram([frame({}, g0())]),
    ...(p.after ?? []),
  );
}

/** The FRAM chunk's first frame: where its fields are. */
const F0 = (b: Uint8Array): number => frameAt(b, 0);

/** A sprite built as a document and written by sprat's writer: `n` frames, frame i with trigger letter i (a, b, c...). */
function written(
  tree: IspriteNode[],
  frames: { hold?: number; flag?: boolean; elements?: IspriteElement[]; trigger?: string }[],
  extra?: (d: IspriteDocument) => void,
): Uint8Array {
  const d = createIsprite(30);
  d.textures.push({ path: 'sheet', nearest: true });
  d.slices.push({ texture: 0, rotated: false, x: 0, y: 0, width: 16, height: 16 });
  frames.forEach((f, i) =>
    d.frames.push({
      holdTime: f.hold ?? 1,
      loopPoint: f.flag ?? false,
      label: `f${i}`,
      triggers: f.trigger ?? String.fromCharCode(97 + i),
      notes: '',
      elements: f.elements ?? [{ type: 'graphic', expanded: false, name: null, slice: 0, x: -8, y: -16, flipX: false, flipY: false }],
    }),
  );
  d.tree = tree;
  extra?.(d);
  return writeIsprite(d);
}

const seq = (name: string, frames: number[], loopPoint: number | null = 0, followUp = ''): IspriteNode => ({
  kind: 'sequence',
  name,
  loopPoint,
  followUp,
  frames,
});
const grp = (name: string, ...children: IspriteNode[]): IspriteNode => ({ kind: 'group', name, children });
const defaultSeq = (path: string) => (d: IspriteDocument) => {
  d.extraMeta = [['default-sequence', path]];
};

/** `n` records of the same state with no triggers. */
const hold = (n: number, r: Rec): Rec[] => Array.from({ length: n }, () => [r[0], r[1], r[2], [], r[4]]);
const NONE_REC: Rec = [null, null, null, [], true];

const meta = (created: number[], saved: number[], work: [number, number], strings: string[]) =>
  chunk('META', created, saved, u32(work[0]), u32(work[1]), ...strings.map(str));
const DATE = [21, 11, ...u16(2026), 3, 4, 5, 6];
const ZERO_DATE = [0, 0, 0, 0, 0, 0, 0, 0];
const META_STRS = [
  'hero,pixel',
  'Hero',
  'Quest',
  'A. Artist',
  'Studio',
  'a@example.invalid',
  'example.invalid',
  '(c) 2026',
  'notes',
  'Editor 1',
  'Editor 2',
];

// --------------------------------------------------------------------- cases

const c: Case[] = [];
const add = (x: Case | ((cs: Case[]) => void)) => (typeof x === 'function' ? x(c) : c.push(x));

// ---- File header (§7.2), versions (§1.6), errata 1, 8, 9

add({
  id: 'header-only',
  section: '§7.2 File Header; contract erratum 13',
  rule: 'A file that is only the 24-byte header reads as an empty sprite; each missing chunk reads as empty and validate warns.',
  bytes: file({ frameRate: 24 }),
  facts: { '/frameRate': 24, '/tree': [], '/frames': [], '/meta': null, '/extraMeta': null, '/unknownChunks': [] },
  problems: ['TEX', 'SLIC', 'NAME', 'TIER', 'FRAM'].map(() => ({ class: 'chunk-missing' })),
  play: [{ ticks: 2, script: '0:play idle', records: [NONE_REC, NONE_REC] }],
});
add({
  id: 'empty-chunks',
  section: '§7.2 File Header; §7.6-7.10 (zero counts); contract "Writing"',
  rule: 'The five chunks with zero counts, as sprat writes an empty sprite: valid, nothing to warn about.',
  bytes: writeIsprite(createIsprite(30)),
  facts: { '/version': [1, 0], '/textures': [], '/slices': [], '/names': [], '/tree': [], '/frames': [] },
});
add({
  id: 'header-fields',
  section: '§7.2 File Header (flags, non-standard identifier, frame rate)',
  rule: 'Flag bit 0 is nonStandard, bit 1 workFile; the 3-byte identifier is text with trailing zero bytes removed; the frame rate is a u8.',
  bytes: sprite({ header: { flags: 3, id: 'XT', frameRate: 255 } }),
  facts: { '/nonStandard': true, '/workFile': true, '/nonStandardId': 'XT', '/frameRate': 255 },
});
add({
  id: 'header-frame-rate-zero',
  section: '§2.3 Frame Rate; §7.2 File Header',
  rule: 'A master frame rate of 0 is valid (the application steps by hand); play steps by ticks regardless.',
  bytes: sprite({ header: { frameRate: 0 } }),
  facts: { '/frameRate': 0 },
  play: [
    {
      ticks: 2,
      script: '0:play idle',
      records: [
        ['Root/idle', 0, 0, [], false],
        ['Root/idle', 0, 0, [], false],
      ],
    },
  ],
});
add({
  id: 'header-unknown-flags',
  section: '§7.2 File Header (flags: "All other bits must be set to zero")',
  rule: 'Flag bits above 1 are read past and validate warns.',
  bytes: sprite({ header: { flags: 0x84 } }),
  facts: { '/nonStandard': false, '/workFile': false },
  problems: [{ class: 'header-flags', offset: 14 }],
});
add({
  id: 'header-reserved-nonzero',
  section: '§7.2 File Header (reserved); contract erratum 1',
  rule: 'The reserved field is 5 bytes (19-23), ignored on read; non-zero bytes are a warning.',
  bytes: sprite({ header: { reserved: [1, 2, 3, 4, 5] } }),
  facts: { '/frameRate': 30 },
  problems: [{ class: 'header-reserved', offset: 19 }],
});
add({
  id: 'header-bad-magic',
  section: '§7.2 File Header (magic number)',
  rule: 'A file not starting with "ISPRITE " (with the space) is not read.',
  bytes: (() => {
    const b = sprite();
    b[7] = 0x5f;
    return b;
  })(),
  error: { class: 'not-isprite', offset: 0 },
});
add({
  id: 'header-truncated',
  section: '§7.2 File Header (fixed size of 24 bytes); contract erratum 1',
  rule: 'A file shorter than the 24-byte header is an error at the end of the file.',
  bytes: file({}).slice(0, 20),
  error: { class: 'header-truncated', offset: 20 },
});
add({
  id: 'file-size-too-large',
  section: '§7.2 File Header (file size); contract erratum 9',
  rule: 'fileSize must be the total length − 12; a larger value is an error at byte 8.',
  bytes: (() => {
    const b = sprite();
    return file({ fileSize: b.length - 11 }, b.subarray(24));
  })(),
  error: { class: 'file-size-mismatch', offset: 8 },
});
add({
  id: 'file-size-whole-length',
  section: '§7.2 File Header (file size); contract erratum 9',
  rule: 'fileSize counting the whole file (a common misreading) is an error at byte 8.',
  bytes: (() => {
    const b = sprite();
    return file({ fileSize: b.length }, b.subarray(24));
  })(),
  error: { class: 'file-size-mismatch', offset: 8 },
});
add({
  id: 'version-major-2',
  section: '§1.6 Versioning; contract erratum 8',
  rule: 'A major version other than 1 is an error at byte 12.',
  bytes: sprite({ header: { major: 2 } }),
  error: { class: 'major-version', offset: 12 },
});
add({
  id: 'version-minor-9',
  section: '§1.6 Versioning; contract erratum 8',
  rule: 'Any minor version of major 1 reads; the version is reported as read.',
  bytes: sprite({ header: { minor: 9 } }),
  facts: { '/version': [1, 9] },
});

// ---- Chunk headers (§7.3)

add({
  id: 'chunk-unknown',
  section: '§7.3 Chunk Headers ("an unrecognized chunk ... should be bypassed"); contract "Other rules"',
  rule: 'An unknown chunk is skipped and kept (listed with its ID and size), before or after the known ones.',
  bytes: sprite({ before: [chunk('XTRA', [1, 2, 3, 4])], after: [chunk('zz\u0001 ', [])] }),
  facts: {
    '/unknownChunks': [
      { id: 'XTRA', size: 4 },
      { id: 'zz\u0001 ', size: 0 },
    ],
    '/frames/0/holdTime': 1,
  },
});
add({
  id: 'chunk-order-free',
  section: '§7.3 Chunk Headers ("chunks do not always have a set order")',
  rule: 'Known chunks may come in any order after the header.',
  bytes: file({}, fram([frame({}, g0())]), tier(S('idle', [0], 0)), NAME0, SLIC1, TEX1),
  facts: { '/tree/0/sequence': 'idle', '/frames/0/elements/0/type': 'graphic', '/textures/0/path': 'sheet' },
});
add({
  id: 'chunk-duplicate',
  section: '§7.3 Chunk Headers; contract "Other rules" (a known chunk appearing twice)',
  rule: 'A known chunk appearing twice is an error at the second one.',
  bytes: sprite({ after: [NAME0] }),
  error: { class: 'duplicate-chunk', offset: (b) => b.length - NAME0.length },
});
add({
  id: 'chunk-size-past-end',
  section: '§7.3 Chunk Headers (chunk size)',
  rule: 'A chunk size running past the end of the file is an error at the size field.',
  bytes: file({}, [...ascii('XTRA'), ...u32(100), 1, 2, 3]),
  error: { class: 'chunk-size-past-end', offset: 28 },
});
add({
  id: 'chunk-header-truncated',
  section: '§7.3 Chunk Headers',
  rule: 'Fewer than 8 bytes after the last chunk is an error where they start.',
  bytes: (() => {
    const b = sprite();
    return file({}, b.subarray(24), ascii('TEX'));
  })(),
  error: { class: 'chunk-header-truncated', offset: (b) => b.length - 3 },
});

// ---- META (§7.4), errata 1, 16

add({
  id: 'meta-full',
  section: '§7.4 File Metadata Information; §7.1 Data Types (Date and Time); contract erratum 1',
  rule: 'META: two dates (day, month, u16 year, hour, minute, second, centisecond), a u64 work time, eleven strings; the tags string is at byte 56.',
  bytes: sprite({ before: [meta(DATE, [1, 1, ...u16(1), 0, 0, 0, 0], [1234, 1], META_STRS)] }),
  facts: {
    '/meta/created': { year: 2026, month: 11, day: 21, hour: 3, minute: 4, second: 5, centisecond: 6 },
    '/meta/saved': { year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, centisecond: 0 },
    '/meta/workTimeMs': 4294968530,
    '/meta/tags': 'hero,pixel',
    '/meta/program': 'Editor 2',
  },
});
add({
  id: 'meta-unknown-dates',
  section: '§7.4 File Metadata Information; contract "Date" (all eight bytes zero means unknown)',
  rule: 'A date of eight zero bytes is null; empty strings are valid.',
  bytes: sprite({ before: [meta(ZERO_DATE, ZERO_DATE, [0, 0], Array(11).fill(''))] }),
  facts: { '/meta/created': null, '/meta/saved': null, '/meta/workTimeMs': 0, '/meta/title': '' },
});
add({
  id: 'meta-not-first',
  section: '§7.4 File Metadata Information ("should be the first chunk"); contract erratum 16',
  rule: 'META after another chunk is read; validate warns.',
  bytes: file({}, TEX1, meta(DATE, DATE, [0, 0], META_STRS), SLIC1, NAME0, tier(S('idle', [0], 0)), fram([frame({}, g0())])),
  facts: { '/meta/title': 'Hero' },
  problems: [{ class: 'meta-not-first', offset: 24 + TEX1.length }],
});
add({
  id: 'meta-invalid-date',
  section: '§7.1 Data Types (Date and Time: month 1-12, hour 0-23 ...)',
  rule: 'A date with a field out of range is read as stored; validate warns.',
  bytes: sprite({ before: [meta([31, 13, ...u16(2026), 24, 0, 0, 0], ZERO_DATE, [0, 0], META_STRS)] }),
  facts: { '/meta/created/month': 13, '/meta/created/hour': 24 },
  problems: [{ class: 'date-invalid' }],
});
add({
  id: 'meta-truncated',
  section: '§7.4 File Metadata Information',
  rule: 'A META chunk shorter than its 24 fixed bytes is an error.',
  bytes: sprite({ before: [chunk('META', DATE, DATE)] }),
  error: { class: 'record-truncated', offset: 32 },
});
add({
  id: 'meta-string-past-chunk',
  section: '§7.1 Data Types (String: "if the given length is longer than the rest of the chunk ... invalid")',
  rule: 'A string longer than the rest of its chunk is an error at its length field.',
  bytes: sprite({ before: [chunk('META', DATE, DATE, u32(0), u32(0), u16(50), ascii('abc'))] }),
  error: { class: 'string-past-end', offset: 56 },
});
add({
  id: 'meta-leftover',
  section: '§7.4 File Metadata Information; contract erratum 15',
  rule: 'Bytes after the last META string are an error in version 1.0.',
  bytes: sprite({ before: [chunk('META', DATE, DATE, u32(0), u32(0), ...META_STRS.map(str), [0])] }),
  error: { class: 'chunk-leftover', offset: 24 + 8 + 24 + cat(...META_STRS.map(str)).length },
});
add({
  id: 'meta-leftover-minor-1',
  section: '§1.6 Versioning; contract erratum 19',
  rule: 'In a later minor version, bytes after the last META string are skipped.',
  bytes: sprite({ header: { minor: 1 }, before: [chunk('META', DATE, DATE, u32(0), u32(0), ...META_STRS.map(str), [0, 0, 0])] }),
  facts: { '/version': [1, 1], '/meta/program': 'Editor 2' },
});

// ---- MET+ (§7.5), erratum 6

add({
  id: 'extra-meta-pairs',
  section: '§7.5 Additional File Metadata Information',
  rule: 'MET+ is name/value string pairs to the end of the chunk, in file order; empty names and values are valid.',
  bytes: sprite({ before: [chunk('MET+', str('license'), str('CC0'), str(''), str(''), str('ключ'), str('значение'))] }),
  facts: {
    '/extraMeta': [
      ['license', 'CC0'],
      ['', ''],
      ['ключ', 'значение'],
    ],
  },
});
add({
  id: 'extra-meta-empty',
  section: '§7.5 Additional File Metadata Information',
  rule: 'An empty MET+ chunk is an empty list (not null).',
  bytes: sprite({ before: [chunk('MET+')] }),
  facts: { '/extraMeta': [] },
});
add({
  id: 'extra-meta-no-value',
  section: '§7.5 Additional File Metadata Information',
  rule: 'A field name with no value after it is an error.',
  bytes: sprite({ before: [chunk('MET+', str('a'), str('b'), str('orphan'))] }),
  error: { class: 'extra-meta-no-value', offset: 24 + 8 + 3 + 3 + 8 },
});
add({
  id: 'default-sequence',
  section: '§5.2.4 Default Animation Sequence; contract erratum 6',
  rule: 'MET+ default-sequence = PATH names the default sequence; it is current at position 0 on load (its frame activated).',
  bytes: written([seq('walk', [1, 2], 0), grp('Armed', seq('idle', [0], 0))], [{}, {}, {}], defaultSeq('root/armed/IDLE')),
  facts: { '/extraMeta': [['default-sequence', 'root/armed/IDLE']] },
  play: [
    {
      ticks: 4,
      script: '2:play walk',
      records: [
        ['Root/Armed/idle', 0, 0, ['a'], false],
        ['Root/Armed/idle', 0, 0, ['a'], false],
        ['Root/walk', 0, 1, ['a', 'b'], false],
        ['Root/walk', 1, 2, ['c'], false],
      ],
    },
  ],
});
add({
  id: 'default-sequence-unresolved',
  section: '§5.2.4 Default Animation Sequence; contract erratum 6',
  rule: 'A default-sequence path that names no sequence: no default (nothing plays on load); validate warns.',
  bytes: written([seq('idle', [0], 0)], [{}], defaultSeq('idle')),
  problems: [{ class: 'default-sequence-unresolved', offset: 24 + 8 }],
  play: [{ ticks: 2, records: [NONE_REC, NONE_REC] }],
});
add({
  id: 'sequence-frame-rate',
  section: '§5.2.3 Frame Rate (sequence); contract erratum 6',
  rule: "MET+ sequence-frame-rate:PATH = decimal 0-255 overrides a sequence's rate (255 = master); a bad value or path is a warning.",
  bytes: written([seq('idle', [0], 0), seq('run', [0], 0)], [{}], (d) => {
    d.extraMeta = [
      ['sequence-frame-rate:Root/idle', '12'],
      ['sequence-frame-rate:Root/run', 'fast'],
      ['sequence-frame-rate:Root/fly', '255'],
    ];
  }),
  facts: { '/extraMeta/0': ['sequence-frame-rate:Root/idle', '12'] },
  problems: [
    { class: 'frame-rate-value', offset: (b) => extraMetaAt(b, 1) },
    { class: 'frame-rate-key-unresolved', offset: (b) => extraMetaAt(b, 2) },
  ],
});

// ---- TEX (§7.6), errata 5, 18

add({
  id: 'textures',
  section: '§7.6 Source Textures',
  rule: 'Textures: flag bit 0 is nearest-neighbour filtering; paths are relative, without extension, "/" separated.',
  bytes: sprite({
    tex: tex([
      { flags: 1, path: 'sheets/hero' },
      { flags: 0, path: '../shared/fx' },
    ]),
  }),
  facts: {
    '/textures': [
      { path: 'sheets/hero', nearest: true },
      { path: '../shared/fx', nearest: false },
    ],
  },
});
add({
  id: 'texture-stride-larger',
  section: '§7.6 Source Textures (stride); contract erratum 18',
  rule: "A stride larger than 1: each texture's extra bytes are skipped before its path; validate warns.",
  bytes: sprite({
    tex: tex(
      [
        { flags: 1, extra: [9, 9], path: 'a' },
        { flags: 0, extra: [7, 7], path: 'b' },
      ],
      3,
    ),
  }),
  facts: {
    '/textures': [
      { path: 'a', nearest: true },
      { path: 'b', nearest: false },
    ],
  },
  problems: [{ class: 'stride-larger', offset: 24 + 9 }],
});
add({
  id: 'texture-stride-too-small',
  section: '§7.6 Source Textures (stride)',
  rule: "A stride smaller than this version's 1-byte record is an error at the stride byte.",
  bytes: sprite({ tex: tex([{ path: 'a' }], 0) }),
  error: { class: 'stride-too-small', offset: 24 + 9 },
});
add({
  id: 'texture-count-past-end',
  section: '§7.6 Source Textures (texture count); contract "Limits that protect the user"',
  rule: 'A texture count the chunk cannot hold is an error at the count, before anything is allocated.',
  bytes: sprite({ tex: tex([{ path: 'a' }], 1, 200) }),
  error: { class: 'count-past-end', offset: 24 + 8 },
});
add({
  id: 'texture-empty-path',
  section: '§7.6 Source Textures (filename)',
  rule: 'An empty texture path reads; validate warns.',
  bytes: sprite({ tex: tex([{ path: '' }]) }),
  facts: { '/textures/0/path': '' },
  problems: [{ class: 'texture-path-empty', offset: 24 + 10 }],
});

// ---- SLIC (§7.7, §3.3)

add({
  id: 'slices',
  section: '§7.7 Slices; §3.3 Slices; contract erratum 5',
  rule: 'Slices: texture u8, flag bit 0 rotated, x and y u16 from the upper-left, width and height u16; edge values 0 and 65535.',
  bytes: sprite({
    tex: tex([{ path: 'a' }, { path: 'b' }]),
    slic: slic([
      { texture: 1, flags: 1, x: 65535, y: 0, width: 65535, height: 1 },
      { texture: 0, flags: 0, x: 0, y: 65535, width: 1, height: 65535 },
    ]),
  }),
  facts: {
    '/slices': [
      { texture: 1, rotated: true, x: 65535, y: 0, width: 65535, height: 1 },
      { texture: 0, rotated: false, x: 0, y: 65535, width: 1, height: 65535 },
    ],
  },
});
add({
  id: 'slice-stride-larger',
  section: '§7.7 Slices (stride); contract erratum 18',
  rule: 'A stride larger than 10: each slice is advanced by the stride, its extra bytes skipped; validate warns.',
  bytes: sprite({
    slic: slic(
      [
        { width: 4, height: 5, extra: [0xaa, 0xbb] },
        { x: 7, width: 6, height: 7, extra: [0xcc, 0xdd] },
      ],
      12,
    ),
  }),
  facts: { '/slices/1': { texture: 0, rotated: false, x: 7, y: 0, width: 6, height: 7 } },
  problems: [{ class: 'stride-larger', offset: 24 + TEX1.length + 12 }],
});
add({
  id: 'slice-stride-too-small',
  section: '§7.7 Slices (stride)',
  rule: 'A stride smaller than 10 is an error at the stride byte.',
  bytes: sprite({ slic: chunk('SLIC', u32(1), u8(9), [0, 0, 0, 0, 0, 0, 16, 0, 16]) }),
  error: { class: 'stride-too-small', offset: 24 + TEX1.length + 12 },
});
add({
  id: 'slice-count-past-end',
  section: '§7.7 Slices (slice count)',
  rule: 'A slice count × stride larger than the chunk is an error at the count.',
  bytes: sprite({ slic: slic([{}], 10, 2) }),
  error: { class: 'count-past-end', offset: 24 + TEX1.length + 8 },
});
add({
  id: 'slice-zero-size',
  section: '§7.7 Slices (width, height: "Zero is not a valid value")',
  rule: 'A slice of width 0 reads; validate reports an error.',
  bytes: sprite({ slic: slic([{ width: 0, height: 16 }]) }),
  facts: { '/slices/0/width': 0 },
  problems: [{ class: 'slice-zero-size', offset: 24 + TEX1.length + 13 }],
});
add({
  id: 'slice-texture-out-of-range',
  section: '§7.7 Slices (texture ID)',
  rule: 'A slice naming a texture that does not exist reads; validate reports an error.',
  bytes: sprite({ slic: slic([{ texture: 1 }]) }),
  facts: { '/slices/0/texture': 1 },
  problems: [{ class: 'slice-texture-range', offset: 24 + TEX1.length + 13 }],
});
add({
  id: 'slice-leftover',
  section: '§7.7 Slices; contract erratum 15',
  rule: 'Bytes after the last slice record are an error in version 1.0.',
  bytes: sprite({ slic: chunk('SLIC', u32(1), u8(10), [0, 0, 0, 0, 0, 0, 16, 0, 16, 0], [0xee]) }),
  error: { class: 'chunk-leftover', offset: 24 + TEX1.length + 23 },
});

// ---- NAME (§7.8)

add({
  id: 'names',
  section: '§7.8 Element Names; §7.1 Data Types (String: UTF-8, never NUL-terminated)',
  rule: 'Names are u16-counted strings in UTF-8; an empty name and a NUL inside a string are kept.',
  bytes: sprite({ names: names(['hand', '', 'épée', 'a\u0000b']) }),
  facts: { '/names': ['hand', '', 'épée', 'a\u0000b'] },
});
add({
  id: 'name-invalid-utf8',
  section: '§7.1 Data Types (String); contract "JSON conventions" (invalid UTF-8)',
  rule: 'A string that is not valid UTF-8 reads with U+FFFD for the bad bytes; validate warns.',
  bytes: sprite({ names: chunk('NAME', u16(1), rawStr([0x61, 0xff, 0x62])) }),
  facts: { '/names': ['a\ufffdb'] },
  problems: [{ class: 'utf8-invalid', offset: 24 + TEX1.length + SLIC1.length + 12 }],
});
add({
  id: 'name-count-past-end',
  section: '§7.8 Element Names (name count)',
  rule: 'A name count the chunk cannot hold (2 bytes each at least) is an error at the count.',
  bytes: sprite({ names: names(['a'], 3) }),
  error: { class: 'count-past-end', offset: 24 + TEX1.length + SLIC1.length + 8 },
});
add({
  id: 'name-string-past-chunk',
  section: '§7.1 Data Types (String: a length longer than the rest of the chunk is invalid)',
  rule: 'A name longer than the rest of NAME is an error at its length field, even when the file goes on.',
  bytes: sprite({ names: chunk('NAME', u16(1), u16(5), ascii('abc')) }),
  error: { class: 'string-past-end', offset: 24 + TEX1.length + SLIC1.length + 10 },
});

// ---- TIER (§7.9, §5.1, §5.2), errata 2, 14

add({
  id: 'tier-nested',
  section: '§7.9 Animation Hierarchy; §5.1.2 Nesting; contract erratum 2',
  rule: 'G opens a group, S is a sequence in the open group, C (0x43) closes it; loop point 0xFFFFFFFF is null. (Play: "attack" is found from Root/Armed/Sword; from Root/Armed it is not, as lookups go up the tree only.)',
  bytes: sprite({
    tier: tier(G('Armed'), G('Sword'), S('attack', [0], null, 'idle'), C(), S('block', [0, 0], 1), C(), S('idle', [0], 0)),
  }),
  facts: {
    '/tree': [
      {
        group: 'Armed',
        children: [
          { group: 'Sword', children: [{ sequence: 'attack', loopPoint: null, followUp: 'idle', frames: [0] }] },
          { sequence: 'block', loopPoint: 1, followUp: '', frames: [0, 0] },
        ],
      },
      { sequence: 'idle', loopPoint: 0, followUp: '', frames: [0] },
    ],
  },
  play: [
    {
      ticks: 3,
      script: '0:group root/ARMED/sword;0:play ATTACK;2:group Root/Armed;2:play attack',
      records: [['Root/Armed/Sword/attack', 0, 0, [], false], ['Root/idle', 0, 0, [], false], NONE_REC],
    },
  ],
});
add({
  id: 'tier-close-marker-s',
  section: '§7.9 Animation Hierarchy (closing marker); contract erratum 2',
  rule: 'The closing marker is "C" (0x43), not 0x53 as the document\'s hex says: a 0x53 byte starts a sequence record, which here has no fields (an error at the end of the chunk).',
  bytes: sprite({ tier: tier(G('Armed'), S('idle', [0], 0), [0x53]) }),
  error: { class: 'record-truncated', offset: (b) => chunkAt(b, 'FRAM') },
});
add({
  id: 'tier-unclosed',
  section: '§7.9 Animation Hierarchy ("the chunk should end ... back in the root"); contract erratum 14',
  rule: "A TIER that ends with a group open is an error at the innermost open group's marker.",
  bytes: sprite({ tier: tier(G('A'), G('B'), S('idle', [0], 0), C()) }),
  error: { class: 'tier-unclosed', offset: (b) => chunkAt(b, 'TIER') + 8 },
});
add({
  id: 'tier-close-at-root',
  section: '§7.9 Animation Hierarchy; contract erratum 14',
  rule: 'A closing marker with no open group is an error at the marker.',
  bytes: sprite({ tier: tier(S('idle', [0], 0), C()) }),
  error: { class: 'tier-close-at-root', offset: (b) => chunkAt(b, 'FRAM') - 1 },
});
add({
  id: 'tier-unknown-marker',
  section: '§7.9 Animation Hierarchy; contract erratum 14',
  rule: 'A marker other than G, S, C is an error at the marker.',
  bytes: sprite({ tier: tier(S('idle', [0], 0), ascii('g')) }),
  error: { class: 'tier-unknown-marker', offset: (b) => chunkAt(b, 'FRAM') - 1 },
});
add({
  id: 'tier-frame-count-past-end',
  section: '§7.9 Animation Hierarchy (frame count)',
  rule: 'A sequence frame count the chunk cannot hold (4 bytes each) is an error at the count.',
  bytes: sprite({ tier: tier(S('idle', [0], 0, '', 1000)) }),
  error: { class: 'count-past-end', offset: (b) => sequenceAt(b, 0) + 1 },
});
add({
  id: 'tier-frame-out-of-range',
  section: '§7.9 Animation Hierarchy (frame IDs)',
  rule: 'A frame ID with no frame reads; validate reports an error at the sequence.',
  bytes: sprite({ tier: tier(S('idle', [0, 5], 0)) }),
  facts: { '/tree/0/frames': [0, 5] },
  problems: [{ class: 'sequence-frame-range', offset: (b) => sequenceAt(b, 0) }],
});
add({
  id: 'tier-duplicate-names',
  section: '§5.2.1 Naming ("never two or more ... with the same name in the same group"); §5.2.5 Setting Animation',
  rule: 'Two sequences of one name (case-insensitive) in a group: validate warns; lookup takes the first in file order.',
  bytes: written([seq('dup', [0], 0), seq('DUP', [1], 0)], [{}, {}]),
  problems: [{ class: 'duplicate-name' }],
  play: [
    {
      ticks: 2,
      script: '0:play Dup',
      records: [
        ['Root/dup', 0, 0, ['a'], false],
        ['Root/dup', 0, 0, ['a'], false],
      ],
    },
  ],
});
add({
  id: 'sequence-empty',
  section: '§7.9 Animation Hierarchy (frame count 0); contract "Playback rules"',
  rule: 'A sequence with no frames shows nothing and is stopped (position and frame null); validate warns.',
  bytes: written([seq('none', [], 0)], [{}]),
  problems: [{ class: 'sequence-empty', offset: (b) => sequenceAt(b, 0) }],
  play: [
    {
      ticks: 2,
      script: '0:play none',
      records: [
        ['Root/none', null, null, [], true],
        ['Root/none', null, null, [], true],
      ],
    },
  ],
});

// ---- FRAM (§7.10), errata 7, 10, 12, 15, 17

add({
  id: 'frame-strings',
  section: '§7.10 Frame Data (label, triggers, notes); §5.3.1 Label; §5.3.6 Notes',
  rule: 'A frame has a label, a trigger string and notes; a frame may have no elements (§5.3.2 Empty Frames).',
  bytes: sprite({ fram: fram([frame({ label: 'wind-up', triggers: 'sfx:swing', notes: 'keep short' })]) }),
  facts: { '/frames/0': { holdTime: 1, loopPoint: false, label: 'wind-up', triggers: 'sfx:swing', notes: 'keep short', elements: [] } },
});
add({
  id: 'frame-size-erratum-12',
  section: '§7.10 Frame Data (size); contract erratum 12',
  rule: 'A frame size excludes only the four size bytes: it counts the "F" marker. Three frames of different lengths read in order.',
  bytes: sprite({ fram: fram([frame({ label: 'a' }), frame({ label: 'bbbb' }, g0()), frame({ label: 'c' })]) }),
  facts: { '/frames/1/label': 'bbbb', '/frames/2/label': 'c', '/frames/1/elements/0/type': 'graphic' },
});
add({
  id: 'frame-size-excluding-marker',
  section: '§7.10 Frame Data (size); contract erratum 12',
  rule: 'A size that leaves out the marker too (one less) ends the frame one byte early: its last element runs past it.',
  bytes: sprite({ fram: fram([frame({ size: 24 }, g0())]) }),
  error: { class: 'element-size-past-frame', offset: (b) => F0(b) + 16 + 3 },
});
add({
  id: 'frame-string-past-frame',
  section: '§7.1 Data Types (String); §7.10 Frame Data (size); contract "Other rules"',
  rule: "A frame's strings end by the end of the frame (its size), not of the chunk: a label running past the frame is an error at its length field.",
  bytes: sprite({ fram: fram([frame({ size: 12, label: 'walking-cycle' })]) }),
  error: { class: 'string-past-end', offset: (b) => F0(b) + 10 },
});
add({
  id: 'frame-size-past-end',
  section: '§7.10 Frame Data (size)',
  rule: 'A frame size running past the end of FRAM is an error at the size field.',
  bytes: sprite({ fram: fram([frame({ size: 100 })]) }),
  error: { class: 'frame-size-past-end', offset: (b) => F0(b) + 1 },
});
add({
  id: 'frame-size-too-small',
  section: '§7.10 Frame Data (size)',
  rule: 'A frame size smaller than the fixed part and three empty strings (12) is an error at the size field.',
  bytes: sprite({ fram: fram([frame({ size: 11 })]) }),
  error: { class: 'frame-size-too-small', offset: (b) => F0(b) + 1 },
});
add({
  id: 'frame-trailing-bytes',
  section: '§7.10 Frame Data (size); contract erratum 15',
  rule: "In version 1.0, bytes after the last element inside a frame's size are an error.",
  bytes: sprite({ fram: fram([frame({ trailing: [0, 0] }, g0())]) }),
  error: { class: 'frame-trailing-bytes', offset: (b) => F0(b) + 16 + 13 },
});
add({
  id: 'frame-trailing-bytes-minor-1',
  section: '§1.6 Versioning; contract erratum 15',
  rule: 'In a later minor version, bytes after the last element inside a frame are skipped (the frame is advanced by its size).',
  bytes: sprite({ header: { minor: 1 }, fram: fram([frame({ trailing: [0, 0] }, g0()), frame({ label: 'next' })]) }),
  facts: { '/frames/1/label': 'next', '/frames/0/elements/0/type': 'graphic' },
});
add({
  id: 'frame-marker',
  section: '§7.10 Frame Data (frame marker "F"); contract erratum 17',
  rule: 'A frame whose marker is not "F" is an error at the marker.',
  bytes: sprite({ fram: fram([frame({}, g0()), frame({ marker: 0x66 })]) }),
  error: { class: 'frame-marker', offset: (b) => frameAt(b, 1) },
});
add({
  id: 'frame-count-past-end',
  section: '§7.10 Frame Data (frame count)',
  rule: 'A frame count the chunk cannot hold (12 bytes each at least) is an error at the count.',
  bytes: sprite({ fram: fram([frame({})], 0, 2) }),
  error: { class: 'count-past-end', offset: (b) => chunkAt(b, 'FRAM') + 8 },
});
add({
  id: 'frame-count-huge',
  section: '§7.10 Frame Data (frame count); contract "Limits that protect the user"',
  rule: 'A frame count of 0xFFFFFFFF in a small file is refused at the count, before anything is allocated or looped over.',
  bytes: sprite({ fram: fram([frame({})], 0, 0xffffffff) }),
  error: { class: 'count-past-end', offset: (b) => chunkAt(b, 'FRAM') + 8 },
});
add({
  id: 'frame-missing',
  section: '§7.10 Frame Data (frame count)',
  rule: 'A FRAM whose frames end before the count is reached (the bytes left could hold a smaller frame) is an error where the next frame should start.',
  bytes: sprite({ fram: fram([frame({}, g0(), g0())], 2, 2) }),
  error: { class: 'frame-missing', offset: (b) => frameAt(b, 1) },
});
add({
  id: 'max-element-count-low',
  section: '§7.10 Frame Data (maximum element count: "No frame ... should have more")',
  rule: "A maximum element count below the largest frame's element count reads; validate warns. (A higher one is fine.)",
  bytes: sprite({ fram: fram([frame({}, g0(), g0(), g0()), frame({}, g0())], 1) }),
  problems: [{ class: 'max-element-count', offset: (b) => chunkAt(b, 'FRAM') + 12 }],
});
add({
  id: 'max-element-count-high',
  section: '§7.10 Frame Data (maximum element count: "Not used internally")',
  rule: "A maximum element count above every frame's count is valid.",
  bytes: sprite({ fram: fram([frame({}, g0())], 65535) }),
  facts: { '/frames/0/elements/0/slice': 0 },
});
add({
  id: 'element-count-past-frame',
  section: '§7.10 Frame Data (element count)',
  rule: 'An element count the frame cannot hold (4 bytes each at least) is an error at the count.',
  bytes: sprite({ fram: fram([frame({ count: 9 }, g0())]) }),
  error: { class: 'count-past-end', offset: (b) => F0(b) + 5 },
});

// ---- Elements (§4, §7.10), errata 3, 4, 15, 19

add({
  id: 'element-simple-graphic',
  section: '§4.1 Graphic Elements; §7.10 Frame Data (simple "g", 13 bytes); §7.1 Data Types (Fixed-Point)',
  rule: 'A simple graphic: slice u16, x and y fixed point (int16 + u8/256: −0.5 is −1 and 128), mirroring bit 0 x, bit 1 y.',
  bytes: sprite({ names: names(['body']), fram: fram([frame({}, simple({ name: 0, x: fxp(-1, 128), y: fxp(-16, 64), mirror: 2 }))]) }),
  facts: {
    '/frames/0/elements/0': { type: 'graphic', expanded: false, name: 0, slice: 0, x: -0.5, y: -15.75, flipX: false, flipY: true },
  },
});
add({
  id: 'element-expanded-graphic',
  section: '§4.1 Graphic Elements; §7.10 Frame Data (expanded "G", 30 bytes)',
  rule: 'An expanded graphic adds origin, rotation, scale x, y (fixed point) and a u16 opacity; fixed-point extremes −32768 and 32767+255/256.',
  bytes: sprite({
    fram: fram([
      frame(
        {},
        expanded({
          x: fxp(-32768, 0),
          y: fxp(32767, 255),
          mirror: 3,
          originX: fx(3),
          originY: fx(4.5),
          rotation: fx(-90),
          scaleX: fxp(0, 128),
          scaleY: fx(2),
          opacity: 0,
        }),
      ),
    ]),
  }),
  facts: {
    '/frames/0/elements/0': {
      type: 'graphic',
      expanded: true,
      name: null,
      slice: 0,
      x: -32768,
      y: 32767.99609375,
      flipX: true,
      flipY: true,
      originX: 3,
      originY: 4.5,
      rotation: -90,
      scaleX: 0.5,
      scaleY: 2,
      opacity: 0,
    },
  },
});
add({
  id: 'element-attachment',
  section: '§4.2 Attachment Points; §7.10 Frame Data ("A", 25 bytes); contract erratum 4',
  rule: 'An attachment point: ID u16, position, mirroring as a u16 (bit 0 x, bit 1 y), rotation, scale, opacity; two points may share a name.',
  bytes: sprite({
    names: names(['hand']),
    fram: fram([
      frame(
        {},
        g0(),
        attachment({
          name: 0,
          id: 7,
          x: fx(4),
          y: fx(-12),
          mirror: 0x0101,
          rotation: fx(45),
          scaleX: fx(1),
          scaleY: fx(-1),
          opacity: 32768,
        }),
        attachment({ name: 0, id: 8, x: fx(-4), y: fx(-12) }),
      ),
    ]),
  }),
  facts: {
    '/frames/0/elements/1': {
      type: 'attachment',
      name: 0,
      id: 7,
      x: 4,
      y: -12,
      flipX: true,
      flipY: false,
      rotation: 45,
      scaleX: 1,
      scaleY: -1,
      opacity: 32768,
    },
    '/frames/0/elements/2/id': 8,
  },
});
add({
  id: 'element-rect',
  section: '§4.3 Collision Detection Objects; §7.10 Frame Data (rectangle, 24 bytes); contract erratum 3',
  rule: 'A collision rectangle: type "r" at byte 5, ID at 6, corner at 8, width 14, height 17, rotation 21; reserved bytes 4 and 20 are ignored.',
  bytes: sprite({
    names: names(['hurtbox']),
    fram: fram([
      frame({}, rect({ name: 0, id: 3, x: fx(-6), y: fx(-20), width: fx(12), height: fx(20.5), rotation: fx(30), reserved: [0xaa, 0xbb] })),
    ]),
  }),
  facts: { '/frames/0/elements/0': { type: 'rect', name: 0, id: 3, x: -6, y: -20, width: 12, height: 20.5, rotation: 30 } },
});
add({
  id: 'element-circle',
  section: '§4.3 Collision Detection Objects; §7.10 Frame Data (circle, 17 bytes); contract erratum 3',
  rule: 'A collision circle: type "c" at byte 5, ID at 6, centre at 8, radius at 14; reserved byte 4 is ignored.',
  bytes: sprite({ fram: fram([frame({}, circle({ id: 65535, x: fx(0), y: fx(-10), radius: fx(6.5), reserved: 1 }))]) }),
  facts: { '/frames/0/elements/0': { type: 'circle', name: null, id: 65535, x: 0, y: -10, radius: 6.5 } },
});
add({
  id: 'element-unknown-marker',
  section: '§7.10 Frame Data (elements "always begin with" marker, name, size); contract "Other rules"',
  rule: 'An element with an unknown marker is skipped by its size byte and kept; validate warns.',
  bytes: sprite({ fram: fram([frame({}, element('X', 0xffff, [1, 2, 3, 4]), g0(), element(0, 0xffff, []))]) }),
  facts: {
    '/frames/0/elements/0': { type: 'unknown', marker: 88, name: null, size: 4 },
    '/frames/0/elements/1/type': 'graphic',
    '/frames/0/elements/2': { type: 'unknown', marker: 0, name: null, size: 0 },
  },
  problems: [
    { class: 'element-unknown', offset: F0 },
    { class: 'element-unknown', offset: F0 },
  ],
});
add({
  id: 'element-name-none',
  section: '§7.10 Frame Data (element name: 0xFFFF for no name)',
  rule: 'Name index 0xFFFF is null; an index past the NAME table reads and validate reports an error.',
  bytes: sprite({ names: names(['a']), fram: fram([frame({}, simple({ name: 0xffff }), simple({ name: 1 }))]) }),
  facts: { '/frames/0/elements/0/name': null, '/frames/0/elements/1/name': 1 },
  problems: [{ class: 'element-name-range', offset: F0 }],
});
add({
  id: 'element-slice-out-of-range',
  section: '§4.1 Graphic Elements; §7.10 Frame Data (slice ID)',
  rule: 'A graphic naming a slice that does not exist reads; validate reports an error.',
  bytes: sprite({ fram: fram([frame({}, simple({ slice: 1 }))]) }),
  problems: [{ class: 'element-slice-range', offset: F0 }],
});
add({
  id: 'element-size-wrong',
  section: '§7.10 Frame Data (graphic size "must be set to 9"); contract erratum 15',
  rule: "In version 1.0, a known element whose size byte is not its record's is an error at the size byte.",
  bytes: sprite({ fram: fram([frame({}, element('g', 0xffff, [...u16(0), ...fx(0), ...fx(0), 0, 0]))]) }),
  error: { class: 'element-size-mismatch', offset: (b) => F0(b) + 16 + 3 },
});
add({
  id: 'element-size-larger-minor-1',
  section: '§1.6 Versioning; contract erratum 15',
  rule: 'In a later minor version, a known element larger than its record is read and its extra bytes skipped.',
  bytes: sprite({
    header: { minor: 1 },
    fram: fram([frame({}, element('g', 0xffff, [...u16(0), ...fx(2), ...fx(3), 1, 0xee, 0xee]), g0())]),
  }),
  facts: { '/frames/0/elements/0': { type: 'graphic', expanded: false, name: null, slice: 0, x: 2, y: 3, flipX: true, flipY: false } },
});
add({
  id: 'element-size-smaller-minor-1',
  section: '§1.6 Versioning; contract erratum 15',
  rule: 'Even in a later minor version, a known element smaller than its record is an error at the size byte.',
  bytes: sprite({ header: { minor: 1 }, fram: fram([frame({}, element('A', 0xffff, [...u16(0), ...fx(0), ...fx(0)]))]) }),
  error: { class: 'element-size-mismatch', offset: (b) => F0(b) + 16 + 3 },
});
add({
  id: 'element-size-past-frame',
  section: '§7.10 Frame Data (element size)',
  rule: 'An element size byte running past the end of its frame is an error at the size byte.',
  bytes: sprite({ fram: fram([frame({}, element('X', 0xffff, [1, 2], 40))]) }),
  error: { class: 'element-size-past-frame', offset: (b) => F0(b) + 16 + 3 },
});
add({
  id: 'element-truncated',
  section: '§7.10 Frame Data (element header)',
  rule: 'An element count larger than the elements present, with bytes left that cannot hold an element header, is an error at the element.',
  bytes: sprite({ fram: fram([frame({ count: 2, trailing: [0x58, 0xff] }, g0())]) }),
  error: { class: 'element-truncated', offset: (b) => F0(b) + 16 + 13 },
});
add({
  id: 'collision-unknown-type',
  section: '§4.3 Collision Detection Objects (type "r" or "c"); contract erratum 15',
  rule: 'In version 1.0, a collision type letter other than "r" or "c" is an error at the letter.',
  bytes: sprite({ fram: fram([frame({}, rect({ shape: 0x74 }))]) }),
  error: { class: 'collision-unknown-type', offset: (b) => F0(b) + 16 + 5 },
});
add({
  id: 'collision-unknown-type-minor-1',
  section: '§1.6 Versioning; contract erratum 19',
  rule: 'In a later minor version, a collision object of an unknown type letter is kept as an unknown element.',
  bytes: sprite({ header: { minor: 1 }, fram: fram([frame({}, rect({ shape: 0x74 }))]) }),
  facts: { '/frames/0/elements/0': { type: 'unknown', marker: 67, name: null, size: 20 } },
  problems: [{ class: 'element-unknown', offset: F0 }],
});
add({
  id: 'collision-too-small',
  section: '§4.3 Collision Detection Objects',
  rule: 'A collision object too small to hold its type letter (size < 2) is an error at the size byte.',
  bytes: sprite({ fram: fram([frame({}, element('C', 0xffff, [0]))]) }),
  error: { class: 'collision-too-small', offset: (b) => F0(b) + 16 + 3 },
});

// ---- Playback (§5), errata 7, 10, 11; contract "Playback rules", "sprat play for ISPRITE"

const three = [{}, {}, {}];

add({
  id: 'play-loop-point',
  section: '§5.2.6 Looping; §7.9 Animation Hierarchy (loop point is a position, not a frame ID)',
  rule: 'At the end of a sequence playback returns to its loop point position; positions and frame IDs differ.',
  bytes: written([seq('walk', [2, 1, 0], 1)], three),
  play: [
    {
      ticks: 7,
      script: '0:play walk',
      records: [
        ['Root/walk', 0, 2, ['c'], false],
        ['Root/walk', 1, 1, ['b'], false],
        ['Root/walk', 2, 0, ['a'], false],
        ['Root/walk', 1, 1, ['b'], false],
        ['Root/walk', 2, 0, ['a'], false],
        ['Root/walk', 1, 1, ['b'], false],
        ['Root/walk', 2, 0, ['a'], false],
      ],
    },
  ],
});
add({
  id: 'play-no-loop',
  section: '§5.2.6 Looping; §7.9 Animation Hierarchy (loop point FFFFFFFF: stop)',
  rule: 'A sequence with loop point 0xFFFFFFFF stops at its end, still showing its last frame (stopped: true).',
  bytes: written([seq('die', [0, 1], null)], [{}, {}]),
  play: [
    {
      ticks: 4,
      script: '0:play die',
      records: [
        ['Root/die', 0, 0, ['a'], false],
        ['Root/die', 1, 1, ['b'], false],
        ['Root/die', 1, 1, [], true],
        ['Root/die', 1, 1, [], true],
      ],
    },
  ],
});
add({
  id: 'play-loop-past-end',
  section: '§5.2.6 Looping ("a point equal to or exceeding the final frame": stop)',
  rule: 'A loop point equal to the frame count stops the sequence at its end.',
  bytes: written([seq('once', [0, 1], 2)], [{}, {}]),
  play: [
    {
      ticks: 3,
      script: '0:play once',
      records: [
        ['Root/once', 0, 0, ['a'], false],
        ['Root/once', 1, 1, ['b'], false],
        ['Root/once', 1, 1, [], true],
      ],
    },
  ],
});
add({
  id: 'play-hold-times',
  section: '§5.3.3 Hold Time; §7.10 Frame Data (hold time); contract erratum 10',
  rule: 'A frame is held for its hold time in steps; hold time 0 plays as 1 and validate warns.',
  bytes: written([seq('idle', [0, 1, 2], 0)], [{ hold: 3 }, { hold: 0 }, { hold: 2 }]),
  facts: { '/frames/1/holdTime': 0 },
  problems: [{ class: 'hold-time-zero', offset: (b) => frameAt(b, 1) }],
  play: [
    {
      ticks: 8,
      script: '0:play idle',
      records: [
        ['Root/idle', 0, 0, ['a'], false],
        ...hold(2, ['Root/idle', 0, 0, [], false]),
        ['Root/idle', 1, 1, ['b'], false],
        ['Root/idle', 2, 2, ['c'], false],
        ['Root/idle', 2, 2, [], false],
        ['Root/idle', 0, 0, ['a'], false],
        ['Root/idle', 0, 0, [], false],
      ],
    },
  ],
});
add({
  id: 'play-hold-time-max',
  section: '§5.3.3 Hold Time (u16)',
  rule: 'Hold time 65535 holds the frame for 65535 steps.',
  bytes: written([seq('idle', [0, 1], 0)], [{ hold: 65535 }, {}]),
  play: [{ ticks: 3, script: '0:play idle', records: [['Root/idle', 0, 0, ['a'], false], ...hold(2, ['Root/idle', 0, 0, [], false])] }],
});
add({
  id: 'play-trigger-loop-same-frame',
  section: '§5.3.5 Triggers ("whenever this frame is activated"); contract "Playback rules"',
  rule: 'Looping back to the same frame activates it again and emits its trigger again (at tick 4 before the switch); an empty trigger emits nothing.',
  bytes: written([seq('tick', [0], 0), seq('quiet', [1], 0)], [{ hold: 2, trigger: 'tock' }, { trigger: '' }]),
  play: [
    {
      ticks: 6,
      script: '0:play tick;4:play quiet',
      records: [
        ['Root/tick', 0, 0, ['tock'], false],
        ['Root/tick', 0, 0, [], false],
        ['Root/tick', 0, 0, ['tock'], false],
        ['Root/tick', 0, 0, [], false],
        ['Root/quiet', 0, 1, ['tock'], false],
        ['Root/quiet', 0, 1, [], false],
      ],
    },
  ],
});
add({
  id: 'play-triggers-in-order',
  section: '§5.3.5 Triggers; contract "sprat play for ISPRITE" (triggers since the previous record, in order)',
  rule: 'Commands at one tick apply in order; every trigger emitted since the previous record is listed, in order.',
  bytes: written([seq('a', [0], 0), seq('b', [1], 0)], [{ trigger: 'enter a' }, { trigger: 'enter b' }]),
  play: [
    {
      ticks: 2,
      script: '0:play a;0:play b;1:play a',
      records: [
        ['Root/b', 0, 1, ['enter a', 'enter b'], false],
        ['Root/a', 0, 0, ['enter b', 'enter a'], false],
      ],
    },
  ],
});
add({
  id: 'play-follow-up',
  section: '§5.2.7 Follow-Up Sequence',
  rule: 'At the end of a sequence with a follow-up, the follow-up is set (by Setting Animation) and plays from its first frame.',
  bytes: written([seq('attack', [0, 1], null, 'idle'), seq('idle', [2], 0)], three),
  play: [
    {
      ticks: 4,
      script: '0:play attack',
      records: [
        ['Root/attack', 0, 0, ['a'], false],
        ['Root/attack', 1, 1, ['b'], false],
        ['Root/idle', 0, 2, ['c'], false],
        ['Root/idle', 0, 2, ['c'], false],
      ],
    },
  ],
});
add({
  id: 'play-follow-up-chain',
  section: '§5.2.7 Follow-Up Sequence; §5.3.3 Hold Time',
  rule: 'Follow-ups chain (a to b to c) and may cycle back (c to "A", any case); each starts after the last frame\'s whole hold time.',
  bytes: written([seq('a', [0], null, 'b'), seq('b', [1], 0, 'c'), seq('c', [2], null, 'A')], [{}, { hold: 2 }, {}]),
  play: [
    {
      ticks: 6,
      script: '0:play a',
      records: [
        ['Root/a', 0, 0, ['a'], false],
        ['Root/b', 0, 1, ['b'], false],
        ['Root/b', 0, 1, [], false],
        ['Root/c', 0, 2, ['c'], false],
        ['Root/a', 0, 0, ['a'], false],
        ['Root/b', 0, 1, ['b'], false],
      ],
    },
  ],
});
add({
  id: 'play-follow-up-over-loop',
  section: '§7.9 Animation Hierarchy (loop point "ignored if a follow-up sequence is defined")',
  rule: 'A follow-up wins over the loop point.',
  bytes: written([seq('jump', [0, 1], 0, 'land'), seq('land', [2], null)], three),
  play: [
    {
      ticks: 4,
      script: '0:play jump',
      records: [
        ['Root/jump', 0, 0, ['a'], false],
        ['Root/jump', 1, 1, ['b'], false],
        ['Root/land', 0, 2, ['c'], false],
        ['Root/land', 0, 2, [], true],
      ],
    },
  ],
});
add({
  id: 'play-follow-up-self',
  section: '§5.2.7 Follow-Up Sequence; contract erratum 11',
  rule: 'A follow-up that resolves to the sequence that just ended restarts it from its first frame (not ignored).',
  bytes: written([seq('spin', [0, 1], null, 'SPIN')], [{}, {}]),
  play: [
    {
      ticks: 5,
      script: '0:play spin',
      records: [
        ['Root/spin', 0, 0, ['a'], false],
        ['Root/spin', 1, 1, ['b'], false],
        ['Root/spin', 0, 0, ['a'], false],
        ['Root/spin', 1, 1, ['b'], false],
        ['Root/spin', 0, 0, ['a'], false],
      ],
    },
  ],
});
add({
  id: 'play-follow-up-active-group',
  section: '§5.2.7 Follow-Up Sequence ("call the animation function"); §5.2.5 Setting Animation; contract "Playback rules"',
  rule: "A follow-up name is looked up from the active group, not the ended sequence's own group: up the tree to Root.",
  bytes: written([grp('Armed', seq('attack', [0, 1], null, 'idle'), seq('idle', [2], 0)), seq('idle', [3], 0)], [{}, {}, {}, {}]),
  play: [
    {
      ticks: 3,
      script: '0:group Root/Armed;0:play attack',
      records: [
        ['Root/Armed/attack', 0, 0, ['a'], false],
        ['Root/Armed/attack', 1, 1, ['b'], false],
        ['Root/Armed/idle', 0, 2, ['c'], false],
      ],
    },
    {
      ticks: 3,
      script: '0:group Root/Armed;0:play attack;1:group Root',
      records: [
        ['Root/Armed/attack', 0, 0, ['a'], false],
        ['Root/Armed/attack', 1, 1, ['b'], false],
        ['Root/idle', 0, 3, ['d'], false],
      ],
    },
  ],
});
add({
  id: 'play-follow-up-parent-group',
  section: '§5.2.7 Follow-Up Sequence ("allows the follow-up ... to be in a parent animation group")',
  rule: 'A follow-up not in the active group is found in a group above it.',
  bytes: written([grp('Armed', grp('Sword', seq('slash', [0], null, 'rest'))), seq('rest', [1], 0)], [{}, {}]),
  play: [
    {
      ticks: 2,
      script: '0:group Root/Armed/Sword;0:play slash',
      records: [
        ['Root/Armed/Sword/slash', 0, 0, ['a'], false],
        ['Root/rest', 0, 1, ['b'], false],
      ],
    },
  ],
});
add({
  id: 'play-follow-up-missing',
  section: '§5.2.7 Follow-Up Sequence; §5.2.4 Default Animation Sequence',
  rule: 'A follow-up naming no sequence sets the default sequence (here none: nothing shows); validate warns.',
  bytes: written([seq('attack', [0], null, 'nowhere'), seq('idle', [1], 0)], [{}, {}]),
  problems: [{ class: 'follow-up-unresolved', offset: (b) => sequenceAt(b, 0) }],
  play: [{ ticks: 3, script: '0:play attack', records: [['Root/attack', 0, 0, ['a'], false], NONE_REC, NONE_REC] }],
});
add({
  id: 'play-follow-up-missing-default',
  section: '§5.2.7 Follow-Up Sequence; §5.2.4 Default Animation Sequence ("set any time a given sequence cannot be found")',
  rule: 'A follow-up naming no sequence sets the default sequence when there is one.',
  bytes: written([seq('attack', [0], null, 'nowhere'), seq('idle', [1], 0)], [{}, {}], defaultSeq('Root/idle')),
  problems: [{ class: 'follow-up-unresolved', offset: (b) => sequenceAt(b, 0) }],
  play: [
    {
      ticks: 3,
      script: '0:play attack',
      records: [
        ['Root/attack', 0, 0, ['b', 'a'], false],
        ['Root/idle', 0, 1, ['b'], false],
        ['Root/idle', 0, 1, ['b'], false],
      ],
    },
  ],
});
add({
  id: 'play-set-same-sequence',
  section: '§5.2.5 Setting Animation ("the exact same sequence already playing ... ignore the request")',
  rule: 'Setting the sequence already current (by any case of its name) changes nothing; restart replays it from position 0.',
  bytes: written([seq('walk', [0, 1, 2], 0)], three),
  play: [
    {
      ticks: 5,
      script: '0:play walk;1:play WALK;2:restart',
      records: [
        ['Root/walk', 0, 0, ['a'], false],
        ['Root/walk', 1, 1, ['b'], false],
        ['Root/walk', 0, 0, ['c', 'a'], false],
        ['Root/walk', 1, 1, ['b'], false],
        ['Root/walk', 2, 2, ['c'], false],
      ],
    },
  ],
});
add({
  id: 'play-set-stopped-sequence',
  section: '§5.2.5 Setting Animation; contract "Playback rules" (same sequence, "even when it has stopped")',
  rule: 'Setting a stopped current sequence again leaves it stopped; restart plays it again.',
  bytes: written([seq('once', [0], null)], [{}]),
  play: [
    {
      ticks: 5,
      script: '0:play once;2:play once;3:restart',
      records: [
        ['Root/once', 0, 0, ['a'], false],
        ['Root/once', 0, 0, [], true],
        ['Root/once', 0, 0, [], true],
        ['Root/once', 0, 0, ['a'], false],
        ['Root/once', 0, 0, [], true],
      ],
    },
  ],
});
add({
  id: 'play-unknown-name',
  section: '§5.2.4 Default Animation Sequence ("should not display if a given sequence cannot be found")',
  rule: 'Setting a name no sequence has, with no default sequence: nothing is current (all null, stopped).',
  bytes: written([seq('walk', [0, 1], 0)], [{}, {}]),
  play: [
    {
      ticks: 3,
      script: '0:play walk;1:play swim',
      records: [['Root/walk', 0, 0, ['a'], false], [null, null, null, ['b'], true], NONE_REC],
    },
  ],
});
add({
  id: 'play-unknown-name-default',
  section: '§5.2.4 Default Animation Sequence; §5.2.5 Setting Animation',
  rule: 'Setting a name no sequence has sets the default sequence, from its first frame.',
  bytes: written([seq('idle', [0, 1], 0), seq('walk', [2], 0)], three, defaultSeq('Root/idle')),
  play: [
    {
      ticks: 4,
      script: '1:play walk;2:play swim',
      records: [
        ['Root/idle', 0, 0, ['a'], false],
        ['Root/walk', 0, 2, ['b', 'c'], false],
        ['Root/idle', 0, 0, ['c', 'a'], false],
        ['Root/idle', 1, 1, ['b'], false],
      ],
    },
  ],
});
add({
  id: 'play-group-lookup',
  section: '§5.1.3 Group Assignment; §5.2.5 Setting Animation (active group first, then up the tree)',
  rule: 'A name is looked up in the active group, then each parent up to Root; names compare case-insensitively (A-Z only).',
  bytes: written([grp('Armed', seq('idle', [1], 0)), seq('idle', [0], 0), seq('walk', [2], 0)], three),
  play: [
    {
      ticks: 4,
      script: '0:play idle;1:group Root/Armed;1:play IDLE;2:play Walk;3:group Root;3:play idle',
      records: [
        ['Root/idle', 0, 0, ['a'], false],
        ['Root/Armed/idle', 0, 1, ['a', 'b'], false],
        ['Root/walk', 0, 2, ['b', 'c'], false],
        ['Root/idle', 0, 0, ['c', 'a'], false],
      ],
    },
  ],
});
add({
  id: 'play-name-case-ascii-only',
  section: '§5.2.5 Setting Animation ("case insensitive for the 52 ASCII latin characters")',
  rule: 'Only A-Z/a-z fold: "ÉPÉE" does not find "épée" (the lookup fails and nothing shows).',
  bytes: written([seq('épée', [0], 0)], [{}]),
  play: [{ ticks: 2, script: '0:play ÉPÉE;1:play épée', records: [NONE_REC, ['Root/épée', 0, 0, ['a'], false]] }],
});
add({
  id: 'play-group-keeps-sequence',
  section: '§5.1.3 Group Assignment; contract "Playback rules" (setGroup changes the active group only)',
  rule: 'Changing the active group does not change the current sequence; a path naming no group is ignored with a warning.',
  bytes: written([grp('Armed', seq('walk', [2], 0)), seq('walk', [0, 1], 0)], three),
  play: [
    {
      ticks: 4,
      script: '0:play walk;1:group Root/Armed;2:group Root/Nope;2:play walk;3:play walk',
      records: [
        ['Root/walk', 0, 0, ['a'], false],
        ['Root/walk', 1, 1, ['b'], false],
        ['Root/Armed/walk', 0, 2, ['a', 'c'], false],
        ['Root/Armed/walk', 0, 2, ['c'], false],
      ],
      warnings: ['play-group-unknown'],
    },
  ],
});
add({
  id: 'play-loop-flag-data',
  section: '§7.10 Frame Data (flag bit 0 "loop point"); contract erratum 7',
  rule: "A frame's loop-point flag is data only: the sequence's loop point decides; a flagged frame no sequence loops to is warned about.",
  bytes: written([seq('walk', [0, 1, 2], 0)], [{}, { flag: true }, {}]),
  facts: { '/frames/1/loopPoint': true },
  problems: [{ class: 'loop-flag-unused', offset: (b) => frameAt(b, 1) }],
  play: [
    {
      ticks: 4,
      script: '0:play walk',
      records: [
        ['Root/walk', 0, 0, ['a'], false],
        ['Root/walk', 1, 1, ['b'], false],
        ['Root/walk', 2, 2, ['c'], false],
        ['Root/walk', 0, 0, ['a'], false],
      ],
    },
  ],
});
add({
  id: 'play-attachment-points',
  section: '§4.2 Attachment Points ("If no attachment point with that name is present in a given frame ... not displayed")',
  rule: 'Which attachment points show is the current frame\'s: frame 0 has two "hand" points, frame 1 none (its elements are in inspect).',
  bytes: written(
    [seq('swing', [0, 1], 0)],
    [
      {
        elements: [
          {
            type: 'attachment',
            name: 0,
            id: 0,
            x: 4,
            y: -12,
            flipX: false,
            flipY: false,
            rotation: 0,
            scaleX: 1,
            scaleY: 1,
            opacity: 65535,
          },
          {
            type: 'attachment',
            name: 0,
            id: 1,
            x: -4,
            y: -12,
            flipX: true,
            flipY: false,
            rotation: 90,
            scaleX: 1,
            scaleY: 1,
            opacity: 65535,
          },
        ],
      },
      { elements: [] },
    ],
    (d) => {
      d.names = ['hand'];
    },
  ),
  facts: { '/frames/0/elements/1/rotation': 90, '/frames/1/elements': [] },
  play: [
    {
      ticks: 3,
      script: '0:play swing',
      records: [
        ['Root/swing', 0, 0, ['a'], false],
        ['Root/swing', 1, 1, ['b'], false],
        ['Root/swing', 0, 0, ['a'], false],
      ],
    },
  ],
});
add({
  id: 'play-collision-shapes',
  section: '§4.3 Collision Detection Objects (per frame, circles and rotated rectangles, named by kind)',
  rule: 'Collision shapes change with the frame: frame 0 a "hurtbox" rectangle, frame 1 a "hitbox" circle and a rectangle rotated 45° (elements in inspect).',
  bytes: written(
    [seq('hit', [0, 1], null)],
    [
      { elements: [{ type: 'rect', name: 0, id: 0, x: -6, y: -20, width: 12, height: 20, rotation: 0 }] },
      {
        hold: 2,
        elements: [
          { type: 'circle', name: 1, id: 0, x: 10, y: -10, radius: 6.5 },
          { type: 'rect', name: 0, id: 1, x: -6, y: -20, width: 12, height: 20, rotation: 45 },
        ],
      },
    ],
    (d) => {
      d.names = ['hurtbox', 'hitbox'];
    },
  ),
  facts: { '/frames/1/elements/0/radius': 6.5, '/frames/1/elements/1/rotation': 45 },
  play: [
    {
      ticks: 4,
      script: '0:play hit',
      records: [
        ['Root/hit', 0, 0, ['a'], false],
        ['Root/hit', 1, 1, ['b'], false],
        ['Root/hit', 1, 1, [], false],
        ['Root/hit', 1, 1, [], true],
      ],
    },
  ],
});

export const CASES: readonly Case[] = c;
