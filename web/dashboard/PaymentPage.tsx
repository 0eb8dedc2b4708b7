/** A payment's page: its details, timeline and the actions that move its money. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DashboardPayment, DashboardPaymentPage, DeliveryView, RefundReason, TimelineEntry } from '../../contracts';
import { decimalToMinorUnits, minorUnitsToDecimal } from '../../contracts/money';
import { describeCard } from '../checkout/format';
import { addressText } from './address';
import { api } from './api';
import { Confirm } from './Confirm';
import { ExpressDetails } from './ExpressDetails';
import { amountOf, dateTime, statusWord } from './format';
import { type DashboardMessages, fill } from './locales';
import type { PageProps } from './page';
import { SavedCard } from './SavedCard';

type Action = 'capture' | 'release' | 'refund';

export function PaymentPage({ id, t, locale, fail }: PageProps & { id: string }) {
  const [page, setPage] = useState<DashboardPaymentPage>();
  const [pending, setPending] = useState<{ action: Action; amount: number; reason?: RefundReason }>();
  const [notice, setNotice] = useState('');
  const load = () => api.payment(id).then(setPage, fail);
  useEffect(() => void load(), [id]);
  if (!page) return null;
  const { payment } = page;
  const taken = payment.status === 'captured' ? (payment.amount_captured ?? 0) : payment.amount;
  const refundable = payment.status === 'succeeded' || payment.status === 'captured' ? taken - payment.amount_refunded : 0;
  const toDecimal = (amount: number) => minorUnitsToDecimal(amount, payment.currency_exponent);
  const amountText = (amount: number) => amountOf(payment, amount, locale);

  /** Opens the confirmation with the amount the field holds (in major units), or the whole of `max` when it is empty (as the API takes no amount). */
  function ask(action: Action, field: string | undefined, max: number, reason?: RefundReason) {
    const text = field?.trim() ?? '';
    const typed = text === '' ? max : decimalToMinorUnits(text, payment.currency_exponent);
    if (typed === undefined || typed <= 0 || typed > max) return setNotice(fill(t.payment.amountRange, { min: amountText(1), max: amountText(max) }));
    setNotice('');
    setPending({ action, amount: typed, reason });
  }

  async function run() {
    if (!pending) return;
    const { action, amount, reason } = pending;
    setPending(undefined);
    try {
      if (action === 'capture') await api.capture(id, amount);
      else if (action === 'release') await api.release(id);
      else await api.refund(id, amount, reason);
      setNotice(t.payment.done);
      await load();
    } catch (error) {
      fail(error);
    }
  }

  const question = pending && fill({ capture: t.payment.confirmCapture, release: t.payment.confirmRelease, refund: t.payment.confirmRefund }[pending.action], { amount: amountText(pending.amount) });
  return (
    <section aria-labelledby="payment-heading">
      <p>
        <a href="#/payments">{t.payments.back}</a>
      </p>
      <h1 id="payment-heading">
        {amountText(payment.amount)} <span class={`status status-${payment.payment_status}`}>{statusWord(t, payment.payment_status)}</span>
      </h1>
      <dl class="facts">
        <dt>ID</dt>
        <dd>
          <code>{payment.id}</code>
        </dd>
        {payment.description !== null && (
          <>
            <dt>{t.payment.description}</dt>
            <dd data-testid="description">{payment.description}</dd>
          </>
        )}
        <dt>{t.payments.reference}</dt>
        <dd data-testid="reference">{payment.reference ?? '—'}</dd>
        <dt>{t.payments.created}</dt>
        <dd data-testid="created">{dateTime(payment.created, locale)}</dd>
        <dt>{t.payments.card}</dt>
        <dd data-testid="card">{payment.outcome?.card ? describeCard(payment.outcome.card) : '—'}</dd>
        {payment.amount_captured !== null && (
          <>
            <dt>{t.payment.captured}</dt>
            <dd>{amountText(payment.amount_captured)}</dd>
          </>
        )}
        <dt>{t.payment.refunded}</dt>
        <dd data-testid="refunded">{amountText(payment.amount_refunded)}</dd>
      </dl>
      <ExpressDetails t={t} payment={payment} amountText={amountText} />
      <BillingAddress t={t} payment={payment} />
      <SavedCard t={t} payment={payment} fail={fail} />
      {notice && <p role="status">{notice}</p>}
      <div class="actions">
        {payment.status === 'authorized' && (
          <>
            <AmountAction label={t.payment.capture} field={t.payment.amountToCapture} initial={toDecimal(payment.amount)} onSubmit={(form) => ask('capture', form.amount, payment.amount)} />
            <button type="button" class="secondary" onClick={() => ask('release', undefined, payment.amount)}>
              {t.payment.release}
            </button>
          </>
        )}
        {refundable > 0 && (
          // Keyed by what was refunded: after a refund the form starts again, its reason too, not the last one's.
          <AmountAction key={payment.amount_refunded} label={t.payment.refund} field={t.payment.amountToRefund} placeholder={amountText(refundable)} hint={fill(t.payment.refundable, { amount: amountText(refundable) })} onSubmit={(form) => ask('refund', form.amount, refundable, refundReasonOf(t, form.reason))}>
            <label for="refund-reason">{t.payment.reason}</label>
            <select id="refund-reason" name="reason">
              <option value="">{t.payment.noReason}</option>
              {(Object.keys(t.refundReasons) as RefundReason[]).map((reason) => (
                <option value={reason}>{t.refundReasons[reason]}</option>
              ))}
            </select>
          </AmountAction>
        )}
      </div>
      {question && <Confirm t={t} question={question} onConfirm={() => void run()} onCancel={() => setPending(undefined)} />}
      <h2>{t.payment.timeline}</h2>
      <ol class="timeline">
        {page.timeline.map((entry) => (
          <li data-kind={entry.kind}>
            <When at={entry.at} locale={locale} /> {timelineText(t, entry, amountText)}
            {'deliveries' in entry && entry.deliveries.length > 0 && (
              <ul class="deliveries">
                {entry.deliveries.map((delivery) => (
                  <li>
                    <When at={delivery.updated} locale={locale} /> {deliveryText(t, delivery)}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The wallet's billing address beside the one on file and their check, and beside that the card issuer's own
 * verification: what the merchant decides a mismatch on (docs/api.md). The note says what each is worth: the
 * wallet's address comes through the shopper's browser, the issuer's record does not.
 */
function BillingAddress({ t, payment }: { t: DashboardMessages; payment: DashboardPayment }) {
  const check = payment.billing_address_check;
  const verification = payment.address_verification;
  if (!check && !payment.billing_address_on_file && !verification) return null;
  return (
    <section aria-labelledby="billing-heading" data-testid="billing-address">
      <h2 id="billing-heading">{t.billing.heading}</h2>
      <dl class="facts">
        <dt>{t.billing.verdict}</dt>
        <dd data-testid="billing-verdict">{check ? t.billing.verdicts[check.verdict] : t.billing.verdicts.unavailable}</dd>
        {check &&
          (['postal_code', 'line1', 'country'] as const).map((field) => (
            <>
              <dt>{t.billing.fields[field]}</dt>
              <dd data-testid={`billing-${field}`}>{t.billing.results[check[field]]}</dd>
            </>
          ))}
        {(['line1', 'postal_code'] as const).map((field) => (
          <>
            <dt>{t.billing.issuer[field]}</dt>
            <dd data-testid={`issuer-${field}`}>{verification ? t.billing.results[verification[field]] : t.billing.issuer.none}</dd>
          </>
        ))}
        <dt>{t.billing.fromWallet}</dt>
        <dd data-testid="billing-from-wallet">{addressText(t, payment.billing_address)}</dd>
        <dt>{t.billing.onFile}</dt>
        <dd data-testid="billing-on-file">{addressText(t, payment.billing_address_on_file)}</dd>
      </dl>
      <p class="hint" data-testid="billing-note">
        {t.billing.note}
      </p>
    </section>
  );
}

function timelineText(t: DashboardMessages, entry: TimelineEntry, amountText: (amount: number) => string): string {
  switch (entry.kind) {
    case 'created':
      return t.timeline.created;
    case 'attempt':
      return fill(t.timeline.attempt, { n: entry.attempt_no, status: statusWord(t, entry.status) }) + (entry.failure_message ? ` (${entry.failure_message})` : '');
    case 'three_ds':
      return fill(t.timeline.threeDs, { n: entry.attempt_no });
    case 'event':
      return t.events[entry.type];
    case 'refund': {
      const words = { amount: amountText(entry.amount), status: statusWord(t, entry.status) };
      const line = entry.reason ? fill(t.timeline.refundWithReason, { ...words, reason: t.refundReasons[entry.reason] }) : fill(t.timeline.refund, words);
      return line + (entry.failure_message ? ` (${entry.failure_message})` : '');
    }
  }
}

/** The reason picked (the picker offers the API's, as each language names them), or none. The server checks it again. */
const refundReasonOf = (t: DashboardMessages, picked: string | undefined): RefundReason | undefined => (picked && picked in t.refundReasons ? (picked as RefundReason) : undefined);

/** A webhook delivery of the event a timeline line reports, under that line. */
function deliveryText(t: DashboardMessages, delivery: DeliveryView): string {
  const status = t.deliveryStatuses[delivery.status as keyof DashboardMessages['deliveryStatuses']] ?? delivery.status;
  const why = delivery.last_status_code ? ` (HTTP ${delivery.last_status_code})` : delivery.last_error ? ` (${delivery.last_error})` : '';
  return fill(t.timeline.delivery, { type: delivery.event_type, url: delivery.url, status }) + why;
}

/** A timeline's instant, to the second: its events come seconds apart. */
function When({ at, locale }: { at: number; locale: string }) {
  return <time dateTime={new Date(at).toISOString()}>{dateTime(at, locale, 'second')}</time>;
}

/**
 * An action on an amount: the field (major units; `initial` fills it, else `placeholder` and `hint` say what an
 * empty one stands for), any further fields (`children`), and its button. `onSubmit` gets the form's fields by name.
 */
function AmountAction({ label, field, initial = '', placeholder, hint, onSubmit, children }: { label: string; field: string; initial?: string; placeholder?: string; hint?: string; onSubmit(form: Record<string, string>): void; children?: ComponentChildren }) {
  const fieldId = `amount-${label.replace(/\W/g, '')}`;
  return (
    <form
      class="amount-action"
      onSubmit={(event) => {
        event.preventDefault();
        const fields = new FormData(event.currentTarget as HTMLFormElement);
        onSubmit(Object.fromEntries([...fields].map(([name, value]) => [name, String(value)])));
      }}
    >
      <label for={fieldId}>{field}</label>
      <input id={fieldId} name="amount" inputMode="decimal" value={initial} placeholder={placeholder} aria-describedby={hint && `${fieldId}-hint`} size={10} />
      {children}
      <button type="submit">{label}</button>
      {hint && (
        <p id={`${fieldId}-hint`} class="hint">
          {hint}
        </p>
      )}
    </form>
  );
}
