/**
 * Reading option values (`CommandOptions`) the same way everywhere: the
 * command line and the formats' play/render/convert code. Mistakes are
 * OptionErrors (the command line exits 2 for them).
 */
import { OptionError } from '../binary/errors.js';
import type { CommandOptions } from './types.js';

/** A string option; undefined when absent; an error when given as a bare flag. */
export function stringOption(options: CommandOptions, name: string): string | undefined {
  const v = options[name];
  if (v === undefined || v === false) return undefined;
  if (v === true) throw new OptionError(`option --${name} needs a value`);
  return v;
}

/** A whole-number option (decimal digits, optional minus); undefined when absent; `min` when given is enforced. */
export function intOption(options: CommandOptions, name: string, min?: number): number | undefined {
  const v = stringOption(options, name);
  if (v === undefined) return undefined;
  const t = v.trim();
  if (!/^-?\d+$/.test(t) || !Number.isSafeInteger(Number(t))) throw new OptionError(`option --${name} needs a whole number, not "${v}"`);
  const n = Number(t);
  if (min !== undefined && n < min) throw new OptionError(`option --${name} must be at least ${min}`);
  return n;
}

/** A string option that must be given. */
export function requireOption(options: CommandOptions, name: string): string {
  const v = stringOption(options, name);
  if (v === undefined) throw new OptionError(`option --${name} is required`);
  return v;
}
