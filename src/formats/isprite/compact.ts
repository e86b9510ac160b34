/**
 * The compact form of the frames the reader makes (src/formats/isprite/read.ts).
 *
 * A big sprite is mostly elements (a 21 MB file holds a million), and a
 * million JavaScript objects cost 5-10 times the bytes they were read from.
 * So the reader keeps the element records as they are in the file (the
 * bytes of its FRAM chunk, an `IspriteElementStore`); a frame is where its
 * first element record starts and how many there are (a `StoredFrame`: the
 * records of a frame follow each other, each one's size in its header).
 * Each record was checked when it was read (`scanElements`), so it is made
 * into an element object (`decodeElement`) whenever one is asked for,
 * without a check.
 *
 * The model does not change for its users: `frame.elements` is an own,
 * enumerable property of every StoredFrame (so equality, spreading, JSON and
 * structured cloning see it as before) whose getter makes the frame's
 * elements once, on first use, and keeps them: from then on the frame holds
 * that plain array, which can be changed and assigned like any other
 * (`frame.elements = [...]` too). Code of the library that only reads
 * elements uses `elementsOf`, `elementCount` and `elementAt` below, which
 * leave a compact frame compact (the writer, `inspect --json`, validation,
 * rendering, conversion), so that reading, printing or converting a big
 * file never holds its million element objects at once.
 */
import type { IspriteElement, IspriteFrame } from './model.js';
import { ELEMENT, decodeElement } from './records.js';

const EL_SIZE = ELEMENT.at.size;

/** Element records as read: the bytes they are in. */
export class IspriteElementStore {
  readonly view: DataView;

  /** `bytes`: a copy of the bytes the records are in (a file's FRAM chunk), or bytes their owner never changes. */
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The element whose record starts at `q`, made anew. */
  element(q: number): IspriteElement {
    return decodeElement(this.bytes, this.view, q);
  }

  /** Where the record after the one at `q` starts. */
  next(q: number): number {
    return q + ELEMENT.size + this.bytes[q + EL_SIZE]!;
  }
}

/** A frame's compact elements: `count` records of `store`, the first at `at`. */
export interface CompactElements {
  store: IspriteElementStore;
  at: number;
  count: number;
}

let ELEMENTS: PropertyDescriptor;
let compactOf: (fr: StoredFrame) => CompactElements | null;

/** A frame as the reader makes it: its elements stay in the store until they are asked for. */
export class StoredFrame implements IspriteFrame {
  holdTime: number;
  loopPoint: boolean;
  label: string;
  triggers: string;
  notes: string;
  declare elements: IspriteElement[];
  #store: IspriteElementStore | null;
  #at: number;
  #count: number;
  #list: IspriteElement[] | null = null;

  constructor(
    holdTime: number,
    loopPoint: boolean,
    label: string,
    triggers: string,
    notes: string,
    store: IspriteElementStore,
    at: number,
    count: number,
  ) {
    this.holdTime = holdTime;
    this.loopPoint = loopPoint;
    this.label = label;
    this.triggers = triggers;
    this.notes = notes;
    this.#store = store;
    this.#at = at;
    this.#count = count;
    Object.defineProperty(this, 'elements', ELEMENTS);
  }

  static {
    ELEMENTS = {
      get(this: StoredFrame): IspriteElement[] {
        let list = this.#list;
        if (list === null) {
          list = decodeRange(this.#store!, this.#at, this.#count);
          this.#list = list;
          this.#store = null;
        }
        return list;
      },
      set(this: StoredFrame, v: IspriteElement[]) {
        this.#list = v;
        this.#store = null;
      },
      enumerable: true,
      configurable: true,
    };
    compactOf = (fr) => (fr.#store === null ? null : { store: fr.#store, at: fr.#at, count: fr.#count });
  }
}

function decodeRange(store: IspriteElementStore, at: number, count: number): IspriteElement[] {
  const out: IspriteElement[] = new Array(count);
  for (let i = 0, q = at; i < count; i++, q = store.next(q)) out[i] = store.element(q);
  return out;
}

/**
 * The compact elements of a frame the reader made, while its `elements`
 * has not been asked for (null otherwise: read `frame.elements` then).
 */
export function compactElements(fr: IspriteFrame): CompactElements | null {
  return fr instanceof StoredFrame ? compactOf(fr) : null;
}

/** How many elements a frame has (a compact frame stays compact). */
export function elementCount(fr: IspriteFrame): number {
  const c = compactElements(fr);
  return c ? c.count : fr.elements.length;
}

/**
 * Element `j` of a frame (0 <= j < elementCount(fr)); of a compact frame,
 * made anew and not kept (found from the frame's first record: to go
 * through them all, elementsOf is quicker).
 */
export function elementAt(fr: IspriteFrame, j: number): IspriteElement | undefined {
  const c = compactElements(fr);
  if (!c) return fr.elements[j];
  if (!(j >= 0 && j < c.count)) return undefined;
  let q = c.at;
  for (let i = 0; i < j; i++) q = c.store.next(q);
  return c.store.element(q);
}

/**
 * A frame's elements for reading: `frame.elements` when the frame holds
 * them, else made anew from the store and not kept (the frame stays
 * compact). Not to be changed: a change may be lost.
 */
export function elementsOf(fr: IspriteFrame): readonly IspriteElement[] {
  const c = compactElements(fr);
  return c ? decodeRange(c.store, c.at, c.count) : fr.elements;
}
