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
 *
 * Test hooks (for Playwright; the sheet lives in an open shadow root on <body>):
 *   [data-testid=sandbox-wallet]             the sheet (role=dialog)
 *   input[name=sandbox-card][value=<card id>] one radio per test card
 *   input[name=sandbox-billing-address][value=<address id>] one radio per billing address (docs/test-cards.md)
 *   [data-testid=sandbox-pay]                 Pay
 *   [data-testid=sandbox-cancel]              Cancel (also Escape) -> rejects {statusCode: 'CANCELED'}
 *   [data-testid=sandbox-gpay-button]         the button made by createButton()
 */
import type { PaymentData, WalletAddress, WalletCardsReply } from '../../contracts';
import { authorizationResultProblem, buttonOptionsProblem, isReadyToPayRequestProblem, paymentDataRequestProblem } from '../../contracts/google-pay-rules';
import { usableLocale } from '../../contracts/locale';
import { cardNetworks } from '../../contracts/payment-methods';
import { builtinFetch, BuiltinPromise } from '../../common/browser/builtins';
import { type AnyRequest, sheetBody, tokenBody } from './requests';

interface PaymentAuthorizationResult {
  transactionState: 'SUCCESS' | 'ERROR';
  error?: { reason: string; intent: string; message: string };
}
interface PaymentDataCallbacks {
  onPaymentAuthorized?: (data: PaymentData) => Promise<PaymentAuthorizationResult> | PaymentAuthorizationResult;
  /** Not called by the sandbox's sheet (it offers no shipping or offers yet): only its presence is checked against callbackIntents. */
  onPaymentDataChanged?: unknown;
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
    try {
      await mayOpen(request);
    } catch (refusal) {
      sheetOpen = false;
      throw refusal;
    }
    return openSheet(request, this.nonce, authorize);
  }

  createButton(options: ButtonOptions): HTMLElement {
    // Google's createButton throws where its promises reject: the same status and message.
    const problem = buttonOptionsProblem(options);
    if (problem) throw Object.assign(new Error(problem), developerError(problem));
    const white = options.buttonColor === 'white';
    const fill = options.buttonSizeMode === 'fill';
    const radius = Number(options.buttonRadius ?? 4);
    const verb: Record<string, string> = {
      book: 'Book with', buy: 'Buy with', checkout: 'Check out with', donate: 'Donate with',
      order: 'Order with', pay: 'Pay with', subscribe: 'Subscribe with', long: 'Buy with',
    };
    const prefix = verb[options.buttonType ?? 'buy'];
    const wrap = document.createElement('div');
    wrap.style.cssText = fill ? 'width:100%;height:100%;min-height:40px;' : 'display:inline-block;';
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.testid = 'sandbox-gpay-button';
    // Google draws its label in this language; the sandbox's is English, so it keeps what it was asked for tests to read.
    if (options.buttonLocale) b.dataset.buttonLocale = options.buttonLocale;
    b.textContent = `${prefix ? prefix + ' ' : ''}G Pay`;
    b.setAttribute('aria-label', `${prefix ? prefix + ' ' : ''}Google Pay (sandbox)`);
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
.sheet { box-sizing: border-box; width: min(440px, calc(100vw - 24px)); max-height: calc(100vh - 24px); overflow: auto;
  background: #fff; border-radius: 16px; padding: 20px; box-shadow: 0 12px 40px rgba(0,0,0,.35); }
h2 { margin: 0 0 4px; font-size: 16px; }
.badge { display: inline-block; margin: 0 0 12px; padding: 2px 8px; border-radius: 6px; background: #fef7e0; color: #7a4f01; font-weight: 600; font-size: 12px; }
.total { margin: 0 0 12px; font-size: 15px; }
fieldset { border: 0; margin: 0 0 12px; padding: 0; }
legend, h3 { font-weight: 600; font-size: 13px; margin: 0 0 6px; padding: 0; color: #5f6368; }
label { display: flex; gap: 10px; align-items: flex-start; padding: 8px; border: 1px solid #dadce0; border-radius: 8px; margin-bottom: 6px; cursor: pointer; }
label:has(input:checked) { border-color: #1a73e8; background: #e8f0fe; }
label small { display: block; color: #5f6368; }
address { font-style: normal; white-space: pre-line; color: #3c4043; }
.error { color: #b3261e; margin: 0 0 12px; }
.error:empty { display: none; }
.actions { display: flex; justify-content: flex-end; gap: 8px; }
button { font: inherit; font-weight: 600; padding: 8px 18px; border-radius: 8px; cursor: pointer; border: 1px solid #dadce0; background: #fff; color: #1a73e8; }
button.pay { background: #1a73e8; border-color: #1a73e8; color: #fff; }
button:disabled { opacity: .5; cursor: default; }
:focus-visible { outline: 2px solid #1a73e8; outline-offset: 2px; }
`;

let sheetOpen = false;

type Child = Node | string | null | undefined | false;
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) if (c) node.append(c);
  return node;
}

/**
 * The sheet shows totalPrice with exactly the decimals it was given, as the
 * merchant's currency table wrote them: ICU's digits for the currency
 * (IQD 0 where ISO says 3) would show a different amount from the one charged.
 */
function formatTotal(request: AnyRequest): string {
  const t = request.transactionInfo;
  if (!t) return '';
  const decimals = t.totalPrice?.split('.')[1]?.length ?? 0;
  try {
    // The browser's language, or English where it reports none ("C": ICU's root locale would show "$ 24.00").
    return new Intl.NumberFormat(usableLocale(navigator.language) ?? 'en', { style: 'currency', currency: t.currencyCode, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(t.totalPrice as `${number}`);
  } catch {
    return `${t.totalPrice} ${t.currencyCode}`;
  }
}

function formatAddress(a: WalletAddress): string {
  const cityLine = [a.locality, a.administrativeArea, a.postalCode].filter(Boolean).join(', ');
  return [a.name, a.address1, a.address2, a.address3, cityLine, a.countryCode].filter(Boolean).join('\n');
}

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

function openSheet(request: AnyRequest, nonce: string | undefined, authorize: PaymentDataCallbacks['onPaymentAuthorized']): Promise<PaymentData> {
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
  const sheet = el(
    'div',
    { class: 'sheet', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'sw-title', 'aria-describedby': 'sw-badge', 'data-testid': 'sandbox-wallet' },
    el('h2', { id: 'sw-title' }, 'Sandbox wallet — test cards only, no real payment'),
    el('p', { class: 'badge', id: 'sw-badge' }, 'SANDBOX: no real card is charged'),
    el('p', { class: 'total' }, `Pay ${merchant ? merchant + ' ' : ''}`, el('strong', {}, formatTotal(request))),
    list,
    addresses,
    status,
    el('div', { class: 'actions' }, cancel, pay),
  );
  const backdrop = el('div', { class: 'backdrop' }, sheet);
  const style = el('style', {}, SHEET_CSS);
  if (nonce) style.nonce = nonce;
  root.append(style, backdrop);
  document.body.appendChild(host);
  cancel.focus();

  return new BuiltinPromise<PaymentData>((resolve, reject) => {
    let done = false;
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
      [...root.querySelectorAll<HTMLElement>('input[name=sandbox-card]:checked, input[name=sandbox-billing-address]:checked, button')].filter((n) => !(n as HTMLButtonElement).disabled);
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
      pay.disabled = true;
      cancel.disabled = true;
      pay.textContent = 'Paying…';
      status.textContent = '';
      let data: PaymentData;
      try {
        const body = await fetchJson<{ payment_data: PaymentData }>(`${walletOrigin}/sandbox/wallet/tokens`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: tokenBody(chosen.value, billingAddress?.value, request),
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
      // As Google's sheet: the merchant's message, and the shopper may choose again.
      status.textContent = result.error?.message ?? 'The payment could not be completed';
      pay.textContent = payLabel;
      pay.disabled = false;
      cancel.disabled = false;
      chosen.focus();
    });

    fetchJson<WalletCardsReply>(`${walletOrigin}/sandbox/wallet/cards`).then(
      ({ cards, billing_addresses }) => {
        if (done) return;
        const method = cardMethod(request);
        const networks = method?.parameters.allowedCardNetworks as string[] | undefined;
        const auths = method?.parameters.allowedAuthMethods as string[] | undefined;
        const eligible = cards.filter((c) => (!networks || networks.includes(c.network)) && (!auths || auths.includes(c.auth_method)));
        list.replaceChildren(
          el('legend', {}, 'Test card'),
          ...eligible.map((c, i) =>
            el(
              'label',
              {},
              el('input', { type: 'radio', name: 'sandbox-card', value: c.id, ...(i === 0 ? { checked: '' } : {}) }),
              el('span', {}, el('strong', {}, c.label), el('small', {}, `${c.network} •••• ${c.last4} · ${c.auth_method} · outcome: ${c.outcome}`)),
            ),
          ),
        );
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
        pay.disabled = eligible.length === 0;
        root.querySelector<HTMLInputElement>('input[name=sandbox-card]:checked')?.focus();
      },
      (err: Error) => finish({ error: paymentsError('INTERNAL_ERROR', `Could not load the sandbox test cards: ${err.message}`) }),
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
