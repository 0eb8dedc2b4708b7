/**
 * The agreement a session that keeps the card shows the shopper, in the widget's language
 * (docs/saved-cards.md, docs/embedding.md): the dictionary's text for the agreement's id, filled in with
 * what the server filled its English with (read back from the public view's text by the English
 * template, contracts/agreements.ts), the amounts and the period formatted in the shopper's locale from
 * the terms Google's request carries, and what the card pays for in the dictionary's words when the
 * merchant named nothing. A text this widget does not know (a newer id) is shown as the server wrote it:
 * the shopper never agrees to words they were not shown. In the after-click chunk (payment-flow.ts),
 * which a widget for such a session loads at once.
 */
import type { PublicSession } from '../../contracts';
import { AGREEMENT_TEXTS, DEFAULT_AGREEMENT_SUBJECT, type RecurringInterval } from '../../contracts/agreements';
import { decimalToMinorUnits, formatAmount } from '../../contracts/money';
import { amountForText, directionOfLocale } from '../../common/browser/amount-direction';
import type { SavingWords } from './locales';

type Filled = Partial<Record<string, string>>;

const fill = (template: string, parameters: Filled): string => template.replace(/\{(\w+)\}/g, (whole, name: string) => parameters[name] ?? whole);

/** The parameters an English agreement `text` was filled with, read back by its template; undefined when `text` is not that template's. */
export function parametersOf(id: string, text: string): Filled | undefined {
  const template = (AGREEMENT_TEXTS as Partial<Record<string, string>>)[id];
  if (!template) return undefined;
  const names: string[] = [];
  const pattern = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      // A name met again (the merchant's, twice) is the same words again.
      const seen = names.indexOf(name);
      if (seen >= 0) return `\\${seen + 1}`;
      names.push(name);
      return '(.+?)';
    })
    .join('');
  const match = new RegExp(`^${pattern}$`, 's').exec(text);
  return match ? Object.fromEntries(names.map((name, i) => [name, match[i + 1]])) : undefined;
}

/** The terms Google's request carries (a subscription's price and period, a reload's amount and threshold), in `locale`. */
function termsIn(session: PublicSession, words: SavingWords, locale: string): Filled {
  const { currency, currency_exponent: exponent, payment_data_request: request } = session;
  const money = (price: string) => {
    const minor = decimalToMinorUnits(price, exponent);
    // Inside a sentence: a right-to-left amount isolated, so that Arabic's "US$" is not drawn "$US".
    return minor === undefined ? undefined : amountForText(formatAmount(minor, currency, exponent, locale), directionOfLocale(locale));
  };
  const recurrence = request.recurringTransactionInfo?.recurrenceItems[0];
  if (recurrence) {
    const interval = recurrence.recurrencePeriod.toLowerCase() as RecurringInterval;
    const count = recurrence.recurrencePeriodCount;
    const several = () => words.periods.many.replace('{count}', new Intl.NumberFormat(locale, { style: 'unit', unit: interval, unitDisplay: 'long' }).format(count));
    return { amount: money(recurrence.price), period: count === 1 ? words.periods[interval] : several() };
  }
  const reload = request.automaticReloadTransactionInfo;
  return reload ? { amount: money(reload.reloadAmount), threshold: money(reload.minimumBalanceAmount) } : {};
}

/** The agreement of a session that keeps the card, as the shopper reads it in `words`' language and `locale`'s number format. */
export function agreementWords(session: PublicSession & Required<Pick<PublicSession, 'save_payment_method'>>, words: SavingWords, locale: string): string {
  const { usage, agreement } = session.save_payment_method;
  const template = (words.agreements as Partial<Record<string, string>>)[agreement.id];
  const given = parametersOf(agreement.id, agreement.text);
  if (!template || !given) return agreement.text;
  const what = given.what === DEFAULT_AGREEMENT_SUBJECT[usage] ? words.subjects[usage] : given.what;
  const terms = Object.entries(termsIn(session, words, locale)).filter(([, value]) => value !== undefined);
  return fill(template, { ...given, what, ...Object.fromEntries(terms) });
}
