/**
 * The Google Pay button, drawn by the wallet's own `createButton` (Google's pay.js, or the sandbox
 * wallet standing in for it), as Adyen Web's Google Pay component does: no element in between
 * (docs/architecture.md, "The wallet's button"). Created by the widget (widget-paint.ts) and kept for as
 * long as the widget shows a button: the view (view.ts) puts its box, `[data-wallet-button]`, in
 * place once and hides it while the widget shows other states; a change of options draws a new
 * button in the same box only when one of the button's own options changed.
 */
import type { PaymentData, PaymentDataRequest, WalletEnvironment } from '../../contracts';
import { productCardMethod } from '../../contracts/payment-methods';
import type { GooglePaymentCallbacks, GooglePaymentsClient } from '../../contracts/google-pay-types';
import { toJson } from '../../common/browser/builtins';
import { loadScriptOnce } from './api';
import { googleButtonLanguage, googleButtonOptions } from './button-options';
import { type AskedMethod, paymentsApi, readiness, walletHere } from './readiness';
import type { PaymentDataChange, SheetUpdate } from './quote-decide';
import type { MountOptions } from './types';

/** Google's script, loaded under the page's nonce unless a wallet (the sandbox's, or the page's own pay.js) is already here. */
const PAY_JS = 'https://pay.google.com/gp/p/js/pay.js';

/**
 * Google's PaymentAuthorizationResult: SUCCESS closes the sheet, ERROR shows `message` in it, on the
 * part `intent` names (the card, or the shipping address), and the shopper may change it and pay again.
 */
export interface SheetResult {
  transactionState: 'SUCCESS' | 'ERROR';
  error?:
    | { reason: 'PAYMENT_DATA_INVALID' | 'OTHER_ERROR'; intent: 'PAYMENT_AUTHORIZATION'; message: string }
    | { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE'; intent: 'SHIPPING_ADDRESS'; message: string };
}

export interface WalletError {
  statusCode?: string;
  statusMessage?: string;
  message?: string;
}

export interface WalletButtonSettings {
  /** The session's wallet environment (the sandbox wallet's client runs as Google's TEST). */
  environment: WalletEnvironment;
  /**
   * The session's request; none before its view is here (the plain tag, a wallet already on the page): the wallet is then
   * asked, and the button drawn, for the product's card method (contracts/payment-methods.ts), and a click waits for the view (widget.ts).
   */
  paymentRequest: PaymentDataRequest | undefined;
  options: MountOptions;
  /** The widget's language (its dictionary's tag): the button's, unless options.buttonLocale says otherwise. */
  language: string;
}

export interface WalletButtonCallbacks {
  /**
   * The wallet's answer to isReadyToPay; `paymentMethodPresent` is null where the wallet cannot say; `asSession`: the answer to
   * the session's own request (false: to the one asked before its view, which the session's replaces). Returns whether the
   * widget shows the button now: a click that waited for the session's answer then opens the sheet.
   */
  onReady(ready: boolean, paymentMethodPresent: boolean | null, asSession: boolean): boolean;
  /**
   * A click on the button before the session's view is here: the widget shows it busy, and ends the wait after CLICK_WAIT_MS
   * (mount-decide.ts). The sheet opens once the widget shows the button again on the wallet's answer to the session's own
   * request; a session past its start, or one that keeps the card (its agreement is shown first), takes this button away
   * (widget-paint.ts), and the click with it.
   */
  onEarlyClick(): void;
  /** The sheet's PAYMENT_AUTHORIZATION callback: the payment is made while the sheet stays open. */
  onPaymentAuthorized(data: PaymentData): Promise<SheetResult>;
  /** The sheet's change of address, delivery option or promotion code, for a session the backend prices; `declared`: the request's callbackIntents. */
  onPaymentDataChanged(data: PaymentDataChange, declared: readonly string[]): Promise<SheetUpdate>;
  /** The sheet returned: without the callback (a wallet that has none), the payment is made now. */
  onPaymentData(data: PaymentData): void;
  onCancel(): void;
  onError(error: WalletError): void;
}

export interface WalletButton {
  /** The button's box: the view places it; the wallet's button is drawn into it. */
  element: HTMLElement;
  /** New settings: the button is drawn again only if its own options changed; a click pays with the latest request. */
  configure(s: WalletButtonSettings): void;
}

/**
 * The button's language: the merchant's, else the widget's as Google writes it (pt-PT -> pt), else
 * (he, hu, ro, vi: not on Google's list) none, so that Google
 * draws the button in the browser's language, which is the shopper's where Google has it,
 * rather than in a language the widget chose for it and Google lacks.
 */
export const buttonLocale = (s: WalletButtonSettings): string | null => googleButtonOptions(s.options).buttonLocale ?? googleButtonLanguage(s.language) ?? null;

/**
 * The sheet's callbacks for `request`: onPaymentDataChanged wherever it declares an intent that calls
 * it (the address, the option, a promotion code: Google refuses such an intent without the callback),
 * told the declared intents so that an error it answers names one of them.
 */
export function sheetCallbacks({ callbackIntents = [] }: Pick<PaymentDataRequest, 'callbackIntents'>, on: Pick<WalletButtonCallbacks, 'onPaymentAuthorized' | 'onPaymentDataChanged'>): GooglePaymentCallbacks {
  return {
    onPaymentAuthorized: (data) => on.onPaymentAuthorized(data),
    ...(callbackIntents.some((intent) => intent !== 'PAYMENT_AUTHORIZATION') && { onPaymentDataChanged: (data) => on.onPaymentDataChanged(data, callbackIntents) }),
  };
}

/**
 * Loads the wallet if it is not here, makes a client for the session's environment and merchant, asks
 * whether it can pay, and draws its button in a box of ours. Before the session's view (no
 * `paymentRequest`) the client is made as for a sandbox session, and asked with the product's card method; the
 * session's view brings a client of its own, which asks with the session's request: the sheet is its.
 */
export function createWalletButton(first: WalletButtonSettings, on: WalletButtonCallbacks): WalletButton {
  const box = document.createElement('div');
  box.setAttribute('data-wallet-button', '');
  let settings = first;
  let client: GooglePaymentsClient | undefined;
  /** Whether the client was made for the session's request (false: for the product's card method, before its view). */
  let madeForSession: boolean | undefined;
  let drawn = '';
  /** A click before the session's view, waiting for it. */
  let clicked = false;

  async function pay() {
    try {
      // Google's PaymentData, read as the contract's: the backend parses it again (POST /pay).
      on.onPaymentData((await client!.loadPaymentData(settings.paymentRequest!)) as PaymentData);
    } catch (err) {
      failed(err);
    }
  }

  function failed(err: unknown) {
    const error = (err ?? {}) as WalletError;
    if (error.statusCode === 'CANCELED') on.onCancel();
    else on.onError(error);
  }

  const methods = (): AskedMethod[] => settings.paymentRequest?.allowedPaymentMethods ?? [productCardMethod];

  function draw() {
    const locale = buttonLocale(settings);
    const options = { ...googleButtonOptions(settings.options), buttonLocale: locale ?? undefined };
    const allowedPaymentMethods = methods();
    const wanted = toJson([options, allowedPaymentMethods]);
    // The button's language is the box's: a screen reader reads its label in it. None given: Google
    // draws it in the browser's language, which no tag of ours names.
    if (!locale) box.removeAttribute('lang');
    else if (box.lang !== locale) box.lang = locale;
    if (!client || wanted === drawn) return;
    drawn = wanted;
    const root = box.getRootNode();
    box.replaceChildren(
      client.createButton({
        ...options,
        onClick: () => void (settings.paymentRequest ? pay() : ((clicked = true), on.onEarlyClick())),
        allowedPaymentMethods: allowedPaymentMethods as google.payments.api.IsReadyToPayPaymentMethodSpecification[],
        // pay.js puts its button's styles there (under the client's nonce), not in the page's head.
        buttonRootNode: root instanceof ShadowRoot ? root : undefined,
      }),
    );
  }

  /**
   * A client for the settings' environment and request, made again when the session's view replaces the product's card
   * method (within one button, the session's environment, merchant and callbacks never change), drawn and asked.
   */
  async function update() {
    const { environment, paymentRequest } = settings;
    if (madeForSession === !!paymentRequest) return draw();
    madeForSession = !!paymentRequest;
    const asking = (client = new (paymentsApi()!.PaymentsClient!)({
      environment: environment === 'SANDBOX' ? 'TEST' : environment,
      merchantInfo: paymentRequest?.merchantInfo,
      nonce: settings.options.nonce,
      paymentDataCallbacks: sheetCallbacks(paymentRequest ?? {}, on),
    }));
    // Drawn before the answer, hidden by the widget's state until then: the answer shows it at once.
    draw();
    const { ready, paymentMethodPresent } = await readiness(asking, methods(), environment !== 'TEST');
    // A newer client asks its own question.
    if (!box.isConnected || asking !== client) return;
    if (ready && paymentRequest) asking.prefetchPaymentData(paymentRequest);
    // A click is only taken once the first answer has shown the button: the session's answer opens the sheet it waited for.
    if (on.onReady(ready, paymentMethodPresent, !!paymentRequest) && clicked) void pay();
  }

  // Awaited even when the wallet is here: the view has placed the box by then, so pay.js sees its shadow root.
  const loaded = (async () => walletHere() || loadScriptOnce(PAY_JS, settings.options.nonce))();
  const updated = () => void loaded.then(update).catch(failed);
  updated();

  return {
    element: box,
    configure(next) {
      settings = next;
      updated();
    },
  };
}
