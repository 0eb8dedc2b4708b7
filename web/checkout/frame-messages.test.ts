/** Iframe mode's messages: each side believes only its counterpart's window, at its counterpart's origin, saying something well formed. */
import { describe, expect, it } from 'vitest';
import { frameMessageOf, hostMessageOf } from './frame-messages';

const CHECKOUT = 'https://checkout.example';
const SHOP = 'https://shop.example';
const frameWindow = { name: 'our frame' };
const parentWindow = { name: 'the embedding page' };
const stranger = { name: 'another window' };

describe('the merchant page believes', () => {
  const ready = { type: 'wallet-checkout:event', name: 'checkout:ready', detail: { sessionId: 'cs_1', paymentMethodPresent: null } };

  it("our frame's events and layout", () => {
    expect(frameMessageOf({ data: ready, origin: CHECKOUT, source: frameWindow }, frameWindow, CHECKOUT)).toEqual(ready);
    const layout = { type: 'wallet-checkout:layout', height: 120, overlay: false };
    expect(frameMessageOf({ data: layout, origin: CHECKOUT, source: frameWindow }, frameWindow, CHECKOUT)).toEqual(layout);
  });

  it('nothing from another window, even at the checkout origin (another frame of ours, a popup)', () => {
    expect(frameMessageOf({ data: ready, origin: CHECKOUT, source: stranger }, frameWindow, CHECKOUT)).toBeNull();
    expect(frameMessageOf({ data: ready, origin: CHECKOUT, source: null }, null, CHECKOUT)).toBeNull();
  });

  it('nothing from our frame once it shows another origin (navigated away)', () => {
    for (const origin of [SHOP, 'https://checkout.example.evil.test', 'http://checkout.example', 'null']) {
      expect(frameMessageOf({ data: ready, origin, source: frameWindow }, frameWindow, CHECKOUT), origin).toBeNull();
    }
  });

  it('no message that is not one of ours, or not well formed', () => {
    const refused = [
      'checkout:ready',
      { ...ready, name: 'checkout:paid' },
      { ...ready, name: 'toString' },
      { ...ready, detail: null },
      { ...ready, detail: 'paid' },
      { type: 'wallet-checkout:layout', height: -1, overlay: false },
      { type: 'wallet-checkout:layout', height: Number.POSITIVE_INFINITY, overlay: false },
      { type: 'wallet-checkout:layout', height: 10, overlay: 'yes' },
      { type: 'wallet-checkout:init', options: { clientSecret: 'cs_1_secret_x', locale: 'en' } },
    ];
    for (const data of refused) expect(frameMessageOf({ data, origin: CHECKOUT, source: frameWindow }, frameWindow, CHECKOUT), JSON.stringify(data)).toBeNull();
  });
});

describe('the checkout frame believes', () => {
  const init = { type: 'wallet-checkout:init', options: { clientSecret: 'cs_1_secret_x', locale: 'fr', theme: 'dark', buttonRadius: 8 } };

  it("its parent's init message, whatever its web origin (the backend judges it), and keeps only known options", () => {
    const withExtras = { ...init, options: { ...init.options, apiBase: 'https://evil.example', nonce: 'n', onload: 'alert(1)' } };
    expect(hostMessageOf({ data: withExtras, origin: SHOP, source: parentWindow }, parentWindow, undefined)).toEqual(init);
  });

  it('no init from a window other than its parent (a popup it opened, a sibling frame)', () => {
    expect(hostMessageOf({ data: init, origin: SHOP, source: stranger }, parentWindow, undefined)).toBeNull();
  });

  it('no init from a page with no web origin to answer (a sandboxed page, a file)', () => {
    expect(hostMessageOf({ data: init, origin: 'null', source: parentWindow }, parentWindow, undefined)).toBeNull();
  });

  it('one init only: a second cannot redirect its events to another origin', () => {
    expect(hostMessageOf({ data: init, origin: 'https://other.example', source: parentWindow }, parentWindow, SHOP)).toBeNull();
  });

  it('updates from the origin that sent the init only', () => {
    const update = { type: 'wallet-checkout:update', options: { theme: 'light' } };
    expect(hostMessageOf({ data: update, origin: SHOP, source: parentWindow }, parentWindow, SHOP)).toEqual(update);
    expect(hostMessageOf({ data: update, origin: 'https://other.example', source: parentWindow }, parentWindow, SHOP)).toBeNull();
    expect(hostMessageOf({ data: update, origin: SHOP, source: parentWindow }, parentWindow, undefined)).toBeNull();
  });

  it('no malformed message', () => {
    const refused = [
      { type: 'wallet-checkout:init', options: { locale: 'en' } },
      { type: 'wallet-checkout:init', options: { clientSecret: 42, locale: 'en' } },
      { type: 'wallet-checkout:init', options: { clientSecret: 'cs_1_secret_x', locale: 'en', buttonRadius: '8' } },
      { type: 'wallet-checkout:init' },
      { type: 'wallet-checkout:event', name: 'checkout:ready', detail: {} },
      'wallet-checkout:init',
    ];
    for (const data of refused) expect(hostMessageOf({ data, origin: SHOP, source: parentWindow }, parentWindow, undefined), JSON.stringify(data)).toBeNull();
  });
});
