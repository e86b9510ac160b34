import fc from 'fast-check';

/** Inputs with lots of repetition (what LZF is for), from a small alphabet and copied runs. */
export const structuredBytes = fc
  .array(
    fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => b.map((x) => x & 3)),
      fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 600 })).map(([v, n]) => new Uint8Array(n).fill(v)),
      fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 80 })).map(([p, k]) => {
        const out = new Uint8Array(p.length * k);
        for (let i = 0; i < k; i++) out.set(p, i * p.length);
        return out;
      }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => {
    const n = parts.reduce((s, p) => s + p.length, 0);
    const out = new Uint8Array(n);
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  });
