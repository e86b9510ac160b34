import { UsageError } from './args.js';
import type { Command } from './command.js';

export const viewCommand: Command = {
  name: 'view',
  summary: 'Serve the browser viewer on 127.0.0.1 and print its address.',
  usage: 'sprat view [FILE...] [--port N]',
  options: [{ name: 'port', type: 'int', description: 'the port (default: a free one)' }],
  async run() {
    throw new UsageError('the viewer is not built yet');
  },
};
