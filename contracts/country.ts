import countries from 'i18n-iso-countries';
import { z } from 'zod';

/**
 * An ISO 3166-1 alpha-2 country code, uppercase, checked against the
 * maintained list (a regex let `ZZ` and `QQ` through); `isValid` alone would
 * also take alpha-3 and numeric codes, hence the shape first.
 */
export const CountryCode = z
  .string()
  .refine((code) => /^[A-Z]{2}$/.test(code) && countries.isValid(code), 'must be an ISO 3166-1 alpha-2 country code (uppercase)');
