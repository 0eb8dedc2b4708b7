/**
 * What the dashboard's one search box means (docs/dashboard.md, "Find any
 * payment"): the text is read as every kind of term it can be, and a session
 * matching any of them is found.
 *
 * - `cs_...`: a session id, exactly;
 * - an e-mail (it has an `@`): the shopper's, whatever its case, through its blind index;
 * - a number: the card's last four digits (exactly four digits), an amount as the merchant
 *   writes it ("48.50", "48,50", "3000"), exact in the minor units of each currency it fits
 *   (48.50 is 4850 cents and 48500 fils, never yen), and a reference starting with it;
 * - any text: a reference starting with it (case-sensitive, as references are the merchant's
 *   own keys) and a description containing it (any case).
 *
 * A number is not looked for inside references ("1001" does not find `order-1001`): only a
 * prefix is an index range; `order-10` finds `order-1001`.
 */
import { exponentOf, paymentCurrencyCodes } from '../../contracts/currency';
import { decimalToMinorUnits } from '../../contracts/money';
import type { DataCipher } from '../lib/data-cipher';
import type { PaymentSearch } from '../store/session-search';
import { emailIndexOf } from './personal-data';

/** The payment currencies, grouped by their ISO 4217 exponent. */
const currenciesByExponent: ReadonlyMap<number, readonly string[]> = paymentCurrencyCodes.reduce((groups, code) => {
  const exponent = exponentOf(code);
  groups.set(exponent, [...(groups.get(exponent) ?? []), code]);
  return groups;
}, new Map<number, string[]>());

const SESSION_ID = /^cs_[A-Za-z0-9_-]{22}$/;
// One decimal separator, either the point or the comma: a thousands separator is not taken (is "1,000" one thousand or one?).
const AMOUNT = /^\d+(?:[.,]\d+)?$/;

/** The amount typed, in each currency group it is exact in. */
function amountsOf(text: string): PaymentSearch['amounts'] {
  if (!AMOUNT.test(text)) return [];
  const decimal = text.replace(',', '.');
  return [...currenciesByExponent].flatMap(([exponent, currencies]) => {
    const amount = decimalToMinorUnits(decimal, exponent);
    return amount === undefined ? [] : [{ amount, currencies }];
  });
}

/** The terms of `q` (already trimmed, not empty). */
export function paymentSearchOf(q: string, cipher: DataCipher): PaymentSearch {
  if (SESSION_ID.test(q)) return { sessionId: q, referencePrefix: q, amounts: [] };
  if (q.includes('@')) return { emailIndex: emailIndexOf(cipher, q), referencePrefix: q, amounts: [] };
  const amounts = amountsOf(q);
  if (amounts.length > 0) return { referencePrefix: q, amounts, ...(/^\d{4}$/.test(q) && { last4: q }) };
  return { referencePrefix: q, descriptionContains: q.toLowerCase(), amounts: [] };
}
