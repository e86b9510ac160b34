import { printable } from '../binary/errors.js';
import { constants, promises as fsp } from 'node:fs';
import { limitsFrom } from '../binary/limits.js';
import * as path from 'node:path';
import { listDocuments, startViewer } from '../node/server.js';
import { removePendingTempsSync } from '../node/fs.js';
import { checkOptionValues, intOption, parseArgs } from './args.js';
import type { CommandOptions, OptionSpec } from '../formats/types.js';
import { formatsForExtension } from '../detect.js';
import { FORMATS } from '../registry.js';
import { allOptions, collectFormatOptions, type Command } from './command.js';
import { FileError, reportError, resolvePath, type Io } from './io.js';

const PORT_OPTION: OptionSpec = { name: 'port', type: 'int', min: 0, max: 65535, description: 'the port (default: a free one)' };
const EDIT_OPTION: OptionSpec = {
  name: 'edit',
  type: 'flag',
  description: 'let the page save an edited file over itself, atomically (only the files given or listed; without it edits are downloads)',
};

export const viewCommand: Command = {
  name: 'view',
  summary:
    'Serve the browser viewer on 127.0.0.1 and print its address; the given files open in it, and a folder opens as a searchable list of every file sprat knows under it. Files can also be opened or dropped in the page. Resource options (--tileset ...) apply to each file whose format takes them, as `render` takes them. Stop with Ctrl-C.',
  usage: 'sprat view [FILE|FOLDER...] [--port N] [--edit] [--tileset ...]',
  options: [PORT_OPTION, EDIT_OPTION],
  formatOptionKeys: ['resourceOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    const port = intOption(options, PORT_OPTION);
    const { maxFileBytes } = limitsFrom(options);
    // The resource options given (`--tileset 0=tiles.png:16x16`): the page gets them for each document whose format takes them.
    const resourceNames = new Set(collectFormatOptions(['resourceOptions']).map((o) => o.name));
    const givenOptions = Object.fromEntries(Object.entries(options).filter(([k]) => resourceNames.has(k)));
    checkGivenValues(givenOptions, positionals);
    const given = positionals.map((f) => resolvePath(io, f));
    const files: string[] = [];
    const names: string[] = [];
    const roots: (string | null)[] = [];
    const notes: string[] = [];
    let folders = 0;
    for (let i = 0; i < given.length; i++) {
      try {
        const st = await fsp.stat(given[i]!);
        if (st.isDirectory()) {
          // A folder: every file sprat knows under it, named by its path from there.
          await fsp.access(given[i]!, constants.R_OK | constants.X_OK);
          const list = await listDocuments(given[i]!, { maxFileBytes });
          const real = await fsp.realpath(given[i]!);
          const prefix = given.length > 1 ? `${positionals[i]!.replace(/[\\/]+$/, '')}/` : '';
          for (const f of list.files) {
            files.push(f);
            roots.push(real);
            names.push(prefix + path.relative(given[i]!, f).split(path.sep).join('/'));
          }
          notes.push(`${list.files.length} files from ${positionals[i]}${list.note ? ` (${list.note})` : ''}`);
          folders++;
          continue;
        }
        if (!st.isFile()) throw new FileError(positionals[i]!, 'not a regular file');
        await fsp.access(given[i]!, constants.R_OK);
        files.push(given[i]!);
        roots.push(null);
        names.push(path.basename(given[i]!));
      } catch (e) {
        return reportError(io, e, positionals[i]);
      }
    }
    let viewer;
    try {
      viewer = await startViewer(files, {
        port,
        maxFileBytes,
        names,
        roots,
        lazy: folders > 0,
        edit: options.edit === true,
        note: notes.length ? notes.join('; ') : undefined,
        given: Object.keys(givenOptions).length ? { options: givenOptions, cwd: io.cwd } : undefined,
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        io.err(`${printable(`sprat: error: port ${port} is in use`)}\n`);
        return 1;
      }
      return reportError(io, e);
    }
    io.out(`${printable(`sprat view: ${viewer.url}`)}\n`);
    if (options.edit === true) io.out('sprat view: --edit: saving in the page writes the file in place\n');
    for (const n of notes) io.out(`${printable(`sprat view: ${n}`)}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        // A save under way (--edit) leaves no temporary behind.
        removePendingTempsSync();
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void viewer.close().then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
};

/**
 * The resource options' values, checked before any file is read (exit 2),
 * as `render` checks them against the file's format: for each place given,
 * against the formats its extension names (any format for a folder or an
 * unknown extension) that take the option; a value one of them accepts
 * passes (`--tileset` is `SET=IMAGE:WxH` for SpriteTile, an image for Solarus).
 */
function checkGivenValues(given: CommandOptions, places: readonly string[]): void {
  for (const [name, value] of Object.entries(given)) {
    for (const place of places.length ? places : ['']) {
      const named = formatsForExtension(place);
      const specs = (named.length ? named : FORMATS).flatMap((f) => (f.resourceOptions ?? []).filter((o) => o.name === name));
      let first: unknown;
      const accepted = specs.some((s) => {
        try {
          checkOptionValues([s], { [name]: value });
          return true;
        } catch (e) {
          first ??= e;
          return false;
        }
      });
      if (!accepted && first) throw first;
    }
  }
}
