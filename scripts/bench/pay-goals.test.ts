import { describe, expect, it } from 'vitest';
import type { TargetFigures } from './pay-load';
import type { TailFigures } from './tail';
import { payGoals } from './pay-goals';

const target = (cpuMsPerRequest: number, p99Ms: number, cpuMsPerRequestByRound = [cpuMsPerRequest]): TargetFigures => ({
  throughputPerSecond: 400,
  p50Ms: 40,
  p99Ms: 80,
  addedAt200: { p50Ms: 5, p99Ms },
  // The goals read none of it.
  tailAt200: {} as TailFigures,
  cpuMsPerRequest,
  cpuMsPerRequestByRound,
  serviceCpuMsPerRequest: 1,
  peakRssBytes: 1,
});

describe('payGoals: the pay benchmark against its two baselines', () => {
  it('judges CPU per pay against the durable floor apart from the bare handler', () => {
    const goals = payGoals({ ours: target(2.4, 30), bare: target(1, 26), durable: target(2, 27) });
    expect(goals.cpuOverBare).toEqual({ ratio: 2.4, goal: '≤ 1.5x: **missed**' });
    expect(goals.cpuOverDurable).toMatchObject({ ratio: 1.2, goal: '≤ 1.3x: met' });
  });

  it('gives the lowest and highest of ours against the floor in one round, each round set against its own', () => {
    const goals = payGoals({ ours: target(2.4, 30, [2.2, 2.8, 2.2]), bare: target(1, 26), durable: target(2, 27, [2, 2, 1.6]) });
    expect(goals.cpuOverDurable.rounds).toEqual({ lowest: 1.1, highest: 1.4 });
  });

  it('reports p99 at 200/s as ours above each baseline, the goal on the bare handler', () => {
    const goals = payGoals({ ours: target(2, 33), bare: target(1, 26), durable: target(1.5, 31) });
    expect(goals.p99OverBare).toEqual({ ms: 7, goal: '< 5 ms: **missed**' });
    expect(goals.p99OverDurable.ms).toBe(2);
    expect(payGoals({ ours: target(2, 30), bare: target(1, 26), durable: target(1.5, 31) }).p99OverBare.goal).toBe('< 5 ms: met');
  });
});
