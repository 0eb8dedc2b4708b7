/**
 * A payment's saved card (docs/saved-cards.md): the payment method a session that keeps the card saved it as, its
 * status and the agreement the shopper gave, with its Detach action; or, for a merchant-initiated charge, why the
 * merchant charged the kept card, and which. A card the payment service would not keep says why.
 */
import { useEffect, useState } from 'preact/hooks';
import type { DashboardPayment, PaymentMethod } from '../../contracts';
import { describeCard } from '../checkout/format';
import { api } from './api';
import type { PageProps } from './page';
import { DetachPaymentMethod } from './DetachPaymentMethod';

export function SavedCard({ t, payment, fail }: Pick<PageProps, 't' | 'fail'> & { payment: DashboardPayment }) {
  const [method, setMethod] = useState<PaymentMethod>();
  const id = payment.payment_method;
  useEffect(() => void (id ? api.paymentMethod(id).then(setMethod, fail) : setMethod(undefined)), [id]);
  const words = t.savedCard;
  if (!id && !payment.save_payment_method) return null;

  const agreement = payment.agreement?.text ?? method?.agreement.text;
  return (
    <section aria-labelledby="saved-card-heading" data-testid="saved-card">
      <h2 id="saved-card-heading">{payment.intent === 'merchant_initiated' ? words.chargedCard : words.title}</h2>
      <dl class="facts">
        {payment.charge_reason && (
          <>
            <dt>{words.reason}</dt>
            <dd data-testid="charge-reason">{words.reasons[payment.charge_reason]}</dd>
          </>
        )}
        <dt>{words.paymentMethod}</dt>
        <dd>{id ? <code data-testid="payment-method">{id}</code> : payment.payment_method_error ? `${words.notKept} (${payment.payment_method_error.code})` : '—'}</dd>
        {method && (
          <>
            <dt>{words.customer}</dt>
            <dd>
              <code>{method.customer}</code>
            </dd>
            <dt>{words.card}</dt>
            <dd>{describeCard(method.card)}</dd>
            <dt>{words.status}</dt>
            <dd data-testid="payment-method-status" class={`status status-${method.status}`}>{words.statuses[method.status]}</dd>
          </>
        )}
        {agreement && payment.intent !== 'merchant_initiated' && (
          <>
            <dt>{words.agreement}</dt>
            <dd data-testid="agreement">{agreement}</dd>
          </>
        )}
      </dl>
      {method && method.status !== 'detached' && (
        <div class="actions">
          <DetachPaymentMethod t={t} fail={fail} id={method.id} onDetached={setMethod} />
        </div>
      )}
    </section>
  );
}
