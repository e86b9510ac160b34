import { printable } from '../binary/errors.js';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, references, render, validate } from '../api.js';
import { fsResourceLoader, readFileBytes, recordingLoader } from '../node/fs.js';
import { upscaleImage } from '../render/image.js';
import { encodeRender, imageFormatFor } from '../render/output.js';
import type { CommandOptions } from '../formats/types.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import type { OptionSpec } from '../formats/types.js';
import { allOptions, type Command } from './command.js';
import { reportError, type Io } from './io.js';
import { OVERWRITE_OPTION, writeOutputs } from './write.js';

/** samples/demo.json: what `sprat demo` does with each bundled sample. */
interface DemoManifest {
  /** `optional`: a file outside the package (the shared corpus beside a checkout), skipped when absent. */
  samples: { file: string; format?: string; optional?: boolean; renders?: { out: string; options: CommandOptions }[] }[];
}

export function samplesDir(): string {
  return fileURLToPath(new URL('../../samples/', import.meta.url));
}

/** Demo pictures are enlarged (nearest neighbour) until their longer side is at least this many pixels. */
const READABLE_PX = 128;
const MAX_DEMO_SCALE = 8;

/** The integer scale that makes a picture of this size readable (1 when it already is). */
export function demoScale(width: number, height: number): number {
  const side = Math.max(width, height, 1);
  return Math.max(1, Math.min(MAX_DEMO_SCALE, Math.ceil(READABLE_PX / side)));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The line of the contact sheet that says demo wrote it: a folder whose
 * index.html holds it is an earlier demo's, whose renders and index a new
 * run replaces. Any other existing file is replaced only with --overwrite.
 */
const DEMO_MARKER = '<meta name="generator" content="sprat demo">';

/** Whether `file` is a contact sheet an earlier `sprat demo` wrote (its head holds DEMO_MARKER). */
async function isDemoSheet(file: string): Promise<boolean> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(file, 'r');
    const head = new Uint8Array(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return new TextDecoder().decode(head.subarray(0, bytesRead)).includes(DEMO_MARKER);
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

/** The contact sheet: every render with its caption (sample, options, file, size). */
function contactSheet(
  items: { out: string; sample: string; options: CommandOptions; scale: number; width: number; height: number; frames: number }[],
): string {
  const cards = items
    .map((it) => {
      const opts = Object.entries(it.options)
        .map(([k, v]) => (v === true ? `--${k}` : `--${k} ${v}`))
        .join(' ');
      const size = `${it.width}x${it.height}${it.frames > 1 ? `, ${it.frames} frames` : ''}${it.scale > 1 ? `, shown ${it.scale}x` : ''}`;
      return `<figure><img src="${escapeHtml(encodeURI(it.out))}" alt="${escapeHtml(it.out)}"><figcaption><b>${escapeHtml(it.out)}</b><br>${escapeHtml(it.sample)}${opts ? ` <code>${escapeHtml(opts)}</code>` : ''}<br><small>${escapeHtml(size)}</small></figcaption></figure>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${DEMO_MARKER}
<title>sprat demo</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1em; background: #f6f6f4; color: #222; }
main { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; padding: .6em; background: #fff; border: 1px solid #ddd; border-radius: 4px; max-width: 100%; }
img { image-rendering: pixelated; max-width: 100%; background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
figcaption { font-size: .85em; margin-top: .4em; overflow-wrap: anywhere; }
</style>
</head>
<body>
<h1>sprat demo</h1>
<p>Every render <code>sprat demo</code> made from the bundled samples. Open them live with <code>sprat view samples</code>.</p>
<main>
${cards}
</main>
</body>
</html>
`;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return (
    rows
      .map((r) =>
        r
          .map((cell, c) => cell.padEnd(widths[c]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

const OUT_OPTION: OptionSpec = { name: 'out', type: 'string', value: 'DIR', description: 'where to write the renders (default ./out)' };

export const demoCommand: Command = {
  name: 'demo',
  summary:
    'Inspect, validate and render every bundled sample, writing the renders (enlarged to at least 128 px) and an index.html contact sheet to ./out (or --out DIR), and print a table.',
  usage: 'sprat demo [--out DIR] [--overwrite]',
  options: [
    OUT_OPTION,
    {
      ...OVERWRITE_OPTION,
      description: 'let demo replace files in DIR that an earlier demo did not write (never a sample or a file it uses)',
    },
  ],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    if (positionals.length) throw new UsageError('demo takes no files');
    const dir = samplesDir();
    const outName = stringOption(options, OUT_OPTION) ?? 'out';
    const outDir = path.resolve(io.cwd, outName);
    const manifest = JSON.parse(await fsp.readFile(path.join(dir, 'demo.json'), 'utf8')) as DemoManifest;
    try {
      const st = await fsp.stat(outDir).catch(() => null);
      if (st && !st.isDirectory()) {
        io.err(`${printable(`sprat: error: ${outName}: is a file, not a folder`)}\n`);
        return 1;
      }
      await fsp.mkdir(outDir, { recursive: true });
    } catch (e) {
      return reportError(io, e, outName);
    }
    // Files in DIR are replaced when an earlier demo wrote them (its index.html says so), else only with --overwrite:
    // an index.html of someone else's stops the demo before anything is written.
    const overwrite = options.overwrite === true;
    const indexPath = path.join(outDir, 'index.html');
    const own = await isDemoSheet(indexPath);
    if (!own && !overwrite && (await fsp.lstat(indexPath).catch(() => null))) {
      io.err(
        `${printable(`sprat: error: ${path.join(outName, 'index.html')}: already exists and was not written by sprat demo; nothing was written (--overwrite replaces it, or choose --out DIR)`)}\n`,
      );
      return 1;
    }
    const rows = [['sample', 'format', 'bytes', 'valid', 'warnings', 'renders']];
    let failures = 0;
    let done = 0;
    const sheet: Parameters<typeof contactSheet>[0] = [];
    const inputs: string[] = [];
    const present: DemoManifest['samples'] = [];
    for (const s of manifest.samples) {
      if (s.optional && !(await fsp.stat(path.join(dir, s.file)).catch(() => null))) continue;
      present.push(s);
    }
    for (const s of present) {
      const file = path.join(dir, s.file);
      done++;
      inputs.push(file);
      io.out(
        `[${done}/${present.length}] ${s.optional ? path.relative(io.cwd, file) : s.file}${s.renders?.length ? ` (${s.renders.length} render${s.renders.length > 1 ? 's' : ''})` : ''}\n`,
      );
      const bytes = await readFileBytes(file);
      const v = validate(bytes, file, s.format);
      const warnings = v.diagnostics.filter((d) => d.severity === 'warning').length;
      if (!v.valid) {
        failures++;
        for (const d of v.diagnostics) io.err(`${printable(`${s.file}: ${d.severity}: ${d.message}`)}\n`);
      }
      const made: string[] = [];
      for (const r of s.renders ?? []) {
        try {
          const loaded = load(bytes, file, s.format, r.options);
          const fmt = imageFormatFor(r.out) ?? 'png';
          const resources = recordingLoader(fsResourceLoader(path.dirname(file), { cwd: io.cwd }), path.dirname(file));
          const result = await render(loaded, r.options, resources);
          await references(loaded, resources, r.options);
          const first = result.frames[0];
          const factor = first ? demoScale(first.width, first.height) : 1;
          const width = first?.width ?? 0;
          const height = first?.height ?? 0;
          if (factor > 1) result.frames = result.frames.map((f) => upscaleImage(f, factor));
          for (const u of resources.used) inputs.push(u);
          const label = path.join(outName, r.out);
          const target = { path: path.join(outDir, r.out), bytes: encodeRender(result, fmt), label, mayReplace: own };
          if ((await writeOutputs(io, 'demo', [target], { protect: [file, ...resources.used], overwrite })) !== 0) failures++;
          else {
            made.push(r.out);
            sheet.push({ out: r.out, sample: s.file, options: r.options, scale: factor, width, height, frames: result.frames.length });
          }
        } catch (e) {
          failures++;
          io.err(`${printable(`sprat: error: ${s.file}: rendering ${r.out}: ${(e as Error).message}`)}\n`);
        }
      }
      rows.push([
        s.optional ? path.relative(io.cwd, file) : s.file,
        v.format,
        String(bytes.length),
        v.valid ? 'yes' : 'NO',
        String(warnings),
        made.join(' ') || '-',
      ]);
    }
    const index = {
      path: indexPath,
      mayReplace: own,
      bytes: new TextEncoder().encode(contactSheet(sheet)),
      label: path.join(outName, 'index.html'),
    };
    if ((await writeOutputs(io, 'demo', [index], { protect: inputs, overwrite })) !== 0) failures++;
    const shownOut = path.relative(io.cwd, outDir) || '.';
    const rel = path.relative(io.cwd, dir);
    const shownSamples = rel.startsWith('..') || path.isAbsolute(rel) ? dir.replace(/[\\/]+$/, '') : rel || '.';
    io.out('\n' + table(rows));
    io.out(`\n${printable(`${done} samples; renders in ${shownOut}/ (open ${path.join(shownOut, 'index.html')} to see them all)`)}\n`);
    io.out(
      `next: sprat view ${/\s/.test(shownSamples) ? JSON.stringify(shownSamples) : shownSamples}   (every sample, live in the browser)\n`,
    );
    return failures ? 1 : 0;
  },
};
