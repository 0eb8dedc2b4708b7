/**
 * The loader against a stand-in page: a document whose scripts the test loads or fails, and a fetch
 * that answers as the host would. What the browser does with `integrity` itself is the browser
 * test's (e2e/framework-packages.spec.ts); here, what the loader asks of it and makes of its answer.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalletCheckoutLoadError } from './load-error';
import { createLoader } from './loader';
import type { WalletCheckoutApi } from './types';

const BYTES = 'window.WalletCheckout = { mount };';
const bundle = { file: 'checkout.0123456789ab.js', integrity: `sha384-${createHash('sha384').update(BYTES).digest('base64')}` };
const HOST = 'https://checkout.example';
const URL_OF_BUNDLE = `${HOST}/checkout.0123456789ab.js`;

class FakeScript extends EventTarget {
  src = '';
  integrity = '';
  crossOrigin: string | null = null;
  async = false;
  nonce = '';
  removed = false;
  remove() {
    this.removed = true;
  }
}

/** A page: its window, and the scripts appended to its head. */
function page() {
  const api: WalletCheckoutApi = { mount: vi.fn() };
  const scripts: FakeScript[] = [];
  const win: Record<string, unknown> = {};
  vi.stubGlobal('window', win);
  vi.stubGlobal('document', { createElement: (tag: string) => (tag === 'script' ? new FakeScript() : undefined), head: { appendChild: (script: FakeScript) => scripts.push(script) } });
  return {
    api,
    scripts,
    win,
    /** The browser ran the script: the bundle defines its global, then the script's load event. */
    run(script = scripts.at(-1), defines: unknown = api) {
      win.WalletCheckout = defines;
      script?.dispatchEvent(new Event('load'));
    },
    fail(script = scripts.at(-1)) {
      script?.dispatchEvent(new Event('error'));
    },
  };
}

const answer = (status: number, body: string) => vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status })));

afterEach(() => vi.unstubAllGlobals());

describe('loadWalletCheckout', () => {
  it('resolves null where there is no window or document, and reads neither', async () => {
    const load = createLoader(bundle);
    await expect(load({ host: HOST })).resolves.toBeNull();
    // A worker, say: a window-like global without a document. Nothing of it is read.
    const touched: PropertyKey[] = [];
    vi.stubGlobal('window', new Proxy({}, { get: (_t, key) => void touched.push(key), set: (_t, key) => touched.push(key) > 0 }));
    await expect(load({ host: HOST })).resolves.toBeNull();
    expect(touched).toEqual([]);
  });

  it('injects the pinned file from the host with its SRI hash, crossorigin and the nonce, and resolves the API it defined', async () => {
    const p = page();
    const loading = createLoader(bundle)({ host: HOST, nonce: 'n0nce' });
    expect(p.scripts).toHaveLength(1);
    expect(p.scripts[0]).toMatchObject({ src: URL_OF_BUNDLE, integrity: bundle.integrity, crossOrigin: 'anonymous', nonce: 'n0nce', async: true });
    p.run();
    await expect(loading).resolves.toBe(p.api);
  });

  it('loads once, however many calls come, before the load ends or after, and from another copy of the package', async () => {
    const p = page();
    const calls = [createLoader(bundle)({ host: HOST }), createLoader(bundle)({ host: `${HOST}/` }), createLoader(bundle)({ host: HOST })];
    expect(p.scripts).toHaveLength(1);
    p.run();
    const apis = await Promise.all(calls);
    expect(apis.every((api) => api === p.api)).toBe(true);
    await expect(createLoader(bundle)({ host: HOST })).resolves.toBe(p.api);
    expect(p.scripts).toHaveLength(1);
  });

  it('another host is another load', async () => {
    const p = page();
    const load = createLoader(bundle);
    void load({ host: HOST });
    void load({ host: 'https://other.example' });
    expect(p.scripts.map((s) => s.src)).toEqual([URL_OF_BUNDLE, 'https://other.example/checkout.0123456789ab.js']);
  });

  it('refuses a host that is no http(s) URL, injecting nothing', async () => {
    const p = page();
    for (const host of ['checkout.example', 'javascript:alert(1)//', 'ftp://checkout.example']) {
      await expect(createLoader(bundle)({ host })).rejects.toMatchObject({ code: 'invalid_host' });
    }
    expect(p.scripts).toHaveLength(0);
  });

  it('a bundle whose bytes are not the pinned ones: rejected as such, the script removed, and a later call tries again', async () => {
    const p = page();
    answer(200, `${BYTES} /* and something else */`);
    const loading = createLoader(bundle)({ host: HOST });
    p.fail();
    const error = await loading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletCheckoutLoadError);
    expect(error).toMatchObject({ code: 'bundle_integrity_mismatch', url: URL_OF_BUNDLE });
    expect((error as Error).message).toContain(`does not match its pinned integrity hash ${bundle.integrity}`);
    expect(p.scripts[0]?.removed).toBe(true);

    const again = createLoader(bundle)({ host: HOST });
    expect(p.scripts).toHaveLength(2);
    p.run();
    await expect(again).resolves.toBe(p.api);
  });

  it('tells a host that no longer serves the release, an unreachable host, and a script the page refused though its bytes are right', async () => {
    const p = page();
    const failWith = async (): Promise<WalletCheckoutLoadError> => {
      const loading = createLoader(bundle)({ host: HOST });
      p.fail();
      return loading.then(
        () => Promise.reject(new Error('the load did not fail')),
        (error: WalletCheckoutLoadError) => error,
      );
    };
    answer(404, 'Not found');
    const notServed = await failWith();
    expect(notServed).toMatchObject({ code: 'bundle_not_served' });
    expect(notServed.message).toMatch(/answered HTTP 404.*Install the version of @wallet-checkout\/js made for the host's release/);

    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await failWith()).toMatchObject({ code: 'bundle_unreachable' });

    answer(200, BYTES);
    const refused = await failWith();
    expect(refused).toMatchObject({ code: 'bundle_refused' });
    expect(refused.message).toMatch(/though its bytes match the pinned hash: the page's Content-Security-Policy/);
  });

  it('a script that ran without defining the API is an error, not a hang', async () => {
    const p = page();
    const loading = createLoader(bundle)({ host: HOST });
    p.run(p.scripts[0], { mount: 'not a function' });
    await expect(loading).rejects.toMatchObject({ code: 'bundle_invalid' });
  });
});
