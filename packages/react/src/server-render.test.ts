/**
 * The component rendered on a server (react-dom/server, no window or document anywhere): it renders
 * its element, the placeholder the widget mounts in once the page runs, and loads nothing.
 */
import { createElement, StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { WalletCheckout } from './index';

describe('<WalletCheckout> rendered on the server', () => {
  it('renders the empty placeholder, without a window or a document', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const html = renderToString(
      createElement(
        StrictMode,
        null,
        createElement(WalletCheckout, { host: 'https://checkout.example', clientSecret: 'cs_1_secret_a', theme: 'dark', className: 'pay', onSuccess: () => undefined }),
      ),
    );
    expect(html).toBe('<div class="pay" data-wallet-checkout-root="" data-status="idle"></div>');
    expect(typeof window).toBe('undefined');
  });
});
