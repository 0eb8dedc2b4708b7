import { describe, expect, it } from 'vitest';
import { balancedOrder, inBalancedRounds } from './stats';

/** A full cycle of the design: n rounds for an even n, 2n for an odd one. */
const cycle = (n: number) => Array.from({ length: n % 2 === 1 ? 2 * n : n }, (_, round) => balancedOrder(n, round));

describe('balancedOrder: the rounds of a benchmark that sets servers side by side', () => {
  it.each([2, 3, 4, 5, 6])('with %i tasks, runs each once a round, and each in every position equally often over a cycle', (n) => {
    const rows = cycle(n);
    for (const row of rows) expect([...row].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, k) => k));
    for (let position = 0; position < n; position++) {
      const counts = new Map<number, number>();
      for (const row of rows) counts.set(row[position] as number, (counts.get(row[position] as number) ?? 0) + 1);
      expect(new Set(counts.values())).toEqual(new Set([rows.length / n]));
    }
  });

  it.each([2, 3, 4, 5, 6])('with %i tasks, puts each right after every other one equally often within the rounds of a cycle', (n) => {
    const follows = new Map<string, number>();
    for (const row of cycle(n)) for (let k = 1; k < n; k++) follows.set(`${row[k - 1]}>${row[k]}`, (follows.get(`${row[k - 1]}>${row[k]}`) ?? 0) + 1);
    // Every ordered pair of two different tasks, and each as often: a plain rotation had only n of the n(n-1).
    expect(follows.size).toBe(n * (n - 1));
    expect(new Set(follows.values()).size).toBe(1);
  });

  it('runs the tasks in that order and gives each its own results', async () => {
    const ran: string[] = [];
    const task = (name: string) => async () => {
      ran.push(name);
      return `${name}${ran.length}`;
    };
    const results = await inBalancedRounds(4, [task('a'), task('b'), task('c'), task('d')]);
    expect(ran.join('')).toBe(cycle(4).flat().map((k) => 'abcd'[k]).join(''));
    expect(results.map((byTask) => byTask.length)).toEqual([4, 4, 4, 4]);
    expect(results[0]?.every((result) => result.startsWith('a'))).toBe(true);
  });
});
