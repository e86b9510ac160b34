/**
 * The one table between compass directions (CTHG's views north, east,
 * south, west) and numbered directions (a Solarus animation's directions
 * are "numbered from 0", ../shared/specs Solarus 0.9.1 sprite syntax; the
 * engine's four are 0 right, 1 up, 2 left, 3 down, as the viewer names them
 * in src/formats/solarus/render.ts: 0 east, 1 north, 2 west, 3 south). Used
 * both ways, so a sprite that goes from one kind to the other comes back
 * with its names.
 *
 * Directions are numbered 0 … n-1 in an animation of n directions, so the
 * table places an animation's compass directions only when their numbers are
 * exactly 0 … n-1 (east; east, north; east, north, west; all four). One
 * direction faces every way (Solarus shows a one-direction sprite whichever
 * way its entity faces): it is number 0, and a lone number 0 is north, the
 * view CTHG gives an animation with no direction.
 */
export const NUMBERED_COMPASS = ['east', 'north', 'west', 'south'] as const;

export type CompassName = (typeof NUMBERED_COMPASS)[number];

/**
 * The numbers of one animation's directions (given by their names, in any
 * order) by the table, when each is a compass name (any case), each once,
 * and their numbers are 0 … n-1; else undefined.
 */
export function compassNumbers(labels: readonly string[]): number[] | undefined {
  const lower = labels.map((l) => l.toLowerCase());
  if (new Set(lower).size !== lower.length || lower.length === 0) return undefined;
  const numbers = lower.map((l) => (NUMBERED_COMPASS as readonly string[]).indexOf(l));
  if (numbers.some((k) => k < 0)) return undefined;
  if (numbers.length === 1) return [0];
  return numbers.every((k) => k < numbers.length) ? numbers : undefined;
}

/** The compass name of direction `k` of an animation of `n` numbered directions (the inverse of compassNumbers); undefined past the table. */
export function compassOfNumber(k: number, n: number): CompassName | undefined {
  if (!Number.isInteger(k) || k < 0 || k >= n || n > NUMBERED_COMPASS.length) return undefined;
  return n === 1 ? 'north' : NUMBERED_COMPASS[k];
}
