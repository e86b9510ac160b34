/**
 * 2D affine transforms in canvas order: [a, b, c, d, e, f] maps (x, y) to
 * (a·x + c·y + e, b·x + d·y + f). Screen space: x right, y down, so a
 * positive rotation turns clockwise on screen.
 */
export type Matrix = readonly [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m ∘ n: apply n first, then m. */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/** Composes left to right in the order the transforms are applied: compose(a, b, c) applies a, then b, then c. */
export function compose(...ms: Matrix[]): Matrix {
  let r = IDENTITY;
  for (const m of ms) r = multiply(m, r);
  return r;
}

export function translate(tx: number, ty: number): Matrix {
  return [1, 0, 0, 1, tx, ty];
}

export function scale(sx: number, sy: number = sx): Matrix {
  return [sx, 0, 0, sy, 0, 0];
}

/** Clockwise on screen (y down) by `degrees`. Exact for multiples of 90°. */
export function rotate(degrees: number): Matrix {
  const turns = (((degrees % 360) + 360) % 360) / 90;
  if (Number.isInteger(turns)) {
    const table: [number, number][] = [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
    ];
    const [c, s] = table[turns]!;
    return [c, s, -s, c, 0, 0];
  }
  const r = (degrees * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  return [c, s, -s, c, 0, 0];
}

export function invert(m: Matrix): Matrix | null {
  const det = m[0] * m[3] - m[1] * m[2];
  if (!det || !Number.isFinite(det)) return null;
  const a = m[3] / det;
  const b = -m[1] / det;
  const c = -m[2] / det;
  const d = m[0] / det;
  return [a, b, c, d, -(a * m[4] + c * m[5]), -(b * m[4] + d * m[5])];
}

export function applyMatrix(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}
