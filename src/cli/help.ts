import { describeOptions } from './args.js';
import { allOptions, type Command } from './command.js';

export function commandHelp(cmd: Command): string {
  return `usage: ${cmd.usage}\n\n${cmd.summary}\n\noptions:\n${describeOptions(allOptions(cmd))}\n`;
}
