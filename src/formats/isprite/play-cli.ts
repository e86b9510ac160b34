/**
 * `sprat play` for ISPRITE (contract: "sprat play for ISPRITE"):
 *
 *     sprat play FILE --ticks N [--script "T:COMMAND;T:COMMAND..."] --json
 *
 * For each tick t = 0 … N−1: apply, in the order given, the script commands
 * whose T equals t; make one record; then `step()`.
 *
 * A wrong `--ticks` or `--script` throws {@link ScriptError} (the command
 * line maps it to exit status 2, like any other wrong command line).
 */
import { OptionError } from '../../binary/errors.js';
import type { CommandOptions, OptionSpec } from '../types.js';
import { parsedOption, requireOption } from '../options.js';
import type { IspriteDocument } from './model.js';
import { Player, PreparedSprite, prepareSprite } from './play.js';

/** A wrong `--ticks` or `--script` value: a command-line error (exit 2), not a problem with the file. */
export class ScriptError extends OptionError {
  override name = 'ScriptError';
  /** The command line's exit status for it (a wrong command line). */
  readonly exitCode = 2;
}

/** The most ticks one run prints (each is a record in memory). */
export const MAX_TICKS = 1_000_000;

const TICKS_OPTION: OptionSpec = { name: 'ticks', type: 'int', min: 0, max: MAX_TICKS, description: 'number of playback frames to run and print (required)' };
const SCRIPT_OPTION = {
  name: 'script',
  type: 'string',
  value: 'T:COMMAND;...',
  description: 'commands "T:play NAME;T:restart;T:group PATH" applied at tick T, before its record',
  parse: (text: string) => parseScript(text),
} as const satisfies OptionSpec;

export const ispritePlayOptions: OptionSpec[] = [TICKS_OPTION, SCRIPT_OPTION];

/** One record of `sprat play --json`, keys in the contract's order. */
export interface IspritePlayRecord {
  tick: number;
  sequence: string | null;
  position: number | null;
  frame: number | null;
  triggers: string[];
  stopped: boolean;
}

export type ScriptCommand =
  | { tick: number; command: 'play'; name: string }
  | { tick: number; command: 'restart' }
  | { tick: number; command: 'group'; path: string };

/**
 * Parses `T:COMMAND;T:COMMAND…`. T is a whole number ≥ 0; COMMAND is
 * `play NAME` (NAME is the rest of the item, spaces at its ends removed),
 * `restart`, or `group PATH`. Spaces around items are ignored, and so are
 * empty items (a trailing `;`). Throws ScriptError naming the bad item.
 */
export function parseScript(script: string): ScriptCommand[] {
  const out: ScriptCommand[] = [];
  const items = script.split(';');
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!.trim();
    if (item === '') continue;
    const where = `item ${i + 1} ("${item}")`;
    const m = /^(\d+)\s*:\s*(\S+)(?:\s+([\s\S]*))?$/.exec(item);
    if (!m) throw new ScriptError(`${where}: expected T:COMMAND, e.g. 0:play idle`);
    const tick = Number(m[1]);
    if (!Number.isSafeInteger(tick)) throw new ScriptError(`${where}: tick ${m[1]} is too large`);
    const verb = m[2]!;
    const arg = (m[3] ?? '').trim();
    if (verb === 'play') {
      if (arg === '') throw new ScriptError(`${where}: play needs a sequence NAME`);
      out.push({ tick, command: 'play', name: arg });
    } else if (verb === 'restart') {
      if (arg !== '') throw new ScriptError(`${where}: restart takes nothing after it`);
      out.push({ tick, command: 'restart' });
    } else if (verb === 'group') {
      if (arg === '') throw new ScriptError(`${where}: group needs a PATH from Root, e.g. Root/Armed`);
      out.push({ tick, command: 'group', path: arg });
    } else {
      throw new ScriptError(`${where}: unknown command "${verb}" (play NAME, restart, group PATH)`);
    }
  }
  return out;
}

function ticksOption(options: CommandOptions): number {
  return requireOption<number>(options, TICKS_OPTION, 'play');
}

/** Runs the contract's play loop on a document (or a prepared sprite). */
export function playIsprite(
  doc: IspriteDocument | PreparedSprite,
  options: CommandOptions,
): { records: IspritePlayRecord[]; warnings: string[]; text: string } {
  const ticks = ticksOption(options);
  const script = parsedOption(options, SCRIPT_OPTION) ?? [];
  const warnings: string[] = [];
  const byTick = new Map<number, ScriptCommand[]>();
  for (const c of script) {
    if (c.tick >= ticks) {
      warnings.push(`script command at tick ${c.tick} is never run (ticks run 0 to ${ticks - 1})`);
      continue;
    }
    let list = byTick.get(c.tick);
    if (!list) byTick.set(c.tick, (list = []));
    list.push(c);
  }

  const prepared = doc instanceof PreparedSprite ? doc : prepareSprite(doc);
  const player = new Player(prepared, { collectTriggers: true });
  const records: IspritePlayRecord[] = [];
  for (let t = 0; t < ticks; t++) {
    for (const c of byTick.get(t) ?? []) {
      if (c.command === 'play') player.setAnimation(c.name);
      else if (c.command === 'restart') player.restart();
      else if (!player.setGroup(c.path)) {
        const hint = /^root(\/|$)/i.test(c.path) ? '' : ' (paths start with Root, e.g. Root/Armed)';
        warnings.push(`tick ${t}: group "${c.path}" names no group${hint}; the active group stays ${player.groupPath}`);
      }
    }
    records.push({
      tick: t,
      sequence: player.sequencePath,
      position: player.position,
      frame: player.frameId,
      triggers: player.takeTriggers(),
      stopped: player.stopped,
    });
    player.step();
  }
  return { records, warnings, text: timelineText(records) };
}

/** A readable timeline: one line per tick, and "…" lines for runs of ticks showing the same thing with no triggers. */
export function timelineText(records: readonly IspritePlayRecord[]): string {
  if (records.length === 0) return '(no ticks)\n';
  const rows: string[][] = [['tick', 'sequence', 'pos', 'frame', 'state', 'triggers']];
  let prevKey = '';
  let repeats = 0;
  const flush = (): void => {
    if (repeats > 0) rows.push([`…`, `(same for ${repeats} more tick${repeats === 1 ? '' : 's'})`, '', '', '', '']);
    repeats = 0;
  };
  for (const r of records) {
    const key = `${r.sequence}|${r.position}|${r.stopped}`;
    if (key === prevKey && r.triggers.length === 0) {
      repeats++;
      continue;
    }
    flush();
    prevKey = key;
    rows.push([
      String(r.tick),
      r.sequence ?? '(none)',
      r.position === null ? '-' : String(r.position),
      r.frame === null ? '-' : String(r.frame),
      r.stopped ? 'stopped' : 'playing',
      r.triggers.map((t) => JSON.stringify(t)).join(' '),
    ]);
  }
  flush();
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i]!.startsWith('(same') ? 0 : row[i]!.length))));
  return rows.map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}
