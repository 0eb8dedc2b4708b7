/**
 * What `npm start` prints once it listens: where each thing is, and how to sign in to the dashboard
 * as the demo store's merchant. On stdout for the developer, not a log line: it names a file that
 * holds a secret key, never the key itself.
 */
import { isAbsolute, relative } from 'node:path';

export interface BannerFacts {
  origin: string;
  /** Where the store is (describeStoreLocation: a file, or a URL without its password). */
  store: string;
  /** The demo store's credentials file (DATA_DIR/demo-merchant.json), when the demo runs. */
  demoCredentials: string | undefined;
  /** The widget gallery is served (the demo beside a sandbox). */
  gallery: boolean;
  /** The embedded sandbox payment service and wallet are on this origin. */
  embeddedSandbox: boolean;
  cwd: string;
}

export function startBanner(facts: BannerFacts): string {
  const { origin } = facts;
  const shown = (path: string) => (relative(facts.cwd, path).startsWith('..') ? path : relative(facts.cwd, path) || path);
  const lines = ['', 'Wallet Checkout is running.'];
  if (facts.demoCredentials) lines.push(`  Demo store:    ${origin}/`);
  lines.push(`  Dashboard:     ${origin}/dashboard`);
  if (facts.demoCredentials) {
    const file = shown(facts.demoCredentials);
    const required = isAbsolute(file) ? file : `./${file}`;
    lines.push(`                 sign in with the demo app's secret key, kept in ${file}:`, `                 node -p "require('${required}').secret_key"`);
  } else {
    lines.push('                 sign in with an application\'s secret key (npm run app:create -- --help)');
  }
  if (facts.gallery) lines.push(`  Widget states: ${origin}/demo/gallery`);
  lines.push(`  Widget:        ${origin}/checkout.js`, `  API document:  ${origin}/openapi.json (docs/api.md)`);
  if (facts.embeddedSandbox) lines.push(`  Sandbox:       ${origin}/sandbox (payment service and wallet, test cards: docs/test-cards.md)`);
  lines.push(`  Store:         ${shown(facts.store)}`, '  Ctrl-C stops it.', '');
  return lines.join('\n');
}
