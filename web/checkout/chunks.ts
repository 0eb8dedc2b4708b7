/**
 * What the first paint does not need ships apart, in "chunks": each a content-versioned file whose
 * SRI hash the build writes into this bundle, so a merchant who pins checkout.js pins them too. The
 * languages' chunks are pinned one step removed: this bundle pins the "locale-index" chunk, which
 * names each language's file with its hash (forty hashes here would weigh ~2.5 KB gzipped).
 * Loaded as classic scripts from where this bundle came from (immutable, CORS), under the page's nonce; a chunk that cannot load or doesn't match its hash
 * is an error the caller falls back from.
 */
import manifest from 'wallet-checkout:chunk-manifest';
import { loadScriptOnce } from './api';
import { registeredChunk } from './chunk-registry';

/** The directory of the bundle that is running (each entry sets it from its own URL); chunks sit beside it. */
let base: string | undefined;

export function setChunkBase(bundleUrl: string | undefined): void {
  if (bundleUrl) base = new URL('.', bundleUrl).href;
}

/** A chunk's content-versioned file, beside this bundle, and its SRI hash. */
export interface PinnedChunk {
  file: string;
  integrity: string;
}

export const loadChunk = (name: string, nonce: string | undefined): Promise<unknown> => loadPinnedChunk(name, manifest[name], nonce);

/** Loads a chunk the caller found pinned elsewhere (a language's, in the locale index). */
export async function loadPinnedChunk(name: string, chunk: PinnedChunk | undefined, nonce: string | undefined): Promise<unknown> {
  if (!chunk || !base) throw new Error(`Wallet Checkout: no chunk ${name} to load`);
  const src = new URL(chunk.file, base).href;
  await loadScriptOnce(src, nonce, chunk.integrity);
  return registeredChunk(src);
}

/** Runs `work` once the page has nothing better to do (the button drawn, say). */
export function whenIdle(work: () => void): void {
  (window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1)))(() => work());
}

/** Fetches a chunk once the page has nothing better to do, so that what needs it later never waits; a failure here is retried when it is needed. */
export function prefetchChunk(name: string, nonce: string | undefined): void {
  whenIdle(() => void loadChunk(name, nonce).catch(() => undefined));
}
