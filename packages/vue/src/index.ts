/**
 * `@wallet-checkout/vue`: `<WalletCheckout>` and `useWalletCheckout`, the widget in Vue 3 over
 * `@wallet-checkout/js`'s controller. The options are read reactively and compared by value (a
 * template's inline object each render neither remounts nor re-subscribes); a new clientSecret
 * mounts a new widget, any other change reaches the one there is in place; unmounting the
 * component unmounts the widget. On a server the component renders its empty element and loads
 * nothing (watchers and mounted hooks do not run there). Written with render functions, so that
 * the package needs no template compiler.
 */
import { defineComponent, h, onUnmounted, ref, shallowRef, toValue, watch, type MaybeRefOrGetter, type Ref } from 'vue';
import { CHECKOUT_EVENT_NAMES, createCheckoutController, pickCheckoutOptions } from '@wallet-checkout/js';
import type { CheckoutEvent, CheckoutEventDetails, CheckoutEventName, CheckoutOptions, ControllerStatus } from '@wallet-checkout/js';

export interface UseWalletCheckoutOptions extends CheckoutOptions {
  /** The checkout host's origin, e.g. `https://checkout.example.com`. */
  host: string;
  /** The session's client secret; until there is one (your server is creating the session), nothing is mounted. */
  clientSecret: string | undefined;
}

export interface UseWalletCheckout {
  /** The element the widget mounts in: bind it with `ref` (`<section ref="element">` in `<script setup>`). */
  element: Ref<HTMLElement | null>;
  status: Readonly<Ref<ControllerStatus>>;
}

/**
 * The widget in an element of your own, for a component's `setup`: `options` is read reactively
 * (a reactive object, a ref or a getter), `onEvent` gets each of the widget's events, and a
 * bundle that cannot load as `checkout:error` with `code: 'network_error'`.
 */
export function useWalletCheckout(options: MaybeRefOrGetter<UseWalletCheckoutOptions>, onEvent?: (event: CheckoutEvent) => void): UseWalletCheckout {
  const element = shallowRef<HTMLElement | null>(null);
  const status = ref<ControllerStatus>('idle');
  const controller = createCheckoutController({ options: pickCheckoutOptions(toValue(options)), onEvent, onStatusChange: (next) => (status.value = next) });
  // Every option is read, so any of them changing runs this; the controller drops what did not change.
  watch(() => pickCheckoutOptions(toValue(options)), (next) => controller.setOptions(next));
  watch(element, (target) => (target ? controller.attach(target) : controller.detach()), { flush: 'post' });
  onUnmounted(() => controller.detach());
  return { element, status };
}

/** `checkout:ready` → `ready`, and so on for each of the widget's events. */
type EmitName<E extends CheckoutEventName> = E extends `checkout:${infer Name}` ? Name : never;

/** Each event the component emits, with the widget event's `detail`, then the event. */
export type WalletCheckoutEmits = {
  [E in CheckoutEventName as EmitName<E>]: (detail: CheckoutEventDetails[E], event: CheckoutEvent<E>) => true;
};

const emitName = (type: string) => type.slice('checkout:'.length) as EmitName<CheckoutEventName>;

/** The component's props: every option `mount` takes, and the host. */
export type WalletCheckoutProps = UseWalletCheckoutOptions;

/** Every option's name, as the controller knows them (it lists each one, set or not). */
const OPTION_NAMES = /* @__PURE__ */ Object.keys(pickCheckoutOptions({})) as (keyof WalletCheckoutProps)[];

/**
 * The widget in a `<div>` of its own, which carries `data-status` (idle, loading, mounted, failed);
 * `class`, `id` and `style` fall through to it. Emits `ready`, `success`, `decline`, `error` and
 * `cancel` with the event's `detail`, then the event.
 */
export const WalletCheckout = /* @__PURE__ */ defineComponent(
  (props: WalletCheckoutProps, { emit }) => {
    const { element, status } = useWalletCheckout(
      () => props,
      (event) => (emit as (name: string, ...args: unknown[]) => void)(emitName(event.type), event.detail, event),
    );
    return () => h('div', { ref: element, 'data-wallet-checkout-root': '', 'data-status': status.value });
  },
  {
    name: 'WalletCheckout',
    props: OPTION_NAMES,
    emits: /* @__PURE__ */ Object.fromEntries(CHECKOUT_EVENT_NAMES.map((type) => [emitName(type), null])) as unknown as WalletCheckoutEmits,
  },
);
