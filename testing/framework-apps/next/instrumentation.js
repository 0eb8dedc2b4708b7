/**
 * Records every read of `window` on the server (typeof included) with its stack, for the test to
 * tell Next.js's own reads (its code in node_modules/next) from any by the app's bundled code,
 * which holds our packages.
 */
export function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const touches = (globalThis.__windowTouches = []);
  Object.defineProperty(globalThis, 'window', {
    configurable: true,
    get() {
      touches.push(new Error('window read').stack);
      return undefined;
    },
  });
}
