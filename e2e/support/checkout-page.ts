/**
 * A shopper's view of one embedded checkout: the widget, the sandbox wallet
 * sheet, and what the merchant's server can ask about the session. Specs talk
 * to the checkout only through this, so a selector changes in one place.
 */
import { type FrameLocator, type Locator, type Page, expect } from '@playwright/test';
import type { CheckoutEventDetails, CheckoutEventName, CheckoutState } from '../../web/checkout/types';
import type { PaymentData, PaymentDataRequest, Session } from '../../contracts';
import type { TestServer } from '../../testing/harness';

/** A record rather than a list: the compiler insists every event the widget declares is recorded. */
const recorded: Record<CheckoutEventName, true> = {
  'checkout:ready': true,
  'checkout:success': true,
  'checkout:decline': true,
  'checkout:error': true,
  'checkout:cancel': true,
};

/** Every event the widget dispatches, for a page that records them itself (the engine flows' merchant page). */
export const CHECKOUT_EVENT_NAMES = Object.keys(recorded) as CheckoutEventName[];

type RecordedEvent = { [K in CheckoutEventName]: { type: K; detail: CheckoutEventDetails[K] } }[CheckoutEventName];

/**
 * Records every checkout event from the first script on: the widget
 * dispatches bubbling, composed events on the mount element, so listening on
 * the document sees them as a host page would, including ones fired before a
 * test could attach a listener.
 */
export async function recordCheckoutEvents(page: Page): Promise<void> {
  await page.addInitScript((names: readonly string[]) => {
    const log: { type: string; detail: unknown }[] = [];
    (window as unknown as { __checkoutEvents: typeof log }).__checkoutEvents = log;
    for (const name of names) document.addEventListener(name, (event) => log.push({ type: event.type, detail: (event as CustomEvent).detail }));
  }, CHECKOUT_EVENT_NAMES);
}

/** The details of every `type` event the page has seen so far, oldest first. */
export async function checkoutEvents<K extends CheckoutEventName>(page: Page, type: K): Promise<CheckoutEventDetails[K][]> {
  const all = await page.evaluate(() => (window as unknown as { __checkoutEvents: RecordedEvent[] }).__checkoutEvents);
  // The record holds what the widget dispatched under `type`, so its detail is that event's.
  return all.filter((event) => event.type === type).map((event) => event.detail as CheckoutEventDetails[K]);
}

/** What the wallet produced for one payment, as seen on the wire from the page. */
export interface WalletPayment {
  /** The request the page handed the wallet (after anything the page did to it). */
  request: PaymentDataRequest;
  paymentData: PaymentData;
  /** The backend's status code for the widget's POST /pay. */
  payStatus: number;
}

export class CheckoutPage {
  readonly widget: Locator;

  constructor(
    readonly page: Page,
    private readonly server: TestServer,
    /** The session and the secret key of the merchant that created it. */
    readonly merchant: { sessionId: string; secretKey: string },
  ) {
    this.widget = page.locator('[data-checkout-state]');
  }

  testId(id: 'amount' | 'merchant' | 'status' | 'card' | 'retry' | 'agreement' | 'nothing-today'): Locator {
    return this.page.locator(`[data-testid=${id}]`);
  }

  async expectState(state: CheckoutState): Promise<void> {
    await expect(this.widget).toHaveAttribute('data-checkout-state', state);
  }

  /** Opens the sandbox sheet from the widget's Google Pay button. */
  async openWallet(): Promise<Locator> {
    await this.expectState('ready');
    await this.page.locator('[data-testid=sandbox-gpay-button]').click();
    const sheet = this.page.locator('[data-testid=sandbox-wallet]');
    await expect(sheet).toBeVisible();
    return sheet;
  }

  /**
   * Pays with a sandbox card (and one of the sheet's billing addresses, the first by default: docs/test-cards.md),
   * returning the token the wallet minted and the backend's answer to /pay.
   */
  async payWith(cardId: string, billingAddressId?: string): Promise<WalletPayment> {
    await this.openWallet();
    return this.payInOpenSheet(cardId, billingAddressId);
  }

  /** The sheet the wallet keeps open (after a decline shown in it): pays again with another card. */
  async payInOpenSheet(cardId: string, billingAddressId?: string): Promise<WalletPayment> {
    await this.page.locator(`input[name=sandbox-card][value="${cardId}"]`).check();
    if (billingAddressId) await this.page.locator(`input[name=sandbox-billing-address][value="${billingAddressId}"]`).check();
    const minted = this.page.waitForResponse((r) => r.url().endsWith('/sandbox/wallet/tokens') && r.request().method() === 'POST');
    const paid = this.page.waitForResponse((r) => r.url().endsWith(`/api/sessions/${this.merchant.sessionId}/pay`) && r.request().method() === 'POST');
    await this.page.locator('[data-testid=sandbox-pay]').click();
    const tokenResponse = await minted;
    const request = (tokenResponse.request().postDataJSON() as { payment_data_request: PaymentDataRequest }).payment_data_request;
    const { payment_data: paymentData } = (await tokenResponse.json()) as { payment_data: PaymentData };
    return { request, paymentData, payStatus: (await paid).status() };
  }

  /** The bank's 3-D Secure dialog over the page, and the sandbox challenge page in its frame. */
  challenge(): { dialog: Locator; frame: FrameLocator; cancel: Locator } {
    const dialog = this.page.locator('[data-testid=challenge]');
    return { dialog, frame: this.page.frameLocator('[data-testid=challenge-frame]'), cancel: dialog.locator('[data-testid=challenge-cancel]') };
  }

  /** The open sheet, and the message the wallet shows in it (a decline the widget sent back into it). */
  sheet(): { sheet: Locator; message: Locator; pay: Locator } {
    const sheet = this.page.locator('[data-testid=sandbox-wallet]');
    return { sheet, message: sheet.getByRole('alert'), pay: sheet.locator('[data-testid=sandbox-pay]') };
  }

  async cancelWallet(): Promise<void> {
    const sheet = await this.openWallet();
    await this.page.locator('[data-testid=sandbox-cancel]').click();
    await expect(sheet).toBeHidden();
  }

  events<K extends CheckoutEventName>(type: K): Promise<CheckoutEventDetails[K][]> {
    return checkoutEvents(this.page, type);
  }

  /** The merchant's server confirming the outcome, as the README tells merchants to: never trusting the browser. */
  merchantView(): Promise<Session> {
    return merchantView(this.server, this.merchant);
  }
}

/** What the merchant's server reads of a session with its secret key (GET /api/sessions/{id}). */
export async function merchantView(server: TestServer, merchant: { sessionId: string; secretKey: string }): Promise<Session> {
  const response = await fetch(`${server.url}/api/sessions/${encodeURIComponent(merchant.sessionId)}`, {
    headers: { authorization: `Bearer ${merchant.secretKey}` },
  });
  expect(response.status, 'GET /api/sessions/{id} with the secret key').toBe(200);
  return (await response.json()) as Session;
}
