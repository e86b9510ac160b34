import { describeOptions } from './args.js';
import { DEBUG_OPTION, HELP_OPTION, LIMIT_OPTIONS, optionsByFormat, type Command } from './command.js';

export function commandHelp(cmd: Command): string {
  let text = `usage: ${cmd.usage}\n\n${cmd.summary}\n\noptions:\n${describeOptions([...cmd.options, HELP_OPTION, DEBUG_OPTION])}\n`;
  for (const [format, specs] of optionsByFormat(cmd.formatOptionKeys ?? [])) {
    text += `\n${format} options:\n${describeOptions(specs)}\n`;
  }
  text += `\nlimits (every command):\n${describeOptions(LIMIT_OPTIONS)}\n`;
  return text;
}
