/**
 * The widget's bundles, built by Vite into dist/web and served to any page that
 * embeds them. Each bundle is served twice: under its plain name (`/checkout.js`,
 * a short cache, so a page that uses it gets fixes within minutes) and under the
 * content-versioned name the build's manifest gives it (`/checkout.<hash>.js`,
 * cached for a year: its content never changes, so a merchant can pin it with
 * an SRI `integrity`). `/checkout/manifest.json` tells merchants both. The
 * chunks a bundle loads later (web/checkout/chunks.ts) are served under their
 * versioned names only: the bundle names them, with their hashes. Each is sent
 * brotli- or gzip-compressed when the browser accepts it, from files the build
 * compressed (no compression per request), held in memory from the start.
 * `/frame` is the checkout frame of iframe mode (docs/embedding.md): a page
 * holding the widget, which the merchant's page embeds instead of our script.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { escapeHtml } from '../html';

const bundleDir = fileURLToPath(new URL('../../dist/web/', import.meta.url));

export type Manifest = Record<string, { file: string; integrity: string }>;

/** The build's manifest; empty when the bundles haven't been built (the plain names then answer 404 too). */
export function readManifest(): Manifest {
  try {
    return JSON.parse(readFileSync(`${bundleDir}manifest.json`, 'utf8')) as Manifest;
  } catch {
    return {};
  }
}

/** A chunk's manifest entry (vite.config.ts names them so). */
const isChunk = (file: string) => file.startsWith('checkout-chunk-');

/** The encodings the build writes beside each script, the smaller first (brotli is preferred where both are accepted). */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

interface Variant {
  body: Buffer;
  etag: string;
}

/** A bundle's bytes as the build wrote them: plain, and each precompressed encoding there is. */
export interface Bundle {
  plain: Variant;
  compressed: (Variant & { encoding: (typeof PRECOMPRESSED)[number]['encoding'] })[];
}

/**
 * Read once when the routes are made: no request waits on the disk (a page's button waits on
 * checkout.js). The build comes before the server starts (npm start), so a rebuild needs a
 * restart, as the manifest does. Undefined when the bundle was not built.
 */
export function readBundle(file: string, dir = bundleDir): Bundle | undefined {
  const read = (path: string): Variant | undefined => {
    if (!existsSync(path)) return undefined;
    const body = readFileSync(path);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  };
  const plain = read(join(dir, file));
  if (!plain) return undefined;
  const compressed = PRECOMPRESSED.flatMap(({ encoding, suffix }) => {
    const variant = read(join(dir, `${file}${suffix}`));
    return variant ? [{ ...variant, encoding }] : [];
  });
  return { plain, compressed };
}

/** A name whose bytes change with a release (a plain bundle name, a stable package name): minutes. A content-versioned name: a year. */
export const SHORT_CACHE = 'public, max-age=300';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Sends `bundle` (the bytes of `file`) in the encoding the request accepts, to a page on any origin. */
export function sendBundle(req: express.Request, res: express.Response, file: string, bundle: Bundle, cacheControl: string): void {
  // Merchants' pages on any origin load these, as classic or module scripts, with or without SRI (CORS).
  res.set('Access-Control-Allow-Origin', '*');
  res.set('Cross-Origin-Resource-Policy', 'cross-origin');
  res.set('Cache-Control', cacheControl);
  // The build compressed each script already (vite.config.ts): no request costs a compression.
  const encodings = bundle.compressed.map(({ encoding }) => encoding);
  if (encodings.length > 0) res.vary('Accept-Encoding');
  const accepted = encodings.length > 0 && req.acceptsEncodings(...encodings);
  const compressed = bundle.compressed.find(({ encoding }) => encoding === accepted);
  const variant = compressed ?? bundle.plain;
  res.type(extname(file));
  if (compressed) res.set('Content-Encoding', compressed.encoding);
  // An ETag per encoding, of its bytes: no cache hands brotli to a gzip request, and every instance of a fleet gives the same one. res.send answers a match with 304.
  res.set('ETag', variant.etag);
  res.send(variant.body);
}

/** The build's directory of bundles: the release archive copies its versioned files from there. */
export const builtBundleDir = bundleDir;

/**
 * Serves each bundle of `bundles` (path -> file in dist/web) under its plain
 * path and its content-versioned name; with `chunks`, the widget's chunks too,
 * under their versioned names only.
 */
export function bundleRoutes(bundles: Record<string, string>, manifest: Manifest = readManifest(), options: { chunks?: boolean } = {}): express.Router {
  const router = express.Router();
  const serve = (path: string, file: string, cacheControl: string) => {
    const bundle = readBundle(file);
    if (!bundle) return; // not built: the path answers 404 as any unknown one
    router.get(path, (req, res) => sendBundle(req, res, file, bundle, cacheControl));
  };
  const publish = (path: string, file: string) => {
    serve(path, file, SHORT_CACHE);
    const versioned = manifest[file]?.file;
    if (versioned) serve(`/${versioned}`, versioned, IMMUTABLE);
  };
  for (const [path, file] of Object.entries(bundles)) publish(path, file);
  if (options.chunks) for (const [file, { file: versioned }] of Object.entries(manifest)) if (isChunk(file)) serve(`/${versioned}`, versioned, IMMUTABLE);
  return router;
}

/** The sandbox wallet's script, served by the sandbox wherever it runs (embedded, or as its own service). */
export const sandboxWalletBundle = { '/sandbox/wallet.js': 'sandbox-wallet.js' };

export function staticRoutes(options: { sandboxWallet: boolean; frameHeaders: express.RequestHandler[] }): express.Router {
  const router = express.Router();
  const manifest = readManifest();
  const widget = { '/checkout.js': 'checkout.js', '/checkout.mjs': 'checkout.mjs', '/checkout-frame.js': 'checkout-frame.js', '/checkout.d.ts': 'checkout.d.ts' };
  router.use(bundleRoutes({ ...widget, ...(options.sandboxWallet && sandboxWalletBundle) }, manifest, { chunks: true }));

  // Never cached: a fixed widget reaches every embedding page at once, and the page names the bundle by its content.
  const frameScript = `/${manifest['checkout-frame.js']?.file ?? 'checkout-frame.js'}`;
  router.get('/frame', ...options.frameHeaders, (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.set('Cross-Origin-Resource-Policy', 'cross-origin');
    res.type('html').send(framePage(frameScript, String(res.locals.cspNonce)));
  });

  router.get('/checkout/manifest.json', (_req, res) => {
    res.set('Access-Control-Allow-Origin', '*');
    res.set('Cache-Control', SHORT_CACHE);
    // The widget's bundles only: the dashboard's script is our page's, nothing a merchant embeds.
    const embeddable = new Set([...Object.values(widget), ...(options.sandboxWallet ? Object.values(sandboxWalletBundle) : [])]);
    const entries = Object.entries(manifest).filter(([file]) => embeddable.has(file));
    res.json(Object.fromEntries(entries.map(([file, entry]) => [file, { src: `/${entry.file}`, integrity: entry.integrity }])));
  });
  return router;
}

/** The checkout frame: a transparent page with the widget's mount element; the script mounts it once the embedding page sends the client secret. */
const framePage = (script: string, nonce: string) => `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Wallet Checkout</title>
<style nonce="${escapeHtml(nonce)}">html, body { margin: 0; background: transparent; overflow: hidden; }</style></head>
<body><div id="checkout"></div><script src="${escapeHtml(script)}" nonce="${escapeHtml(nonce)}"></script></body></html>
`;
