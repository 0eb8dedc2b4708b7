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

/**
 * The order of round `round` for `n` tasks, from a Williams design: over a full cycle (n rounds for an even
 * n, 2n for an odd one) each task runs once in each position of a round, and right after each other task
 * equally often. A plain rotation kept each task right after the same one, round after round, and on
 * this rig the task that runs next pays for what the one before it left running (docs/benchmarks.md,
 * "Who ran just before").
 */
export function balancedOrder(n: number, round: number): number[] {
  // The first row zigzags from both ends (0, 1, n-1, 2, n-2, ...), so the steps between neighbours are all different.
  const first = Array.from({ length: n }, (_, k) => (k % 2 === 1 ? (k + 1) / 2 : (n - k / 2) % n));
  const row = first.map((task) => (task + round) % n);
  // An odd n needs each row mirrored as well to balance who follows whom.
  return n % 2 === 1 && Math.floor(round / n) % 2 === 1 ? row.reverse() : row;
}

/** Runs every task once a round, each round in a balanced order (balancedOrder), so drift on a shared machine and the task before hit them alike; results per task, in order. */
export async function inBalancedRounds<T>(rounds: number, tasks: readonly (() => Promise<T>)[]): Promise<T[][]> {
  const out = tasks.map((): T[] => []);
  for (let i = 0; i < rounds; i++) {
    for (const j of balancedOrder(tasks.length, i)) out[j]?.push(await (tasks[j] as () => Promise<T>)());
  }
  return out;
}

/** Interleaves `a` and `b`, swapping which goes first each round. */
export async function interleaved<T>(rounds: number, a: () => Promise<T>, b: () => Promise<T>): Promise<{ a: T[]; b: T[] }> {
  const [outA = [], outB = []] = await inBalancedRounds(rounds, [a, b]);
  return { a: outA, b: outB };
}
