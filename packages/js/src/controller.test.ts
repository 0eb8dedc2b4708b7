/**
 * The controller driven as frameworks drive it, against a stand-in WalletCheckout whose load the
 * test ends when it likes: React's StrictMode (attach, detach, attach), detaches while the bundle
 * loads, options set anew on every render; and any sequence of those at random, after which at
 * most one widget is mounted, in the element attached, with the options set.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { controllerFactory } from './controller';
import type { CheckoutEvent, CheckoutHandle, CheckoutOptions, ControllerInit, LoadOptions, MountOptions, WalletCheckoutApi } from './types';

interface Mounted {
  element: EventTarget;
  options: MountOptions;
  updates: Partial<MountOptions>[];
  unmounted: boolean;
}

/** A WalletCheckout that records its widgets, and a loader whose loads the test resolves or fails. */
function stage() {
  const widgets: Mounted[] = [];
  const api: WalletCheckoutApi = {
    mount(element, options) {
      const widget: Mounted = { element, options, updates: [], unmounted: false };
      widgets.push(widget);
      const handle: CheckoutHandle = {
        update: (partial) => widget.updates.push(partial),
        unmount: () => {
          if (widget.unmounted) throw new Error('unmounted twice');
          widget.unmounted = true;
        },
      };
      return handle;
    },
  };
  const loads: { options: LoadOptions; resolve(): void; reject(error: Error): void }[] = [];
  const load = vi.fn(
    (options: LoadOptions) =>
      new Promise<WalletCheckoutApi | null>((resolve, reject) => {
        loads.push({ options, resolve: () => resolve(api), reject });
      }),
  );
  const create = (init?: ControllerInit) => controllerFactory(load)(init);
  return { widgets, live: () => widgets.filter((w) => !w.unmounted), loads, load, create };
}

const element = () => new EventTarget() as HTMLElement;
const pair = [element(), element()] as const;
const settle = () => new Promise((resolve) => setImmediate(resolve));
const OPTIONS: CheckoutOptions = { host: 'https://checkout.example', clientSecret: 'cs_1_secret_a', theme: 'light' };

afterEach(() => vi.restoreAllMocks());

describe('createCheckoutController', () => {
  it('mounts once the bundle is here, with the mount options only (no host, nothing undefined)', async () => {
    const s = stage();
    const statuses: string[] = [];
    const controller = s.create({ options: { ...OPTIONS, locale: undefined }, onStatusChange: (status) => statuses.push(status) });
    const el = element();
    controller.attach(el);
    expect(controller.status).toBe('loading');
    expect(s.load).toHaveBeenCalledWith({ host: OPTIONS.host, nonce: undefined });
    s.loads[0]?.resolve();
    await settle();
    expect(s.live()).toEqual([{ element: el, options: { clientSecret: 'cs_1_secret_a', theme: 'light' }, updates: [], unmounted: false }]);
    expect(statuses).toEqual(['loading', 'mounted']);
  });

  it("StrictMode's attach, detach, attach while loading mounts one widget; and once loaded, unmounts and mounts again", async () => {
    const s = stage();
    const controller = s.create({ options: OPTIONS });
    const el = element();
    controller.attach(el);
    controller.detach();
    controller.attach(el);
    expect(s.load).toHaveBeenCalledTimes(1);
    s.loads[0]?.resolve();
    await settle();
    expect(s.widgets).toHaveLength(1);

    controller.detach();
    controller.attach(el);
    expect(s.widgets.map((w) => w.unmounted)).toEqual([true, false]);
  });

  it('a detach while the bundle loads leaves nothing mounted when it arrives', async () => {
    const s = stage();
    const controller = s.create({ options: OPTIONS });
    controller.attach(element());
    controller.detach();
    s.loads[0]?.resolve();
    await settle();
    expect(s.widgets).toEqual([]);
    expect(controller.status).toBe('idle');
  });

  it('amount view, theme, locale and button options change in place; equal options (a new object with the same view) change nothing', async () => {
    const s = stage();
    const controller = s.create({ options: { ...OPTIONS, sessionView: { id: 'cs_1', amount: 2400 } } });
    controller.attach(element());
    s.loads[0]?.resolve();
    await settle();
    controller.setOptions({ ...OPTIONS, sessionView: { id: 'cs_1', amount: 2400 } });
    controller.setOptions({ theme: 'dark', locale: 'fr', buttonColor: 'white', buttonRadius: 8 });
    controller.setOptions({ sessionView: { id: 'cs_1', amount: 2500 }, buttonType: 'buy', buttonSizeMode: 'fill', buttonLocale: 'de' });
    controller.setOptions({ theme: undefined });
    expect(s.widgets).toHaveLength(1);
    expect(s.widgets[0]?.updates).toEqual([
      { theme: 'dark', locale: 'fr', buttonColor: 'white', buttonRadius: 8 },
      { sessionView: { id: 'cs_1', amount: 2500 }, buttonType: 'buy', buttonSizeMode: 'fill', buttonLocale: 'de' },
      { theme: undefined },
    ]);
  });

  it('a new client secret (or mode, or nonce) is a new widget; a new host is a new load; no client secret is no widget', async () => {
    const s = stage();
    const controller = s.create({ options: OPTIONS });
    const el = element();
    controller.attach(el);
    s.loads[0]?.resolve();
    await settle();
    controller.setOptions({ clientSecret: 'cs_2_secret_b' });
    controller.setOptions({ mode: 'iframe' });
    controller.setOptions({ nonce: 'n2' });
    expect(s.widgets.map((w) => [w.options.clientSecret, w.options.mode, w.options.nonce, w.unmounted])).toEqual([
      ['cs_1_secret_a', undefined, undefined, true],
      ['cs_2_secret_b', undefined, undefined, true],
      ['cs_2_secret_b', 'iframe', undefined, true],
      ['cs_2_secret_b', 'iframe', 'n2', false],
    ]);

    controller.setOptions({ host: 'https://other.example' });
    expect(s.live()).toEqual([]);
    expect(s.loads.map((l) => l.options.host)).toEqual(['https://checkout.example', 'https://other.example']);
    s.loads[1]?.resolve();
    await settle();
    expect(s.live()).toHaveLength(1);

    controller.setOptions({ clientSecret: undefined });
    expect(s.live()).toEqual([]);
    expect(controller.status).toBe('idle');
  });

  it("relays the widget's events while attached and removes its listeners on detach", async () => {
    const s = stage();
    const seen: string[] = [];
    const controller = s.create({ options: OPTIONS, onEvent: (event: CheckoutEvent) => seen.push(event.type) });
    const el = element();
    const added = vi.spyOn(el, 'addEventListener');
    const removed = vi.spyOn(el, 'removeEventListener');
    controller.attach(el);
    el.dispatchEvent(new CustomEvent('checkout:ready', { detail: {} }));
    controller.detach();
    el.dispatchEvent(new CustomEvent('checkout:success', { detail: {} }));
    expect(seen).toEqual(['checkout:ready']);
    expect(added.mock.calls.map(([type, listener]) => [type, listener])).toEqual(removed.mock.calls.map(([type, listener]) => [type, listener]));
    expect(added).toHaveBeenCalledTimes(5);
  });

  it('a bundle that cannot load is a checkout:error on the element, status failed, and attaching again tries again', async () => {
    const s = stage();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const errors: unknown[] = [];
    const controller = s.create({ options: OPTIONS, onEvent: (event) => errors.push(event.detail) });
    const el = element();
    controller.attach(el);
    s.loads[0]?.reject(Object.assign(new Error('Wallet Checkout: the bundle does not match'), { code: 'bundle_integrity_mismatch' }));
    await settle();
    expect(controller.status).toBe('failed');
    expect(errors).toEqual([{ sessionId: null, code: 'network_error', reason: 'bundle_integrity_mismatch', message: 'Wallet Checkout: the bundle does not match' }]);
    // Options set again by every render do not start a load each.
    controller.setOptions({ ...OPTIONS, theme: 'dark' });
    expect(s.load).toHaveBeenCalledTimes(1);

    controller.detach();
    controller.attach(el);
    expect(s.load).toHaveBeenCalledTimes(2);
    s.loads[1]?.resolve();
    await settle();
    expect(s.live()).toHaveLength(1);
    expect(s.live()[0]?.options.theme).toBe('dark');
  });

  it('after any sequence of attaches, detaches, option changes and loads ending, one widget at most: in the attached element, with the options set', async () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('attach' as const), to: fc.integer({ min: 0, max: 1 }) }),
      fc.record({ op: fc.constant('detach' as const) }),
      fc.record({ op: fc.constant('resolve' as const) }),
      fc.record({
        op: fc.constant('options' as const),
        options: fc.record(
          { clientSecret: fc.constantFrom('cs_1_secret_a', 'cs_2_secret_b', undefined), theme: fc.constantFrom('light', 'dark', undefined), host: fc.constantFrom('https://a.example', 'https://b.example') },
          { requiredKeys: [] },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps) => {
        const s = stage();
        const controller = s.create({ options: OPTIONS });
        let attached: HTMLElement | undefined;
        let options: CheckoutOptions = { ...OPTIONS };
        for (const next of steps) {
          if (next.op === 'attach') controller.attach((attached = pair[next.to === 0 ? 0 : 1]));
          else if (next.op === 'detach') controller.detach(), (attached = undefined);
          else if (next.op === 'options') controller.setOptions(next.options), (options = { ...options, ...next.options });
          else for (const l of s.loads) l.resolve();
          await settle();
        }
        for (const l of s.loads) l.resolve();
        await settle();
        const live = s.live();
        if (!attached || !options.clientSecret || !options.host) {
          expect(live).toEqual([]);
          return;
        }
        expect(live).toHaveLength(1);
        expect(live[0]?.element).toBe(attached);
        const applied = { ...live[0]?.options, ...Object.assign({}, ...(live[0]?.updates ?? [])) };
        expect([applied.clientSecret, applied.theme]).toEqual([options.clientSecret, options.theme]);
        expect(controller.status).toBe('mounted');
      }),
      { numRuns: 300 },
    );
  });
});
