import { describe, expect, it } from 'vitest';
import type { PublicSession } from '../../contracts';
import { AGREEMENT_TEXT_IDS, agreementText, DEFAULT_AGREEMENT_SUBJECT, periodText, type RecurringInterval } from '../../contracts/agreements';
import { formatAmount } from '../../contracts/money';
import { agreementWords, parametersOf } from './agreement-words';
import { session } from './flow-fixtures';
import { de } from './locales/de';
import { en } from './locales/en';
import { ja } from './locales/ja';

type Saving = PublicSession & Required<Pick<PublicSession, 'save_payment_method'>>;
const MONTHLY = { merchant: 'Mäeva & Co. (Paris)', description: undefined as string | undefined };
const usd = (minor: number) => formatAmount(minor, 'USD', 2, 'en');

/** A session that keeps the card for a subscription, as the server sends it: its English text (filled as server/payment-methods/agreement.ts fills it) and Google's recurrence. */
function subscription(interval: RecurringInterval, count: number, amount: number, { merchant, description } = MONTHLY, setup = false): Saving {
  const id = AGREEMENT_TEXT_IDS.recurring;
  const text = agreementText(id, { merchant, what: description ?? DEFAULT_AGREEMENT_SUBJECT.recurring, amount: usd(amount), period: periodText(interval, count) });
  const item = { label: 'Plan', priceStatus: 'FINAL' as const, recurrencePeriod: interval.toUpperCase() as 'MONTH', recurrencePeriodCount: count, price: (amount / 100).toFixed(2) };
  return {
    ...session('open'),
    merchant_name: merchant,
    amount: setup ? 0 : amount,
    payment_data_request: { recurringTransactionInfo: { currencyCode: 'USD', countryCode: 'US', immediateTotalPrice: setup ? '0.00' : item.price, recurrenceItems: [item] } } as unknown as PublicSession['payment_data_request'],
    save_payment_method: { usage: 'recurring', setup, agreement: { id, text } },
  };
}

function reload(amount: number, threshold: number): Saving {
  const id = AGREEMENT_TEXT_IDS.reload;
  const text = agreementText(id, { merchant: 'Transit', what: DEFAULT_AGREEMENT_SUBJECT.reload, amount: usd(amount), threshold: usd(threshold) });
  return {
    ...session('open'),
    merchant_name: 'Transit',
    payment_data_request: { automaticReloadTransactionInfo: { currencyCode: 'USD', countryCode: 'US', immediateTotalPrice: '20.00', reloadAmount: (amount / 100).toFixed(2), minimumBalanceAmount: (threshold / 100).toFixed(2), label: 'Top-up' } } as unknown as PublicSession['payment_data_request'],
    save_payment_method: { usage: 'reload', setup: false, agreement: { id, text } },
  };
}

describe('agreementWords: the saved card agreement the shopper reads', () => {
  it('in English, is letter for letter the text the server records, for every interval, one or several', () => {
    for (const interval of ['day', 'week', 'month', 'year'] as const) {
      for (const count of [1, 3]) {
        const saving = subscription(interval, count, 1299);
        expect(agreementWords(saving, en.saving, 'en')).toBe(saving.save_payment_method.agreement.text);
      }
    }
    const topUp = reload(2000, 500);
    expect(agreementWords(topUp, en.saving, 'en-US')).toBe(topUp.save_payment_method.agreement.text);
  });

  it("in German, has German words, the amount in German's number format, and the merchant's name and description as given", () => {
    const text = agreementWords(subscription('month', 1, 1299, { merchant: 'Mäeva & Co. (Paris)', description: 'Gold plan' }), de.saving, 'de-DE');
    const price = formatAmount(1299, 'USD', 2, 'de-DE');
    expect(price).toBe('12,99\u00a0$');
    expect(text).toBe(`Sie erlauben Mäeva & Co. (Paris), diese Karte jeden Monat mit ${price} für Gold plan zu belasten, ohne Sie jedes Mal zu fragen, bis Sie bei Mäeva & Co. (Paris) kündigen.`);
  });

  it("words several periods with Intl's plural, and the default subject in the shopper's language", () => {
    expect(agreementWords(subscription('month', 3, 1299), de.saving, 'de')).toContain('alle 3 Monate mit 12,99\u00a0$ für Ihr Abonnement');
    expect(agreementWords(subscription('week', 2, 500), ja.saving, 'ja')).toContain('2 週間ごとに $5.00');
    expect(agreementWords(reload(2000, 500), de.saving, 'de')).toContain('jedes Mal mit 20,00\u00a0$ zu belasten, wenn das Guthaben von Ihrem Konto unter 5,00\u00a0$ fällt');
  });

  it('shows a text it does not know (a newer id, or words not its template) as the server wrote it', () => {
    const saving = subscription('month', 1, 1299);
    const newer = { ...saving, save_payment_method: { ...saving.save_payment_method, agreement: { id: 'saved_card.recurring.v2', text: 'New words.' } } } as unknown as Saving;
    expect(agreementWords(newer, de.saving, 'de')).toBe('New words.');
    const other = { ...saving, save_payment_method: { ...saving.save_payment_method, agreement: { ...saving.save_payment_method.agreement, text: 'Something else.' } } };
    expect(agreementWords(other, de.saving, 'de')).toBe('Something else.');
  });

  it('reads back what the English text was filled with, a repeated name being the same words', () => {
    const text = agreementText(AGREEMENT_TEXT_IDS.unscheduled, { merchant: 'A.B (x)', what: 'your stay' });
    expect(parametersOf(AGREEMENT_TEXT_IDS.unscheduled, text)).toEqual({ merchant: 'A.B (x)', what: 'your stay' });
    expect(parametersOf(AGREEMENT_TEXT_IDS.unscheduled, text.replace('ask A.B (x)', 'ask Other'))).toBeUndefined();
  });
});
