import { promises as fsp } from 'node:fs';
import { startViewer } from '../node/server.js';
import { intOption, parseArgs } from './args.js';
import { allOptions, type Command } from './command.js';
import { reportError, resolvePath, type Io } from './io.js';

export const viewCommand: Command = {
  name: 'view',
  summary:
    'Serve the browser viewer on 127.0.0.1 and print its address; the given files open in it. Files can also be opened or dropped in the page. Stop with Ctrl-C.',
  usage: 'sprat view [FILE...] [--port N]',
  options: [{ name: 'port', type: 'int', description: 'the port (default: a free one)' }],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    const files = positionals.map((f) => resolvePath(io, f));
    for (let i = 0; i < files.length; i++) {
      try {
        await fsp.access(files[i]!);
      } catch (e) {
        return reportError(io, e, positionals[i]);
      }
    }
    const viewer = await startViewer(files, { port: intOption(options, 'port') });
    io.out(`sprat view: ${viewer.url}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        void viewer.close().then(resolve);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
