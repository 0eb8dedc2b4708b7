/**
 * The overview's days (docs/decisions.md, "The overview's days"): each calendar day of a period as the
 * instants it spans in the merchant's IANA time zone, worked out here, once, so that both engines bucket
 * by the same plain `created` ranges (SQLite knows no time zone; PostgreSQL's would be a second rule).
 * A day is 23 or 25 hours across a daylight-saving change, and starts when the zone's midnight would,
 * or at the change itself where the clocks skip midnight.
 */
import { daysBetween } from '../../contracts';

export interface OverviewDaySpan {
  /** YYYY-MM-DD, the merchant's calendar day. */
  date: string;
  /** Its first instant and the next day's (ms since the epoch): `created` in [start, end). */
  start: number;
  end: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Intl's parts of an instant's wall-clock time in `zone` (h23: midnight is 00, never 24). */
function wallClockOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall-clock time in `zone` at `instant`, written as if it were UTC: its difference from `instant` is the zone's offset then. */
function wallClockAsUtc(zone: string, instant: number): number {
  const part = Object.fromEntries(wallClockOf(zone).formatToParts(instant).map(({ type, value }) => [type, Number(value)]));
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
}

/** The calendar date of an instant written as UTC (a midnight, or a wall-clock time from wallClockAsUtc). */
const dateOf = (asUtc: number): string => new Date(asUtc).toISOString().slice(0, 10);

/**
 * The first instant of `date` in `zone`. The zone's midnight, read with the offset at either of the two
 * candidates (they differ only when the offset changes near midnight): the earliest that falls on `date`.
 * Where the clocks skip midnight, that is the instant they jump (the candidate read after the change).
 */
function startOfDay(zone: string, utcMidnight: number): number {
  const date = dateOf(utcMidnight);
  const first = utcMidnight - (wallClockAsUtc(zone, utcMidnight) - utcMidnight);
  const second = utcMidnight - (wallClockAsUtc(zone, first) - first);
  const onDate = [first, second].filter((instant) => dateOf(wallClockAsUtc(zone, instant)) === date);
  return Math.min(...(onDate.length > 0 ? onDate : [first, second]));
}

/** Every day of the period, `from` to `to` both included (a valid DashboardOverviewQuery's), oldest first. */
export function overviewDays(from: string, to: string, zone: string): OverviewDaySpan[] {
  const first = Date.parse(from);
  const count = daysBetween(from, to);
  const starts = Array.from({ length: count + 1 }, (_, i) => startOfDay(zone, first + i * DAY_MS));
  return starts.slice(0, count).map((start, i) => ({ date: dateOf(first + i * DAY_MS), start, end: starts[i + 1]! }));
}
