/**
 * Converting the shown document in the page, and downloading what the page
 * makes: `convert` of src/api.ts, the very call `sprat convert IN OUT`
 * makes with OUT beside IN, so the files downloaded are the bytes that
 * command writes; one file is downloaded as it is, several (a sheet with
 * its images) as one zip (fflate).
 */
import { zipSync } from 'fflate';
import { convert, type Loaded } from '../src/api.js';
import { dirOf, joinPath } from '../src/formats/resources.js';
import type { FormatHandler, OutputFile, ResourceLoader } from '../src/formats/types.js';
import { FORMATS } from '../src/registry.js';

/**
 * The formats the document may be converted to: its own (re-encoded), its
 * family's (`convertTo`) and those the common model reaches (`toModel` to
 * `fromModel`), each one that can be written.
 */
export function convertTargets(loaded: Loaded): FormatHandler[] {
  const src = loaded.handler;
  return FORMATS.filter(
    (f) =>
      (f.write || f.writeFiles) && (f === src || src.convertTo !== undefined || (src.toModel !== undefined && f.fromModel !== undefined)),
  );
}

/** OUT's name for a target: the document's name with the target's first extension. */
export function outNameFor(docName: string, target: FormatHandler): string {
  const base = docName.replace(/^.*\//, '');
  const stem = base.replace(/\.[^.]*$/, '') || base;
  return `${stem}${target.extensions[0] ?? ''}`;
}

/**
 * `sprat convert DOC OUT --to TARGET` with OUT beside DOC (`docPath`, as
 * `resources` names it): the files written (names relative to OUT's folder)
 * and the notes the command prints.
 */
export async function convertFile(
  loaded: Loaded,
  target: FormatHandler,
  docPath: string,
  resources: ResourceLoader,
): Promise<{ files: OutputFile[]; notes: string[] }> {
  const dir = dirOf(docPath);
  return convert(loaded, target, outNameFor(docPath, target), resources, {}, { dir, inputDir: dir, resources });
}

/** Several files as one zip, by their names (`..` parts resolved; what would climb above the zip's top is kept below it). */
export function zipOf(files: readonly OutputFile[]): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const f of files) entries[joinPath('', f.name).replace(/^(\.\.\/)+/, '')] = f.bytes;
  return zipSync(entries, { level: 6 });
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  gif: 'image/gif',
  apng: 'image/apng',
  zip: 'application/zip',
  json: 'application/json',
};

/** Offers `bytes` as a download named `name` (nothing leaves the page: a blob URL). */
export function download(name: string, bytes: Uint8Array): void {
  const ext = name.replace(/^.*\./, '').toLowerCase();
  const url = URL.createObjectURL(new Blob([new Uint8Array(bytes)], { type: TYPES[ext] ?? 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
