/**
 * Numbers held in a typed array, shown in a JSON document as a plain array
 * without copying them: the view shares the typed array's memory, and its
 * `toJSON` gives `JSON.stringify` the plain array it expects. sprat's own
 * JSON writer (src/binary/json-chunks.ts) reads the numbers straight from the view, so
 * `inspect --json` of a level of millions of cells costs no array of
 * millions of JavaScript values.
 */
export type JsonNumbers = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

const viewClasses = new Map<unknown, new (buffer: ArrayBufferLike, byteOffset: number, length: number) => JsonNumbers>();

function viewClassOf(a: JsonNumbers): new (buffer: ArrayBufferLike, byteOffset: number, length: number) => JsonNumbers {
  const base = a.constructor as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => JsonNumbers;
  let c = viewClasses.get(base);
  if (!c) {
    // A subclass per element type: the same numbers, plus toJSON.
    c = class extends (base as unknown as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => Int32Array) {
      toJSON(): number[] {
        return Array.from(this);
      }
    } as unknown as new (
      buffer: ArrayBufferLike,
      byteOffset: number,
      length: number,
    ) => JsonNumbers;
    viewClasses.set(base, c);
  }
  return c;
}

/** `a`'s numbers as a JSON array (a view of the same memory, not a copy). */
export function jsonNumbers(a: JsonNumbers): JsonNumbers {
  const C = viewClassOf(a);
  return new C(a.buffer, a.byteOffset, a.length);
}

/**
 * A list shown in a JSON document as a plain array whose items are made one
 * at a time when written: sprat's JSON writer asks for each item as it
 * writes it (a document of millions of records never holds their JSON
 * objects all at once); `toJSON` gives JSON.stringify the whole array.
 */
export class JsonList<T = unknown> {
  constructor(
    readonly length: number,
    private readonly item: (i: number) => T,
  ) {}

  /** Item `i` (0 <= i < length), made anew. */
  at(i: number): T {
    return this.item(i);
  }

  toJSON(): T[] {
    return Array.from({ length: this.length }, (_, i) => this.item(i));
  }
}

/** The items of `source` as a JsonList, each made by `map` when it is written. */
export function jsonMap<S, T>(source: readonly S[], map: (s: S, i: number) => T): JsonList<T> {
  return new JsonList(source.length, (i) => map(source[i]!, i));
}

/**
 * A JsonList whose JSON text its maker can also write itself, a piece at a
 * time: for a big part of a document that would otherwise be millions of
 * small objects made only to be written (an ISPRITE file's elements).
 * sprat's JSON writer writes the pieces `text(depth, pad)` gives as they
 * are: they must be exactly what it would write for the items at that depth
 * (`depth` is the list's own, `pad(n)` the indentation of a line at depth n;
 * the text starts with `[` and ends with `]`). The items are still there for
 * everything else (`at`, `toJSON`, plainJson).
 */
export class JsonText<T = unknown> extends JsonList<T> {
  constructor(
    length: number,
    item: (i: number) => T,
    readonly text: (depth: number, pad: (n: number) => string) => Iterable<string>,
  ) {
    super(length, item);
  }
}

/** Whether `v` is a view made by jsonNumbers. */
export function isJsonNumbers(v: unknown): v is JsonNumbers {
  return ArrayBuffer.isView(v) && viewClasses.get(Object.getPrototypeOf(Object.getPrototypeOf(v)).constructor) === v.constructor;
}

/**
 * `doc` with each jsonNumbers view in it replaced by a plain array, in place
 * (an `inspectJson` document is its caller's own), for code that walks
 * documents as JSON.parse would give them (the diff). Iterative: a document
 * nested deeper than the call stack is fine.
 */
export function plainJson<T>(doc: T): T {
  if (isJsonNumbers(doc) || doc instanceof JsonList) return (doc as { toJSON(): unknown }).toJSON() as T;
  const todo: object[] = [];
  const seen = new Set<object>();
  if (doc !== null && typeof doc === 'object') todo.push(doc);
  while (todo.length) {
    const v = todo.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    if (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) continue;
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const x = o[k];
      if (isJsonNumbers(x)) o[k] = Array.from(x);
      else if (x instanceof JsonList) {
        const items = x.toJSON();
        o[k] = items;
        todo.push(items);
      } else if (x !== null && typeof x === 'object') todo.push(x);
    }
  }
  return doc;
}
