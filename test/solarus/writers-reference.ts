/**
 * The Solarus writers as they were before they were tuned for speed (string
 * concatenation), kept as a test oracle: the tuned `formatLines` and
 * `formatLua` (and `writeLines` / `writeLua`, their UTF-8) must give the same
 * text and the same errors and warnings for every sheet
 * (test/solarus/writers-speed.test.ts).
 */
import { FormatError } from '../../src/binary/errors.js';
import { animationAt, animationCount } from '../../src/formats/solarus/compact.js';
import { resolveLuaStyle } from '../../src/formats/solarus/lua.js';
import { checkWritable, type SolarusSheet } from '../../src/formats/solarus/model.js';
import {
  styleOf,
  type FillerLine,
  type LineShape,
  type LinesStyle,
  type LuaStyle,
  type LuaStyleKind,
} from '../../src/formats/solarus/style.js';

const FORMAT = 'solarus';

function checkToken(s: string, what: string): string {
  if (s === '' || /[ \t\r\n\v\f]/.test(s)) {
    throw new FormatError(FORMAT, `${what} "${s}" cannot be written in the line syntax (it is empty or holds white space)`);
  }
  return s;
}

const HEADER_SHAPE: LineShape = { gaps: ['', ' ', ' ', ' ', ' ', ''], eol: '\n' };
const DIRECTION_SHAPE: LineShape = { gaps: ['', '\t', '\t', '\t', '\t', '\t', '\t', '\t', ''], eol: '\n' };

export function referenceFormatLines(sheet: SolarusSheet, style?: LinesStyle | null): string {
  checkWritable(FORMAT, sheet);
  const st = style === null ? undefined : (style ?? styleOf(sheet, 'solarus'));
  const eol = st?.eol ?? '\n';
  const parts: string[] = [];
  // Every line's text and ending; a line that ended the file without a line break gets one when more follows.
  const ends: string[] = [];
  const line = (tokens: string[], shape: LineShape) => {
    const g = shape.gaps;
    const n = tokens.length;
    let t = tokens.join(' ');
    if (g.length > n) {
      // The gaps as they were; after a line that had extra (ignored) tokens, its end.
      t = g[0]!;
      for (let k = 0; k < n; k++) t += tokens[k]! + (k === n - 1 ? g[g.length - 1]! : g[k + 1]!);
    }
    parts.push(t);
    ends.push(shape.eol);
  };
  const filler = (f: FillerLine) => {
    parts.push(f.text);
    ends.push(f.eol);
  };
  for (const f of st?.before ?? []) filler(f);
  const count = animationCount(sheet);
  for (let i = 0; i < count; i++) {
    const a = animationAt(sheet, i);
    const layout = st?.animations[i];
    line(
      [
        checkToken(a.name, 'animation name'),
        checkToken(a.image, 'image'),
        String(a.directions.length),
        String(a.frameDelay),
        String(a.loopOnFrame),
      ],
      layout?.header ?? { ...HEADER_SHAPE, eol },
    );
    a.directions.forEach((d, k) => {
      const shape = layout?.directions[k] ?? layout?.directions[layout.directions.length - 1] ?? { ...DIRECTION_SHAPE, eol };
      line([d.x, d.y, d.frameWidth, d.frameHeight, d.originX, d.originY, d.frameCount, d.columns].map(String), shape);
    });
    for (const f of layout ? layout.after : [{ text: '', eol }]) filler(f);
  }
  let out = st?.bom ? '\ufeff' : '';
  for (let k = 0; k < parts.length; k++) out += parts[k]! + (ends[k] || (k + 1 < parts.length ? eol : ''));
  return out;
}

function luaString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) out += '\\"';
    else if (c === 92) out += '\\\\';
    else if (c === 10) out += '\\n';
    else if (c < 32 || c === 127) out += '\\' + String(c).padStart(3, '0');
    else out += s[i];
  }
  return out + '"';
}

export function referenceFormatLua(sheet: SolarusSheet, warn?: (message: string) => void, style?: LuaStyle | LuaStyleKind): string {
  checkWritable('solarus-lua', sheet);
  const st = resolveLuaStyle(sheet, style);
  const editor = st.kind === 'editor';
  const nl = st.eol;
  const i1 = st.indent;
  const i2 = st.indent + st.indent;
  let out = st.bom ? '\ufeff' : '';
  const count = animationCount(sheet);
  for (let n = 0; n < count; n++) {
    const a = animationAt(sheet, n);
    if (n > 0) out += nl.repeat(st.between);
    out += `animation{${nl}`;
    out += `${i1}name = ${luaString(a.name)},${nl}`;
    out += `${i1}src_image = ${luaString(a.image)},${nl}`;
    if (a.frameDelay !== 0) out += `${i1}frame_delay = ${a.frameDelay},${nl}`;
    // The editor leaves frame_to_loop_on out with frame_delay 0 (where it changes nothing); kept here all the same, so that nothing read is lost.
    if (a.loopOnFrame !== -1) out += `${i1}frame_to_loop_on = ${a.loopOnFrame},${nl}`;
    out += `${i1}directions = {${nl}`;
    a.directions.forEach((d, i) => {
      if (d.columns > d.frameCount) {
        warn?.(`animation "${a.name}" direction ${i}: num_columns ${d.columns} > num_frames ${d.frameCount}, which Solarus 1.x rejects`);
      }
      out += `${i2}{ x = ${d.x}, y = ${d.y}, frame_width = ${d.frameWidth}, frame_height = ${d.frameHeight}`;
      if (editor || d.originX !== 0) out += `, origin_x = ${d.originX}`;
      if (editor || d.originY !== 0) out += `, origin_y = ${d.originY}`;
      if (d.frameCount !== 1) out += `, num_frames = ${d.frameCount}`;
      if (d.columns !== d.frameCount) out += `, num_columns = ${d.columns}`;
      out += ` },${nl}`;
    });
    out += `${i1}},${nl}}`;
  }
  if (count > 0) out += nl.repeat(st.final);
  return out;
}
