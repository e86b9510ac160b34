/**
 * `sprat play` for ISPRITE (docs/spec/isprite.md, "sprat play for ISPRITE"):
 *
 *     sprat play FILE --ticks N [--script "T:COMMAND;T:COMMAND..."] --json
 *
 * For each tick t = 0 … N−1: apply, in the order given, the script commands
 * whose T equals t; make one record; then `step()`.
 *
 * A wrong `--ticks` or `--script` throws {@link ScriptError} (the command
 * line maps it to exit status 2, like any other wrong command line).
 */
import { OptionError, printable } from '../../binary/errors.js';
import { Budget, budgetFrom, type Limits } from '../../binary/limits.js';
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

/** The most ticks one run prints by default: each is a record (the `--max-records` budget, src/binary/limits.ts). */
export const MAX_TICKS = 1_000_000;

// No fixed maximum: one record per tick, bounded by the --max-records budget (default MAX_TICKS).
const TICKS_OPTION: OptionSpec = {
  name: 'ticks',
  type: 'int',
  min: 0,
  description: 'number of playback frames to run and print (required; at most --max-records)',
};
const SCRIPT_OPTION = {
  name: 'script',
  type: 'string',
  value: 'T:COMMAND;...',
  description: 'commands "T:play NAME;T:restart;T:group PATH" applied at tick T, before its record',
  parse: (text: string) => parseScript(text),
} as const satisfies OptionSpec;

export const ispritePlayOptions: OptionSpec[] = [TICKS_OPTION, SCRIPT_OPTION];

/** One record of `sprat play --json`, keys in docs/spec/isprite.md's order. */
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

function ticksOption(options: CommandOptions, budget: Budget): number {
  const n = requireOption<number>(options, TICKS_OPTION, 'play');
  // One record per tick: a LimitError (exit 1) naming --max-records past the budget.
  budget.spend('maxRecords', n, `--ticks ${n}`);
  return n;
}

/** Runs the play loop of docs/spec/isprite.md on a document (or a prepared sprite). */
export function playIsprite(
  doc: IspriteDocument | PreparedSprite,
  options: CommandOptions,
): { records: IspritePlayRecord[]; warnings: string[]; text: string } {
  const budget = budgetFrom(options);
  const ticks = ticksOption(options, budget);
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
  // The timeline is made only when it is asked for (`play` without --json), within the output budget.
  let text: string | undefined;
  return {
    records,
    warnings,
    get text() {
      return (text ??= timelineText(records, budget.limits));
    },
  };
}

/**
 * A readable timeline: one line per tick, and "…" lines for runs of ticks
 * showing the same thing with no triggers. Its size counts against
 * `limits.maxJsonBytes` as it is made (a long trigger fired every tick).
 */
export function timelineText(records: readonly IspritePlayRecord[], limits: Partial<Limits> = {}): string {
  const budget = new Budget({ ...budgetFrom(undefined).limits, ...limits });
  let size = 0;
  const count = (row: string[]): void => {
    for (const c of row) size += c.length + 2;
    budget.check('maxJsonBytes', size, 'the timeline');
  };
  if (records.length === 0) return '(no ticks)\n';
  const rows: string[][] = [['tick', 'sequence', 'pos', 'frame', 'state', 'triggers']];
  let prevKey = '';
  let repeats = 0;
  const flush = (): void => {
    if (repeats > 0) rows.push([`…`, `(same for ${repeats} more tick${repeats === 1 ? '' : 's'})`, '', '', '', '']);
    if (repeats > 0) count(rows[rows.length - 1]!);
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
    const triggers: string[] = [];
    let chars = size;
    for (const t of r.triggers) {
      chars += t.length + 3;
      budget.check('maxJsonBytes', chars, 'the timeline'); // before making the text of a long trigger
      triggers.push(JSON.stringify(t));
    }
    rows.push([
      String(r.tick),
      r.sequence == null ? '(none)' : printable(r.sequence),
      r.position === null ? '-' : String(r.position),
      r.frame === null ? '-' : String(r.frame),
      r.stopped ? 'stopped' : 'playing',
      triggers.join(' '),
    ]);
    count(rows[rows.length - 1]!);
  }
  flush();
  // A loop, not Math.max(...rows): spreading a million rows overflows the call stack.
  const widths = rows[0]!.map((_, i) => rows.reduce((m, row) => Math.max(m, row[i]!.startsWith('(same') ? 0 : row[i]!.length), -Infinity));
  return (
    rows
      .map((row) =>
        row
          .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
