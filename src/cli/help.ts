import { describeOptions } from './args.js';
import { DEBUG_OPTION, HELP_OPTION, optionsByFormat, type Command } from './command.js';

export function commandHelp(cmd: Command): string {
  let text = `usage: ${cmd.usage}\n\n${cmd.summary}\n\noptions:\n${describeOptions([...cmd.options, HELP_OPTION, DEBUG_OPTION])}\n`;
  for (const [format, specs] of optionsByFormat(cmd.formatOptionKeys ?? [])) {
    text += `\n${format} options:\n${describeOptions(specs)}\n`;
  }
  return text;
}
