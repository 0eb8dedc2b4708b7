/**
 * The widget's one view: every state drawn from its row of the state table (states.ts), with no
 * state of its own (widget.ts owns the state, and widget-paint.ts draws this on every change). Plain DOM, not
 * Preact: the view is a dozen elements whose places never change, so the first script need not
 * carry a framework to draw them (docs/architecture.md, "The widget: a first script, and
 * chunks"). Each element is made once and kept, and only what changed is written: the wallet's
 * button is never moved or re-created by a change of state, and the status line, a live
 * region, is rewritten only when its words change.
 */
import type { PublicSession } from '../../contracts';
import { showAmount } from '../../common/browser/amount-direction';
import { amountText, describeCard } from './format';
import type { Words } from './locales';
import { type View, WIDGET_STATES } from './states';

export interface CheckoutViewProps {
  view: View;
  session: PublicSession | null;
  /** The wallet button's box (wallet-button.ts) while the wallet is loaded and the session is payable here: it goes in the wallet's box. */
  button: HTMLElement | null;
  /** The words at hand (locales/load.ts); a state whose words are not here yet has a blank status line for those few ms, never another language's. */
  words: Words | undefined;
  /** BCP 47 tag of the widget's language and number format. */
  locale: string;
  dir: 'ltr' | 'rtl';
  /** The button fills the widget's width (buttonSizeMode fill). */
  fill: boolean;
  /** A session that keeps the card, once its words are here. */
  saving?: SavingView | undefined;
}

/** What a session that keeps the card shows beside the amount: the agreement the shopper gives by paying, and, for a setup, that nothing is charged today. */
export interface SavingView {
  agreement: string | undefined;
  nothingToday: string | undefined;
}

export interface CheckoutViewHandlers {
  /** The 3-D Secure dialog's box was drawn (an `authenticating` view with a challenge), or taken away (null). */
  challengeBox(box: HTMLDivElement | null): void;
  onRetry(): void;
}

export interface CheckoutView {
  /** The view's root (`.wc[data-checkout-state]`), in `container` from the first draw. */
  root: HTMLDivElement;
  draw(props: CheckoutViewProps): void;
  remove(): void;
}

/** `tag` with its attributes (`class` included). */
function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  return el;
}

/** Writes an attribute only when it changes (a live region announces every write). */
function attribute(el: Element, name: string, value: string) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

function text(node: Node, value: string) {
  if (node.textContent !== value) node.textContent = value;
}

/** Makes `parent`'s children exactly the nodes given, in order, without moving any that stays (a moved button would lose the shopper's focus). */
function children(parent: Node, nodes: (Node | false | null | undefined)[]) {
  const wanted = nodes.filter((node): node is Node => !!node);
  for (const child of [...parent.childNodes]) if (!wanted.includes(child)) parent.removeChild(child);
  let next: Node | null = null;
  for (const node of wanted.reverse()) {
    if (node.parentNode !== parent || node.nextSibling !== next) parent.insertBefore(node, next);
    next = node;
  }
}

export function checkoutView(container: HTMLElement, on: CheckoutViewHandlers): CheckoutView {
  const root = element('div', { class: 'wc' });
  const summary = element('div', { class: 'summary' });
  const merchant = element('span', { class: 'merchant', 'data-testid': 'merchant' });
  const amount = element('span', { class: 'amount', 'data-testid': 'amount' });
  const desc = element('p', { class: 'desc' });
  const nothingToday = element('p', { class: 'desc', 'data-testid': 'nothing-today' });
  const agreement = element('p', { class: 'desc agreement', 'data-testid': 'agreement' });
  const wallet = element('div');
  // Named, so that a page's own status region and ours are told apart (getByRole('status', { name })). English in
  // every language: the dictionaries have no word for it yet, and the first script carries none but English's.
  const status = element('p', { class: 'status', role: 'status', 'aria-live': 'polite', 'aria-label': 'Payment status', 'data-testid': 'status' });
  const spinner = element('span', { class: 'spinner', 'aria-hidden': 'true' });
  const words = document.createTextNode('');
  const card = element('span', { class: 'card', 'data-testid': 'card' });
  const retry = element('button', { type: 'button', class: 'retry', 'data-testid': 'retry' });
  retry.onclick = () => on.onRetry();
  let challenge: HTMLDivElement | null = null;

  return {
    root,
    draw(p) {
      const { view, session } = p;
      const row = WIDGET_STATES[view.state];
      attribute(root, 'lang', p.locale);
      attribute(root, 'dir', p.dir);
      attribute(root, 'data-checkout-state', view.state);
      attribute(root, 'aria-busy', String(!!row.busy));

      if (session) {
        text(merchant, session.merchant_name);
        // In the widget's direction (its language's, the amount's too), its symbol isolated: Arabic's "US$" stays whole.
        showAmount(amount, amountText(session, p.locale), p.dir);
        text(desc, session.description ?? '');
        const saving = p.saving;
        text(nothingToday, saving?.nothingToday ?? '');
        text(agreement, saving?.agreement ?? '');
        children(summary, [merchant, amount, !!session.description && desc, !!saving?.nothingToday && nothingToday, !!saving?.agreement && agreement]);
      }

      if (p.button) {
        attribute(wallet, 'class', p.fill ? 'wallet fill' : 'wallet');
        const hidden = row.button !== 'shown';
        if (wallet.hidden !== hidden) wallet.hidden = hidden;
        if (p.button.parentNode !== wallet) wallet.appendChild(p.button);
      }

      const cardOf = row.showsCard && view.outcome?.card;
      text(words, (p.words && row.words(p.words, view)) || '');
      if (cardOf) text(card, describeCard(cardOf));
      children(status, [!!row.busy && spinner, !!words.data && words, !!cardOf && card]);

      // A new box for each challenge the view shows, as the dialog opened in it is closed with it.
      const wantsChallenge = !!row.challenge && !!view.outcome?.challenge_url;
      const opening = wantsChallenge && !challenge && element('div');
      const closing = !wantsChallenge && !!challenge;
      if (opening) challenge = opening;
      else if (closing) challenge = null;
      if (row.retry) text(retry, p.words?.retry ?? '');

      children(root, [!!session && summary, !!p.button && wallet, status, challenge, !!row.retry && retry]);
      if (root.parentNode !== container) container.appendChild(root);
      if (closing) on.challengeBox(null);
      if (opening) on.challengeBox(opening);
    },
    remove() {
      root.remove();
    },
  };
}
