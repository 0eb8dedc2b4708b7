/**
 * What the sandbox sheet shows of a request that keeps the card: what is due today, what is charged
 * later, and the merchant's agreement, from Google's recurring and reload objects (docs/saved-cards.md).
 * The sheet's DOM is stood in for by the few calls its helpers make.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { futurePart } from './future-view';

/** An element as the sheet's `el` uses one: attributes, children, and its text as a page would read it. */
class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly children: (FakeElement | string)[] = [];
  constructor(readonly tag: string) {}
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value);
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  append(child: FakeElement | string) {
    this.children.push(child);
  }
  replaceChildren(...children: (FakeElement | string)[]) {
    this.children.splice(0, this.children.length, ...children);
  }
  get textContent(): string {
    return this.children.map((child) => (typeof child === 'string' ? child : child.textContent)).join('');
  }
  byTestId(id: string): FakeElement[] {
    const own = this.attributes.get('data-testid') === id ? [this as FakeElement] : [];
    return [...own, ...this.children.flatMap((child) => (typeof child === 'string' ? [] : child.byTestId(id)))];
  }
}

beforeAll(() => {
  vi.stubGlobal('document', { createElement: (tag: string) => new FakeElement(tag) });
  vi.stubGlobal('navigator', { language: 'en-US' });
});
afterAll(() => vi.unstubAllGlobals());

const today = { currencyCode: 'USD', countryCode: 'US', immediateTotalPrice: '0.00', billingAgreement: 'You allow Coffee Club to charge this card.' };

describe("the sandbox sheet's part for a card kept for later", () => {
  it('shows what a subscription charges today and every period, and the agreement', () => {
    const part = futurePart({ recurringTransactionInfo: { ...today, recurrenceItems: [{ label: 'Coffee club', priceStatus: 'FINAL', recurrencePeriod: 'MONTH', recurrencePeriodCount: 3, price: '9.99' }] } }, 'Coffee Club') as unknown as FakeElement;
    expect(part.textContent).toContain('Pay Coffee Club $0.00 today');
    expect(part.byTestId('sandbox-later').map((line) => line.textContent)).toEqual(['Coffee club: $9.99 every 3 months']);
    expect(part.byTestId('sandbox-billing-agreement')[0]?.textContent).toBe(today.billingAgreement);
  });

  it('shows what a reload charges and when, with no agreement line when the request has none', () => {
    const { billingAgreement: _none, ...withoutAgreement } = today;
    const part = futurePart({ automaticReloadTransactionInfo: { ...withoutAgreement, immediateTotalPrice: '20.00', minimumBalanceAmount: '5.00', reloadAmount: '20.00', label: 'Card reload' } }, undefined) as unknown as FakeElement;
    expect(part.textContent).toContain('Pay $20.00 today');
    expect(part.byTestId('sandbox-later').map((line) => line.textContent)).toEqual(['Card reload: $20.00 each time the balance falls below $5.00']);
    expect(part.byTestId('sandbox-billing-agreement')).toEqual([]);
  });

  it("isolates an Arabic browser's prices in its English sentences and shows its total in their own direction", () => {
    vi.stubGlobal('navigator', { language: 'ar' });
    try {
      const part = futurePart({ recurringTransactionInfo: { ...today, immediateTotalPrice: '9.99', recurrenceItems: [{ label: 'Coffee club', priceStatus: 'FINAL', recurrencePeriod: 'MONTH', recurrencePeriodCount: 1, price: '9.99' }] } }, 'Coffee Club') as unknown as FakeElement;
      const arabic = new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(9.99);
      expect(part.byTestId('sandbox-later').map((line) => line.textContent)).toEqual([`Coffee club: \u2067${arabic.replace('US$', '\u2068US$\u2069')}\u2069 every month`]);
      const total = part.children.flatMap((child) => (typeof child === 'string' ? [] : child.children)).find((child): child is FakeElement => typeof child !== 'string' && child.tag === 'strong');
      expect(total?.getAttribute('dir')).toBe('rtl');
      expect(total?.textContent).toBe(arabic);
    } finally {
      vi.stubGlobal('navigator', { language: 'en-US' });
    }
  });

  it('is absent for a payment charged once (transactionInfo)', () => {
    expect(futurePart({ transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: '9.99', currencyCode: 'USD', countryCode: 'US' } }, 'Coffee Club')).toBeUndefined();
  });
});
