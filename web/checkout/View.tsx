/**
 * The widget's one view: every state drawn from its row of the state table (states.ts), with no
 * state of its own (no hooks: widget.ts owns the state and renders this on every change). The
 * wallet's button and the 3-D Secure dialog are not Preact's: the view gives them their boxes
 * (`walletBox`, `challengeBox`), which widget.ts fills.
 */
import type { Ref } from 'preact';
import type { PublicSession } from '../../server/contracts';
import { formatAmount } from '../../server/contracts/money';
import { describeCard } from './format';
import type { Words } from './locales';
import { BUTTON_ELEMENT_CSS } from './styles';
import { type View, WIDGET_STATES } from './states';

export interface CheckoutViewProps {
  view: View;
  session: PublicSession | null;
  /** The wallet is loaded and the session is payable here: the button's box is drawn. */
  showButton: boolean;
  /** The words at hand (locales/load.ts); a state whose words are not here yet has a blank status line for those few ms, never another language's. */
  words: Words | undefined;
  /** BCP 47 tag of the widget's language and number format. */
  locale: string;
  dir: 'ltr' | 'rtl';
  nonce: string | undefined;
  /** The button fills the widget's width (buttonSizeMode fill). */
  fill: boolean;
  /** The button's language, which names the element's default styles (below). */
  /** Null: none given (the element's own styles' id then ends in "null"). */
  buttonLocale: string | null;
  root: Ref<HTMLDivElement>;
  walletBox: Ref<HTMLDivElement>;
  challengeBox: Ref<HTMLDivElement>;
  onRetry(): void;
}

export function CheckoutView(p: CheckoutViewProps) {
  const { view, session, words } = p;
  const row = WIDGET_STATES[view.state];
  const card = row.showsCard && view.outcome?.card;
  return (
    <div ref={p.root} class="wc" lang={p.locale} dir={p.dir} data-checkout-state={view.state} aria-busy={!!row.busy}>
      {session && (
        <div class="summary">
          <span class="merchant" data-testid="merchant">{session.merchant_name}</span>
          <span class="amount" data-testid="amount">{formatAmount(session.amount_captured ?? session.amount, session.currency, session.currency_exponent, p.locale)}</span>
          {session.description && <p class="desc">{session.description}</p>}
        </div>
      )}
      {p.showButton && (
        <>
          {/*
            The element injects its default styles as a nonce-less <style> (which a strict
            CSP refuses) unless its root already holds an element with this id: this one
            carries the same rules, under the page's nonce.
          */}
          <style id={`default-google-style-google-pay-button-${p.buttonLocale}`} nonce={p.nonce}>
            {BUTTON_ELEMENT_CSS}
          </style>
          <div ref={p.walletBox} class={p.fill ? 'wallet fill' : 'wallet'} hidden={row.button !== 'shown'} />
        </>
      )}
      <p class="status" role="status" aria-live="polite" data-testid="status">
        {row.busy && <span class="spinner" aria-hidden="true" />}
        {words && row.words(words, view)}
        {card && <span class="card" data-testid="card">{describeCard(card)}</span>}
      </p>
      {row.challenge && view.outcome?.challenge_url && <div ref={p.challengeBox} />}
      {row.retry && (
        <button type="button" class="retry" data-testid="retry" onClick={p.onRetry}>
          {words?.retry}
        </button>
      )}
    </div>
  );
}
