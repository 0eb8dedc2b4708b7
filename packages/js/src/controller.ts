/**
 * `createCheckoutController()`: one widget's life in an element, for any framework to drive in a few
 * lines. attach / setOptions / detach may come in any order and any number of times (React's
 * StrictMode mounts, unmounts and mounts again; a template re-renders with new objects each time):
 * at most one widget is mounted, in the element last attached, with the options last set. A load
 * that ends after a detach mounts nothing; options that differ only in what the widget can change
 * in place reach it through `handle.update`, so the wallet's button is not drawn again.
 */
import { CHECKOUT_EVENT_NAMES, changedOptions, needsRemount, OPTION_KEYS } from './options';
import type { CheckoutController, CheckoutEvent, CheckoutEventDetails, CheckoutHandle, CheckoutOptions, ControllerInit, ControllerStatus, LoadWalletCheckout, MountOptions, WalletCheckoutApi } from './types';

/** A load asked for one host: under way, done, or failed. */
interface Load {
  host: string;
  api?: WalletCheckoutApi | null;
  failed?: boolean;
}

/** The options the widget's `mount` takes: no `host`, and none left `undefined`, so that the widget's defaults (the script's nonce) apply. */
function mountOptionsOf(options: CheckoutOptions, clientSecret: string): MountOptions {
  const mountOptions: MountOptions = { clientSecret };
  for (const key of OPTION_KEYS) if (key !== 'host' && options[key] !== undefined) (mountOptions as unknown as Record<string, unknown>)[key] = options[key];
  return mountOptions;
}

export function controllerFactory(load: LoadWalletCheckout) {
  return function createCheckoutController(init: ControllerInit = {}): CheckoutController {
    let options: CheckoutOptions = { ...init.options };
    let element: HTMLElement | undefined;
    let widget: { element: HTMLElement; options: CheckoutOptions; handle: CheckoutHandle } | undefined;
    let current: Load | undefined;
    let status: ControllerStatus = 'idle';

    const relay = (event: Event) => init.onEvent?.(event as CheckoutEvent);
    const listen = (target: HTMLElement, add: boolean) => {
      if (init.onEvent) for (const name of CHECKOUT_EVENT_NAMES) (add ? target.addEventListener : target.removeEventListener).call(target, name, relay);
    };

    const setStatus = (next: ControllerStatus) => {
      if (next === status) return;
      status = next;
      init.onStatusChange?.(next);
    };

    const unmount = () => {
      widget?.handle.unmount();
      widget = undefined;
    };

    /** A failed load told as the widget tells a chunk that cannot load: `checkout:error`, `network_error`, the loader's code as `reason`. */
    const announce = (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.error(message);
      const detail: CheckoutEventDetails['checkout:error'] = { sessionId: null, code: 'network_error', reason: (error as { code?: string }).code ?? null, message };
      element?.dispatchEvent(new CustomEvent('checkout:error', { bubbles: true, composed: true, detail }));
    };

    const startLoad = (host: string) => {
      const started: Load = { host };
      current = started;
      load({ host, nonce: options.nonce }).then(
        (api) => {
          if (current !== started) return;
          started.api = api;
          sync();
        },
        (error: unknown) => {
          if (current !== started) return;
          started.failed = true;
          announce(error);
          sync();
        },
      );
    };

    /** Brings the element to what the options ask: nothing, a load under way, or one widget with them. */
    function sync(): void {
      const { host, clientSecret } = options;
      if (!element || !host || !clientSecret) {
        unmount();
        return setStatus('idle');
      }
      if (widget && (widget.element !== element || needsRemount(changedOptions(widget.options, options)))) unmount();
      if (widget) {
        const changes = changedOptions(widget.options, options);
        widget.options = { ...options };
        if (Object.keys(changes).length > 0) widget.handle.update(changes);
        return setStatus('mounted');
      }
      if (current?.host !== host) startLoad(host);
      if (current?.failed) return setStatus('failed');
      if (!current?.api) return setStatus('loading');
      widget = { element, options: { ...options }, handle: current.api.mount(element, mountOptionsOf(options, clientSecret)) };
      setStatus('mounted');
    }

    return {
      attach(target) {
        if (target === element) return;
        if (element) listen(element, false);
        element = target;
        listen(target, true);
        // Attaching again is trying again.
        if (current?.failed) current = undefined;
        sync();
      },
      setOptions(next) {
        const changes = changedOptions(options, next);
        if (Object.keys(changes).length === 0) return;
        options = { ...options, ...changes };
        sync();
      },
      detach() {
        if (!element) return;
        listen(element, false);
        element = undefined;
        sync();
      },
      get status() {
        return status;
      },
    };
  };
}
