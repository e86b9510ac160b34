/**
 * Tiled's XML syntax (TMX maps, TSX tilesets, TX templates) read into the
 * shape of Tiled's JSON syntax, and written back from it: one in-memory
 * document for both. The XML is parsed by fast-xml-parser (no regular
 * expressions over XML); attributes keep their order and their values
 * (numbers and booleans typed as Tiled's JSON types them, anything unknown
 * kept as its string), and every element read records where it starts, so
 * later errors about it name its line and column.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FormatError, type Diagnostic, type ErrorLocation } from '../../binary/errors.js';
import { decodeText, JsonReader, lineColumn, pathToPointer } from '../json.js';

/** An XML element: its name, attributes in order, child elements, text and where it starts. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
  start: number;
  /** A csv payload read straight from the bytes (cutCsvBytes): its GIDs (`text` then gives its text when asked). */
  gids?: Uint32Array;
}

const PARSER_OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  captureMetaData: true,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
} as const;

/** The largest nesting of elements accepted (groups of groups...). */
const MAX_DEPTH = 64;

/** Parses XML text into its root element; a syntax error names its line and column. */
export function parseXml(format: string, text: string, cut = true): XmlElement {
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) throw FormatError.atLine(format, `not valid XML: ${valid.err.msg}`, valid.err.line, valid.err.col);
  // The long text of leaf elements (a layer's csv or base64 data) is taken out before the parser sees it (it
  // builds text one character at a time: 30 times the text in garbage) and put back by where its element starts.
  const payloads = cut ? cutPayloads(text) : { text, texts: new Map<number, string>(), original: (at: number) => at };
  let nodes: unknown;
  try {
    nodes = new XMLParser({ ...PARSER_OPTIONS, maxNestedTags: MAX_DEPTH } as never).parse(payloads.text);
  } catch (e) {
    throw new FormatError(format, `not valid XML: ${(e as Error).message}`);
  }
  const meta = XMLParser.getMetaDataSymbol() as unknown as symbol;
  const startOf = (node: Record<string, unknown>) =>
    payloads.original(((node as Record<symbol, unknown>)[meta] as { startIndex?: number } | undefined)?.startIndex ?? 0);
  const convert = (node: Record<string, unknown>, depth: number): XmlElement | null => {
    const name = Object.keys(node).find((k) => k !== ':@');
    if (name === undefined || name === '#text' || name.startsWith('?') || name.startsWith('!')) return null;
    if (depth > MAX_DEPTH) throw new FormatError(format, `elements nested more than ${MAX_DEPTH} deep`);
    const attrs: Record<string, string> = {};
    const a = node[':@'] as Record<string, unknown> | undefined;
    if (a) for (const k of Object.keys(a)) setOwn(attrs, k, String(a[k]));
    const el: XmlElement = { name, attrs, children: [], text: '', start: startOf(node) };
    const kids = node[name];
    if (Array.isArray(kids)) {
      for (const k of kids as Record<string, unknown>[]) {
        if (Object.hasOwn(k, '#text')) el.text += String(k['#text']);
        else {
          const c = convert(k, depth + 1);
          if (c) el.children.push(c);
        }
      }
    }
    const cut = payloads.texts.get(el.start);
    if (cut !== undefined) el.text = cut; // the element's only content (it read as empty)
    return el;
  };
  const roots = (Array.isArray(nodes) ? nodes : []).map((n) => convert(n as Record<string, unknown>, 0)).filter((n) => n !== null);
  if (roots.length !== 1) throw new FormatError(format, `not valid XML: expected one root element, found ${roots.length}`);
  return roots[0]!;
}

/** Leaf text at least this long is taken out of the text given to the parser. */
const CUT_LENGTH = 64;

/**
 * `text` (valid XML) with the text content of every element whose only
 * content is text of at least CUT_LENGTH characters without `&` taken out
 * (`<data encoding="csv">...</data>` becomes `<data encoding="csv"></data>`),
 * that text by where its element starts in `text` (line ends made `\n`, as
 * the parser makes them), and the place in `text` of a place in the shorter
 * text. A document with an internal DTD subset is left whole.
 */
export function cutPayloads(text: string): { text: string; texts: Map<number, string>; original: (at: number) => number } {
  const texts = new Map<number, string>();
  const whole = { text, texts, original: (at: number) => at };
  const pieces: string[] = [];
  const cutAt: number[] = []; // in the shorter text
  const cutSum: number[] = []; // characters taken out up to and with each cut
  let removed = 0;
  let from = 0; // text[from..] is not yet in pieces
  let i = 0;
  const n = text.length;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) i = skipPast(text, '-->', lt + 4);
    else if (text.startsWith('<![CDATA[', lt)) i = skipPast(text, ']]>', lt + 9);
    else if (text.startsWith('<?', lt)) i = skipPast(text, '?>', lt + 2);
    else if (text.startsWith('<!', lt)) {
      const gt = text.indexOf('>', lt);
      const br = text.indexOf('[', lt);
      if (br >= 0 && (gt < 0 || br < gt)) return whole; // an internal subset: entities may be anything
      i = gt < 0 ? n : gt + 1;
    } else if (text.startsWith('</', lt)) i = skipPast(text, '>', lt + 2);
    else {
      // A start tag: to its '>' outside quoted attribute values.
      let j = lt + 1;
      let quote = 0;
      for (; j < n; j++) {
        const c = text.charCodeAt(j);
        if (quote) {
          if (c === quote) quote = 0;
        } else if (c === 34 || c === 39) quote = c;
        else if (c === 62) break;
      }
      if (j >= n) return whole;
      i = j + 1;
      if (text.charCodeAt(j - 1) === 47) continue; // <empty/>
      const end = text.indexOf('<', i);
      if (end < 0 || end - i < CUT_LENGTH || text.charCodeAt(end + 1) !== 47) continue;
      const amp = text.indexOf('&', i);
      if (amp >= 0 && amp < end) continue;
      texts.set(lt, text.slice(i, end).replace(/\r\n?/g, '\n'));
      pieces.push(text.slice(from, i));
      from = end;
      removed += end - i;
      cutAt.push(i - (removed - (end - i)));
      cutSum.push(removed);
      i = end;
    }
  }
  if (!texts.size) return whole;
  pieces.push(text.slice(from));
  const original = (at: number) => {
    // The last cut at or before `at` (elements never start inside a cut: a closing tag follows it).
    let lo = 0;
    let hi = cutAt.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cutAt[mid]! <= at) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return k < 0 ? at : at + cutSum[k]!;
  };
  return { text: pieces.join(''), texts, original };
}

/** True when every byte is ASCII: then the text's offsets are the bytes' offsets. */
function isAscii(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i]! > 127) return false;
  return true;
}

/** `b` holds the ASCII text `s` at `at`. */
function bytesAt(b: Uint8Array, at: number, s: string): boolean {
  for (let k = 0; k < s.length; k++) if (b[at + k] !== s.charCodeAt(k)) return false;
  return true;
}

function skipPastBytes(b: Uint8Array, end: string, from: number): number {
  const first = end.charCodeAt(0);
  for (let k = b.indexOf(first, from); k >= 0; k = b.indexOf(first, k + 1)) if (bytesAt(b, k, end)) return k + end.length;
  return b.length;
}

/** csv GIDs in b[start..end) when it is only plain digits (0..4294967295), commas and ASCII spaces (see csvGidArray); else null. */
function csvGidBytes(b: Uint8Array, start: number, end: number): Uint32Array | null {
  const sp = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
  while (start < end && sp(b[start]!)) start++;
  while (end > start && sp(b[end - 1]!)) end--;
  if (start === end) return null;
  let count = 1;
  for (let k = start; k < end; k++) {
    const c = b[k]!;
    if (c === 44) count++;
    else if (!(c >= 48 && c <= 57) && !sp(c)) return null;
  }
  const out = new Uint32Array(count);
  let at = 0;
  let i = start;
  for (;;) {
    while (i < end && sp(b[i]!)) i++;
    const d0 = i;
    let v = 0;
    while (i < end && b[i]! >= 48 && b[i]! <= 57) v = v * 10 + (b[i++]! - 48);
    if (i === d0 || i - d0 > 10 || v > 0xffffffff) return null;
    while (i < end && sp(b[i]!)) i++;
    out[at++] = v;
    if (i >= end) break;
    if (b[i] !== 44) return null;
    i++;
  }
  return out;
}

const ENCODING_CSV = /\sencoding\s*=\s*(?:"csv"|'csv')/;

/**
 * For ASCII bytes (most TMX files): the text less the csv payloads of
 * `<data encoding="csv">` (and its `<chunk>`s) that are plain GIDs, those
 * read straight from the bytes into Uint32Arrays by where their element
 * starts, the place in the bytes of a place in the shorter text, and where
 * the lines start: a layer's csv is never a string (the text of the whole
 * file is not made). Null when the bytes are not ASCII or hold no such
 * payload (then cutPayloads does the work on the decoded text). The same
 * rules as cutPayloads: a leaf element's text of CUT_LENGTH characters or
 * more without `&`, comments, CDATA and processing instructions skipped, a
 * document with an internal DTD subset left whole.
 */
export function cutCsvBytes(bytes: Uint8Array): {
  text: string;
  gids: Map<number, { gids: Uint32Array; start: number; end: number }>;
  original: (at: number) => number;
  lineStarts: number[];
} | null {
  if (!isAscii(bytes)) return null;
  const n = bytes.length;
  const gids = new Map<number, { gids: Uint32Array; start: number; end: number }>();
  const decoder = new TextDecoder('utf-8');
  const pieces: string[] = [];
  const cutAt: number[] = [];
  const cutSum: number[] = [];
  let removed = 0;
  let from = 0;
  let i = 0;
  let inCsv = false;
  for (;;) {
    const lt = bytes.indexOf(60, i);
    if (lt < 0) break;
    if (bytesAt(bytes, lt, '<!--')) i = skipPastBytes(bytes, '-->', lt + 4);
    else if (bytesAt(bytes, lt, '<![CDATA[')) i = skipPastBytes(bytes, ']]>', lt + 9);
    else if (bytesAt(bytes, lt, '<?')) i = skipPastBytes(bytes, '?>', lt + 2);
    else if (bytesAt(bytes, lt, '<!')) {
      const gt = bytes.indexOf(62, lt);
      const br = bytes.indexOf(91, lt);
      if (br >= 0 && (gt < 0 || br < gt)) return null;
      i = gt < 0 ? n : gt + 1;
    } else if (bytesAt(bytes, lt, '</')) {
      if (bytesAt(bytes, lt, '</data')) inCsv = false;
      i = skipPastBytes(bytes, '>', lt + 2);
    } else {
      let j = lt + 1;
      let quote = 0;
      for (; j < n; j++) {
        const c = bytes[j]!;
        if (quote) {
          if (c === quote) quote = 0;
        } else if (c === 34 || c === 39) quote = c;
        else if (c === 62) break;
      }
      if (j >= n) return null;
      i = j + 1;
      if (bytes[j - 1] === 47) continue; // <empty/>
      const isData = bytesAt(bytes, lt, '<data') && !/[A-Za-z0-9_:.-]/.test(String.fromCharCode(bytes[lt + 5]!));
      const isChunk = bytesAt(bytes, lt, '<chunk') && !/[A-Za-z0-9_:.-]/.test(String.fromCharCode(bytes[lt + 6]!));
      if (isData) inCsv = ENCODING_CSV.test(decoder.decode(bytes.subarray(lt, j)));
      if (!inCsv || !(isData || isChunk)) continue;
      const end = bytes.indexOf(60, i);
      if (end < 0 || end - i < CUT_LENGTH || bytes[end + 1] !== 47) continue;
      const g = csvGidBytes(bytes, i, end);
      if (!g) continue;
      gids.set(lt, { gids: g, start: i, end });
      pieces.push(decoder.decode(bytes.subarray(from, i)));
      from = end;
      removed += end - i;
      cutAt.push(i - (removed - (end - i)));
      cutSum.push(removed);
      i = end;
    }
  }
  if (!gids.size) return null;
  pieces.push(decoder.decode(bytes.subarray(from)));
  const original = (at: number) => {
    let lo = 0;
    let hi = cutAt.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cutAt[mid]! <= at) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return k < 0 ? at : at + cutSum[k]!;
  };
  const lineStarts = [0];
  for (let k = bytes.indexOf(10); k >= 0; k = bytes.indexOf(10, k + 1)) lineStarts.push(k + 1);
  return { text: pieces.join(''), gids, original, lineStarts };
}

/** The element tree read from the text cutCsvBytes made: starts placed in the bytes, the cut payloads put back. */
function placeCut(root: XmlElement, bytes: Uint8Array, cut: NonNullable<ReturnType<typeof cutCsvBytes>>): void {
  const todo = [root];
  while (todo.length) {
    const el = todo.pop()!;
    el.start = cut.original(el.start);
    const g = cut.gids.get(el.start);
    if (g) {
      el.gids = g.gids;
      // Its text only when something other than csv GIDs reads it (an unknown element kept as it is).
      Object.defineProperty(el, 'text', {
        get: () => new TextDecoder().decode(bytes.subarray(g.start, g.end)).replace(/\r\n?/g, '\n'),
        enumerable: true,
        configurable: true,
      });
    }
    for (const c of el.children) todo.push(c);
  }
}

function skipPast(text: string, end: string, from: number): number {
  const k = text.indexOf(end, from);
  return k < 0 ? text.length : k + end.length;
}

/** Sets an own property, even one named "__proto__". */
function setOwn<T>(o: Record<string, T>, k: string, v: T): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

// ---------------------------------------------------------------- attribute types

/** Attributes Tiled's JSON writes as numbers. */
const NUMBERS = new Set([
  'width',
  'height',
  'tilewidth',
  'tileheight',
  'x',
  'y',
  'id',
  'firstgid',
  'spacing',
  'margin',
  'tilecount',
  'columns',
  'opacity',
  'offsetx',
  'offsety',
  'parallaxx',
  'parallaxy',
  'rotation',
  'gid',
  'nextlayerid',
  'nextobjectid',
  'hexsidelength',
  'compressionlevel',
  'parallaxoriginx',
  'parallaxoriginy',
  'probability',
  'tileid',
  'duration',
  'pixelsize',
  'tile',
]);
/** Attributes Tiled's JSON writes as booleans ("1"/"0" or "true"/"false" in XML). */
const BOOLEANS = new Set([
  'visible',
  'locked',
  'infinite',
  'repeatx',
  'repeaty',
  'wrap',
  'bold',
  'italic',
  'underline',
  'strikeout',
  'kerning',
  'hflip',
  'vflip',
  'rotate',
  'preferuntransformed',
]);

function typed(name: string, v: string): unknown {
  if (NUMBERS.has(name)) {
    const n = v.trim() === '' ? Number.NaN : Number(v);
    return Number.isFinite(n) ? n : v; // a bad number stays a string: the reader names it
  }
  if (BOOLEANS.has(name)) {
    if (v === '1' || v === 'true') return true;
    if (v === '0' || v === 'false') return false;
    return v;
  }
  return v;
}

function typedAttrs(el: XmlElement, skip: readonly string[] = []): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(el.attrs)) if (!skip.includes(k)) setOwn(o, k, typed(k, el.attrs[k]!));
  return o;
}

// ---------------------------------------------------------------- XML to the JSON shape

/** ASCII space, tab, line feed, carriage return (what Tiled writes around csv numbers). */
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * A `<data encoding="csv">` text as its list: each comma-separated entry a
 * number when it is one (`Number` of the trimmed entry, finite), else the
 * trimmed entry itself, for the reader to name. Scanned in place: a layer of
 * millions of cells makes no string per cell, only the array of numbers.
 */
export function csvGids(text: string): unknown[] {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  // Blank, also with other white space String#trim removes.
  if (start === end || text.trim() === '') return [];
  // One entry per comma and one more: the array made at its size (growing it would copy it).
  let count = 1;
  for (let k = text.indexOf(',', start); k >= 0 && k < end; k = text.indexOf(',', k + 1)) count++;
  const out: unknown[] = new Array(count);
  let at = 0;
  let i = start;
  for (;;) {
    // One entry from i up to the next comma (or end): digits between ASCII spaces, else Number() of the trimmed text.
    let j = i;
    while (j < end && isSpace(text.charCodeAt(j))) j++;
    let n = 0;
    let digits = 0;
    let c = j < end ? text.charCodeAt(j) : 44;
    while (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      digits++;
      j++;
      c = j < end ? text.charCodeAt(j) : 44;
    }
    while (j < end && isSpace(c)) {
      j++;
      c = j < end ? text.charCodeAt(j) : 44;
    }
    if (c === 44 && digits > 0 && digits <= 15) out[at++] = n;
    else {
      // Anything else: the entry's text as the old split did.
      while (j < end && text.charCodeAt(j) !== 44) j++;
      const s = text.slice(i, j).trim();
      const v = Number(s);
      out[at++] = s !== '' && Number.isFinite(v) ? v : s;
    }
    if (j >= end) break;
    i = j + 1;
  }
  return out;
}

/**
 * A `<data encoding="csv">` text straight into GIDs (4 bytes a cell) when
 * every entry is plain digits (0..4294967295) between ASCII spaces; else
 * null, and csvGids gives the entries (a bad one for the reader to name).
 */
export function csvGidArray(text: string): Uint32Array | null {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  if (start === end) return text.trim() === '' ? new Uint32Array(0) : null;
  let count = 1;
  for (let k = text.indexOf(',', start); k >= 0 && k < end; k = text.indexOf(',', k + 1)) count++;
  const out = new Uint32Array(count);
  let at = 0;
  let i = start;
  for (;;) {
    let c = text.charCodeAt(i);
    while (isSpace(c)) c = text.charCodeAt(++i);
    let n = 0;
    const d0 = i;
    while (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      c = text.charCodeAt(++i);
    }
    if (i === d0 || i - d0 > 10 || n > 0xffffffff) return null;
    while (i < end && isSpace(c)) c = text.charCodeAt(++i);
    out[at++] = n;
    if (i >= end) break;
    if (c !== 44) return null;
    i++;
  }
  return out;
}

/** The order of an `<image>`'s attributes as read (on the object holding image, imagewidth...; not enumerable). */
export const IMAGE_ORDER = Symbol('image attribute order');
const rank = (order: string[], k: string) => {
  const i = order.indexOf(k);
  return i < 0 ? order.length : i;
};

/** Where each JSON path read from XML starts in the text. */
type Places = Map<string, number>;

class ToJson {
  constructor(
    readonly format: string,
    readonly places: Places,
    readonly warn?: (d: Diagnostic) => void,
    readonly text = '',
    /** Line and column of an offset (when the text was not made: cutCsvBytes). */
    readonly lineColumnAt?: (at: number) => { line: number; column: number },
  ) {}

  place(path: string, el: XmlElement) {
    this.places.set(path, el.start);
  }

  unknown(el: XmlElement, parent: string) {
    this.warn?.({
      severity: 'warning',
      message: `unknown element <${el.name}> in <${parent}> kept as it is`,
      ...(this.lineColumnAt ? this.lineColumnAt(el.start) : lineColumn(this.text, el.start)),
    } as Diagnostic);
  }

  /** An unknown element kept in the JSON shape: its attributes, `text` and children by name. */
  generic(el: XmlElement, path: string): Record<string, unknown> {
    this.place(path, el);
    const o = typedAttrs(el);
    if (el.text.trim()) o.text = el.text;
    for (const c of el.children) {
      const list = (Object.hasOwn(o, c.name) && Array.isArray(o[c.name]) ? o[c.name] : []) as unknown[];
      list.push(this.generic(c, `${path}.${c.name}[${list.length}]`));
      setOwn(o, c.name, list);
    }
    return o;
  }

  propertyValue(el: XmlElement, path: string): { type: string; value: unknown; propertytype?: string } {
    const type = el.attrs.type ?? 'string';
    const out: { type: string; value: unknown; propertytype?: string } = { type, value: '' };
    if (el.attrs.propertytype !== undefined) out.propertytype = el.attrs.propertytype;
    if (type === 'class') {
      const members: Record<string, unknown> = {};
      const props = el.children.find((c) => c.name === 'properties');
      props?.children.forEach((m, i) => {
        if (m.name !== 'property') return;
        setOwn(members, m.attrs.name ?? '', this.propertyValue(m, `${path}.value[${i}]`).value);
      });
      out.value = members;
      return out;
    }
    if (type === 'list') {
      out.value = el.children.filter((c) => c.name === 'item').map((c, i) => this.propertyValue(c, `${path}.value[${i}]`));
      return out;
    }
    const raw = el.attrs.value ?? el.text;
    if (type === 'int' || type === 'float' || type === 'object') {
      const n = raw.trim() === '' ? 0 : Number(raw);
      out.value = Number.isFinite(n) ? n : raw;
    } else if (type === 'bool') out.value = raw === 'true' ? true : raw === 'false' ? false : raw;
    else out.value = raw;
    return out;
  }

  properties(el: XmlElement, path: string): unknown[] {
    this.place(path, el);
    const out: unknown[] = [];
    for (const c of el.children) {
      if (c.name !== 'property') {
        this.unknown(c, 'properties');
        continue;
      }
      const p = `${path}[${out.length}]`;
      this.place(p, c);
      const v = this.propertyValue(c, p);
      const o: Record<string, unknown> = { name: c.attrs.name ?? '' };
      if (v.propertytype !== undefined) o.propertytype = v.propertytype;
      o.type = v.type;
      o.value = v.value;
      out.push(o);
    }
    return out;
  }

  image(el: XmlElement, o: Record<string, unknown>, path: string) {
    this.place(`${path}.image`, el);
    Object.defineProperty(o, IMAGE_ORDER, { value: Object.keys(el.attrs), enumerable: false });
    for (const k of Object.keys(el.attrs)) {
      const v = el.attrs[k]!;
      if (k === 'source') o.image = v;
      else if (k === 'width') o.imagewidth = typed('width', v);
      else if (k === 'height') o.imageheight = typed('height', v);
      else if (k === 'trans') o.transparentcolor = v.startsWith('#') ? v : `#${v}`;
      else setOwn(o, `image${k}`, v);
    }
    if (el.children.some((c) => c.name === 'data')) this.unknown(el.children.find((c) => c.name === 'data')!, 'image');
  }

  /** A list of tile GIDs in any XML encoding (csv text, `<tile>` elements) or base64 text kept as a string. */
  gidData(el: XmlElement, encoding: string | undefined, path: string): unknown {
    if (encoding === 'base64') return el.text.trim();
    if (encoding === 'csv') return el.gids ?? csvGidArray(el.text) ?? csvGids(el.text);
    if (encoding !== undefined) return el.text.trim();
    this.place(path, el);
    return el.children.filter((c) => c.name === 'tile').map((c) => (c.attrs.gid === undefined ? 0 : typed('gid', c.attrs.gid)));
  }

  layer(el: XmlElement, path: string, depth: number): Record<string, unknown> {
    this.place(path, el);
    if (depth > MAX_DEPTH) throw new FormatError(this.format, `groups nested more than ${MAX_DEPTH} deep`);
    const o = typedAttrs(el);
    const type = el.name === 'layer' ? 'tilelayer' : el.name;
    o.type = type;
    if (type === 'group') o.layers = [];
    if (type === 'objectgroup') o.objects = [];
    for (const c of el.children) {
      if (c.name === 'properties') o.properties = this.properties(c, `${path}.properties`);
      else if (type === 'tilelayer' && c.name === 'data') {
        const enc = c.attrs.encoding;
        if (enc !== undefined) o.encoding = enc;
        if (c.attrs.compression !== undefined) o.compression = c.attrs.compression;
        this.place(`${path}.data`, c);
        const chunks = c.children.filter((k) => k.name === 'chunk');
        if (chunks.length) {
          this.place(`${path}.chunks`, c);
          o.chunks = chunks.map((k, i) => {
            const p = `${path}.chunks[${i}]`;
            this.place(p, k);
            this.place(`${p}.data`, k);
            const co = typedAttrs(k);
            co.data = this.gidData(k, enc, `${p}.data`);
            return co;
          });
        } else o.data = this.gidData(c, enc, `${path}.data`);
      } else if (type === 'objectgroup' && c.name === 'object') {
        const list = o.objects as unknown[];
        list.push(this.object(c, `${path}.objects[${list.length}]`));
      } else if (type === 'imagelayer' && c.name === 'image') this.image(c, o, path);
      else if (type === 'group' && isLayerName(c.name)) {
        const list = o.layers as unknown[];
        list.push(this.layer(c, `${path}.layers[${list.length}]`, depth + 1));
      } else {
        this.unknown(c, el.name);
        setOwn(o, c.name, this.generic(c, `${path}.${c.name}`));
      }
    }
    // An infinite layer in Tiled's JSON has startx/starty: where its chunks begin.
    if (Array.isArray(o.chunks) && o.chunks.length) {
      const cs = o.chunks as Record<string, unknown>[];
      const xs = cs.map((k) => (typeof k.x === 'number' ? k.x : 0));
      const ys = cs.map((k) => (typeof k.y === 'number' ? k.y : 0));
      if (!Object.hasOwn(o, 'startx')) o.startx = xs.reduce((a, b) => Math.min(a, b));
      if (!Object.hasOwn(o, 'starty')) o.starty = ys.reduce((a, b) => Math.min(a, b));
    }
    return o;
  }

  object(el: XmlElement, path: string): Record<string, unknown> {
    this.place(path, el);
    const o = typedAttrs(el);
    for (const c of el.children) {
      if (c.name === 'properties') o.properties = this.properties(c, `${path}.properties`);
      else if (c.name === 'ellipse' || c.name === 'point') o[c.name] = true;
      else if (c.name === 'polygon' || c.name === 'polyline') {
        this.place(`${path}.${c.name}`, c);
        const pts = (c.attrs.points ?? '').trim();
        o[c.name] = pts
          ? pts.split(/\s+/).map((pair) => {
              const [x, y] = pair.split(',');
              return { x: Number(x), y: Number(y) };
            })
          : [];
      } else if (c.name === 'text') {
        this.place(`${path}.text`, c);
        const t = typedAttrs(c);
        t.text = c.text;
        o.text = t;
      } else {
        this.unknown(c, 'object');
        setOwn(o, c.name, this.generic(c, `${path}.${c.name}`));
      }
    }
    return o;
  }

  tileset(el: XmlElement, path: string, root: boolean): Record<string, unknown> {
    this.place(path, el);
    const o = typedAttrs(el);
    if (root) o.type = 'tileset';
    for (const c of el.children) {
      if (c.name === 'properties') o.properties = this.properties(c, `${path}.properties`);
      else if (c.name === 'image') this.image(c, o, path);
      else if (c.name === 'tileoffset' || c.name === 'grid') {
        this.place(`${path}.${c.name}`, c);
        o[c.name] = typedAttrs(c);
      } else if (c.name === 'transformations') o.transformations = typedAttrs(c);
      else if (c.name === 'tile') {
        const tiles = (o.tiles ?? (o.tiles = [])) as unknown[];
        tiles.push(this.tile(c, `${path}.tiles[${tiles.length}]`));
      } else if (c.name === 'wangsets') {
        o.wangsets = c.children.filter((w) => w.name === 'wangset').map((w, i) => this.wangset(w, `${path}.wangsets[${i}]`));
      } else {
        this.unknown(c, 'tileset');
        setOwn(o, c.name, this.generic(c, `${path}.${c.name}`));
      }
    }
    return o;
  }

  tile(el: XmlElement, path: string): Record<string, unknown> {
    this.place(path, el);
    const o = typedAttrs(el);
    for (const c of el.children) {
      if (c.name === 'properties') o.properties = this.properties(c, `${path}.properties`);
      else if (c.name === 'image') this.image(c, o, path);
      else if (c.name === 'objectgroup') o.objectgroup = this.layer(c, `${path}.objectgroup`, 0);
      else if (c.name === 'animation') {
        this.place(`${path}.animation`, c);
        o.animation = c.children.filter((f) => f.name === 'frame').map((f) => typedAttrs(f));
      } else {
        this.unknown(c, 'tile');
        setOwn(o, c.name, this.generic(c, `${path}.${c.name}`));
      }
    }
    return o;
  }

  wangset(el: XmlElement, path: string): Record<string, unknown> {
    this.place(path, el);
    const o = typedAttrs(el);
    o.colors = [];
    o.wangtiles = [];
    for (const c of el.children) {
      if (c.name === 'properties') o.properties = this.properties(c, `${path}.properties`);
      else if (c.name === 'wangcolor') {
        const col = typedAttrs(c);
        const pr = c.children.find((k) => k.name === 'properties');
        if (pr) col.properties = this.properties(pr, `${path}.colors.properties`);
        (o.colors as unknown[]).push(col);
      } else if (c.name === 'wangtile') {
        const t = typedAttrs(c, ['wangid']);
        t.wangid = (c.attrs.wangid ?? '').split(',').map((s) => Number(s));
        (o.wangtiles as unknown[]).push(t);
      } else setOwn(o, c.name, this.generic(c, `${path}.${c.name}`));
    }
    return o;
  }

  map(el: XmlElement): Record<string, unknown> {
    this.place('$', el);
    const o = typedAttrs(el);
    o.type = 'map';
    o.layers = [];
    o.tilesets = [];
    for (const c of el.children) {
      if (c.name === 'properties') o.properties = this.properties(c, '$.properties');
      else if (c.name === 'tileset') {
        const list = o.tilesets as unknown[];
        list.push(this.tileset(c, `$.tilesets[${list.length}]`, false));
      } else if (isLayerName(c.name)) {
        const list = o.layers as unknown[];
        list.push(this.layer(c, `$.layers[${list.length}]`, 0));
      } else if (c.name === 'editorsettings') o.editorsettings = this.generic(c, '$.editorsettings');
      else {
        this.unknown(c, 'map');
        setOwn(o, c.name, this.generic(c, `$.${c.name}`));
      }
    }
    return o;
  }
}

const isLayerName = (n: string) => n === 'layer' || n === 'objectgroup' || n === 'imagelayer' || n === 'group';

/**
 * A JsonReader over a document read from XML: paths are those of the JSON
 * shape; errors are placed at the line and column of the XML element the
 * path (or its nearest enclosing value) came from.
 */
export class XmlReader extends JsonReader {
  /** Where each line of the text starts: all that placing an element needs (the text itself is not kept). */
  private readonly lineStarts: number[];

  constructor(
    format: string,
    /** The text, or where its lines start. */
    source: string | number[],
    private readonly placesOf: Places,
    root = '$',
  ) {
    super(format, root);
    if (typeof source !== 'string') {
      this.lineStarts = source;
      return;
    }
    const starts = [0];
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
  }

  /** 1-based line and column of an offset in the text. */
  lineColumnAt(at: number): { line: number; column: number } {
    return this.lineColumnOf(at);
  }

  /** 1-based line and column of an offset in the text, as lineColumn gives them. */
  private lineColumnOf(at: number): { line: number; column: number } {
    const s = this.lineStarts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - s[lo]! + 1 };
  }

  override at(path: string): ErrorLocation {
    if (!path.startsWith(this.root)) return {};
    let p = '$' + path.slice(this.root.length);
    for (;;) {
      const at = this.placesOf.get(p);
      if (at !== undefined) return this.lineColumnOf(at);
      const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
      if (cut <= 0) return {};
      p = p.slice(0, cut);
    }
  }

  /** Where each value read from the XML was (its element), keyed by JSON pointer. */
  linePositions(): Record<string, { line: number; column: number }> {
    const out: Record<string, { line: number; column: number }> = {};
    const sorted = [...this.placesOf].sort((a, b) => a[1] - b[1]);
    for (const [p, at] of sorted) out[pathToPointer(p)] = this.lineColumnOf(at);
    return out;
  }

  override remember<T extends object>(doc: T): T {
    Object.defineProperty(doc, 'jsonSource', { value: this, enumerable: false, writable: true, configurable: true });
    return doc;
  }
}

/** True when the text starts (after a BOM and spaces) with '<': XML, to be read (and its errors told) as XML. */
export function looksLikeXml(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13)) i++;
  return bytes[i] === 0x3c;
}

/** The root element of XML bytes (`map`, `tileset` or `template`), or undefined when they are not XML with such a root. */
export function xmlRootName(bytes: Uint8Array): string | undefined {
  const head = decodeText(bytes.subarray(0, 4096));
  let i = 0;
  for (;;) {
    while (i < head.length && /\s/.test(head[i]!)) i++;
    if (head.startsWith('<?', i)) {
      const e = head.indexOf('?>', i);
      if (e < 0) return undefined;
      i = e + 2;
    } else if (head.startsWith('<!--', i)) {
      const e = head.indexOf('-->', i);
      if (e < 0) return undefined;
      i = e + 3;
    } else if (head.startsWith('<!DOCTYPE', i)) {
      // An internal subset [...] may hold '>'.
      const gt = head.indexOf('>', i);
      const br = head.indexOf('[', i);
      const e = br >= 0 && (gt < 0 || br < gt) ? head.indexOf(']', br) : gt;
      if (e < 0) return undefined;
      i = head.indexOf('>', e) + 1;
      if (i === 0) return undefined;
    } else break;
  }
  if (head[i] !== '<') return undefined;
  let j = i + 1;
  while (j < head.length && /[A-Za-z0-9_:-]/.test(head[j]!)) j++;
  const name = head.slice(i + 1, j);
  return name === 'map' || name === 'tileset' || name === 'template' ? name : undefined;
}

/**
 * TMX/TSX/TX bytes to the JSON shape of the same document (a map, a
 * tileset or a template), with a reader that places errors in the XML.
 */
export function readXmlDocument(
  format: string,
  bytes: Uint8Array,
  warn?: (d: Diagnostic) => void,
  root = '$',
): { json: Record<string, unknown>; reader: XmlReader; doctype?: string } {
  // ASCII bytes: csv payloads read straight from them, the rest as text (any error: the whole text read as before, for its place).
  let cut = cutCsvBytes(bytes);
  let text = '';
  let el: XmlElement | undefined;
  if (cut) {
    try {
      el = parseXml(format, cut.text);
      text = cut.text;
      placeCut(el, bytes, cut);
    } catch {
      cut = null;
    }
  }
  if (!cut || !el) {
    text = decodeText(bytes);
    el = parseXml(format, text);
  }
  const lines = cut ? new XmlReader(format, cut.lineStarts, new Map()) : undefined;
  const lineColumnAt = lines ? (at: number) => lines.lineColumnAt(at) : undefined;
  const lc = (at: number): [number, number] => {
    const p = lineColumnAt ? lineColumnAt(at) : lineColumn(text, at);
    return [p.line, p.column];
  };
  const places: Places = new Map();
  const t = new ToJson(format, places, warn, text, lineColumnAt);
  let json: Record<string, unknown>;
  if (el.name === 'map') json = t.map(el);
  else if (el.name === 'tileset') json = t.tileset(el, '$', true);
  else if (el.name === 'template') {
    places.set('$', el.start);
    json = { type: 'template' };
    for (const c of el.children) {
      if (c.name === 'tileset') json.tileset = t.tileset(c, '$.tileset', false);
      else if (c.name === 'object') json.object = t.object(c, '$.object');
      else setOwn(json, c.name, t.generic(c, `$.${c.name}`));
    }
  } else throw FormatError.atLine(format, `expected a <map>, <tileset> or <template> root element, found <${el.name}>`, ...lc(el.start));
  // A simple DOCTYPE before the root (old Tiled wrote one) is kept for writing back.
  const before = text.slice(0, el.start);
  const dt = before.indexOf('<!DOCTYPE');
  const end = dt >= 0 ? before.indexOf('>', dt) : -1;
  const doctype = end > dt && !before.slice(dt, end).includes('[') ? before.slice(dt, end + 1) : undefined;
  return { json, reader: new XmlReader(format, cut ? cut.lineStarts : text, places, root), doctype };
}

// ---------------------------------------------------------------- the JSON shape to XML

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
function escText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attrValue(v: unknown): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return String(v);
  return String(v);
}

/** An XML element under construction. */
class Out {
  lines: string[] = [];
  open(depth: number, name: string, attrs: [string, unknown][], children: ((d: number) => void)[] | string | null) {
    const pad = ' '.repeat(depth);
    const a = attrs
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => ` ${k}="${esc(attrValue(v))}"`)
      .join('');
    if (children === null || (Array.isArray(children) && children.length === 0)) {
      this.lines.push(`${pad}<${name}${a}/>`);
      return;
    }
    if (typeof children === 'string') {
      this.lines.push(`${pad}<${name}${a}>${children}</${name}>`);
      return;
    }
    this.lines.push(`${pad}<${name}${a}>`);
    for (const c of children) c(depth + 1);
    this.lines.push(`${pad}</${name}>`);
  }
}

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON-shape keys each element writes as attributes are all its scalar keys except these. */
const NOT_ATTRS: Record<string, Set<string>> = {
  map: new Set(['type', 'layers', 'tilesets', 'properties', 'editorsettings']),
  tileset: new Set([
    'type',
    'image',
    'imagewidth',
    'imageheight',
    'transparentcolor',
    'tileoffset',
    'grid',
    'properties',
    'tiles',
    'wangsets',
    'transformations',
    'terrains',
  ]),
  layer: new Set([
    'type',
    'data',
    'chunks',
    'encoding',
    'compression',
    'properties',
    'layers',
    'objects',
    'image',
    'imagewidth',
    'imageheight',
    'transparentcolor',
    'startx',
    'starty',
  ]),
  object: new Set(['properties', 'ellipse', 'point', 'polygon', 'polyline', 'text']),
  tile: new Set(['image', 'imagewidth', 'imageheight', 'transparentcolor', 'properties', 'animation', 'objectgroup']),
};

/** Scalar keys in order, less the ones the element writes otherwise; image* keys (imageformat...) go to <image>. */
function scalarAttrs(o: J, skip: Set<string>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const k of Object.keys(o)) {
    if (skip.has(k)) continue;
    const v = o[k];
    if (v === undefined || v === null || typeof v === 'object') continue;
    if (/^image(?!width$|height$)./.test(k)) continue;
    out.push([k, v]);
  }
  return out;
}

function writeGenericChildren(o: J, skip: Set<string>, out: Out): ((d: number) => void)[] {
  const fns: ((d: number) => void)[] = [];
  for (const k of Object.keys(o)) {
    if (skip.has(k)) continue;
    const v = o[k];
    if (isObj(v)) fns.push((d) => writeGeneric(k, v, out, d));
    else if (Array.isArray(v) && v.every(isObj)) for (const item of v) fns.push((d) => writeGeneric(k, item as J, out, d));
  }
  return fns;
}

function writeGeneric(name: string, o: J, out: Out, depth: number) {
  const attrs = scalarAttrs(o, new Set(['text']));
  const kids = writeGenericChildren(o, new Set(), out);
  if (typeof o.text === 'string' && !kids.length) out.open(depth, name, attrs, escText(o.text));
  else out.open(depth, name, attrs, kids);
}

function propertyValueXml(p: J, out: Out, depth: number, name: string, nameAttr: string | undefined) {
  const type = typeof p.type === 'string' ? p.type : 'string';
  const attrs: [string, unknown][] = [];
  if (nameAttr !== undefined) attrs.push(['name', nameAttr]);
  if (type !== 'string') attrs.push(['type', type]);
  if (typeof p.propertytype === 'string') attrs.push(['propertytype', p.propertytype]);
  if (type === 'class') {
    const members = isObj(p.value) ? p.value : {};
    const keys = Object.keys(members);
    if (!keys.length) return out.open(depth, name, attrs, null);
    return out.open(depth, name, attrs, [
      (d) =>
        out.open(
          d,
          'properties',
          [],
          keys.map((k) => (dd: number) => propertyValueXml(memberProp(members[k]), out, dd, 'property', k)),
        ),
    ]);
  }
  if (type === 'list') {
    const items = Array.isArray(p.value) ? p.value : [];
    return out.open(
      depth,
      name,
      attrs,
      items.map((it) => (d: number) => propertyValueXml(isObj(it) ? it : memberProp(it), out, d, 'item', undefined)),
    );
  }
  const s = typeof p.value === 'string' ? p.value : typeof p.value === 'boolean' ? String(p.value) : String(p.value ?? '');
  if (s.includes('\n')) return out.open(depth, name, attrs, escText(s));
  attrs.push(['value', s]);
  out.open(depth, name, attrs, null);
}

/** A class member's value (JSON keeps only values) as a typed property. */
function memberProp(v: unknown): J {
  if (typeof v === 'boolean') return { type: 'bool', value: v };
  if (typeof v === 'number') return { type: Number.isInteger(v) ? 'int' : 'float', value: v };
  if (isObj(v)) return { type: 'class', value: v };
  return { type: 'string', value: v };
}

function propertiesXml(props: unknown, out: Out): ((d: number) => void)[] {
  if (!Array.isArray(props) || !props.length) return [];
  return [
    (d) =>
      out.open(
        d,
        'properties',
        [],
        props.filter(isObj).map((p) => (dd: number) => propertyValueXml(p, out, dd, 'property', String(p.name ?? ''))),
      ),
  ];
}

function imageXml(o: J, out: Out): ((d: number) => void)[] {
  if (typeof o.image !== 'string') return [];
  const attrs: [string, unknown][] = [];
  for (const k of Object.keys(o)) if (/^image(?!width$|height$)./.test(k)) attrs.push([k.slice(5), o[k]]);
  attrs.push(['source', o.image]);
  if (typeof o.transparentcolor === 'string') attrs.push(['trans', o.transparentcolor.replace(/^#/, '')]);
  if (o.imagewidth !== undefined) attrs.push(['width', o.imagewidth]);
  if (o.imageheight !== undefined) attrs.push(['height', o.imageheight]);
  // Read from XML: the attributes in the order read.
  const order = (o as Record<symbol, unknown>)[IMAGE_ORDER] as string[] | undefined;
  if (order) attrs.sort((a, b) => rank(order, a[0]) - rank(order, b[0]));
  return [(d) => out.open(d, 'image', attrs, null)];
}

/** Layer data as Tiled writes it: base64 on its own line indented one more than <data>, csv rows unindented. */
function gidText(data: unknown, width: number, encoding: string | undefined, depth: number): string {
  const pad = ' '.repeat(depth + 1);
  if (typeof data === 'string') return `\n${pad}${data}\n`;
  const arr = Array.isArray(data) || data instanceof Uint32Array ? (data as number[]) : [];
  if (encoding === 'base64') return `\n${pad}${base64OfGids(arr)}\n`;
  const rows: string[] = [];
  const w = Math.max(1, width);
  for (let i = 0; i < arr.length; i += w) rows.push(arr.slice(i, i + w).join(','));
  return `\n${rows.join(',\n')}\n`;
}

/** Tiled indents the closing tag after base64 text, not after csv rows. */
function closing(text: string, encoding: string, depth: number): string {
  return encoding === 'base64' ? text.replace(/\n$/, `\n${' '.repeat(depth)}`) : text;
}

function base64OfGids(arr: ArrayLike<number>): string {
  const bytes = new Uint8Array(arr.length * 4);
  const dv = new DataView(bytes.buffer);
  for (let i = 0; i < arr.length; i++) dv.setUint32(i * 4, arr[i]! >>> 0, true);
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}

function layerXml(l: J, out: Out, depth: number): void {
  const type = l.type;
  const name = type === 'tilelayer' ? 'layer' : String(type);
  const attrs = scalarAttrs(l, NOT_ATTRS.layer!);
  const kids: ((d: number) => void)[] = [];
  for (const f of propertiesXml(l.properties, out)) kids.push(f);
  if (type === 'tilelayer') {
    const enc = typeof l.encoding === 'string' && l.encoding !== 'csv' ? l.encoding : 'csv';
    const dataAttrs: [string, unknown][] = [['encoding', enc]];
    if (typeof l.compression === 'string' && l.compression !== '') dataAttrs.push(['compression', l.compression]);
    if (Array.isArray(l.chunks)) {
      const chunks = l.chunks.filter(isObj);
      kids.push((d) =>
        out.open(
          d,
          'data',
          dataAttrs,
          chunks.map((c) => (dd: number) => {
            const ca = scalarAttrs(c, new Set(['data']));
            out.open(dd, 'chunk', ca, closing(escText(gidText(c.data, Number(c.width) || 1, enc, dd - 1)), enc, dd - 1));
          }),
        ),
      );
    } else {
      kids.push((d) => out.open(d, 'data', dataAttrs, closing(escText(gidText(l.data, Number(l.width) || 1, enc, d)), enc, d)));
    }
  } else if (type === 'objectgroup') {
    for (const ob of Array.isArray(l.objects) ? l.objects.filter(isObj) : []) kids.push((d) => objectXml(ob, out, d));
  } else if (type === 'imagelayer') {
    const img = imageXml(l, out)[0];
    if (img) kids.unshift(img);
  } else if (type === 'group') {
    for (const c of Array.isArray(l.layers) ? l.layers.filter(isObj) : []) kids.push((d) => layerXml(c, out, d));
  }
  for (const f of writeGenericChildren(l, new Set([...NOT_ATTRS.layer!, 'properties']), out)) kids.push(f);
  out.open(depth, name, attrs, kids);
}

function objectXml(o: J, out: Out, depth: number): void {
  const attrs = scalarAttrs(o, NOT_ATTRS.object!);
  const kids: ((d: number) => void)[] = [];
  for (const f of propertiesXml(o.properties, out)) kids.push(f);
  if (o.ellipse === true) kids.push((d) => out.open(d, 'ellipse', [], null));
  if (o.point === true) kids.push((d) => out.open(d, 'point', [], null));
  for (const k of ['polygon', 'polyline'] as const) {
    const pts = o[k];
    if (Array.isArray(pts)) {
      const s = pts
        .filter(isObj)
        .map((p) => `${p.x},${p.y}`)
        .join(' ');
      kids.push((d) => out.open(d, k, [['points', s]], null));
    }
  }
  if (isObj(o.text)) {
    const t = o.text;
    kids.push((d) => out.open(d, 'text', scalarAttrs(t, new Set(['text'])), escText(String(t.text ?? ''))));
  }
  for (const f of writeGenericChildren(o, new Set([...NOT_ATTRS.object!]), out)) kids.push(f);
  out.open(depth, 'object', attrs, kids);
}

function tilesetXml(t: J, out: Out, depth: number, root: boolean): void {
  const skip = new Set(NOT_ATTRS.tileset!);
  if (root) skip.add('firstgid');
  const attrs = scalarAttrs(t, skip);
  const kids: ((d: number) => void)[] = [];
  if (isObj(t.tileoffset)) {
    const o = t.tileoffset;
    kids.push((d) => out.open(d, 'tileoffset', scalarAttrs(o, new Set()), null));
  }
  if (isObj(t.grid)) {
    const o = t.grid;
    kids.push((d) => out.open(d, 'grid', scalarAttrs(o, new Set()), null));
  }
  for (const f of propertiesXml(t.properties, out)) kids.push(f);
  for (const f of imageXml(t, out)) kids.push(f);
  if (isObj(t.transformations)) {
    const o = t.transformations;
    kids.push((d) => out.open(d, 'transformations', scalarAttrs(o, new Set()), null));
  }
  for (const tile of Array.isArray(t.tiles) ? t.tiles.filter(isObj) : []) {
    kids.push((d) => {
      const tk: ((d: number) => void)[] = [];
      for (const f of propertiesXml(tile.properties, out)) tk.push(f);
      for (const f of imageXml(tile, out)) tk.push(f);
      if (isObj(tile.objectgroup)) {
        const og = tile.objectgroup;
        tk.push((dd) => layerXml({ ...og, type: 'objectgroup' }, out, dd));
      }
      if (Array.isArray(tile.animation)) {
        const frames = tile.animation.filter(isObj);
        tk.push((dd) =>
          out.open(
            dd,
            'animation',
            [],
            frames.map((f) => (d3: number) => out.open(d3, 'frame', scalarAttrs(f, new Set()), null)),
          ),
        );
      }
      for (const f of writeGenericChildren(tile, new Set(NOT_ATTRS.tile!), out)) tk.push(f);
      out.open(d, 'tile', scalarAttrs(tile, NOT_ATTRS.tile!), tk);
    });
  }
  if (Array.isArray(t.wangsets) && t.wangsets.length) {
    const sets = t.wangsets.filter(isObj);
    kids.push((d) =>
      out.open(
        d,
        'wangsets',
        [],
        sets.map((w) => (dd: number) => {
          const wk: ((d: number) => void)[] = [...propertiesXml(w.properties, out)];
          for (const c of Array.isArray(w.colors) ? w.colors.filter(isObj) : [])
            wk.push((d3) => out.open(d3, 'wangcolor', scalarAttrs(c, new Set(['properties'])), propertiesXml(c.properties, out)));
          for (const c of Array.isArray(w.wangtiles) ? w.wangtiles.filter(isObj) : [])
            wk.push((d3) =>
              out.open(
                d3,
                'wangtile',
                [...scalarAttrs(c, new Set(['wangid'])), ['wangid', Array.isArray(c.wangid) ? c.wangid.join(',') : c.wangid]],
                null,
              ),
            );
          out.open(dd, 'wangset', scalarAttrs(w, new Set(['properties', 'colors', 'wangtiles'])), wk);
        }),
      ),
    );
  }
  for (const f of writeGenericChildren(t, new Set([...NOT_ATTRS.tileset!, 'wangsets', 'tiles']), out)) kids.push(f);
  out.open(depth, 'tileset', attrs, kids);
}

/** The JSON shape of a map, a tileset or a template as TMX/TSX/TX text (Tiled's layout: one-space indentation, csv rows). */
export function xmlText(json: J, doctype?: string): string {
  const out = new Out();
  out.lines.push('<?xml version="1.0" encoding="UTF-8"?>');
  if (doctype) out.lines.push(doctype);
  if (json.type === 'tileset') tilesetXml(json, out, 0, true);
  else if (json.type === 'template') {
    const kids: ((d: number) => void)[] = [];
    if (isObj(json.tileset)) {
      const t = json.tileset;
      kids.push((d) => tilesetXml(t, out, d, false));
    }
    if (isObj(json.object)) {
      const o = json.object;
      kids.push((d) => objectXml(o, out, d));
    }
    out.open(0, 'template', [], kids);
  } else {
    const attrs = scalarAttrs(json, NOT_ATTRS.map!);
    const kids: ((d: number) => void)[] = [];
    if (isObj(json.editorsettings)) {
      const e = json.editorsettings;
      kids.push((d) => writeGeneric('editorsettings', e, out, d));
    }
    for (const f of propertiesXml(json.properties, out)) kids.push(f);
    for (const t of Array.isArray(json.tilesets) ? json.tilesets.filter(isObj) : []) kids.push((d) => tilesetXml(t, out, d, false));
    for (const l of Array.isArray(json.layers) ? json.layers.filter(isObj) : []) kids.push((d) => layerXml(l, out, d));
    for (const f of writeGenericChildren(json, new Set([...NOT_ATTRS.map!]), out)) kids.push(f);
    out.open(0, 'map', attrs, kids);
  }
  return out.lines.join('\n') + '\n';
}
