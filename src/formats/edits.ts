/**
 * What every format's edits share (FormatHandler.edits): an EditableValue
 * whose `apply` checks each value against its part's range and step before
 * the format makes the changed document, with one-line errors.
 */
import { FormatError } from '../binary/errors.js';
import type { EditablePart, EditableValue } from './types.js';

/** A step as said in a message: "whole number", "multiple of 1/256". */
function stepText(step: number): string {
  if (step === 1) return 'a whole number';
  const inverse = 1 / step;
  return Number.isInteger(inverse) ? `a multiple of 1/${inverse}` : `a multiple of ${step}`;
}

/** A part's bound as said in a message (ISPRITE's largest fixed-point value to 3 decimals). */
function boundText(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.floor(v * 1000) / 1000);
}

/**
 * Throws a FormatError when `values` do not fit `parts`: one per part, each
 * a finite multiple of its step within [min, max].
 */
export function checkEditValues(format: string, label: string, parts: readonly EditablePart[], values: readonly number[]): void {
  if (values.length !== parts.length)
    throw new FormatError(format, `${label}: ${parts.length} value${parts.length === 1 ? '' : 's'} needed, ${values.length} given`);
  parts.forEach((p, i) => {
    const v = values[i]!;
    const name = parts.length > 1 ? `${label} ${p.name}` : label;
    const units = v / p.step;
    const ok = typeof v === 'number' && Number.isFinite(v) && v >= p.min && v <= p.max && Math.abs(units - Math.round(units)) < 1e-9;
    if (!ok)
      throw new FormatError(
        format,
        `${name} ${String(v)} cannot be set: it must be ${stepText(p.step)} from ${boundText(p.min)} to ${boundText(p.max)}`,
      );
  });
}

/** An EditableValue whose `apply` checks the values (checkEditValues) and then calls `set`. */
export function editable<Doc>(
  format: string,
  key: string,
  label: string,
  parts: readonly EditablePart[],
  set: (values: readonly number[]) => Doc,
): EditableValue<Doc> {
  return {
    key,
    label,
    parts,
    apply(values) {
      checkEditValues(format, label, parts, values);
      return set(values);
    },
  };
}

/** A whole-number part. */
export function intPart(name: string, value: number, min: number, max: number): EditablePart {
  return { name, value, min, max, step: 1 };
}
