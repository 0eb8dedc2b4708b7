/**
 * `wallet-checkout listen --forward-to <url>`: the application's new events, read from the host's
 * events API, forwarded to a local receiver signed with a secret printed at start. The checkout's
 * own deliveries cannot reach a laptop (in production it sends only to public https addresses,
 * docs/webhooks.md#where-endpoints-may-point-ssrf); this brings the same deliveries to it.
 *
 * It prints one line per event (time, type, id, the receiver's status) and never an event's
 * content: that is payment data. Ctrl-C (or SIGTERM) stops it between two events or mid-request.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK_EVENT_TYPES, type WebhookEventTypeName } from '../../../../contracts/event-types';
import { WalletCheckoutApiError, WalletCheckoutConnectionError } from '../errors';
import { CONNECTION_HELP, connect, parseCommandLine, Refusal, UsageError } from './connection';
import { EventFollower } from './event-follower';
import { forwardEvent, newSigningSecret } from './forward';

const DEFAULT_INTERVAL_MS = 1000;
const MIN_INTERVAL_MS = 250;

export const LISTEN_HELP = `Usage: wallet-checkout listen --forward-to <url> [options]

Forwards your application's new events to a local URL, each POST signed as the checkout signs its
webhook deliveries (Wallet-Checkout-Signature, docs/webhooks.md), with a secret printed at start:
verify them with webhooks.verify(rawBody, header, secret) exactly as in production. The events are
read from the host's events API (GET /api/events) every --interval-ms, so nothing needs to reach
your machine. Prints one line per event: time, type, id and your receiver's status. Ctrl-C stops it.

Options:
  --forward-to <url>       where to POST each event, e.g. http://localhost:4000/hooks (required)
  --events <types>         only these event types, comma-separated (default: every type):
${typesInLines()}
  --secret <whsec_...>     sign with this secret instead of a new one each run (keep it in your
                           receiver's settings)
  --interval-ms <ms>       how often to look for new events (default ${DEFAULT_INTERVAL_MS}, at least ${MIN_INTERVAL_MS})

${CONNECTION_HELP}

Examples:
  WALLET_CHECKOUT_URL=https://checkout.example.com WALLET_CHECKOUT_SECRET_KEY=sk_test_... \\
    npx wallet-checkout listen --forward-to http://localhost:4000/hooks
  npx wallet-checkout listen --forward-to http://localhost:4000/hooks --events session.succeeded,refund.succeeded`;

/** The event types, three a line, under the option that takes them. */
function typesInLines(): string {
  const lines: string[] = [];
  for (let at = 0; at < WEBHOOK_EVENT_TYPES.length; at += 3) lines.push(`                           ${WEBHOOK_EVENT_TYPES.slice(at, at + 3).join(', ')}`);
  return lines.join(',\n');
}

interface ListenSettings {
  forwardTo: URL;
  types: Set<WebhookEventTypeName> | undefined;
  secret: string;
  intervalMs: number;
}

function settingsOf(values: Record<string, string | boolean | undefined>): ListenSettings {
  const forwardTo = typeof values['forward-to'] === 'string' && URL.canParse(values['forward-to']) ? new URL(values['forward-to']) : undefined;
  if (!forwardTo || !/^https?:$/.test(forwardTo.protocol)) throw new UsageError('--forward-to must be an http(s) URL, e.g. http://localhost:4000/hooks');
  const types = typeof values.events === 'string' ? values.events.split(',').map((type) => type.trim()) : undefined;
  const unknown = types?.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown && unknown.length > 0) throw new UsageError(`--events: no event type ${unknown.join(', ')} (see --help)`);
  const secret = typeof values.secret === 'string' ? values.secret : newSigningSecret();
  if (!/^whsec_\S{16,}$/.test(secret)) throw new UsageError('--secret must be whsec_ followed by at least 16 characters');
  const intervalMs = typeof values['interval-ms'] === 'string' ? Number(values['interval-ms']) : DEFAULT_INTERVAL_MS;
  if (!Number.isInteger(intervalMs) || intervalMs < MIN_INTERVAL_MS) throw new UsageError(`--interval-ms must be a whole number of ms, at least ${MIN_INTERVAL_MS}`);
  return { forwardTo, types: types && new Set(types as WebhookEventTypeName[]), secret, intervalMs };
}

/** Runs until `stop` aborts; resolves with the exit status. */
export async function listen(args: string[], stop: AbortSignal): Promise<number> {
  const { values } = parseCommandLine(args, {
    'forward-to': { type: 'string' },
    events: { type: 'string' },
    secret: { type: 'string' },
    'interval-ms': { type: 'string' },
  });
  if (values.help) {
    console.log(LISTEN_HELP);
    return 0;
  }
  const settings = settingsOf(values);
  const { client, baseUrl } = connect(values);
  const follower = new EventFollower((params, options) => client.events.list(params, options));
  try {
    await follower.start({ signal: stop });
  } catch (error) {
    if (stop.aborted) return 0;
    throw new Refusal(`could not read the events of ${baseUrl}: ${messageOf(error)}`);
  }
  // The receiver's URL without its query: it may carry a token of the receiver's own.
  console.log(`Ready: forwarding the new events of ${baseUrl} to ${settings.forwardTo.origin}${settings.forwardTo.pathname} (Ctrl-C to stop)`);
  console.log(`Webhook signing secret: ${settings.secret}`);

  let forwarded = 0;
  let unreachableSince: number | undefined;
  while (!stop.aborted) {
    try {
      for (const event of await follower.next({ signal: stop })) {
        if (settings.types && !settings.types.has(event.type)) continue;
        const answer = await forwardEvent(settings.forwardTo, event, settings.secret, stop);
        console.log(`${new Date().toISOString()}  ${event.type}  ${event.id}  ${'status' in answer ? answer.status : `no answer: ${answer.error}`}`);
        forwarded++;
      }
      if (unreachableSince !== undefined) console.error(`Reading the events again (after ${Math.round((Date.now() - unreachableSince) / 1000)} s)`);
      unreachableSince = undefined;
    } catch (error) {
      if (stop.aborted) break;
      // The host down or overloaded: said once, then tried again at each interval. Anything else (a key revoked) stops.
      if (!transient(error)) throw new Refusal(`could not read the events: ${messageOf(error)}`);
      if (unreachableSince === undefined) console.error(`Could not read the events (${messageOf(error)}); trying again every ${settings.intervalMs} ms`);
      unreachableSince ??= Date.now();
    }
    await sleep(settings.intervalMs, undefined, { signal: stop }).catch(() => undefined);
  }
  console.log(`Stopped: ${forwarded} event${forwarded === 1 ? '' : 's'} forwarded`);
  return 0;
}

const transient = (error: unknown) => error instanceof WalletCheckoutConnectionError || (error instanceof WalletCheckoutApiError && (error.status >= 500 || error.status === 429));
const messageOf = (error: unknown) => (error instanceof WalletCheckoutApiError ? `${error.status} ${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error));
