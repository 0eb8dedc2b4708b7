/**
 * The agreement a shopper gives at the first payment of a session that keeps the card
 * (docs/saved-cards.md): its text for the session, shown by the widget (and, where Google takes its
 * length, by the sheet), and the record of the shopper's acceptance, which the payment's claim writes.
 */
import type { App } from '../apps';
import { AGREEMENT_TEXT_IDS, agreementText, type AgreementText, DEFAULT_AGREEMENT_SUBJECT, periodText, type PublicSession, type RecordedAgreement, SavePaymentMethod } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { formatAmount } from '../../contracts/money';
import type { SavingTerms } from '../../contracts/payment-data-request';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { SessionRow } from '../store/sessions';

/** What the session keeps the card for; undefined when it keeps none. */
export const savingOf = (row: Pick<SessionRow, 'save_payment_method'>): SavePaymentMethod | undefined => (row.save_payment_method ? SavePaymentMethod.parse(JSON.parse(row.save_payment_method)) : undefined);

/** The agreement's text for the session, in English: the merchant's name, what the card pays for, the amounts in the session's currency. */
export function agreementFor(merchantName: string, row: Pick<SessionRow, 'currency'>, save: SavePaymentMethod): AgreementText {
  const id = AGREEMENT_TEXT_IDS[save.usage];
  const amount = (minorUnits: number) => formatAmount(minorUnits, row.currency, exponentOf(row.currency), 'en');
  const terms = save.recurring ?? save.reload;
  const text = agreementText(id, {
    merchant: merchantName,
    what: save.description ?? DEFAULT_AGREEMENT_SUBJECT[save.usage],
    ...(terms && { amount: amount(terms.amount) }),
    ...(save.recurring && { period: periodText(save.recurring.interval, save.recurring.interval_count) }),
    ...(save.reload && { threshold: amount(save.reload.threshold) }),
  });
  return { id, text };
}

/**
 * What a saving session shows the shopper: Google's sheet its terms (contracts/payment-data-request.ts), the
 * widget its agreement (the public view's `save_payment_method`); none for one that keeps no card. Both from
 * one reading of the session's column and one wording of the agreement: the public view is the widget's load.
 */
export function savingShownOf(app: Pick<App, 'name'>, row: Pick<SessionRow, 'save_payment_method' | 'currency' | 'intent'>): { sheet: SavingTerms; widget: NonNullable<PublicSession['save_payment_method']> } | undefined {
  const save = savingOf(row);
  if (!save) return undefined;
  const agreement = agreementFor(app.name, row, save);
  const setup = row.intent === 'setup';
  return {
    sheet: { usage: save.usage, recurring: save.recurring, reload: save.reload, description: save.description, agreement: agreement.text, setup },
    widget: { usage: save.usage, setup, agreement },
  };
}

/**
 * The session column a payment's claim writes for the shopper's agreement: the session's agreement as
 * shown, and when it was accepted (this request). A payment of a saving session that does not name the
 * agreement shown to the shopper is refused before anything is charged; one of a session that keeps no
 * card writes nothing.
 */
export function acceptedAgreement(app: Pick<App, 'name'>, row: Pick<SessionRow, 'save_payment_method' | 'currency'>, given: { id: string } | undefined, now: number): Result<{ agreement?: string }, Failure> {
  const save = savingOf(row);
  if (!save) return ok({});
  const shown = agreementFor(app.name, row, save);
  if (given?.id !== shown.id) {
    return err({ code: 'agreement_required', message: `agreement.id: this checkout keeps the card, and its payment must carry the shopper's agreement to ${shown.id} (show its text, then send its id)` });
  }
  const accepted: RecordedAgreement = { ...shown, accepted_at: now };
  return ok({ agreement: JSON.stringify(accepted) });
}
