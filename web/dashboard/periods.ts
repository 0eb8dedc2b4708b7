/**
 * The Overview page's periods: calendar days in the browser's time zone, as the payments list's date
 * filters read them, `from` and `to` both included (docs/dashboard.md, "Overview").
 */
export const PERIOD_PRESETS = ['today', 'last_7_days', 'last_30_days', 'this_month', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export interface Period {
  /** YYYY-MM-DD. */
  from: string;
  to: string;
}

/** A local date as YYYY-MM-DD (the browser's calendar day, as an `<input type=date>` writes it). */
export const isoDate = (date: Date): string => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

const daysBefore = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() - days);

/** The days a preset covers, ending with `today` (a custom period keeps its own dates). */
export function presetPeriod(preset: Exclude<PeriodPreset, 'custom'>, today: Date): Period {
  const to = isoDate(today);
  if (preset === 'today') return { from: to, to };
  if (preset === 'last_7_days') return { from: isoDate(daysBefore(today, 6)), to };
  if (preset === 'last_30_days') return { from: isoDate(daysBefore(today, 29)), to };
  return { from: isoDate(new Date(today.getFullYear(), today.getMonth(), 1)), to };
}

/** The browser's IANA time zone: the server cuts the days in it, so they are the merchant's. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
