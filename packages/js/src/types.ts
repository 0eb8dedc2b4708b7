/**
 * Everything the widget takes and emits, as the widget itself declares it (web/checkout/types.ts,
 * re-exported, not copied: the package build writes it into dist/*.d.ts), and what this package
 * adds around it: how to load it and what a controller is given.
 */
import type { CheckoutEvent, Mount, MountOptions } from '../../../web/checkout/types';

export type {
  ButtonColor,
  ButtonSizeMode,
  ButtonType,
  CheckoutErrorCode,
  CheckoutEvent,
  CheckoutEventDetails,
  CheckoutEventName,
  CheckoutHandle,
  CheckoutState,
  Mount,
  MountOptions,
  SupportedLocale,
  Theme,
} from '../../../web/checkout/types';

/** `window.WalletCheckout`, as the widget's bundle (checkout.js) defines it. */
export interface WalletCheckoutApi {
  mount: Mount;
}

/** The one release of the widget this version of the package loads: its versioned file on the checkout host and the file's SRI hash. */
export interface PinnedBundle {
  file: string;
  integrity: string;
}

export interface LoadOptions {
  /** The checkout host's origin, e.g. `https://checkout.example.com` (or a base URL ending in `/`). */
  host: string;
  /** The page's CSP nonce: set on the bundle's script, and the widget's default for all it injects. */
  nonce?: string;
}

/** Loads the pinned bundle once per host; `null` where there is no DOM (server rendering). */
export type LoadWalletCheckout = (options: LoadOptions) => Promise<WalletCheckoutApi | null>;

/** What a controller mounts: the widget's options, and the host its bundle comes from. */
export interface CheckoutOptions extends Partial<MountOptions> {
  /** The checkout host (see `LoadOptions.host`). Nothing is loaded or mounted without it, nor without `clientSecret`. */
  host?: string;
}

/**
 * `idle`: nothing to show (detached, or no host or client secret yet); `loading`: the bundle is
 * on its way; `mounted`: the widget is in the element; `failed`: the bundle could not be loaded
 * (the element got a `checkout:error` saying why).
 */
export type ControllerStatus = 'idle' | 'loading' | 'mounted' | 'failed';

export interface CheckoutController {
  /** Mounts the widget in `element` once the bundle is here (at once if it is). Attaching again to the same element does nothing. */
  attach(element: HTMLElement): void;
  /**
   * Changes options. Keys present replace the current ones (`undefined` clears one); a new
   * clientSecret, host, mode, apiBase or nonce mounts a new widget, any other change is applied in
   * place (`handle.update`), and options equal to the current ones do nothing.
   */
  setOptions(options: CheckoutOptions): void;
  /** Unmounts the widget (its listeners, frames and timers go with it); a load still under way mounts nothing later. */
  detach(): void;
  readonly status: ControllerStatus;
}

export interface ControllerInit {
  options?: CheckoutOptions;
  /** Each event the widget dispatches on the element, and the load's failure as `checkout:error`. */
  onEvent?(event: CheckoutEvent): void;
  onStatusChange?(status: ControllerStatus): void;
}
