/**
 * A reader for the YAML subset that docs/kaitai/*.ksy use, so the Kaitai
 * test needs no YAML package: block mappings (`key: value`, `key:` then a
 * deeper block), block sequences (`- scalar`, `- key: value ...`), literal
 * block scalars (`key: |`), whole-line comments, and plain, 'single' and
 * "double" quoted scalars (no escapes beyond '' in single quotes). Plain
 * scalars that look like integers (decimal or 0x hex) become numbers and
 * true/false booleans, as YAML's core schema reads them; keys stay strings,
 * hex keys written in decimal (as a YAML parser plus JavaScript would give
 * them). Anything else (flow collections, anchors, multi-documents) throws.
 */

interface Line {
  indent: number;
  text: string;
  no: number;
}

function scalar(raw: string, no: number): string | number | boolean {
  const s = raw.trim();
  if (s.startsWith("'")) {
    if (!s.endsWith("'") || s.length < 2) throw new Error(`line ${no}: unterminated quote`);
    return s.slice(1, -1).replaceAll("''", "'");
  }
  if (s.startsWith('"')) {
    if (!s.endsWith('"') || s.length < 2 || s.slice(1, -1).includes('\\')) {
      throw new Error(`line ${no}: unsupported double-quoted scalar`);
    }
    return s.slice(1, -1);
  }
  if (/^[[{&*!|>]/.test(s)) throw new Error(`line ${no}: unsupported YAML: ${s}`);
  if (/^-?\d+$/.test(s)) return Number.parseInt(s, 10);
  if (/^0x[0-9a-f]+$/i.test(s)) return Number.parseInt(s, 16);
  if (s === 'true' || s === 'false') return s === 'true';
  return s;
}

function key(raw: string, no: number): string {
  const k = scalar(raw, no);
  return String(k);
}

/** Splits `key: rest` at the first ": " (or a trailing ":") outside quotes. */
function splitKey(text: string): [string, string] | null {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ':' && (i + 1 === text.length || text[i + 1] === ' ')) return [text.slice(0, i), text.slice(i + 1).trim()];
  }
  return null;
}

export function parseKsyYaml(source: string): unknown {
  const raw = source.split('\n');
  const lines: Line[] = raw.map((l, i) => ({ indent: l.length - l.trimStart().length, text: l.trim(), no: i + 1 }));
  let i = 0;

  const skipBlank = () => {
    while (i < lines.length && (lines[i]!.text === '' || lines[i]!.text.startsWith('#'))) i++;
  };

  /** A literal block scalar: the lines deeper than `parentIndent`, less their common indent. */
  const blockScalar = (parentIndent: number): string => {
    const body: string[] = [];
    while (i < lines.length && (lines[i]!.text === '' || lines[i]!.indent > parentIndent)) body.push(raw[i++]!);
    while (body.length > 0 && body[body.length - 1]!.trim() === '') body.pop();
    const cut = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
    return `${body.map((l) => l.slice(cut)).join('\n')}\n`;
  };

  /** The value after `key:` (inline, block scalar or a deeper block). */
  const afterKey = (rest: string, indent: number, no: number): unknown => {
    if (rest === '|') return blockScalar(indent);
    if (rest !== '') return scalar(rest, no);
    skipBlank();
    const next = lines[i];
    if (next && (next.indent > indent || (next.indent === indent && next.text.startsWith('- ')))) return block(next.indent);
    return null;
  };

  const mapping = (indent: number, first?: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    let text = first;
    for (;;) {
      let no: number;
      if (text === undefined) {
        skipBlank();
        const l = lines[i];
        if (!l || l.indent !== indent || l.text.startsWith('- ')) break;
        text = l.text;
        no = l.no;
        i++;
      } else no = lines[i - 1]!.no;
      const kv = splitKey(text);
      if (!kv) throw new Error(`line ${no}: expected "key: value"`);
      out[key(kv[0], no)] = afterKey(kv[1], indent, no);
      text = undefined;
      skipBlank();
      const l = lines[i];
      if (l && l.indent > indent) throw new Error(`line ${l.no}: unexpected indentation`);
    }
    return out;
  };

  const sequence = (indent: number): unknown[] => {
    const out: unknown[] = [];
    for (;;) {
      skipBlank();
      const l = lines[i];
      if (!l || l.indent !== indent || !l.text.startsWith('- ')) break;
      i++;
      const item = l.text.slice(2).trim();
      // `- key: value` opens a mapping whose keys sit two columns right of the dash.
      if (splitKey(item) && !/^['"]/.test(item)) out.push(mapping(indent + 2, item));
      else out.push(scalar(item, l.no));
    }
    return out;
  };

  const block = (indent: number): unknown => (lines[i]!.text.startsWith('- ') ? sequence(indent) : mapping(indent));

  skipBlank();
  const doc = block(0);
  skipBlank();
  if (i < lines.length) throw new Error(`line ${lines[i]!.no}: unexpected content`);
  return doc;
}
