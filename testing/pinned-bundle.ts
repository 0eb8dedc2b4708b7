/**
 * `wallet-checkout:pinned-bundle` in the unit tests (vite.config.ts maps it here): the package's
 * build writes the widget build's checkout.js there (scripts/build-browser-packages.ts); a test of
 * the sources pins this stand-in, which no host serves.
 */
export default { file: 'checkout.000000000000.js', integrity: 'sha384-unit-test-stand-in' };
