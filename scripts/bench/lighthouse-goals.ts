/**
 * Figure 13's pages, goals and rows (lighthouse.ts measures them): apart from the measuring, so that judging a
 * figure against its goal is tested without loading Lighthouse.
 */
/** The goals: Lighthouse's own "good" for the scores (90 and up), and a layout that does not move (its "good" CLS is 0.1). */
export const LIGHTHOUSE_GOALS = { performance: 90, bestPractices: 90, cls: 0.01 } as const;

export const PAGES = ['demo store', 'one widget', 'dashboard sign-in'] as const;
export const FORM_FACTORS = ['mobile', 'desktop'] as const;

export interface LighthouseFigures {
  page: (typeof PAGES)[number];
  formFactor: (typeof FORM_FACTORS)[number];
  /** Scores out of 100, and the cumulative layout shift; medians of the runs. */
  performance: number;
  bestPractices: number;
  cls: number;
  /** Every run's, in order. */
  samples: { performance: number; bestPractices: number; cls: number }[];
  /** The best-practices audits that failed in the last run, to say why a score is below 100. */
  failedBestPractices: string[];
}

export interface LighthouseResult {
  options: { runs: number; lighthouse: string; chrome: string };
  figures: LighthouseFigures[];
}

/** Figure 13's rows of the table: one a page and form factor. */
export function lighthouseRows({ options, figures }: LighthouseResult): [string, string, string, string, string][] {
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  return figures.map((f) => [
    `13. Lighthouse ${options.lighthouse}, ${f.page}, ${f.formFactor} (median of ${options.runs}): performance / best practices / CLS`,
    `${f.performance} / ${f.bestPractices} / ${f.cls.toFixed(3)}`,
    f.failedBestPractices.length ? `best practices failed: ${f.failedBestPractices.join(', ')}` : '',
    '',
    `≥ ${LIGHTHOUSE_GOALS.performance}: ${met(f.performance >= LIGHTHOUSE_GOALS.performance)}; ≥ ${LIGHTHOUSE_GOALS.bestPractices}: ${met(f.bestPractices >= LIGHTHOUSE_GOALS.bestPractices)}; CLS < ${LIGHTHOUSE_GOALS.cls}: ${met(f.cls < LIGHTHOUSE_GOALS.cls)}`,
  ]);
}

