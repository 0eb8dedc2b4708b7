/** Small statistics and formatting shared by the benchmarks. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile: a value that was actually observed, never an interpolation. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

/** Interleaves `a` and `b`, swapping which goes first each round, so drift on a shared machine hits both alike. */
export async function interleaved<T>(rounds: number, a: () => Promise<T>, b: () => Promise<T>): Promise<{ a: T[]; b: T[] }> {
  const out: { a: T[]; b: T[] } = { a: [], b: [] };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      out.a.push(await a());
      out.b.push(await b());
    } else {
      out.b.push(await b());
      out.a.push(await a());
    }
  }
  return out;
}
