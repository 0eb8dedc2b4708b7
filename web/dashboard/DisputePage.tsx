/**
 * A dispute's page (docs/disputes.md): what is disputed and until when evidence is taken, then either the evidence
 * submitted or, before the due date, the form that submits it once: the merchant's explanation, what the server
 * attaches of the payment (its billing address check and the card issuer's address verification), and the carrier and
 * tracking number of an express checkout that shipped goods. Submitted through the dashboard API (CSRF token and an
 * Idempotency-Key, api.ts) after a confirmation.
 */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DashboardDisputePage, ServiceDisputeEvidence } from '../../contracts';
import { api } from './api';
import { Confirm } from './Confirm';
import { disputeAmount } from './Disputes';
import { dateTime } from './format';
import { type DashboardMessages, fill } from './locales';
import type { PageProps } from './page';

type Attached = Pick<ServiceDisputeEvidence, 'billing_address_check' | 'address_verification'>;

/** The address checks as the evidence carries them: the billing address check's verdict and the issuer's two fields. */
function AttachedChecks({ t, attached }: { t: DashboardMessages; attached: Attached }) {
  const { billing_address_check: check, address_verification: verification } = attached;
  return (
    <dl class="facts" data-testid="dispute-attached">
      <dt>{t.billing.verdict}</dt>
      <dd>{check ? t.billing.verdicts[check.verdict] : t.billing.verdicts.unavailable}</dd>
      {(['line1', 'postal_code'] as const).map((field) => (
        <Fragment key={field}>
          <dt>{t.billing.issuer[field]}</dt>
          <dd>{verification ? t.billing.results[verification[field]] : t.billing.issuer.none}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

export function DisputePage({ t, locale, fail, id }: PageProps & { id: string }) {
  const [page, setPage] = useState<DashboardDisputePage>();
  const [asking, setAsking] = useState<{ explanation: string; shipping?: { carrier: string; tracking_number: string } }>();
  const [done, setDone] = useState(false);
  useEffect(() => void api.dispute(id).then(setPage, fail), [id]);
  const words = t.disputes;
  if (!page) return null;
  const { dispute } = page;
  const open = dispute.status === 'needs_response' && dispute.evidence === null && Date.now() < dispute.evidence_due_by;

  function ask(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const [carrier, tracking] = [text('carrier'), text('tracking_number')];
    setAsking({ explanation: text('explanation'), ...((carrier || tracking) && { shipping: { carrier, tracking_number: tracking } }) });
  }

  async function submit() {
    const evidence = asking!;
    setAsking(undefined);
    try {
      setPage(await api.submitEvidence(dispute.id, evidence));
      setDone(true);
    } catch (error) {
      fail(error);
    }
  }

  return (
    <section aria-labelledby="dispute-heading">
      <p>
        <a href="#/disputes">{words.back}</a>
      </p>
      <h1 id="dispute-heading">
        {fill(words.title, { amount: disputeAmount(dispute, locale) })} <code>{dispute.id}</code>
      </h1>
      <dl class="facts">
        <dt>{t.payments.status}</dt>
        <dd>
          <span class={`status status-${dispute.status}`} data-testid="dispute-status">
            {words.statuses[dispute.status]}
          </span>
        </dd>
        <dt>{words.reason}</dt>
        <dd data-testid="dispute-reason">{words.reasons[dispute.reason]}</dd>
        <dt>{words.opened}</dt>
        <dd>{dateTime(dispute.created, locale)}</dd>
        <dt>{words.dueBy}</dt>
        <dd data-testid="dispute-due-by">{dateTime(dispute.evidence_due_by, locale)}</dd>
        <dt>{words.payment}</dt>
        <dd>
          <a href={`#/payments/${dispute.session_id}`}>
            <code>{dispute.session_id}</code>
          </a>
        </dd>
      </dl>
      {done && (
        <p role="status">
          {t.payment.done}
        </p>
      )}
      <h2>{words.evidence}</h2>
      {dispute.evidence && (
        <div data-testid="dispute-evidence">
          {dispute.evidence_submitted !== null && <p>{fill(words.submitted, { date: dateTime(dispute.evidence_submitted, locale) })}</p>}
          <blockquote>{dispute.evidence.explanation}</blockquote>
          <AttachedChecks t={t} attached={dispute.evidence} />
          {dispute.evidence.shipping && <p>{fill(words.shipped, { carrier: dispute.evidence.shipping.carrier, tracking: dispute.evidence.shipping.tracking_number })}</p>}
        </div>
      )}
      {!dispute.evidence && !open && <p data-testid="dispute-past-due">{fill(words.pastDue, { date: dateTime(dispute.evidence_due_by, locale) })}</p>}
      {open && (
        <form class="evidence" aria-label={words.evidence} onSubmit={ask}>
          <label for="dispute-explanation">{words.explanation}</label>
          <textarea id="dispute-explanation" name="explanation" required maxLength={5000} rows={6} aria-describedby="dispute-explanation-hint" />
          <p id="dispute-explanation-hint" class="hint">
            {words.explanationHint}
          </p>
          <h3>{words.attached}</h3>
          <AttachedChecks t={t} attached={page.attached} />
          {page.ships_goods && (
            <fieldset>
              <legend>{words.shipping}</legend>
              <label>
                {words.carrier}
                <input name="carrier" maxLength={100} />
              </label>
              <label>
                {words.trackingNumber}
                <input name="tracking_number" maxLength={100} />
              </label>
            </fieldset>
          )}
          <button type="submit">{words.submit}</button>
        </form>
      )}
      {asking && <Confirm t={t} question={words.confirmSubmit} onConfirm={() => void submit()} onCancel={() => setAsking(undefined)} />}
    </section>
  );
}
