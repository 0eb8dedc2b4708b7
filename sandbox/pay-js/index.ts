/**
 * Sandbox wallet (dist/web/sandbox-wallet.js): a stand-in for Google's pay.js.
 *
 * Defines `google.payments.api.PaymentsClient` (unless one already exists) with
 * Google's surface: constructor({environment, nonce}), isReadyToPay, loadPaymentData,
 * createButton, prefetchPaymentData. loadPaymentData opens a modal sheet that
 * lists the test cards and billing addresses of `GET {walletOrigin}/sandbox/wallet/cards` and, on
 * Pay, has the server mint a real ECv2 token: `POST {walletOrigin}/sandbox/wallet/tokens`
 * `{card_id, billing_address_id, payment_data_request}` -> `{payment_data}`. walletOrigin is the
 * origin this script was loaded from.
 *
 * As pay.js: a platform's request is checked as the sheet opens (`POST
 * /sandbox/wallet/sheets`: the authJwt against the top-level page's site);
 * the Pay button reads "Pay" for COMPLETE_IMMEDIATE_PURCHASE, "Continue"
 * otherwise; with the PAYMENT_AUTHORIZATION intent the client's
 * `paymentDataCallbacks.onPaymentAuthorized` decides in the sheet: SUCCESS
 * closes it, ERROR shows `error.message` and lets the shopper choose again.
 * A request for express checkout (shipping, delivery options, offers, line
 * items) gets Google's express sheet, which calls `onPaymentDataChanged` as
 * Google's does (express.ts, drawn by express-view.ts); the token endpoint
 * is also sent the shopper's choices, for the full PaymentData.
 *
 * Test hooks (for Playwright; the sheet lives in an open shadow root on <body>):
 *   [data-testid=sandbox-wallet]             the sheet (role=dialog)
 *   input[name=sandbox-card][value=<card id>] one radio per test card, in [data-testid=sandbox-card-group-<group>] (WalletCardGroup)
 *   input[name=sandbox-billing-address][value=<address id>] one radio per billing address (docs/test-cards.md)
 *   [data-testid=sandbox-pay]                 Pay
 *   [data-testid=sandbox-cancel]              Cancel (also Escape) -> rejects {statusCode: 'CANCELED'}
 *   [data-testid=sandbox-gpay-button]         the button made by createButton(), in its buttonLocale (button-words.ts)
 *   express checkout's hooks: web/README.md, "Sandbox wallet sheet"
 */
import type { PaymentData, WalletCardGroup, WalletCardsReply } from '../../contracts';
import { authorizationResultProblem, buttonOptionsProblem, isReadyToPayRequestProblem, paymentDataRequestProblem } from '../../contracts/google-pay-rules';
import { cardNetworks } from '../../contracts/payment-methods';
import { builtinFetch, BuiltinPromise } from '../../common/browser/builtins';
import { el, formatAddress, priceIn } from './dom';
import { authorizationRefused, change, type Change, type ExpressRequest, expressChoices, expressModel, type IntermediatePaymentData, mayPay, settle } from './express';
import { askMerchant } from './merchant-call';
import { buttonWords } from './button-words';
import { directionOfLocale } from '../../common/browser/amount-direction';
import { drawExpress, isExpress } from './express-view';
import { type AnyRequest, sheetBody, tokenBody } from './requests';
import { futurePart } from './future-view';

interface PaymentAuthorizationResult {
  transactionState: 'SUCCESS' | 'ERROR';
  error?: { reason: string; intent: string; message: string };
}
interface PaymentDataCallbacks {
  onPaymentAuthorized?: (data: PaymentData) => Promise<PaymentAuthorizationResult> | PaymentAuthorizationResult;
  /** Called as Google calls it (express.ts): INITIALIZE, then once per change of a part whose intent the request declared. */
  onPaymentDataChanged?: (data: IntermediatePaymentData) => Promise<unknown> | unknown;
}
interface PaymentsError {
  statusCode: 'CANCELED' | 'DEVELOPER_ERROR' | 'INTERNAL_ERROR' | 'BUYER_ACCOUNT_ERROR';
  statusMessage: string;
}
interface ButtonOptions {
  onClick: (event: Event) => void;
  buttonColor?: 'default' | 'black' | 'white';
  buttonType?: string;
  buttonRadius?: number | string;
  buttonSizeMode?: 'static' | 'fill';
  buttonLocale?: string;
}

const walletOrigin = (() => {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  try {
    if (src) return new URL(src).origin;
  } catch {
    // fall through
  }
  return location.origin;
})();

const paymentsError = (statusCode: PaymentsError['statusCode'], statusMessage: string): PaymentsError => ({ statusCode, statusMessage });

const cardMethod = (req: AnyRequest) => req.allowedPaymentMethods?.find((m) => m?.type === 'CARD');

/**
 * Google's client refuses a request, an option or a callback's reply that breaks its documented
 * rules with DEVELOPER_ERROR (contracts/google-pay-rules.ts, docs/google-pay-rules.md).
 */
const developerError = (problem: string): PaymentsError => paymentsError('DEVELOPER_ERROR', problem);

class PaymentsClient {
  readonly environment: string;
  /** The page's CSP nonce, as Google's client takes it: the sheet's styles carry it. */
  readonly nonce: string | undefined;
  readonly callbacks: PaymentDataCallbacks;

  constructor(options: { environment?: string; nonce?: string; paymentDataCallbacks?: PaymentDataCallbacks } = {}) {
    this.environment = options.environment ?? 'TEST';
    this.nonce = options.nonce;
    this.callbacks = options.paymentDataCallbacks ?? {};
    if (!['TEST', 'PRODUCTION'].includes(this.environment)) throw new Error(`Unsupported environment: ${this.environment}`);
  }

  // Async functions: their promises are the engine's own, whatever the page made of `Promise`.
  async isReadyToPay(request: AnyRequest): Promise<{ result: boolean; paymentMethodPresent?: boolean }> {
    const problem = isReadyToPayRequestProblem(request);
    if (problem) throw developerError(problem);
    // Ready where the sandbox holds a card the request allows: its test cards are of the checkout's own networks.
    const networks: readonly string[] = cardMethod(request)?.parameters?.allowedCardNetworks ?? [];
    const result = networks.some((network) => (cardNetworks as readonly string[]).includes(network));
    return request.existingPaymentMethodRequired ? { result, paymentMethodPresent: result } : { result };
  }

  async loadPaymentData(request: AnyRequest): Promise<PaymentData> {
    const callbacks = { onPaymentAuthorized: typeof this.callbacks.onPaymentAuthorized === 'function', onPaymentDataChanged: typeof this.callbacks.onPaymentDataChanged === 'function' };
    const problem = paymentDataRequestProblem(request, { environment: this.environment, callbacks });
    if (problem) throw developerError(problem);
    if (sheetOpen) throw developerError('A payment sheet is already open');
    sheetOpen = true;
    const authorize = request.callbackIntents?.includes('PAYMENT_AUTHORIZATION') ? this.callbacks.onPaymentAuthorized : undefined;
    const onChanged = this.callbacks.onPaymentDataChanged;
    try {
      await mayOpen(request);
    } catch (refusal) {
      sheetOpen = false;
      throw refusal;
    }
    return openSheet(request, this.nonce, authorize, onChanged);
  }

  createButton(options: ButtonOptions): HTMLElement {
    // Google's createButton throws where its promises reject: the same status and message.
    const problem = buttonOptionsProblem(options);
    if (problem) throw Object.assign(new Error(problem), developerError(problem));
    const white = options.buttonColor === 'white';
    const fill = options.buttonSizeMode === 'fill';
    const radius = Number(options.buttonRadius ?? 4);
    const wrap = document.createElement('div');
    wrap.style.cssText = fill ? 'width:100%;height:100%;min-height:40px;' : 'display:inline-block;';
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.testid = 'sandbox-gpay-button';
    // In the language asked for, as Google draws its button (button-words.ts); the attribute keeps what was asked, for tests to read.
    if (options.buttonLocale) b.dataset.buttonLocale = options.buttonLocale;
    const words = buttonWords(options.buttonType, options.buttonLocale);
    b.lang = words.lang;
    b.dir = directionOfLocale(words.lang);
    b.textContent = words.text;
    b.setAttribute('aria-label', `${words.label} (sandbox)`);
    b.title = 'Sandbox wallet: test cards only, no real payment';
    b.style.cssText = [
      'font: 500 15px/1 system-ui, sans-serif', 'cursor: pointer', 'padding: 0 24px',
      `min-width: 160px; height: ${fill ? '100%' : '40px'}; width: ${fill ? '100%' : 'auto'}`,
      `border-radius: ${Number.isFinite(radius) ? radius : 4}px`,
      white ? 'background:#fff;color:#3c4043;border:1px solid #747775' : 'background:#000;color:#fff;border:1px solid #000',
    ].join(';');
    b.addEventListener('click', (e) => options.onClick(e));
    wrap.appendChild(b);
    return wrap;
  }

  prefetchPaymentData(_request?: unknown): void {}
}

// ---------------------------------------------------------------------------
// The payment sheet

const SHEET_CSS = `
:host { all: initial; }
.backdrop { position: fixed; inset: 0; z-index: 2147483647; display: flex; align-items: center; justify-content: center;
  background: rgba(32,33,36,.55); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f1f1f; }
/* Pay and Cancel stay on screen however many cards there are: the sheet's body scrolls, its footer does not. */
.sheet { box-sizing: border-box; width: min(440px, calc(100vw - 24px)); max-height: calc(100vh - 24px); display: flex; flex-direction: column;
  background: #fff; border-radius: 16px; box-shadow: 0 12px 40px rgba(0,0,0,.35); overflow: hidden; }
.body { overflow: auto; min-height: 0; padding: 20px 20px 8px; }
.footer { flex: none; padding: 12px 20px 16px; border-top: 1px solid #dadce0; }
.group { margin: 0 0 8px; }
.group legend { font-weight: 500; color: #3c4043; }
h2 { margin: 0 0 4px; font-size: 16px; }
.badge { display: inline-block; margin: 0 0 12px; padding: 2px 8px; border-radius: 6px; background: #fef7e0; color: #7a4f01; font-weight: 600; font-size: 12px; }
.total { margin: 0 0 12px; font-size: 15px; }
fieldset { border: 0; margin: 0 0 12px; padding: 0; }
legend, h3 { font-weight: 600; font-size: 13px; margin: 0 0 6px; padding: 0; color: #5f6368; }
label { display: flex; gap: 10px; align-items: flex-start; padding: 8px; border: 1px solid #dadce0; border-radius: 8px; margin-bottom: 6px; cursor: pointer; }
label:has(input:checked) { border-color: #1a73e8; background: #e8f0fe; }
label small { display: block; color: #5f6368; }
address { font-style: normal; white-space: pre-line; color: #3c4043; }
.error { color: #b3261e; margin: 0 0 8px; }
.error:empty { display: none; }
.actions { display: flex; justify-content: flex-end; gap: 8px; }
button { font: inherit; font-weight: 600; padding: 8px 18px; border-radius: 8px; cursor: pointer; border: 1px solid #dadce0; background: #fff; color: #1a73e8; }
button.pay { background: #1a73e8; border-color: #1a73e8; color: #fff; }
button:disabled { opacity: .5; cursor: default; }
.items { width: 100%; border-collapse: collapse; margin: 0 0 12px; }
.items caption { text-align: left; font-weight: 600; font-size: 13px; color: #5f6368; margin-bottom: 4px; }
.items th { text-align: left; font-weight: 400; }
.items td { text-align: right; }
.items tr:last-child { font-weight: 600; border-top: 1px solid #dadce0; }
.express ul { margin: 0 0 6px; padding-left: 18px; }
.code { display: flex; gap: 8px; }
.code input { flex: 1; font: inherit; padding: 6px 8px; border: 1px solid #dadce0; border-radius: 8px; }
:focus-visible { outline: 2px solid #1a73e8; outline-offset: 2px; }
`;

let sheetOpen = false;

function deepActiveElement(): HTMLElement | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a instanceof HTMLElement ? a : null;
}

async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await builtinFetch(url, { credentials: 'omit', cache: 'no-store', ...init });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.error?.message ?? `The sandbox wallet server answered ${res.status}`);
  return body as T;
}

/** The page the shopper sees, as Google would: the top-level one, when the wallet runs in a frame. */
function topLevelOrigin(): string {
  const ancestors = location.ancestorOrigins;
  return ancestors && ancestors.length > 0 ? (ancestors[ancestors.length - 1] ?? location.origin) : location.origin;
}

/** Google's check of the merchant as the sheet opens: a platform's authJwt must vouch for this site. */
async function mayOpen(request: AnyRequest): Promise<void> {
  const res = await builtinFetch(`${walletOrigin}/sandbox/wallet/sheets`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json' },
    body: sheetBody(request, topLevelOrigin()),
  }).catch(() => null);
  if (!res) throw paymentsError('INTERNAL_ERROR', 'The sandbox wallet server could not be reached');
  if (res.ok) return;
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  throw paymentsError('DEVELOPER_ERROR', body?.error?.message ?? `The sandbox wallet refused the merchant (${res.status})`);
}

function openSheet(request: AnyRequest, nonce: string | undefined, authorize: PaymentDataCallbacks['onPaymentAuthorized'], onChanged: PaymentDataCallbacks['onPaymentDataChanged']): Promise<PaymentData> {
  const returnFocus = deepActiveElement();
  const host = el('div', { 'data-sandbox-wallet-host': '' });
  const root = host.attachShadow({ mode: 'open' });

  const status = el('p', { class: 'error', role: 'alert' });
  const list = el('fieldset', {}, el('legend', {}, 'Test card'), 'Loading test cards…');
  const addresses = el('fieldset', {}, el('legend', {}, 'Billing address'));
  const cancel = el('button', { type: 'button', 'data-testid': 'sandbox-cancel' }, 'Cancel');
  // Google's wording: "Pay" when the merchant completes the purchase at once, "Continue" when the page has a step left.
  const payLabel = request.transactionInfo?.checkoutOption === 'COMPLETE_IMMEDIATE_PURCHASE' ? 'Pay' : 'Continue';
  const pay = el('button', { type: 'button', class: 'pay', 'data-testid': 'sandbox-pay', disabled: '' }, payLabel);
  const merchant = request.merchantInfo?.merchantName;
  const express = request as ExpressRequest;
  const expressPart = isExpress(express) ? el('div', { class: 'express' }) : undefined;
  const summary =
    futurePart(request, merchant) ??
    (expressPart ? el('p', { class: 'total' }, `Pay ${merchant ?? ''}`) : el('p', { class: 'total' }, `Pay ${merchant ? merchant + ' ' : ''}`, priceIn('strong', request.transactionInfo?.totalPrice, request.transactionInfo?.currencyCode)));
  const sheet = el(
    'div',
    { class: 'sheet', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'sw-title', 'aria-describedby': 'sw-badge', 'data-testid': 'sandbox-wallet' },
    el(
      'div',
      { class: 'body' },
      el('h2', { id: 'sw-title' }, 'Sandbox wallet — test cards only, no real payment'),
      el('p', { class: 'badge', id: 'sw-badge' }, 'SANDBOX: no real card is charged'),
      summary,
      expressPart,
      list,
      addresses,
    ),
    el('div', { class: 'footer' }, status, el('div', { class: 'actions' }, cancel, pay)),
  );
  const backdrop = el('div', { class: 'backdrop' }, sheet);
  const style = el('style', {}, SHEET_CSS);
  if (nonce) style.nonce = nonce;
  root.append(style, backdrop);
  document.body.appendChild(host);
  cancel.focus();

  return new BuiltinPromise<PaymentData>((resolve, reject) => {
    let done = false;
    let paying = false;
    let hasCards = false;
    let cards: WalletCardsReply['cards'] = [];
    let model = expressModel(express, []);
    const refreshPay = () => {
      pay.disabled = paying || !hasCards || (expressPart !== undefined && !mayPay(model, express));
      // The shopper's choices are the token's once Pay is pressed.
      if (expressPart) expressPart.inert = paying;
    };
    const chosenCard = () => {
      const input = root.querySelector<HTMLInputElement>('input[name=sandbox-card]:checked');
      return input ? cards.find((card) => card.id === input.value) : undefined;
    };
    const redraw = () => {
      if (expressPart) drawExpress(expressPart, model, express, onShopperChange);
      refreshPay();
    };
    /** The shopper's change, and the merchant's reply to it when the request declared its intent: only the latest change's reply applies. */
    async function onShopperChange(what: Change) {
      const card = chosenCard();
      const changed = change(model, express, what, card && { cardNetwork: card.network, cardDetails: card.last4 });
      model = changed.model;
      redraw();
      if (!changed.data || !onChanged) return;
      const reply = await askMerchant(onChanged, changed.data);
      if (done) return;
      const settled = settle(model, express, changed.model.changes, what.trigger, reply);
      if ('problem' in settled) return finish({ error: developerError(settled.problem) });
      model = settled.model;
      redraw();
    }
    const finish = (result: { data: PaymentData } | { error: PaymentsError }) => {
      if (done) return;
      done = true;
      sheetOpen = false;
      host.remove();
      document.removeEventListener('keydown', onKey, true);
      returnFocus?.focus?.();
      if ('data' in result) resolve(result.data);
      else reject(result.error);
    };
    const cancelSheet = () => finish({ error: paymentsError('CANCELED', 'User closed the Payment Request UI.') });

    // Keyboard: Escape cancels; Tab stays inside the sheet.
    const focusables = () =>
      [...root.querySelectorAll<HTMLElement>('input[type=radio]:checked, input[type=text], button')].filter((n) => !(n as HTMLButtonElement).disabled);
    function onKey(e: KeyboardEvent) {
      if (e.key === 'Escape') {
        e.preventDefault();
        cancelSheet();
      } else if (e.key === 'Tab') {
        const items = focusables();
        if (items.length === 0) return;
        const i = items.indexOf(root.activeElement as HTMLElement);
        const next = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : i === -1 || i === items.length - 1 ? 0 : i + 1;
        e.preventDefault();
        items[next]?.focus();
      }
    }
    document.addEventListener('keydown', onKey, true);
    backdrop.addEventListener('click', (e) => {
      if (e.target === backdrop) cancelSheet();
    });
    cancel.addEventListener('click', cancelSheet);

    pay.addEventListener('click', async () => {
      const chosen = root.querySelector<HTMLInputElement>('input[name=sandbox-card]:checked');
      const billingAddress = root.querySelector<HTMLInputElement>('input[name=sandbox-billing-address]:checked');
      if (!chosen) return;
      paying = true;
      refreshPay();
      cancel.disabled = true;
      pay.textContent = 'Paying…';
      status.textContent = '';
      let data: PaymentData;
      try {
        const body = await fetchJson<{ payment_data: PaymentData }>(`${walletOrigin}/sandbox/wallet/tokens`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: tokenBody(chosen.value, billingAddress?.value, request, expressPart ? expressChoices(model, express) : {}),
        });
        data = body.payment_data;
      } catch (err) {
        return finish({ error: paymentsError('INTERNAL_ERROR', (err as Error).message || 'The sandbox wallet could not create a token') });
      }
      if (!authorize) return finish({ data });
      let result: PaymentAuthorizationResult;
      try {
        result = await authorize(data);
      } catch {
        result = { transactionState: 'ERROR', error: { reason: 'OTHER_ERROR', intent: 'PAYMENT_AUTHORIZATION', message: 'The merchant could not complete the payment' } };
      }
      const resultProblem = authorizationResultProblem(result, request);
      if (resultProblem) return finish({ error: developerError(resultProblem) });
      if (result.transactionState === 'SUCCESS') return finish({ data });
      // As Google's sheet: the merchant's message, on the part it names or beside Pay, and the shopper may choose again.
      const refused = expressPart && result.error ? authorizationRefused(model, result.error) : undefined;
      if (refused) {
        model = refused;
        redraw();
      } else status.textContent = result.error?.message ?? 'The payment could not be completed';
      pay.textContent = payLabel;
      paying = false;
      refreshPay();
      cancel.disabled = false;
      chosen.focus();
    });

    fetchJson<WalletCardsReply>(`${walletOrigin}/sandbox/wallet/cards`).then(
      ({ cards: offered, billing_addresses, shipping_addresses }) => {
        if (done) return;
        cards = offered;
        const method = cardMethod(request);
        const networks = method?.parameters.allowedCardNetworks as string[] | undefined;
        const auths = method?.parameters.allowedAuthMethods as string[] | undefined;
        const eligible = offered.filter((c) => (!networks || networks.includes(c.network)) && (!auths || auths.includes(c.auth_method)));
        list.replaceChildren(el('legend', {}, 'Test card'), ...cardGroups(eligible));
        if (eligible.length === 0) list.append("No test card matches this request's card networks and auth methods.");
        addresses.replaceChildren(
          el('legend', {}, 'Billing address'),
          ...billing_addresses.map((choice, i) =>
            el(
              'label',
              {},
              el('input', { type: 'radio', name: 'sandbox-billing-address', value: choice.id, ...(i === 0 ? { checked: '' } : {}) }),
              el('span', {}, el('strong', {}, choice.label), el('address', {}, formatAddress(choice.address))),
            ),
          ),
        );
        hasCards = eligible.length > 0;
        model = expressModel(express, shipping_addresses);
        redraw();
        root.querySelector<HTMLInputElement>('input[name=sandbox-card]:checked')?.focus();
        if (expressPart) void onShopperChange({ trigger: 'INITIALIZE' });
      },
      (err: Error) => finish({ error: paymentsError('INTERNAL_ERROR', `Could not load the sandbox test cards: ${err.message}`) }),
    );
  });
}

/** The card list's groups, in this order, each under its heading (the label already says network, last digits, variant and outcome). */
const CARD_GROUPS: Record<WalletCardGroup, string> = {
  success: 'Payments that succeed',
  decline: 'Declines',
  three_ds: '3-D Secure',
  after_payment: 'After the payment: a late issuer, holds, refunds, disputes',
  address_verification: 'Address verification',
  merchant_initiated: "Kept cards: the merchant's later charges",
};

/** One fieldset per group that has a card, the first card checked. */
function cardGroups(cards: WalletCardsReply['cards']): HTMLElement[] {
  const first = cards[0]?.id;
  return (Object.keys(CARD_GROUPS) as WalletCardGroup[]).flatMap((group) => {
    const inGroup = cards.filter((card) => card.group === group);
    if (inGroup.length === 0) return [];
    return el(
      'fieldset',
      { class: 'group', 'data-testid': `sandbox-card-group-${group}` },
      el('legend', {}, CARD_GROUPS[group]),
      ...inGroup.map((card) =>
        el('label', {}, el('input', { type: 'radio', name: 'sandbox-card', value: card.id, ...(card.id === first ? { checked: '' } : {}) }), el('span', {}, card.label)),
      ),
    );
  });
}

// ---------------------------------------------------------------------------

type Ns = { payments?: { api?: { PaymentsClient?: unknown } } };
const w = window as unknown as { google?: Ns };
const google = (w.google ??= {});
const payments = (google.payments ??= {});
const api = (payments.api ??= {});
if (!api.PaymentsClient) api.PaymentsClient = PaymentsClient;
