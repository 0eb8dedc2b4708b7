/** Modules the build writes (vite.config.ts, the chunks plugin). */
declare module 'wallet-checkout:chunk-content' {
  /** What the chunk being built carries (a dictionary, a component). */
  const content: unknown;
  export default content;
}

declare module 'wallet-checkout:chunk-manifest' {
  /** Each chunk's content-versioned file and SRI hash (of the chunks in dist/web when it is built). */
  const chunks: Partial<Record<string, { file: string; integrity: string }>>;
  export default chunks;
}

declare module 'wallet-checkout:languages' {
  /** The tags of the dictionaries in web/checkout/locales/ (`<tag>.ts`), English included. */
  const tags: readonly string[];
  export default tags;
  /** Those of `tags` whose script is written right to left. */
  export const rightToLeft: readonly string[];
}
