/**
 * The line-syntax parser as it was before it was tuned for speed,
 * kept as a test oracle: the tuned `parseLines` must give the same sheets,
 * warnings and errors (message, line, column) for every text
 * (test/solarus/lines-speed.test.ts).
 */
import { diagnostic, FormatError } from '../../src/binary/errors.js';
import {
  FIELD_NAMES,
  MAX_INT,
  type Pos,
  type SolarusSyntax,
  type AnimationPositions,
  type ParseOptions,
  type SolarusAnimation,
  type SolarusDirection,
  type SolarusSheet,
} from '../../src/formats/solarus/model.js';

const FORMAT = 'solarus';
const MAX_TOKENS = 16;
const HEADER_FIELDS = ['name', 'image', 'directions', 'frame_delay', 'loop_on_frame'] as const;
const DIRECTION_FIELDS = ['x', 'y', 'frame_width', 'frame_height', 'origin_x', 'origin_y', 'frames', 'columns'] as const;

export function referenceParseLines(text: string, opts: ParseOptions = {}): SolarusSheet {
  const animations: SolarusAnimation[] = [];
  const seen = new Set<string>();
  const n = text.length;
  // Token starts and ends of the current line (reused; tokens past MAX_TOKENS are only counted).
  const starts = new Int32Array(MAX_TOKENS);
  const ends = new Int32Array(MAX_TOKENS);
  // Where the current animation's fields are: its header line and columns, and each direction's line and column.
  let nameCol = 0;
  let delayCol = 0;
  let loopCol = 0;
  const dirLines: number[] = [];
  const dirCols: number[] = [];
  let line = 0;
  let pos = 0;
  let lineStart = 0;
  let lineEnd = 0;
  let current: SolarusAnimation | null = null;
  let wanted = 0;
  let headerLine = 0;

  const col = (i: number) => i - lineStart + 1;
  const fail = (reason: string, i: number): never => {
    throw FormatError.atLine(FORMAT, reason, line, col(i));
  };
  const int = (k: number, field: string): number => {
    const s = starts[k]!;
    const e = ends[k]!;
    let i = s;
    let neg = false;
    if (text.charCodeAt(i) === 45) {
      neg = true;
      i++;
    }
    if (i === e) fail(`${field} must be a whole number, not "${text.slice(s, e)}"`, s);
    let v = 0;
    for (; i < e; i++) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) fail(`${field} must be a whole number, not "${text.slice(s, e)}"`, s);
      v = v * 10 + c;
      if (v > MAX_INT) fail(`${field} ${text.slice(s, e)} is out of range`, s);
    }
    return neg ? 0 - v : v; // (0 - 0 is +0: "-0" reads as 0)
  };
  const positions = (): AnimationPositions => ({
    name: { line: headerLine, column: nameCol },
    frameDelay: { line: headerLine, column: delayCol },
    loopOnFrame: { line: headerLine, column: loopCol },
    directions: current!.directions.map((_, k) => ({ line: dirLines[k]!, column: dirCols[k]! })),
  });
  const finish = () => {
    checkAnimation(FORMAT, current!, positions, seen, opts);
    animations.push(current!);
    current = null;
  };

  while (pos <= n) {
    // Next line: [lineStart, lineEnd), CR before LF dropped.
    line++;
    lineStart = pos;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = n;
    lineEnd = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    pos = nl + 1;
    // Tokenize.
    let count = 0;
    let i = lineStart;
    while (i < lineEnd) {
      let c = text.charCodeAt(i);
      if (c === 32 || c === 9) {
        i++;
        continue;
      }
      const s0 = i;
      while (i < lineEnd && (c = text.charCodeAt(i)) !== 32 && c !== 9) {
        // CR (not before LF), vertical tab and form feed: white space to the engine (it splits tokens
        // there, C++ `>>`), a character of the token to this syntax's "spaces or tabs" rule. Refused, so
        // that no file means one thing here and another to the engine, and every token read can be written.
        if (c === 13 || c === 11 || c === 12)
          fail(
            `a ${c === 13 ? 'carriage return not followed by a line feed' : c === 11 ? 'vertical tab' : 'form feed'} inside a token (separate tokens with spaces or tabs)`,
            i,
          );
        i++;
      }
      if (count < MAX_TOKENS) {
        starts[count] = s0;
        ends[count] = i;
      }
      count++;
    }
    if (count === 0) continue;
    if (current === null) {
      if (count < 5) fail(`line cut short: expected ${HEADER_FIELDS[count]} (an animation header is: ${HEADER_FIELDS.join(' ')})`, lineEnd);
      const name = text.slice(starts[0], ends[0]);
      const image = text.slice(starts[1], ends[1]);
      const dirs = int(2, 'directions');
      if (dirs < 1) fail(`directions must be at least 1, not ${dirs}`, starts[2]!);
      const frameDelay = int(3, 'frame_delay');
      if (frameDelay < 0) fail(`frame_delay must not be negative (${frameDelay})`, starts[3]!);
      const loopOnFrame = int(4, 'loop_on_frame');
      if (loopOnFrame < -1) fail(`loop_on_frame must be -1 or a frame number, not ${loopOnFrame}`, starts[4]!);
      if (count > 5) opts.warn?.(diagnostic('warning', `extra tokens after loop_on_frame are ignored`, { line, column: col(starts[5]!) }));
      current = { name, image, frameDelay, loopOnFrame, directions: [] };
      nameCol = col(starts[0]!);
      delayCol = col(starts[3]!);
      loopCol = col(starts[4]!);
      wanted = dirs;
      headerLine = line;
      continue;
    }
    if (count < 8)
      fail(`line cut short: expected ${DIRECTION_FIELDS[count]} (a direction line is: ${DIRECTION_FIELDS.join(' ')})`, lineEnd);
    const d: SolarusDirection = {
      x: int(0, 'x'),
      y: int(1, 'y'),
      frameWidth: int(2, 'frame_width'),
      frameHeight: int(3, 'frame_height'),
      originX: int(4, 'origin_x'),
      originY: int(5, 'origin_y'),
      frameCount: int(6, 'frames'),
      columns: int(7, 'columns'),
    };
    if (d.frameWidth < 1) fail(`frame_width must be at least 1, not ${d.frameWidth}`, starts[2]!);
    if (d.frameHeight < 1) fail(`frame_height must be at least 1, not ${d.frameHeight}`, starts[3]!);
    if (d.frameCount < 1) fail(`frames must be at least 1, not ${d.frameCount}`, starts[6]!);
    if (d.columns < 1) fail(`columns must be at least 1, not ${d.columns}`, starts[7]!);
    if (count > 8) opts.warn?.(diagnostic('warning', `extra tokens after columns are ignored`, { line, column: col(starts[8]!) }));
    current.directions.push(d);
    const k = current.directions.length - 1;
    dirLines[k] = line;
    dirCols[k] = col(starts[0]!);
    if (current.directions.length === wanted) finish();
  }
  if (current !== null) {
    const a = current as SolarusAnimation;
    throw FormatError.atLine(
      FORMAT,
      `end of file inside animation "${a.name}" (line ${headerLine}): ${wanted} direction${wanted === 1 ? '' : 's'} announced, ${a.directions.length} found`,
      line,
      lineEnd - lineStart + 1,
    );
  }
  if (animations.length === 0) opts.warn?.(diagnostic('warning', 'no animation (the engine needs at least one)', { line: 1, column: 1 }));
  return { animations };
}

/** model.ts checkAnimation as it was (the same oracle role). */
function checkAnimation(
  format: SolarusSyntax,
  anim: SolarusAnimation,
  positions: AnimationPositions | (() => AnimationPositions),
  seen: Set<string>,
  opts: ParseOptions,
): void {
  const names = FIELD_NAMES[format];
  // Positions are built only when something needs them.
  let cached: AnimationPositions | undefined;
  const where = (): AnimationPositions => (cached ??= typeof positions === 'function' ? positions() : positions);
  if (seen.has(anim.name)) {
    const pos = where();
    throw FormatError.atLine(format, `duplicate animation name "${anim.name}"`, pos.name.line, pos.name.column);
  }
  seen.add(anim.name);
  if (opts.positions) opts.positions.push(where());
  const warn = (reason: string, p: Pos) => opts.warn?.(diagnostic('warning', reason, p));
  if (anim.loopOnFrame >= 0) {
    const short = anim.directions.findIndex((d) => anim.loopOnFrame >= d.frameCount);
    if (short >= 0) {
      const d = anim.directions[short]!;
      const pos = where();
      const reason = `animation "${anim.name}": ${names.loopOnFrame} ${anim.loopOnFrame} is not a frame of direction ${short} (${d.frameCount} frame${d.frameCount === 1 ? '' : 's'})`;
      if (opts.strict) throw FormatError.atLine(format, reason, pos.loopOnFrame.line, pos.loopOnFrame.column);
      warn(reason + '; the engine would crash on it', pos.loopOnFrame);
    }
  }
  if (anim.frameDelay === 0 && anim.directions.some((d) => d.frameCount > 1)) {
    warn(`animation "${anim.name}": ${names.frameDelay} 0 with several frames: the first frame shows forever`, where().frameDelay);
  }
  if (format === 'solarus-lua') {
    anim.directions.forEach((d, i) => {
      if (d.columns > d.frameCount) {
        warn(
          `animation "${anim.name}" direction ${i}: num_columns ${d.columns} > num_frames ${d.frameCount} (one row; Solarus 1.x rejects this)`,
          where().directions[i]!,
        );
      }
    });
  }
}
