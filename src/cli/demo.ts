import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, render, validate } from '../api.js';
import { fsResourceLoader, readFileBytes, recordingLoader } from '../node/fs.js';
import { encodeRender, imageFormatFor } from '../render/output.js';
import type { CommandOptions } from '../formats/types.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import type { OptionSpec } from '../formats/types.js';
import { allOptions, type Command } from './command.js';
import { reportError, type Io } from './io.js';
import { writeOutputs } from './write.js';

/** samples/demo.json: what `sprat demo` does with each bundled sample. */
interface DemoManifest {
  /** `optional`: a file outside the package (the shared corpus beside a checkout), skipped when absent. */
  samples: { file: string; format?: string; optional?: boolean; renders?: { out: string; options: CommandOptions }[] }[];
}

export function samplesDir(): string {
  return fileURLToPath(new URL('../../samples/', import.meta.url));
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()).join('\n') + '\n';
}

const OUT_OPTION: OptionSpec = { name: 'out', type: 'string', value: 'DIR', description: 'where to write the renders (default ./out)' };

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Inspect, validate and render every bundled sample, writing the renders to ./out (or --out DIR), and print a table.',
  usage: 'sprat demo [--out DIR]',
  options: [OUT_OPTION],
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
        io.err(`sprat: error: ${outName}: is a file, not a folder\n`);
        return 1;
      }
      await fsp.mkdir(outDir, { recursive: true });
    } catch (e) {
      return reportError(io, e, outName);
    }
    const rows = [['sample', 'format', 'bytes', 'valid', 'warnings', 'renders']];
    let failures = 0;
    let done = 0;
    for (const s of manifest.samples) {
      const file = path.join(dir, s.file);
      if (s.optional && !(await fsp.stat(file).catch(() => null))) continue;
      done++;
      const bytes = await readFileBytes(file);
      const v = validate(bytes, file, s.format);
      const warnings = v.diagnostics.filter((d) => d.severity === 'warning').length;
      if (!v.valid) {
        failures++;
        for (const d of v.diagnostics) io.err(`${s.file}: ${d.severity}: ${d.message}\n`);
      }
      const made: string[] = [];
      for (const r of s.renders ?? []) {
        try {
          const loaded = load(bytes, file, s.format, r.options);
          const fmt = imageFormatFor(r.out) ?? 'png';
          const resources = recordingLoader(fsResourceLoader(path.dirname(file), { cwd: io.cwd }), path.dirname(file));
          const result = await render(loaded, r.options, resources);
          const label = path.join(outName, r.out);
          const target = { path: path.join(outDir, r.out), bytes: encodeRender(result, fmt), label };
          if ((await writeOutputs(io, 'demo', [target], { protect: [file, ...resources.used] })) !== 0) failures++;
          else made.push(r.out);
        } catch (e) {
          failures++;
          io.err(`sprat: error: ${s.file}: rendering ${r.out}: ${(e as Error).message}\n`);
        }
      }
      rows.push([s.optional ? path.relative(io.cwd, file) : s.file, v.format, String(bytes.length), v.valid ? 'yes' : 'NO', String(warnings), made.join(' ') || '-']);
    }
    io.out(table(rows));
    io.out(`\n${done} samples; renders in ${path.relative(io.cwd, outDir) || '.'}/\n`);
    return failures ? 1 : 0;
  },
};
