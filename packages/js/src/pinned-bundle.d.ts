/** Written by the package's build (scripts/build-browser-packages.ts) from the widget build's manifest entry of checkout.js. */
declare module 'wallet-checkout:pinned-bundle' {
  const pinned: { file: string; integrity: string };
  export default pinned;
}
