/** mount(): one widget in a shadow root inside the merchant's element. */
import { h, render } from 'preact';
import { normalizeApiBase, parseClientSecret } from './api';
import { Checkout } from './Checkout';
import { CSS } from './styles';
import type { CheckoutHandle, MountOptions } from './types';

let defaultApiBase: string | undefined;

/** Set by each entry: the origin the bundle was loaded from. */
export function setDefaultApiBase(base: string | undefined): void {
  defaultApiBase = base;
}

export function mount(element: HTMLElement, options: MountOptions): CheckoutHandle {
  if (!(element instanceof HTMLElement)) throw new TypeError('WalletCheckout.mount: element must be an HTMLElement');
  if (!options || typeof options.clientSecret !== 'string' || !options.clientSecret) {
    throw new TypeError('WalletCheckout.mount: options.clientSecret is required');
  }

  const host = document.createElement('div');
  host.setAttribute('data-wallet-checkout', '');
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CSS;
  const root = document.createElement('div');
  shadow.append(style, root);
  element.appendChild(host);

  let current: MountOptions = { ...options };
  let mounted = true;

  const draw = () => {
    const apiBase = normalizeApiBase(current.apiBase || defaultApiBase || location.origin);
    host.setAttribute('data-theme', current.theme === 'dark' ? 'dark' : 'light');
    render(
      h(Checkout, {
        // A new secret or backend is a new checkout: fresh state.
        key: `${apiBase} ${current.clientSecret}`,
        target: element,
        options: current,
        apiBase,
        sessionId: parseClientSecret(current.clientSecret),
      }),
      root,
    );
  };
  draw();

  return {
    update(partial) {
      if (!mounted) return;
      current = { ...current, ...partial };
      draw();
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      render(null, root);
      host.remove();
    },
  };
}
