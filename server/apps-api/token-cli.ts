/**
 * Prints an access token signed by the development issuer, for calling the
 * apps API of a server that has no real issuer configured:
 *   npm run -s token:dev -- --scope docs --scope storage.readonly [--client-id app_...] [--subject alice] [--lifetime 3600]
 * A scope is a name under OAUTH_SCOPE_BASE, or a full scope URL.
 */
import { type CommandLine, commandLine } from '../lib/command-line';
import { loadConfig } from '../config';
import { loadDevIssuer } from './dev-issuer';
import { scopeUrl } from './scopes';
import { TOKEN_DEV } from './token-command';

// Typed, so that its fail() narrows as a `never` call does.
const command: CommandLine<typeof TOKEN_DEV.flags> = commandLine(TOKEN_DEV);
const parsed = command.parse().values;
const config = command.validConfig(loadConfig());
if (config.appLookup.issuer) command.fail(`OAUTH_ISSUER is set (${config.appLookup.issuer.issuer}): the server does not trust the development issuer, get a token from yours`);
const lifetimeSeconds = Number(parsed.lifetime);
if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds <= 0) command.fail('--lifetime is a positive number of seconds');

const token = await loadDevIssuer(config.dataDir).sign({
  scopes: parsed.scope.map((name) => scopeUrl(config.appLookup.scopeBase, name)),
  clientId: parsed['client-id'],
  subject: parsed.subject,
  lifetimeSeconds,
});
// The command's one output, for `$(npm run -s token:dev ...)`: not a log line. It is a development
// credential for the apps API (refused above when a real issuer is configured), never payment data.
process.stdout.write(`${token}\n`);
