/**
 * The round-trip matrix over the samples and the real-file corpus
 * (src/matrix.ts), and its table in the README between
 * `<!-- matrix:start -->` and `<!-- matrix:end -->`. Run with `npm run
 * matrix`; test/convert/matrix.test.ts computes the same matrix and fails
 * when the README's table is not what this writes.
 *
 * The files: every sample of a sprite format, and from ../shared/corpus
 * per format the smallest few and the largest (the whole corpus would take
 * minutes; every format pair is there either way).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Budget } from '../src/binary/limits.js';
import { load } from '../src/api.js';
import { detectFormat } from '../src/detect.js';
import { matrixRowOf, matrixTable, roundTrip, type MatrixRow } from '../src/matrix.js';
import { fsResourceLoader } from '../src/node/fs.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLES = path.join(ROOT, 'samples');
const CORPUS = path.resolve(ROOT, '../shared/corpus');

/**
 * The sprite formats a conversion writes: the matrix's rows and columns. A
 * file of a format read but never written (a native `.aseprite`, a CorsixTH
 * script) is a row of the format it compiles to.
 */
export const MATRIX_FORMATS = ['isprite', 'cthg', 'solarus', 'solarus-lua', 'hallgeir-sprite', 'aseprite', 'texturepacker'] as const;

/** Corpus files taken per format: the smallest ones, then the largest. */
export const SMALLEST = 3;

/** What reading a file needs (a Hallgeir sprite's frame size: the demo's, samples/demo.json). */
const READ_OPTIONS: Record<string, Record<string, string>> = {
  'hallgeir/hero.spr': { 'frame-size': '16x16' },
  'hallgeir/coin.spr': { 'frame-size': '8x8' },
};

export interface MatrixFile {
  /** Relative to the project (`samples/...`) or to the corpus (`corpus/...`). */
  label: string;
  path: string;
  format: string;
  options?: Record<string, string>;
}

function walk(dir: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const SPRITE_FILE = /\.(isprite|dat|txt|spr|json|aseprite|ase)$/;

/** The sprite files under `dir` whose format the matrix takes, by format. */
function spriteFiles(dir: string): MatrixFile[] {
  const out: MatrixFile[] = [];
  for (const p of walk(dir)) {
    if (!SPRITE_FILE.test(p)) continue;
    const bytes = new Uint8Array(readFileSync(p));
    const f = detectFormat(bytes, p);
    if (!f || !(MATRIX_FORMATS as readonly string[]).includes(matrixRowOf(f.name))) continue;
    // Files of other kinds that share the extension (a JSON that is no sheet, a Solarus tileset, a licence text).
    try {
      load(bytes, p, f.name);
    } catch {
      continue;
    }
    out.push({ label: path.relative(dir, p).split(path.sep).join('/'), path: p, format: f.name });
  }
  return out;
}

/** True when the file reads as a sprite whose every sheet has its pixels: its playback can be told. */
async function playable(f: MatrixFile): Promise<boolean> {
  try {
    const loaded = load(new Uint8Array(readFileSync(f.path)), f.path, f.format, f.options);
    const m = await loaded.handler.toModel?.(loaded.doc, fsResourceLoader(path.dirname(f.path)), f.options);
    return m?.kind === 'sprite' && m.animations.length > 0 && m.sheets.every((s) => s.image);
  } catch {
    return false;
  }
}

/**
 * The files the matrix takes round: every sample, and per format the
 * SMALLEST smallest corpus files and the largest, of those whose playback
 * can be told (the zsdx sprites come without their sheets; some JSON sheets
 * name their image by a path that is not beside them).
 */
export async function matrixFiles(): Promise<MatrixFile[]> {
  const samples = spriteFiles(SAMPLES).map((f) => ({
    ...f,
    label: `samples/${f.label}`,
    ...(READ_OPTIONS[f.label] ? { options: READ_OPTIONS[f.label] } : {}),
  }));
  const picked: MatrixFile[] = [];
  for (const f of samples) if (await playable(f)) picked.push(f);
  const corpus = spriteFiles(CORPUS);
  for (const format of new Set(corpus.map((f) => f.format))) {
    const mine = corpus.filter((f) => f.format === format).map((f) => ({ ...f, size: statSync(f.path).size }));
    mine.sort((a, b) => a.size - b.size || (a.label < b.label ? -1 : 1));
    const take: MatrixFile[] = [];
    for (const f of mine) {
      if (take.length === SMALLEST) break;
      if (await playable(f)) take.push(f);
    }
    for (const f of [...mine].reverse()) {
      if (take.some((t) => t.path === f.path)) break;
      if (await playable(f)) {
        take.push(f);
        break;
      }
    }
    for (const { path: p, format: fmt, label } of take) picked.push({ path: p, format: fmt, label: `corpus/${label}` });
  }
  return picked;
}

/** Every file of `matrixFiles` X -> Y -> X for every format Y of the matrix. */
export async function computeMatrix(files?: MatrixFile[]): Promise<MatrixRow[]> {
  files ??= await matrixFiles();
  const rows: MatrixRow[] = [];
  for (const f of files) {
    const row: MatrixRow = { file: f.label, format: f.format, cells: {} };
    const resources = fsResourceLoader(path.dirname(f.path));
    const bytes = new Uint8Array(readFileSync(f.path));
    for (const via of MATRIX_FORMATS) {
      row.cells[via] = await roundTrip(
        { bytes, name: path.basename(f.path), format: f.format, options: f.options, resources, dir: path.dirname(f.path) },
        via,
        new Budget(),
      );
    }
    rows.push(row);
  }
  return rows;
}

export const START = '<!-- matrix:start -->';
export const END = '<!-- matrix:end -->';

/** The README with `table` between the markers. */
export function withTable(readme: string, table: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${START} ... ${END}`);
  return `${readme.slice(0, a + START.length)}\n${table}\n${readme.slice(b)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = await computeMatrix();
  const readmePath = path.join(ROOT, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const table = matrixTable(rows, MATRIX_FORMATS);
  const next = withTable(readme, table);
  if (next !== readme) writeFileSync(readmePath, next);
  console.log(table);
}
