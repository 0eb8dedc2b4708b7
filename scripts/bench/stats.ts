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

/** A goal's verdict as the table prints it, a miss in bold. */
export const verdict = (met: boolean): string => (met ? 'met' : '**missed**');

/** Runs every task once a round, each round starting one task later, so drift on a shared machine hits them alike; results per task, in order. */
export async function rotated<T>(rounds: number, tasks: readonly (() => Promise<T>)[]): Promise<T[][]> {
  const out = tasks.map((): T[] => []);
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < tasks.length; k++) {
      const j = (i + k) % tasks.length;
      out[j]?.push(await (tasks[j] as () => Promise<T>)());
    }
  }
  return out;
}

/** Interleaves `a` and `b`, swapping which goes first each round. */
export async function interleaved<T>(rounds: number, a: () => Promise<T>, b: () => Promise<T>): Promise<{ a: T[]; b: T[] }> {
  const [outA = [], outB = []] = await rotated(rounds, [a, b]);
  return { a: outA, b: outB };
}
