/**
 * Looks for leaked values in logs and stored bytes. A short number such as a
 * ZIP code (97201) turns up by chance inside millisecond timestamps
 * (1795554697201) and other digit runs, which is no leak; so a number in a
 * needle counts only as a whole number, not as part of a longer one.
 */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The needles that occur in `text`, none of them inside a longer number. */
export const findWhole = (text: string, needles: readonly string[]): string[] =>
  needles.filter((needle) => new RegExp(`(?<!\\d)${escapeRegExp(needle)}(?!\\d)`).test(text));
