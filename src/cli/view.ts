import { constants, promises as fsp } from 'node:fs';
import { limitsFrom } from '../binary/limits.js';
import { startViewer } from '../node/server.js';
import { intOption, parseArgs } from './args.js';
import type { OptionSpec } from '../formats/types.js';
import { allOptions, type Command } from './command.js';
import { FileError, reportError, resolvePath, type Io } from './io.js';

const PORT_OPTION: OptionSpec = { name: 'port', type: 'int', min: 0, max: 65535, description: 'the port (default: a free one)' };

export const viewCommand: Command = {
  name: 'view',
  summary:
    'Serve the browser viewer on 127.0.0.1 and print its address; the given files open in it. Files can also be opened or dropped in the page. Stop with Ctrl-C.',
  usage: 'sprat view [FILE...] [--port N]',
  options: [PORT_OPTION],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    const port = intOption(options, PORT_OPTION);
    const { maxFileBytes } = limitsFrom(options);
    const files = positionals.map((f) => resolvePath(io, f));
    for (let i = 0; i < files.length; i++) {
      try {
        const st = await fsp.stat(files[i]!);
        if (st.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
        if (!st.isFile()) throw new FileError(positionals[i]!, 'not a regular file');
        await fsp.access(files[i]!, constants.R_OK);
      } catch (e) {
        return reportError(io, e, positionals[i]);
      }
    }
    let viewer;
    try {
      viewer = await startViewer(files, { port, maxFileBytes });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        io.err(`sprat: error: port ${port} is in use\n`);
        return 1;
      }
      return reportError(io, e);
    }
    io.out(`sprat view: ${viewer.url}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
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
