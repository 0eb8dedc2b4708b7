/**
 * A locale a browser or a page reports, made usable as a BCP 47 tag for Intl and
 * for an HTML `lang`, or refused. Browsers on a system without a locale report its
 * POSIX name (WebKitGTK's navigator.language is "C"): Intl.NumberFormat throws on
 * "C", and its default for it formats "$ 24.00". Plain code, no zod: the widget's
 * bundle and the sandbox wallet both import it.
 */

/** The POSIX names of "no locale": "posix" is even a well-formed language subtag, so Intl alone would accept it. */
const NO_LOCALE = new Set(['c', 'posix']);

/**
 * The canonical BCP 47 form of `reported` ("fr_CA" and "fr_CA.UTF-8" read as
 * "fr-CA"), or undefined when it names no locale ("C", "POSIX", "", "x!").
 */
export function usableLocale(reported: string | null | undefined): string | undefined {
  // A POSIX locale name's codeset and modifier ("en_US.UTF-8@euro") say nothing of the language.
  const tag = (reported ?? '').split(/[.@]/)[0]?.replaceAll('_', '-') ?? '';
  if (!tag || NO_LOCALE.has(tag.toLowerCase())) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}
