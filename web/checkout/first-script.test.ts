/**
 * What checkout.js (the first script) must not carry, checked on the script-tag entry's bundle
 * (the module graph the build bundles, tree-shaken as it is): no framework (the view is plain DOM,
 * docs/architecture.md), no button element (the button is pay.js's own, drawn by wallet-button.ts) and not the server's session table (an `open` session is all the first
 * paint draws; any other status is the after-click chunk's). Its size is the bench's
 * (`npm run bench:widget`).
 */
import { expect, test } from 'vitest';
import { firstScriptModules } from '../../scripts/bench/bundle-modules';

test('the first script carries no framework, no button element and not the session table, but the wallet button and the view', async () => {
  const modules = Object.keys((await firstScriptModules()).modules);
  expect(modules.filter((module) => module.includes('node_modules/preact') || module.includes('node_modules/@google-pay'))).toEqual([]);
  expect(modules).not.toContain('contracts/session-states.ts');
  // What it is for, so that a broken graph cannot pass by carrying nothing.
  expect(modules).toEqual(expect.arrayContaining(['web/checkout/wallet-button.ts', 'web/checkout/view.ts']));
});
