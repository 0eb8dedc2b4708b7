/**
 * The component rendered on a server (vue/server-renderer, no window or document anywhere): it
 * renders its element, the placeholder the widget mounts in once the page runs, with the
 * attributes that fall through, and loads nothing.
 */
import { createSSRApp, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { describe, expect, it } from 'vitest';
import { WalletCheckout } from './index';

describe('<WalletCheckout> rendered on the server', () => {
  it('renders the empty placeholder, without a window or a document', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const app = createSSRApp({
      render: () => h(WalletCheckout, { host: 'https://checkout.example', clientSecret: 'cs_1_secret_a', theme: 'dark', class: 'pay', onSuccess: () => true }),
    });
    expect(await renderToString(app)).toBe('<div data-wallet-checkout-root data-status="idle" class="pay"></div>');
    expect(typeof window).toBe('undefined');
  });
});
