/** The dashboard's one date format per language: the same date and time everywhere, the seconds only where asked. */
import { describe, expect, it } from 'vitest';
import { dateTime } from './format';

// 12:05:37 UTC: the seconds (37) read the same in every time zone, and no zone's minutes are 37.
const instant = Date.UTC(2026, 10, 26, 12, 5, 37);

describe('dateTime', () => {
  it.each(['en-US', 'fr-FR', 'de-DE', 'es-ES'])('writes a timeline instant to the second, otherwise as the list does, in %s', (locale) => {
    const toMinute = dateTime(instant, locale);
    const toSecond = dateTime(instant, locale, 'second');
    expect(toSecond).toContain(':37');
    expect(toMinute).not.toContain(':37');
    // One format: the seconds are the only difference.
    expect(toSecond.replace(':37', '')).toBe(toMinute);
  });
});
