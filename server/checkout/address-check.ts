/**
 * The wallet's billing address against the one the merchant has on file
 * (the charge API's document: "the merchant should compare the wallet billing
 * address with any address it has on file"). Like a card processor's address
 * verification: postal code, first line and country, each `match`, `mismatch`
 * or `unavailable`, and a verdict. What people type differently and mean the
 * same compares equal; the rules are listed in docs/api.md#the-billing-address-check.
 * It never blocks a payment: the merchant decides what a mismatch means.
 */
import type { AddressFieldCheck, AddressVerdict, BillingAddressCheck, BillingDetails } from '../../contracts';

/** Letters NFD does not decompose into a base letter and a mark, spelt as their languages write them without it. */
const UNDECOMPOSABLE: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/**
 * Case, diacritics, punctuation and spacing away: lower case, NFD with its
 * combining marks dropped, apostrophes dropped (`John's` and `Johns`, `O'Neil`
 * and `ONeil` are typed alike), every other run of other than letters and digits one space.
 */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøłđðþı]/g, (letter) => UNDECOMPOSABLE[letter] ?? letter)
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The USPS standard abbreviations (Publication 28, appendices B and C) of the
 * street suffixes, directionals and unit designators people most often spell
 * out, and a few common variants: each word compares as its abbreviation.
 */
export const STREET_ABBREVIATIONS: Readonly<Record<string, string>> = {
  street: 'st', str: 'st',
  avenue: 'ave', av: 'ave', avn: 'ave',
  road: 'rd',
  boulevard: 'blvd', boul: 'blvd',
  drive: 'dr', drv: 'dr',
  lane: 'ln',
  court: 'ct',
  place: 'pl',
  square: 'sq',
  terrace: 'ter',
  parkway: 'pkwy',
  highway: 'hwy',
  circle: 'cir',
  crescent: 'cres',
  expressway: 'expy',
  freeway: 'fwy',
  trail: 'trl',
  north: 'n', south: 's', east: 'e', west: 'w',
  northeast: 'ne', northwest: 'nw', southeast: 'se', southwest: 'sw',
  apartment: 'apt', suite: 'ste', floor: 'fl', building: 'bldg',
};

/** A first address line as it compares: normalized text, each word in its abbreviated form. */
export function normalizeLine(line: string): string {
  return normalizeText(line)
    .split(' ')
    .map((word) => STREET_ABBREVIATIONS[word] ?? word)
    .join(' ');
}

/**
 * A postal code as it compares: letters and digits only, upper case (a UK or
 * Canadian postcode with or without its space, `94105` and `94 105`); a US
 * ZIP+4 compares as its ZIP, since a merchant's file often has only the five digits.
 */
export function normalizePostalCode(postalCode: string, country: string): string {
  const compact = normalizeText(postalCode).replace(/ /g, '').toUpperCase();
  return country.toUpperCase() === 'US' && /^\d{9}$/.test(compact) ? compact.slice(0, 5) : compact;
}

/** Two normalized values; an empty one (absent, or nothing but punctuation) cannot be compared. */
const fieldCheck = (onFile: string | undefined, fromWallet: string | undefined): AddressFieldCheck => {
  if (!onFile || !fromWallet) return 'unavailable';
  return onFile === fromWallet ? 'match' : 'mismatch';
};

export function verdictOf(fields: readonly AddressFieldCheck[]): AddressVerdict {
  if (fields.includes('mismatch')) return 'mismatch';
  if (fields.every((field) => field === 'match')) return 'match';
  return fields.includes('match') ? 'partial_match' : 'unavailable';
}

/** Nothing to compare: most sessions have no address on file. */
const UNAVAILABLE: BillingAddressCheck = { postal_code: 'unavailable', line1: 'unavailable', country: 'unavailable', verdict: 'unavailable' };

/** Either address absent (none on file, none from the wallet): every field `unavailable`. */
export function checkBillingAddress(onFile: BillingDetails | undefined, fromWallet: BillingDetails | undefined): BillingAddressCheck {
  const [a, b] = [onFile?.address, fromWallet?.address];
  // Normalizing the one address there is (Unicode decomposition, a dozen regular expressions) would find nothing to match.
  if (!a || !b) return { ...UNAVAILABLE };
  const postalCode = (address: BillingDetails['address'] | undefined) => address?.postal_code && normalizePostalCode(address.postal_code, address.country);
  const line1Of = (address: BillingDetails['address'] | undefined) => address?.line1 && normalizeLine(address.line1);
  const postal_code = fieldCheck(postalCode(a), postalCode(b));
  const line1 = fieldCheck(line1Of(a), line1Of(b));
  const country = fieldCheck(a?.country.toUpperCase(), b?.country.toUpperCase());
  return { postal_code, line1, country, verdict: verdictOf([postal_code, line1, country]) };
}
