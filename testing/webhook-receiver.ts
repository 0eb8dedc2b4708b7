/**
 * A merchant's webhook receiver, written as a merchant would from
 * docs/webhooks.md: plain node:http and node:crypto, nothing of ours. It
 * checks every delivery's signature (any v1, constant time, 5 minutes) and
 * keeps the events it accepted; it can be taken down and brought back on the
 * same port, or made to answer an error, to see retries from outside.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event } from '../contracts';

export interface ReceivedDelivery {
  event: Event;
  /** The raw body, as signed. */
  body: string;
  headers: IncomingHttpHeaders;
}

export interface WebhookReceiver {
  /** Where to register it: http://127.0.0.1:<port>/webhooks */
  readonly url: string;
  /** Every delivery whose signature verified, in arrival order (duplicates too: at least once). */
  readonly deliveries: ReceivedDelivery[];
  /** Deliveries refused because no signature matched. */
  readonly forged: number;
  /** The secrets it accepts (a merchant mid-roll accepts either). */
  secrets: string[];
  /** The status it answers a verified delivery with (2xx: accepted; anything else and the sender retries). */
  answer: number;
  /** While true, deliveries are read and never answered (a receiver stuck, or the sender killed mid-send). */
  hang: boolean;
  /** Deliveries it has held unanswered. */
  readonly held: number;
  /** The distinct events received, by id. */
  events(): Event[];
  /** Resolves once the events received satisfy `done`; rejects after `timeoutMs` saying what did arrive. */
  waitFor(done: (events: Event[]) => boolean, timeoutMs?: number): Promise<Event[]>;
  /** Stops listening: deliveries meet a refused connection. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** A server's settings for fast retries: a receiver that comes back is reached within a fraction of a second. */
export const FAST_WEBHOOKS = { WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_MAX_MS: '200', WEBHOOK_TIMEOUT_MS: '2000' };

const TOLERANCE_SECONDS = 300;

/** docs/webhooks.md's recipe. */
function verified(header: string | undefined, body: string, secret: string): boolean {
  if (!header) return false;
  const fields = header.split(',').map((field) => field.split('=') as [string, string | undefined]);
  const timestamp = Number(fields.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return fields.some(([name, value]) => name === 'v1' && value !== undefined && Buffer.from(value, 'hex').length === expected.length && timingSafeEqual(Buffer.from(value, 'hex'), expected));
}

export async function startWebhookReceiver(secrets: string[] = []): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  let forged = 0;
  let held = 0;
  const state = { secrets, answer: 200, hang: false };
  const waiters = new Set<() => void>();

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = req.headers['wallet-checkout-signature'];
      if (req.method !== 'POST' || !state.secrets.some((secret) => verified(typeof signature === 'string' ? signature : undefined, body, secret))) {
        forged++;
        res.writeHead(400).end();
        return;
      }
      if (state.hang) {
        held++;
        return;
      }
      if (state.answer >= 200 && state.answer < 300) {
        deliveries.push({ event: JSON.parse(body) as Event, body, headers: req.headers });
        for (const wake of waiters) wake();
      }
      res.writeHead(state.answer).end();
    });
  };

  let server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const events = () => [...new Map(deliveries.map((delivery) => [delivery.event.id, delivery.event])).values()];
  const closeServer = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    get forged() {
      return forged;
    },
    get secrets() {
      return state.secrets;
    },
    set secrets(value) {
      state.secrets = value;
    },
    get held() {
      return held;
    },
    get hang() {
      return state.hang;
    },
    set hang(value) {
      state.hang = value;
    },
    get answer() {
      return state.answer;
    },
    set answer(value) {
      state.answer = value;
    },
    events,
    waitFor(done, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(events())) return;
          cleanUp();
          resolve(events());
        };
        const timer = setTimeout(() => {
          cleanUp();
          reject(new Error(`webhooks not received in ${timeoutMs} ms; got ${JSON.stringify(events().map((event) => [event.type, event.data.object.id]))}`));
        }, timeoutMs);
        const cleanUp = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    down: closeServer,
    async up() {
      server = createServer(handler);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: () => (server.listening ? closeServer() : Promise.resolve()),
  };
}
