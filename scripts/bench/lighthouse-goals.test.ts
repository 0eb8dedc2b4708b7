import { describe, expect, it } from 'vitest';
import { type LighthouseFigures, lighthouseRows } from './lighthouse-goals';

const figures = (performance: number, bestPractices: number, cls: number, failedBestPractices: string[] = []): LighthouseFigures => ({
  page: 'one widget',
  formFactor: 'mobile',
  performance,
  bestPractices,
  cls,
  samples: [{ performance, bestPractices, cls }],
  failedBestPractices,
});

const rowOf = (f: LighthouseFigures) => lighthouseRows({ options: { runs: 3, lighthouse: '12.2.3', chrome: 'Chrome/1' }, figures: [f] })[0]!;

describe('lighthouseRows: figure 13 against its goals', () => {
  it('names the page, the form factor and the runs, and meets each goal at its bound', () => {
    const [figure, ours, baseline, , goal] = rowOf(figures(90, 90, 0.0099));
    expect(figure).toBe('13. Lighthouse 12.2.3, one widget, mobile (median of 3): performance / best practices / CLS');
    expect(ours).toBe('90 / 90 / 0.010');
    expect(baseline).toBe('');
    expect(goal).toBe('≥ 90: met; ≥ 90: met; CLS < 0.01: met');
  });

  it('misses each goal on its own, and says which best practices failed', () => {
    expect(rowOf(figures(89, 100, 0))[4]).toBe('≥ 90: **missed**; ≥ 90: met; CLS < 0.01: met');
    expect(rowOf(figures(100, 89, 0))[4]).toBe('≥ 90: met; ≥ 90: **missed**; CLS < 0.01: met');
    expect(rowOf(figures(100, 100, 0.01))[4]).toBe('≥ 90: met; ≥ 90: met; CLS < 0.01: **missed**');
    expect(rowOf(figures(100, 96, 0, ['errors-in-console (a 404)']))[2]).toBe('best practices failed: errors-in-console (a 404)');
  });
});
