/**
 * Iframe mode's messages between the merchant's page (frame-host.ts) and our
 * checkout frame (frame.ts), and the checks each side makes before believing
 * one. A message counts only from the one window it can come from, at the one
 * origin that window must have: `event.source` and `event.origin` are set by
 * the browser, so a page cannot forge them; the data itself is checked field by
 * field, since whoever holds that window may post anything.
 */
import { isWebOrigin } from '../../contracts/urls';
import { hasOwn, isArray } from '../../common/browser/builtins';
import type { CheckoutEventDetails, CheckoutEventName, MountOptions } from './types';

/** What the frame mounts with: the merchant's options but where the backend is (the frame's own origin), and the locale the host resolved. */
export type FrameOptions = Omit<MountOptions, 'apiBase' | 'nonce' | 'mode'> & { locale: string };

/** Host to frame: the first gives the client secret and options, the later ones change options (`handle.update`). */
export type HostMessage = { type: 'wallet-checkout:init'; options: FrameOptions } | { type: 'wallet-checkout:update'; options: Partial<FrameOptions> };

/**
 * Frame to host: a checkout event to dispatch on the mount element, or the
 * frame's layout: the widget's height, and whether a dialog (the wallet's
 * sheet, the 3-D Secure challenge) is open and needs the whole viewport.
 */
export type FrameMessage =
  | { [K in CheckoutEventName]: { type: 'wallet-checkout:event'; name: K; detail: CheckoutEventDetails[K] } }[CheckoutEventName]
  | { type: 'wallet-checkout:layout'; height: number; overlay: boolean };

/** A record, so the compiler insists every event the widget declares is relayed. */
const EVENT_NAMES: Record<CheckoutEventName, true> = {
  'checkout:ready': true,
  'checkout:success': true,
  'checkout:decline': true,
  'checkout:error': true,
  'checkout:cancel': true,
};
export const CHECKOUT_EVENT_NAMES = Object.keys(EVENT_NAMES) as CheckoutEventName[];

/** The parts of a MessageEvent the checks read (a plain object in tests). */
export interface ReceivedMessage {
  data: unknown;
  origin: string;
  source: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !isArray(value);

/** Each option's type; anything else in a message is dropped, so only what MountOptions allows reaches mount(). */
const OPTION_TYPES: Record<keyof FrameOptions, 'string' | 'number' | 'object'> = {
  clientSecret: 'string',
  // Checked as a session's view by the widget itself (api.ts carriedView).
  sessionView: 'object',
  locale: 'string',
  buttonType: 'string',
  buttonColor: 'string',
  buttonLocale: 'string',
  buttonRadius: 'number',
  buttonSizeMode: 'string',
  theme: 'string',
};

function frameOptionsOf(value: unknown): Partial<FrameOptions> | null {
  if (!isRecord(value)) return null;
  const options: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(OPTION_TYPES)) {
    const option = value[key];
    if (option === undefined) continue;
    if (typeof option !== type) return null;
    options[key] = option;
  }
  return options as Partial<FrameOptions>;
}

/**
 * In the frame: the host's message, or null when it is not one to believe.
 * `parent`: the frame's parent window, the only sender. `hostOrigin`: the
 * origin the init message came from, once it came; every later message must
 * come from it (a parent that navigated elsewhere is another page).
 */
export function hostMessageOf(event: ReceivedMessage, parent: unknown, hostOrigin: string | undefined): HostMessage | null {
  if (event.source !== parent || !isWebOrigin(event.origin) || !isRecord(event.data)) return null;
  const options = frameOptionsOf(event.data.options);
  if (!options) return null;
  if (event.data.type === 'wallet-checkout:init') {
    if (hostOrigin !== undefined || typeof options.clientSecret !== 'string' || typeof options.locale !== 'string') return null;
    return { type: 'wallet-checkout:init', options: { ...options, clientSecret: options.clientSecret, locale: options.locale } };
  }
  if (event.data.type === 'wallet-checkout:update' && event.origin === hostOrigin) return { type: 'wallet-checkout:update', options };
  return null;
}

/**
 * On the merchant's page: the frame's message, or null when it is not one to
 * believe: only from our frame's window, at the checkout's origin.
 */
export function frameMessageOf(event: ReceivedMessage, frame: unknown, checkoutOrigin: string): FrameMessage | null {
  if (frame === null || frame === undefined || event.source !== frame || event.origin !== checkoutOrigin || !isRecord(event.data)) return null;
  const { data } = event;
  if (data.type === 'wallet-checkout:event' && typeof data.name === 'string' && hasOwn(EVENT_NAMES, data.name) && isRecord(data.detail)) {
    // The frame is ours, at our origin: what it says an event carries is what the widget dispatched.
    return { type: 'wallet-checkout:event', name: data.name as CheckoutEventName, detail: data.detail } as FrameMessage;
  }
  if (data.type === 'wallet-checkout:layout' && typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0 && typeof data.overlay === 'boolean') {
    return { type: 'wallet-checkout:layout', height: data.height, overlay: data.overlay };
  }
  return null;
}
