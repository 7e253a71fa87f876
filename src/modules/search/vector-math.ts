/** Small dense-vector helpers shared by the embedders and the exact search path. */

/** Scales `v` to unit length in place (a zero vector stays zero); returns it. */
export function l2Normalize(v: number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i] / norm;
  return v;
}

/**
 * Cosine similarity in double precision, summed in index order: the one
 * scoring function both search paths rank by, so their orders agree exactly.
 */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** pgvector's text form: `[0.1,0.2,...]`. */
export function toVectorLiteral(v: readonly number[]): string {
  return `[${v.join(',')}]`;
}
