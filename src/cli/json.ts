/**
 * JSON.stringify(value, null, indent) without recursion: the same text for
 * any value JSON.stringify accepts, but documents nested far deeper than the
 * call stack (a hostile ISPRITE group tree) still print. Indentation stops
 * growing at MAX_INDENT_DEPTH levels, so that the text of such a tree stays
 * linear in its size (no real document comes near that depth).
 */

export const MAX_INDENT_DEPTH = 100;

interface Frame {
  close: string;
  entries: [key: string | null, value: unknown][];
  i: number;
  depth: number;
  holder: object;
}

function prepare(value: unknown, key: string): unknown {
  if (value !== null && typeof value === 'object') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (k: string) => unknown).call(value, key);
  } else if (typeof value === 'bigint') {
    const toJSON = (BigInt.prototype as unknown as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (k: string) => unknown).call(value, key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  return value;
}

/** The text of a non-object value, or undefined for what JSON leaves out. */
function primitive(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      return value === null ? 'null' : undefined;
    default:
      return undefined;
  }
}

export function stringifyJson(value: unknown, indent = 2): string | undefined {
  const pad = (n: number) => ' '.repeat(Math.min(n, MAX_INDENT_DEPTH) * indent);
  const out: string[] = [];
  const stack: Frame[] = [];
  const active = new Set<object>();

  /** Writes a prepared value, or opens a frame for a non-empty container. */
  const emit = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object') {
      out.push(primitive(v) ?? 'null');
      return;
    }
    if (active.has(v)) throw new TypeError('Converting circular structure to JSON');
    let entries: [string | null, unknown][];
    let open: string;
    let close: string;
    if (Array.isArray(v)) {
      [open, close] = ['[', ']'];
      entries = [];
      for (let k = 0; k < v.length; k++) {
        const item = prepare(v[k], String(k));
        entries.push([null, typeof item === 'object' || primitive(item) !== undefined ? item : null]);
      }
    } else {
      [open, close] = ['{', '}'];
      entries = [];
      for (const k of Object.keys(v)) {
        const item = prepare((v as Record<string, unknown>)[k], k);
        if ((item !== null && typeof item === 'object') || primitive(item) !== undefined) entries.push([k, item]);
      }
    }
    if (entries.length === 0) {
      out.push(open + close);
      return;
    }
    out.push(open);
    active.add(v);
    stack.push({ close, entries, i: 0, depth, holder: v });
  };

  const top = prepare(value, '');
  if (top === undefined || typeof top === 'function' || typeof top === 'symbol') return undefined;
  emit(top, 0);
  while (stack.length) {
    const f = stack[stack.length - 1]!;
    if (f.i < f.entries.length) {
      const [k, v] = f.entries[f.i++]!;
      out.push((f.i > 1 ? ',\n' : '\n') + pad(f.depth + 1) + (k === null ? '' : JSON.stringify(k) + ': '));
      emit(v, f.depth + 1);
    } else {
      out.push('\n' + pad(f.depth) + f.close);
      active.delete(f.holder);
      stack.pop();
    }
  }
  return out.join('');
}
