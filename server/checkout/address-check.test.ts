import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BillingDetails } from '../../contracts';
import { checkBillingAddress, normalizeLine, normalizePostalCode, normalizeText, STREET_ABBREVIATIONS, verdictOf } from './address-check';

const address = (fields: Partial<BillingDetails['address']>): BillingDetails => ({ address: { country: 'US', ...fields } });
const onFile = address({ line1: '1 Sandbox Way', postal_code: '94105', country: 'US' });

describe('normalization rules', () => {
  it('case: upper, lower and mixed compare equal', () => {
    expect(normalizeText('MAIN Street')).toBe(normalizeText('main street'));
  });

  it('spacing: leading, trailing, doubled spaces and tabs do not count', () => {
    expect(normalizeText('  1   Main\tStreet ')).toBe('1 main street');
  });

  it('punctuation: commas, dots, hyphens and number signs are spaces', () => {
    expect(normalizeText('12-B, St. Johns Rd. #4')).toBe('12 b st johns rd 4');
  });

  it('apostrophes, straight or curly, are dropped: typed or left out, the word is the same', () => {
    expect(normalizeText("St John's")).toBe('st johns');
    expect(normalizeText('O’Connell')).toBe(normalizeText('OConnell'));
  });

  it('diacritics: NFD then the combining marks dropped, whether the text came composed or decomposed', () => {
    expect(normalizeText('Rue de la Mégisserie')).toBe('rue de la megisserie');
    expect(normalizeText('Me\u0301gisserie')).toBe(normalizeText('M\u00e9gisserie'));
    expect(normalizeText('Şişli Çarşı Ñandú Ångström')).toBe('sisli carsi nandu angstrom');
  });

  it('letters NFD does not decompose are spelt as their languages write them without a mark', () => {
    expect(normalizeText('Straße')).toBe('strasse');
    expect(normalizeText('Søndre Ærøvej Łódź Œuvre')).toBe('sondre aerovej lodz oeuvre');
  });

  it.each(Object.entries(STREET_ABBREVIATIONS))('street abbreviation: "%s" compares as "%s"', (word, abbreviation) => {
    expect(normalizeLine(`12 ${word}`)).toBe(normalizeLine(`12 ${abbreviation}`));
    expect(normalizeLine(`12 ${word.toUpperCase()}`)).toBe(`12 ${abbreviation}`);
  });

  it('abbreviations apply word by word: a directional before the name, a suffix after it', () => {
    expect(normalizeLine('100 North Main Street, Apartment 4')).toBe(normalizeLine('100 N. Main St Apt 4'));
    // Only whole words: "Streetsville" is a name, not a suffix.
    expect(normalizeLine('1 Streetsville Rd')).toBe('1 streetsville rd');
  });

  it('US ZIP+4 compares as its ZIP, with or without the hyphen', () => {
    expect(normalizePostalCode('94105-1234', 'US')).toBe('94105');
    expect(normalizePostalCode('941051234', 'us')).toBe('94105');
    expect(normalizePostalCode('94105', 'US')).toBe('94105');
  });

  it('nine digits are a ZIP+4 only in the US', () => {
    expect(normalizePostalCode('941051234', 'BR')).toBe('941051234');
  });

  it('UK and Canadian postcodes with or without the space, any case', () => {
    expect(normalizePostalCode('sw1a 1aa', 'GB')).toBe(normalizePostalCode('SW1A1AA', 'GB'));
    expect(normalizePostalCode('K1A 0B1', 'CA')).toBe(normalizePostalCode('k1a0b1', 'CA'));
  });
});

describe('the check', () => {
  it('match: every field the same once normalized', () => {
    const wallet = address({ line1: '1 SANDBOX WAY', postal_code: '94105-0001', country: 'US' });
    expect(checkBillingAddress(onFile, wallet)).toEqual({ postal_code: 'match', line1: 'match', country: 'match', verdict: 'match' });
  });

  it('mismatch: one field differs, whatever the others say', () => {
    const wallet = address({ line1: '99 Elsewhere Avenue', postal_code: '94105', country: 'US' });
    expect(checkBillingAddress(onFile, wallet)).toEqual({ postal_code: 'match', line1: 'mismatch', country: 'match', verdict: 'mismatch' });
  });

  it('partial_match: nothing differs, the wallet gave no first line or postal code (a MIN address)', () => {
    const wallet = address({ postal_code: '94105', country: 'US' });
    expect(checkBillingAddress(onFile, wallet)).toEqual({ postal_code: 'match', line1: 'unavailable', country: 'match', verdict: 'partial_match' });
  });

  it('unavailable: no address on file, or none from the wallet', () => {
    const nothing = { postal_code: 'unavailable', line1: 'unavailable', country: 'unavailable', verdict: 'unavailable' };
    expect(checkBillingAddress(undefined, onFile)).toEqual(nothing);
    expect(checkBillingAddress(onFile, undefined)).toEqual(nothing);
  });

  it('a field that is only punctuation cannot be compared', () => {
    expect(checkBillingAddress(onFile, address({ line1: '--', postal_code: '94105' })).line1).toBe('unavailable');
  });

  it('the verdict of each combination', () => {
    expect(verdictOf(['match', 'match', 'match'])).toBe('match');
    expect(verdictOf(['match', 'unavailable', 'match'])).toBe('partial_match');
    expect(verdictOf(['match', 'mismatch', 'unavailable'])).toBe('mismatch');
    expect(verdictOf(['unavailable', 'unavailable', 'unavailable'])).toBe('unavailable');
  });
});

describe('properties', () => {
  const text = fc.string({ unit: fc.constantFrom(...'aAbBéÉß 1-2.,#StreetNorthAvenue\u0301'.split('')), maxLength: 40 });
  const noisy = (value: string, upper: boolean, pad: number) => `${' '.repeat(pad)}${upper ? value.toUpperCase() : value.toLowerCase()}${'  '.repeat(pad)}`.replace(/ /g, '  ');
  const walletOrFile = fc.record({ line1: fc.option(text, { nil: undefined }), postal_code: fc.option(text, { nil: undefined }), country: fc.constantFrom('US', 'GB', 'CA', 'FR') });

  it('normalization is idempotent', () => {
    fc.assert(fc.property(text, (value) => normalizeLine(normalizeLine(value)) === normalizeLine(value) && normalizeText(normalizeText(value)) === normalizeText(value)));
    fc.assert(fc.property(text, fc.constantFrom('US', 'GB'), (value, country) => normalizePostalCode(normalizePostalCode(value, country), country) === normalizePostalCode(value, country)));
  });

  it('the check is symmetric', () => {
    fc.assert(
      fc.property(walletOrFile, walletOrFile, (a, b) => {
        expect(checkBillingAddress({ address: a }, { address: b })).toEqual(checkBillingAddress({ address: b }, { address: a }));
      }),
    );
  });

  it('case and spacing noise never turns a match into a mismatch', () => {
    fc.assert(
      fc.property(walletOrFile, fc.boolean(), fc.integer({ min: 0, max: 3 }), (a, upper, pad) => {
        const noise = (value: string | undefined) => value && noisy(value, upper, pad);
        const check = checkBillingAddress({ address: a }, { address: { ...a, line1: noise(a.line1), postal_code: noise(a.postal_code) } });
        expect([check.postal_code, check.line1, check.country]).not.toContain('mismatch');
      }),
    );
  });
});
