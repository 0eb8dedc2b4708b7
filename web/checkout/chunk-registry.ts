/**
 * Where a chunk (chunks.ts) leaves what it carries: keyed by the chunk's own URL, so copies of
 * different versions of the bundle on one page never take each other's. Shared by the chunks and
 * the bundle that loads them, and so kept apart from the chunk manifest.
 */
const REGISTRY = '__walletCheckoutChunks';

const registry = (): Map<string, unknown> => ((window as unknown as Record<string, Map<string, unknown>>)[REGISTRY] ??= new Map());

/** Called by a chunk as it runs (chunk-entry.ts). */
export function registerChunk(value: unknown): void {
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  if (src) registry().set(src, value);
}

export const registeredChunk = (src: string): unknown => registry().get(src);
