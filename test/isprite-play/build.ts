/** Builds ISPRITE documents in code for the player tests. */
import {
  createIsprite,
  type IspriteDocument,
  type IspriteElement,
  type IspriteFrame,
  type IspriteGroup,
  type IspriteNode,
  type IspriteSequence,
} from '../../src/formats/isprite/model.js';

export function seq(name: string, frames: number[], loopPoint: number | null = 0, followUp = ''): IspriteSequence {
  return { kind: 'sequence', name, loopPoint, followUp, frames };
}

export function group(name: string, ...children: IspriteNode[]): IspriteGroup {
  return { kind: 'group', name, children };
}

export function frame(holdTime = 1, triggers = '', elements: IspriteElement[] = []): IspriteFrame {
  return { holdTime, loopPoint: false, label: '', triggers, notes: '', elements };
}

/** `n` frames with hold 1 whose trigger is "f<ID>". */
export function framesWithTriggers(n: number): IspriteFrame[] {
  return Array.from({ length: n }, (_, i) => frame(1, `f${i}`));
}

export function sprite(
  tree: IspriteNode[],
  frames: IspriteFrame[],
  opts: { frameRate?: number; extraMeta?: [string, string][] } = {},
): IspriteDocument {
  const d = createIsprite(opts.frameRate ?? 30);
  d.tree = tree;
  d.frames = frames;
  d.extraMeta = opts.extraMeta ?? null;
  return d;
}
