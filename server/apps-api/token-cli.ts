/**
 * Prints an access token signed by the development issuer, for calling the
 * apps API of a server that has no real issuer configured:
 *   npm run -s token:dev -- --scope docs --scope storage.readonly [--client-id app_...] [--subject alice] [--lifetime 3600]
 * A scope is a name under OAUTH_SCOPE_BASE, or a full scope URL.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { loadDevIssuer } from './dev-issuer';
import { scopeUrl } from './scopes';

const usage = 'Usage: npm run -s token:dev -- --scope NAME [--scope NAME ...] [--client-id CLIENT] [--subject SUBJECT] [--lifetime SECONDS]';

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        scope: { type: 'string', multiple: true, default: [] },
        'client-id': { type: 'string', default: 'token-dev' },
        subject: { type: 'string', default: 'dev-user' },
        lifetime: { type: 'string', default: '3600' },
      },
    }).values;
  } catch (error) {
    return fail((error as Error).message);
  }
})();

const loaded = loadConfig();
if (!loaded.ok) fail(`Configuration is invalid:\n  ${loaded.problems.join('\n  ')}`);
const { config } = loaded;
if (config.appLookup.issuer) fail(`OAUTH_ISSUER is set (${config.appLookup.issuer.issuer}): the server does not trust the development issuer, get a token from yours`);
const lifetimeSeconds = Number(parsed.lifetime);
if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds <= 0) fail('--lifetime is a positive number of seconds');

const token = await loadDevIssuer(config.dataDir).sign({
  scopes: parsed.scope.map((name) => scopeUrl(config.appLookup.scopeBase, name)),
  clientId: parsed['client-id'],
  subject: parsed.subject,
  lifetimeSeconds,
});
// The command's one output, for `$(npm run -s token:dev ...)`: not a log line. It is a development
// credential for the apps API (refused above when a real issuer is configured), never payment data.
process.stdout.write(`${token}\n`);
