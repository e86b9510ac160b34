/**
 * The ISPRITE player: the runtime object for one sprite instance, following
 * the spec's "Playback rules" (docs/spec/isprite.md) and the
 * document's Animation section.
 *
 * `prepareSprite(doc)` indexes a document once into typed arrays; any number
 * of `Player`s share it. The prepared form is a snapshot: prepare again after
 * editing the document. Stepping a player allocates nothing (triggers are
 * collected into a reused list, or passed to a callback).
 */
import type { IspriteDocument, IspriteElement, IspriteFrame, IspriteSequence } from './model.js';
import { interpolateFrames } from './interpolate.js';
import { MASTER_RATE, foldName, getDefaultSequence, pathSegments, sequenceFrameRates, walkTree } from './paths.js';

/** The document indexed for playback. Sequence and group numbers are depth-first file order; group 0 is Root. */
export class PreparedSprite {
  readonly doc: IspriteDocument;
  readonly sequences: IspriteSequence[] = [];
  /** `Root/…/name` per sequence. */
  readonly sequencePaths: string[] = [];
  readonly sequenceGroup: Int32Array;
  /** Index of each sequence's first entry in `frameSlots` / `frameIds`. */
  readonly seqStart: Int32Array;
  readonly seqCount: Int32Array;
  /** Position to loop back to, or -1 to stop (loop point null, not a whole number, or ≥ the frame count). */
  readonly seqLoop: Int32Array;
  /** 1 when the sequence has a non-empty follow-up. */
  readonly seqHasFollowUp: Uint8Array;
  /** Follow-up names, folded (A-Z lower-cased). */
  readonly seqFollowUp: string[];
  /** Effective frame rate (override, else the master rate); 0 = stepped by hand. */
  readonly seqRate: Float64Array;
  /** Steps of one pass from the loop point to the end (for catching up); 0 when the sequence does not loop. */
  readonly seqLoopPeriod: Float64Array;
  /** 1 when a frame between the loop point and the end has triggers. */
  readonly seqLoopTriggers: Uint8Array;
  /** Per sequence position: the frame slot (the frame ID, or `frameCount` for an ID with no frame). */
  readonly frameSlots: Int32Array;
  /** Per sequence position: the frame ID as stored. */
  readonly frameIds: Float64Array;
  /** Per sequence position: the effective hold time of its frame (the player's hot path reads only these two). */
  readonly posHold: Int32Array;
  /** Per sequence position: 1 when its frame has a non-empty trigger string. */
  readonly posTrigger: Uint8Array;
  /** Number of frames; slot `frameCount` is an empty stand-in for IDs with no frame. */
  readonly frameCount: number;
  /** Effective hold time per slot (0 and bad values count as 1). */
  readonly hold: Int32Array;
  /** 1 when the slot's frame has a non-empty trigger string. */
  readonly hasTrigger: Uint8Array;
  readonly triggers: string[];
  /** Frames by slot (undefined for the stand-in slot). */
  readonly frames: (IspriteFrame | undefined)[];
  readonly groupParent: Int32Array;
  readonly groupPaths: string[] = [];
  /** Per group: folded name → first direct sequence with that name. */
  readonly groupSequences: Map<string, number>[] = [];
  /** Per group: folded name → first direct child group with that name. */
  readonly groupChildren: Map<string, number>[] = [];
  /** The default sequence, or -1. */
  readonly defaultSequence: number;
  readonly masterRate: number;

  constructor(doc: IspriteDocument) {
    this.doc = doc;
    const groupParent: number[] = [];
    const seqGroup: number[] = [];
    groupParent.push(-1);
    this.groupPaths.push('Root');
    this.groupSequences.push(new Map());
    this.groupChildren.push(new Map());
    // Depth first in file order (walkTree keeps an explicit stack: a hostile tree may be very deep).
    walkTree(doc, 0, {
      sequence: (n, group, path) => {
        this.sequences.push(n);
        this.sequencePaths.push(path);
        seqGroup.push(group);
        const f = foldName(n.name);
        const m = this.groupSequences[group]!;
        if (!m.has(f)) m.set(f, this.sequences.length - 1);
      },
      group: (n, parent, path) => {
        const g = groupParent.length;
        groupParent.push(parent);
        this.groupPaths.push(path);
        this.groupSequences.push(new Map());
        this.groupChildren.push(new Map());
        const f = foldName(n.name);
        const m = this.groupChildren[parent]!;
        if (!m.has(f)) m.set(f, g);
        return g;
      },
    });
    this.groupParent = Int32Array.from(groupParent);
    this.sequenceGroup = Int32Array.from(seqGroup);

    const nf = doc.frames.length;
    this.frameCount = nf;
    this.frames = doc.frames.slice();
    this.hold = new Int32Array(nf + 1);
    this.hasTrigger = new Uint8Array(nf + 1);
    this.triggers = new Array<string>(nf + 1).fill('');
    for (let i = 0; i < nf; i++) {
      const f = doc.frames[i]!;
      const h = Math.floor(Number(f.holdTime));
      this.hold[i] = h >= 1 ? Math.min(h, MAX_HOLD) : 1;
      const t = typeof f.triggers === 'string' ? f.triggers : '';
      this.triggers[i] = t;
      this.hasTrigger[i] = t.length > 0 ? 1 : 0;
    }
    this.hold[nf] = 1;

    const ns = this.sequences.length;
    this.seqStart = new Int32Array(ns);
    this.seqCount = new Int32Array(ns);
    this.seqLoop = new Int32Array(ns);
    this.seqHasFollowUp = new Uint8Array(ns);
    this.seqFollowUp = new Array<string>(ns).fill('');
    this.seqRate = new Float64Array(ns);
    this.seqLoopPeriod = new Float64Array(ns);
    this.seqLoopTriggers = new Uint8Array(ns);
    let total = 0;
    for (const s of this.sequences) total += s.frames.length;
    this.frameSlots = new Int32Array(total);
    this.frameIds = new Float64Array(total);
    this.posHold = new Int32Array(total);
    this.posTrigger = new Uint8Array(total);
    const master = Number(doc.frameRate);
    this.masterRate = Number.isFinite(master) && master > 0 ? master : 0;
    const rates = sequenceFrameRates(doc);
    let at = 0;
    for (let i = 0; i < ns; i++) {
      const s = this.sequences[i]!;
      const n = s.frames.length;
      this.seqStart[i] = at;
      this.seqCount[i] = n;
      for (let k = 0; k < n; k++) {
        const id = Number(s.frames[k]);
        this.frameIds[at + k] = id;
        const slot = Number.isInteger(id) && id >= 0 && id < nf ? id : nf;
        this.frameSlots[at + k] = slot;
        this.posHold[at + k] = this.hold[slot]!;
        this.posTrigger[at + k] = this.hasTrigger[slot]!;
      }
      const lp = s.loopPoint;
      this.seqLoop[i] = typeof lp === 'number' && Number.isInteger(lp) && lp >= 0 && lp < n ? lp : -1;
      const fu = typeof s.followUp === 'string' ? s.followUp : '';
      this.seqHasFollowUp[i] = fu.length > 0 ? 1 : 0;
      this.seqFollowUp[i] = foldName(fu);
      const r = rates.get(s);
      this.seqRate[i] = r === undefined || r === MASTER_RATE ? this.masterRate : r;
      if (this.seqLoop[i]! >= 0) {
        let period = 0;
        let trig = 0;
        for (let k = this.seqLoop[i]!; k < n; k++) {
          const slot = this.frameSlots[at + k]!;
          period += this.hold[slot]!;
          trig |= this.hasTrigger[slot]!;
        }
        this.seqLoopPeriod[i] = period;
        this.seqLoopTriggers[i] = trig;
      }
      at += n;
    }
    const d = getDefaultSequence(doc);
    this.defaultSequence = d ? this.sequences.indexOf(d) : -1;
  }

  /** The group a path names (`Root`, `Root/Armed`), or -1. */
  findGroup(path: string): number {
    const segs = pathSegments(path);
    if (!segs) return -1;
    let g = 0;
    for (const s of segs) {
      const c = this.groupChildren[g]!.get(foldName(s));
      if (c === undefined) return -1;
      g = c;
    }
    return g;
  }

  /** The sequence a path names, or -1. */
  findSequencePath(path: string): number {
    const i = path.lastIndexOf('/');
    if (i < 0) return -1;
    const g = this.findGroup(path.slice(0, i));
    if (g < 0) return -1;
    return this.groupSequences[g]!.get(foldName(path.slice(i + 1))) ?? -1;
  }

  /** The first sequence with a folded name among the direct sequences of `group`, then its parents up to Root; -1 if none. */
  find(group: number, folded: string): number {
    const parents = this.groupParent;
    for (let g = group; g >= 0; g = parents[g]!) {
      const s = this.groupSequences[g]!.get(folded);
      if (s !== undefined) return s;
    }
    return -1;
  }

  /** The "Setting Animation" lookup: {@link find}, else the default sequence (-1 if none). */
  lookup(group: number, folded: string): number {
    const s = this.find(group, folded);
    return s >= 0 ? s : this.defaultSequence;
  }

  /** The effective hold of a frame ID (1 for IDs with no frame). */
  holdOf(frameId: number): number {
    return Number.isInteger(frameId) && frameId >= 0 && frameId < this.frameCount ? this.hold[frameId]! : 1;
  }
}

/** Hold times above this are clamped (they stay small integers for the engine). */
export const MAX_HOLD = 0x3ffffffe;
/** The hold limit of a stopped player: `step` then only counts (see Player.step). */
const STOPPED_LIMIT = 0x3fffffff;

/** Indexes a document for playback (share the result between many players). */
export function prepareSprite(doc: IspriteDocument): PreparedSprite {
  return new PreparedSprite(doc);
}

export type TriggerListener = (trigger: string, frameId: number, player: Player) => void;

export interface PlayerOptions {
  /** Called for every activated frame with a non-empty trigger string, in order. */
  onTrigger?: TriggerListener;
  /** Keep triggers for {@link Player.takeTriggers} (default: true when there is no `onTrigger`). */
  collectTriggers?: boolean;
}

/** The most frame moves one `update` call makes; time beyond is dropped (see the docs). */
export const MAX_CATCH_UP_MOVES = 1 << 20;
/** Tolerance (in steps) when turning seconds into whole steps, so that dt = k/rate counts as k steps. */
const STEP_EPSILON = 1e-9;

/**
 * One sprite instance. State: the active group (initially Root), the current
 * sequence (or none), the position in it, how long the current frame has
 * been held, and whether playback has stopped.
 */
export class Player {
  // Hot fields first (one cache line for `step`).
  /** Steps the current frame has been held. */
  private _held = 0;
  /** The current frame's hold time, or STOPPED_LIMIT when stopped: `step` compares `_held` with it and nothing else. */
  private _limit = STOPPED_LIMIT;
  private _stopped = true;
  /** The current position as an index into the prepared per-position arrays (-1 when nothing is shown). */
  private _at = -1;
  /** The end of the current sequence in the per-position arrays. */
  private _end = 0;
  private _seq = -1;
  readonly prepared: PreparedSprite;
  /** The current sequence's effective frame rate (the master rate when there is none). */
  private _rate = 0;
  private _group = 0;
  /** Seconds received by `update` and not yet turned into a step (a double from the start, so its field never changes representation). */
  private _time = 0.5;
  /** Collected triggers (allocated when the first one comes). */
  private _pending: string[] | null = null;
  /** See {@link PlayerOptions.onTrigger}; may be changed at any time. */
  onTrigger: TriggerListener | null;
  /** See {@link PlayerOptions.collectTriggers}; may be changed at any time. */
  collectTriggers: boolean;
  /** Frame moves left in the current `update` call (set by `advance`). */
  private movesLeft = 0;

  constructor(prepared: PreparedSprite | IspriteDocument, options: PlayerOptions = {}) {
    this.prepared = prepared instanceof PreparedSprite ? prepared : new PreparedSprite(prepared);
    this.onTrigger = options.onTrigger ?? null;
    this.collectTriggers = options.collectTriggers ?? !options.onTrigger;
    this._time = 0;
    this._rate = this.prepared.masterRate;
    // "On load the default sequence, if any, is current at position 0 (activated)."
    this.start(this.prepared.defaultSequence);
  }

  // ---- state -------------------------------------------------------------

  /** The current sequence's index in `prepared.sequences`, or -1 for none. */
  get sequenceIndex(): number {
    return this._seq;
  }
  get sequence(): IspriteSequence | null {
    return this._seq >= 0 ? this.prepared.sequences[this._seq]! : null;
  }
  /** The current sequence's path (`Root/Armed/attack`), or null. */
  get sequencePath(): string | null {
    return this._seq >= 0 ? this.prepared.sequencePaths[this._seq]! : null;
  }
  /** Position in the current sequence; null when there is no sequence or it has no frames. */
  get position(): number | null {
    return this._at >= 0 ? this._at - this.prepared.seqStart[this._seq]! : null;
  }
  /** The frame ID shown; null when nothing is shown. */
  get frameId(): number | null {
    return this._at >= 0 ? this.prepared.frameIds[this._at]! : null;
  }
  /** The frame shown; null when nothing is shown or the frame ID names no frame. */
  get frame(): IspriteFrame | null {
    return this._at >= 0 ? (this.prepared.frames[this.prepared.frameSlots[this._at]!] ?? null) : null;
  }
  /** Steps the current frame has been held (0 right after it was activated). */
  get held(): number {
    return this._stopped ? 0 : this._held;
  }
  /**
   * Whether nothing is playing: at the end of a sequence that does not loop,
   * for a sequence with no frames, and when there is no current sequence.
   */
  get stopped(): boolean {
    return this._stopped;
  }
  /** The active group's index (0 = Root). */
  get groupIndex(): number {
    return this._group;
  }
  /** The active group's path (`Root`, `Root/Armed`). */
  get groupPath(): string {
    return this.prepared.groupPaths[this._group]!;
  }
  /** The current sequence's effective frame rate (the master rate when there is none). */
  get frameRate(): number {
    return this._rate;
  }
  /**
   * How far the current frame has played, 0 ≤ p < 1: held steps plus the
   * pending fraction of a step, over the hold time (0 when stopped or none).
   */
  get progress(): number {
    if (this._stopped || this._at < 0) return 0;
    const r = this.frameRate;
    const frac = r > 0 ? Math.min(this._time * r, 1 - 1e-12) : 0;
    const p = (this._held + Math.max(0, frac)) / this._limit;
    return p < 1 ? p : 1 - 1e-12;
  }

  // ---- commands ----------------------------------------------------------

  /**
   * Looks for a sequence named `name` (A-Z case-insensitive) among the direct
   * sequences of the active group, then its parent, up to Root; else the
   * default sequence; else none (nothing shown). If that is the current
   * sequence, nothing changes (even when stopped; use `restart`). Otherwise
   * it becomes current at position 0, unstopped, and frame 0 is activated.
   * Returns true when a sequence of that name was found (not the default).
   */
  setAnimation(name: string): boolean {
    const p = this.prepared;
    const found = p.find(this._group, foldName(String(name)));
    const s = found >= 0 ? found : p.defaultSequence;
    if (s !== this._seq) this.start(s);
    return found >= 0;
  }

  /** Plays a sequence given by path or index (no lookup; the same-sequence rule applies). Returns false for an unknown path. */
  setSequence(seq: string | number): boolean {
    const s = typeof seq === 'number' ? seq : this.prepared.findSequencePath(seq);
    if (!Number.isInteger(s) || s < 0 || s >= this.prepared.sequences.length) return false;
    if (s !== this._seq) this.start(s);
    return true;
  }

  /** Position 0 of the current sequence, unstopped, frame 0 activated. */
  restart(): void {
    this.start(this._seq);
  }

  /**
   * Changes the active group only (the current sequence plays on). Returns
   * false, leaving the active group as it was, when the path names no group.
   */
  setGroup(path: string): boolean {
    const g = this.prepared.findGroup(String(path));
    if (g < 0) return false;
    this._group = g;
    return true;
  }

  /**
   * One playback frame: the current frame's hold count goes up by one; when
   * it reaches the hold time the sprite moves on (next position, else the
   * follow-up, else the loop point, else it stops on the last frame).
   */
  step(): void {
    // A stopped player has the limit STOPPED_LIMIT: it only counts, and moveOn resets the count.
    if (++this._held < this._limit) return;
    this.moveOn();
  }

  /**
   * Turns elapsed seconds into whole steps at the current sequence's
   * effective rate, carrying the remainder and catching up with several
   * steps. Does nothing at rate 0, while stopped, or for seconds ≤ 0 / NaN.
   */
  update(seconds: number): void {
    if (!(seconds > 0) || this._stopped) return;
    let r = this._rate;
    if (r <= 0) return;
    let time = this._time + seconds;
    let n = Math.floor(time * r + STEP_EPSILON);
    if (n <= 0) {
      this._time = time;
      return;
    }
    if (n === 1) {
      // The usual case: one step.
      time -= 1 / r;
      this.step();
      if (this._rate === r || this._stopped || this._rate <= 0) {
        this._time = this._stopped || this._rate <= 0 || time < 0 ? 0 : time;
        return;
      }
      // The step moved to a sequence with another rate: the time left is counted at the new rate.
      if (time < 0) time = 0;
      r = this._rate;
      n = Math.floor(time * r + STEP_EPSILON);
      if (n <= 0) {
        this._time = time;
        return;
      }
    }
    let moves = MAX_CATCH_UP_MOVES;
    for (;;) {
      if (!Number.isFinite(n)) {
        n = Number.MAX_SAFE_INTEGER;
        time = 0;
      } else time -= n / r;
      if (time < 0) time = 0;
      const left = this.advance(n, r, moves);
      moves = this.movesLeft;
      // Done unless the sequence changed to one with another rate (even on the very last step):
      // then the steps left, and the time left over, are counted at the new rate.
      if (this._stopped || moves <= 0 || this._rate === r) break;
      time += left / r;
      r = this._rate;
      if (r <= 0) break;
      n = Math.floor(time * r + STEP_EPSILON);
      if (n <= 0) break;
    }
    this._time = this._stopped || r <= 0 || moves <= 0 ? 0 : time;
  }

  /**
   * Advances up to `n` steps while the current sequence plays at `rate`,
   * moving frame by frame; whole passes of a loop without triggers are
   * skipped. Returns the steps not taken because the rate changed.
   */
  private advance(n: number, rate: number, moves: number): number {
    const p = this.prepared;
    while (n > 0 && !this._stopped && moves > 0) {
      if (this._rate !== rate) break;
      const left = this._limit - this._held;
      if (n < left) {
        this._held += n;
        n = 0;
        break;
      }
      n -= left;
      moves--;
      this.moveOn();
      const s = this._seq;
      // (Only while the rate is the one `n` was counted at.)
      if (
        n > 0 &&
        !this._stopped &&
        this._rate === rate &&
        !p.seqHasFollowUp[s] &&
        p.seqLoop[s]! >= 0 &&
        this._at - p.seqStart[s]! >= p.seqLoop[s]! &&
        !p.seqLoopTriggers[s]
      ) {
        const period = p.seqLoopPeriod[s]!;
        if (n >= period) n = n % period;
      }
    }
    this.movesLeft = moves;
    return this._stopped ? 0 : n;
  }

  /** Drains the triggers collected since the last call, in order. */
  takeTriggers(): string[] {
    const t = this._pending;
    if (t === null || t.length === 0) return [];
    this._pending = null;
    return t;
  }

  /** The number of collected triggers waiting for {@link takeTriggers}. */
  get pendingTriggers(): number {
    return this._pending?.length ?? 0;
  }

  /**
   * The sequence index and position that will follow the current frame when
   * it ends, by the playback rules (without changing anything): `null` when
   * playback will stop or nothing is shown.
   */
  nextFrame(): { sequence: number; position: number } | null {
    if (this._stopped || this._seq < 0) return null;
    const p = this.prepared;
    const s = this._seq;
    const pos = this._at - p.seqStart[s]!;
    if (pos + 1 < p.seqCount[s]!) return { sequence: s, position: pos + 1 };
    if (p.seqHasFollowUp[s]) {
      const t = p.lookup(this._group, p.seqFollowUp[s]!);
      return t >= 0 && p.seqCount[t]! > 0 ? { sequence: t, position: 0 } : null;
    }
    const lp = p.seqLoop[s]!;
    return lp >= 0 ? { sequence: s, position: lp } : null;
  }

  /**
   * Interpolation: the current frame's elements with position, rotation,
   * scale and opacity linearly interpolated at `t` (0 ≤ t < 1; default: how
   * far the current frame has played, see {@link progress}) toward the
   * element of the same name in the frame that will follow, where that name
   * occurs exactly once in both frames (see interpolate.ts). Nothing is
   * interpolated when playback will stop after this frame. Empty when
   * nothing is shown.
   */
  sample(t: number = this.progress): IspriteElement[] {
    const frame = this.frame;
    if (!frame) return [];
    const n = this.nextFrame();
    const p = this.prepared;
    const next = n ? p.frames[p.frameSlots[p.seqStart[n.sequence]! + n.position]!] : undefined;
    return interpolateFrames(p.doc, frame, next, t);
  }

  // ---- internals ---------------------------------------------------------

  /** The sprite moves on from the current frame (its hold is complete). */
  private moveOn(): void {
    this._held = 0;
    if (this._stopped) return;
    const at = this._at + 1;
    if (at < this._end) {
      this._at = at;
      this.activate(at);
      return;
    }
    const p = this.prepared;
    const s = this._seq;
    if (p.seqHasFollowUp[s]) {
      // setAnimation(followUp), with erratum 11: resolving to the sequence that just ended restarts it.
      this.start(p.lookup(this._group, p.seqFollowUp[s]!));
      return;
    }
    const lp = p.seqLoop[s]!;
    if (lp >= 0) {
      this._at = p.seqStart[s]! + lp;
      this.activate(this._at);
    } else {
      // Stops, still showing the last frame.
      this._stopped = true;
      this._limit = STOPPED_LIMIT;
    }
  }

  /** Makes `s` current at position 0, unstopped, and activates frame 0 (no sequence or no frames: nothing shown, stopped). */
  private start(s: number): void {
    const p = this.prepared;
    this._seq = s;
    this._held = 0;
    this._rate = s >= 0 ? p.seqRate[s]! : p.masterRate;
    if (s < 0 || p.seqCount[s] === 0) {
      this._at = -1;
      this._end = 0;
      this._stopped = true;
      this._limit = STOPPED_LIMIT;
      return;
    }
    this._stopped = false;
    const at = p.seqStart[s]!;
    this._at = at;
    this._end = at + p.seqCount[s]!;
    this.activate(at);
  }

  private activate(at: number): void {
    const p = this.prepared;
    this._limit = p.posHold[at]!;
    if (p.posTrigger[at]) this.emit(at);
  }

  private emit(at: number): void {
    const p = this.prepared;
    const t = p.triggers[p.frameSlots[at]!]!;
    if (this.collectTriggers) (this._pending ??= []).push(t);
    if (this.onTrigger) this.onTrigger(t, p.frameIds[at]!, this);
  }
}

/** The elements of the frame a player shows (empty when nothing is shown). */
export function currentElements(player: Player): readonly IspriteElement[] {
  return player.frame?.elements ?? [];
}
