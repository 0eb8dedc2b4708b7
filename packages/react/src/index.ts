/**
 * `@wallet-checkout/react`: `<WalletCheckout>` and `useWalletCheckout`, the widget in React 18 and 19
 * over `@wallet-checkout/js`'s controller. Props are read anew each render and compared by value
 * (an inline object or callback each render neither remounts nor re-subscribes); a new clientSecret
 * mounts a new widget, any other change reaches the one there is in place. On a server the
 * component renders its empty element and loads nothing. Written without JSX, so that the package
 * needs no JSX runtime of its own.
 */
import { createElement, useCallback, useEffect, useRef, useState, type CSSProperties, type ReactElement } from 'react';
import { createCheckoutController, pickCheckoutOptions } from '@wallet-checkout/js';
import type { CheckoutController, CheckoutEvent, CheckoutEventDetails, CheckoutEventName, CheckoutOptions, ControllerStatus } from '@wallet-checkout/js';

/** `checkout:ready` → `onReady`, and so on for each of the widget's events. */
type HandlerName<E extends CheckoutEventName> = E extends `checkout:${infer Name}` ? `on${Capitalize<Name>}` : never;

/** A callback per widget event: its `detail`, then the event. A bundle that cannot load is `onError` with `code: 'network_error'` and the loader's code as `reason`. */
export type WalletCheckoutCallbacks = {
  [E in CheckoutEventName as HandlerName<E>]?: (detail: CheckoutEventDetails[E], event: CheckoutEvent<E>) => void;
};

export interface UseWalletCheckoutOptions extends CheckoutOptions, WalletCheckoutCallbacks {
  /** The checkout host's origin, e.g. `https://checkout.example.com`. */
  host: string;
  /** The session's client secret; until there is one (your server is creating the session), nothing is mounted. */
  clientSecret: string | undefined;
}

export interface UseWalletCheckout {
  /** Put on the element the widget mounts in. */
  ref: (element: HTMLElement | null) => void;
  status: ControllerStatus;
}

const handlerName = (type: string) => `on${type.charAt(9).toUpperCase()}${type.slice(10)}` as HandlerName<CheckoutEventName>;

export function useWalletCheckout(options: UseWalletCheckoutOptions): UseWalletCheckout {
  const latest = useRef(options);
  const [status, setStatus] = useState<ControllerStatus>('idle');
  // Made once per component (StrictMode's discarded second one attached nothing), and starts nothing until attached.
  const [controller] = useState<CheckoutController>(() =>
    createCheckoutController({
      options: pickCheckoutOptions(options),
      onEvent: (event) => (latest.current[handlerName(event.type)] as ((detail: unknown, event: CheckoutEvent) => void) | undefined)?.(event.detail, event),
      onStatusChange: setStatus,
    }),
  );
  useEffect(() => {
    latest.current = options;
    controller.setOptions(pickCheckoutOptions(options));
  });
  const ref = useCallback((element: HTMLElement | null) => (element ? controller.attach(element) : controller.detach()), [controller]);
  return { ref, status };
}

export interface WalletCheckoutProps extends UseWalletCheckoutOptions {
  id?: string;
  className?: string;
  style?: CSSProperties;
}

/** The widget in a `<div>` of its own, which carries `data-status` (the controller's status: idle, loading, mounted, failed). */
export function WalletCheckout({ id, className, style, ...options }: WalletCheckoutProps): ReactElement {
  const { ref, status } = useWalletCheckout(options);
  return createElement('div', { ref, id, className, style, 'data-wallet-checkout-root': '', 'data-status': status });
}
