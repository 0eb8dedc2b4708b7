/**
 * The real server as a separate process (`node --import tsx server/main.ts`,
 * or the compiled server given as `launch`),
 * for what an in-process test server cannot show: a process killed at any
 * point (kill -9) and started again on the same DATA_DIR. Also what the crash
 * test and the soak both need around it: a merchant and a shopper speaking
 * HTTP to it, waiting for reconciliation to settle every payment, and the
 * audit of the service's ledger against the sessions.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { idempotencyKeyFor } from '../server/store/attempts';
import { refundIdempotencyKey } from '../server/checkout/refunds';
import type { Charge, CreatedQuoteEndpoint, CreatedSession, CreatedWebhookEndpoint, Event, IntermediatePaymentData, PaymentData, PaymentMethod, PaymentMethodList, PaymentOutcome, PublicSession, QuoteReply, Refund, Session } from '../contracts';
import { INSTANCE_READY_LINE, startNodeProcess } from './fleet/node-process';
import type { FaultPlanInput, LedgerEntry } from '../sandbox';
import { allKeptPaymentMethods, allLedgerEntries, allMerchantInitiatedCharges, openSandboxDb } from '../sandbox/store';
import { mintPaymentData, sandboxWalletUrl } from './sandbox';
import { coverByContract } from './contract-recorder';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The demo application's merchant id (demo): its charges at the service are under this account. */
const DEMO_MERCHANT_ACCOUNT = 'demo';

export interface ChildServer {
  readonly dataDir: string;
  /** The current process's id (undefined while stopped), to read its memory in /proc. */
  readonly pid: number | undefined;
  /** The origin it listens on; the same after a restart (it keeps its first port). */
  readonly url: string;
  /** The sandbox service's key and the demo merchant's secret key, from DATA_DIR: they persist across restarts. */
  readonly serviceKey: string;
  readonly demoSecretKey: string;
  /** kill -9: no shutdown code runs, whatever was in flight is cut. */
  kill(): Promise<void>;
  /** SIGTERM: the server's own graceful shutdown; resolves with its exit code (null: ended by a signal). */
  stop(): Promise<number | null>;
  /** Starts the process again on the same DATA_DIR and port (after kill or stop). */
  restart(): Promise<void>;
  /** The latest output of the current process (logs at LOG_LEVEL), to explain a failure. */
  output(): string;
}

export interface ChildServerOptions {
  /** Default: a new temporary directory (left for the caller to remove). */
  dataDir?: string;
  /** Added to the defaults below and to this process's environment. */
  env?: Record<string, string>;
  /** How long the process may take to print its URL. */
  startTimeoutMs?: number;
  /** Node's arguments and the directory it runs in; default the sources through tsx, from the repository. */
  launch?: { args: string[]; cwd: string };
}

export async function startChildServer(options: ChildServerOptions = {}): Promise<ChildServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'wallet-checkout-child-'));
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    DEMO: 'on',
    LOG_LEVEL: 'warn',
    // One client address pays and polls for every shopper.
    RATE_LIMIT_PAY_PER_MINUTE: '1000000',
    RATE_LIMIT_READS_PER_MINUTE: '1000000',
    RATE_LIMIT_MERCHANT_PER_MINUTE: '1000000',
    // No load balancer to wait for: SIGTERM closes at once unless a test sets a delay.
    SHUTDOWN_DRAIN_DELAY_MS: '0',
    ...options.env,
    DATA_DIR: dataDir,
  };
  const proc = await startNodeProcess({
    launch: options.launch ?? { args: ['--import', 'tsx', 'server/main.ts'], cwd: repoRoot },
    env,
    ready: INSTANCE_READY_LINE,
    portVariable: 'PORT',
    ...(options.startTimeoutMs !== undefined && { startTimeoutMs: options.startTimeoutMs }),
  });
  coverByContract(proc.url);
  const credentials = {
    serviceKey: (JSON.parse(readFileSync(join(dataDir, 'sandbox', 'keys.json'), 'utf8')) as { service_secret_key: string }).service_secret_key,
    demoSecretKey: (JSON.parse(readFileSync(join(dataDir, 'demo-merchant.json'), 'utf8')) as { secret_key: string }).secret_key,
  };
  return {
    dataDir,
    get pid() {
      return proc.pid;
    },
    get url() {
      return proc.url;
    },
    ...credentials,
    kill: proc.kill,
    stop: proc.stop,
    restart: proc.restart,
    output: proc.output,
  };
}

/** What the shopper chose in an express checkout's sheet, which the wallet returns with the payment (sandbox/shipping-addresses.ts). */
export interface SheetChoices {
  shippingAddressId: string;
  shippingOptionId: string;
  redemptionCodes: string[];
}

/** A merchant (its server, with the secret key: the demo's unless told) and its shoppers (the widget's calls, with the client secret). */
export interface ShopClient {
  createSession(body?: Record<string, unknown>): Promise<CreatedSession>;
  /** What the sandbox wallet returns for `cardId` on this session's payment request, with the sheet's `choices` when it asked for any. */
  walletPaymentData(session: CreatedSession, cardId: string, choices?: SheetChoices): Promise<PaymentData>;
  /** POST /pay, naming `quoteId` and carrying the shopper's `agreement` (its text's id) when given; the reply's status and body (an outcome, or an error). */
  pay(session: CreatedSession, paymentData: PaymentData, extras?: { quoteId?: string; agreement?: string }): Promise<{ status: number; body: { outcome?: PaymentOutcome; error?: { code: string } } }>;
  /** The id of the agreement the widget shows for a session that keeps the card (its public view's), undefined for one that keeps none. */
  shownAgreement(session: CreatedSession): Promise<string | undefined>;
  /** Every payment method of the merchant, from GET /api/payment_methods page by page, newest first. */
  paymentMethods(): Promise<PaymentMethod[]>;
  paymentMethod(id: string): Promise<PaymentMethod>;
  /** POST /api/payment_methods/{id}/charges under `idempotencyKey`, as the merchant's billing job sends it; the reply's status and body. */
  chargePaymentMethod(id: string, body: Record<string, unknown>, idempotencyKey: string): Promise<{ status: number; body: Partial<Session> & { error?: { code: string } } }>;
  /** The merchant's sessions created with `reference` (GET /api/sessions?reference=), newest first. */
  sessionsWithReference(reference: string): Promise<Session[]>;
  /** POST /api/sessions/{id}/quote, as the widget relays a change in the sheet. */
  quote(session: CreatedSession, change: IntermediatePaymentData): Promise<QuoteReply>;
  /** PUT /api/quote_endpoint: the endpoint, with its signing secret. */
  setQuoteEndpoint(url: string): Promise<CreatedQuoteEndpoint>;
  /** The merchant's view, which is the store's. */
  session(id: string): Promise<Session>;
  /** POST /api/sessions/{id}/refunds under `idempotencyKey`, as the merchant's server would; the reply's status and body. */
  refund(sessionId: string, body: { amount?: number }, idempotencyKey: string): Promise<{ status: number; body: { id?: string; status?: Refund['status']; error?: { code: string } } }>;
  /** POST /api/webhook_endpoints: the endpoint, with its secret. */
  createWebhookEndpoint(url: string): Promise<CreatedWebhookEndpoint>;
  /** Every event of the demo merchant, from GET /api/events page by page, newest first. */
  events(): Promise<Event[]>;
  /** PUT /sandbox/service/faults, as an operator would. */
  setFaults(plan: FaultPlanInput): Promise<void>;
  /** The demo merchant's latest charges at the service (its list API: at most 100, newest first). */
  charges(): Promise<Charge[]>;
}

/** Where the shop's calls go: a server, or nginx in front of a fleet with the sandbox elsewhere (`sandboxUrl`, default `url`). */
export type ShopTarget = Pick<ChildServer, 'url' | 'serviceKey' | 'demoSecretKey'> & {
  sandboxUrl?: string;
  /** The secret key of the merchant the shop is (default: the demo's). */
  merchantSecretKey?: string;
  /** How its requests are sent (default: fetch); a fleet's shoppers resend as browsers do (soak.ts, resendingLikeABrowser). */
  fetch?: typeof fetch;
};

/** A shop's request (other than /pay, whose replies are read whole) answered with an error: its status and error code. */
export class ShopRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function shopClient(server: ShopTarget): ShopClient {
  const sandboxUrl = server.sandboxUrl ?? server.url;
  const fetch = server.fetch ?? globalThis.fetch;
  const call = async <T>(path: string, init: RequestInit & { bearer?: string }): Promise<T> => {
    const { bearer, ...rest } = init;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(bearer && { authorization: `Bearer ${bearer}` }) };
    const response = await fetch(`${server.url}${path}`, { ...rest, headers });
    if (!response.ok) {
      const text = await response.text();
      const code = (() => {
        try {
          return (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        } catch {
          return undefined;
        }
      })();
      throw new ShopRequestError(response.status, code ?? `http_${response.status}`, `${rest.method ?? 'GET'} ${path} answered ${response.status}: ${text}`);
    }
    return (await response.json()) as T;
  };
  const merchant = server.merchantSecretKey ?? server.demoSecretKey;
  return {
    createSession: (body = {}) =>
      call('/api/sessions', { method: 'POST', bearer: merchant, body: JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US', ...body }) }),
    async walletPaymentData(session, cardId, choices) {
      const { payment_data_request, wallet } = await call<PublicSession>(`/api/sessions/${session.id}/public`, { bearer: session.client_secret });
      return mintPaymentData(sandboxWalletUrl(wallet), cardId, payment_data_request, undefined, choices?.shippingAddressId, choices?.shippingOptionId, choices?.redemptionCodes);
    },
    async pay(session, paymentData, { quoteId, agreement } = {}) {
      const response = await fetch(`${server.url}/api/sessions/${session.id}/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ payment_data: paymentData, quote_id: quoteId, ...(agreement && { agreement: { id: agreement } }) }),
      });
      return { status: response.status, body: (await response.json()) as { outcome?: PaymentOutcome; error?: { code: string } } };
    },
    async shownAgreement(session) {
      return (await call<PublicSession>(`/api/sessions/${session.id}/public`, { bearer: session.client_secret })).save_payment_method?.agreement.id;
    },
    async paymentMethods() {
      const all: PaymentMethod[] = [];
      for (let page: PaymentMethodList | undefined; !page || page.has_more; ) {
        const after = all.at(-1);
        page = await call<PaymentMethodList>(`/api/payment_methods?limit=100${after ? `&starting_after=${after.id}` : ''}`, { bearer: merchant });
        all.push(...page.data);
      }
      return all;
    },
    paymentMethod: (id) => call(`/api/payment_methods/${id}`, { bearer: merchant }),
    async chargePaymentMethod(id, body, idempotencyKey) {
      const response = await fetch(`${server.url}/api/payment_methods/${id}/charges`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Partial<Session> & { error?: { code: string } } };
    },
    async sessionsWithReference(reference) {
      return (await call<{ data: Session[] }>(`/api/sessions?limit=100&reference=${encodeURIComponent(reference)}`, { bearer: merchant })).data;
    },
    quote: (session, change) =>
      call(`/api/sessions/${session.id}/quote`, { method: 'POST', bearer: session.client_secret, body: JSON.stringify({ intermediate_payment_data: change }) }),
    setQuoteEndpoint: (url) => call('/api/quote_endpoint', { method: 'PUT', bearer: merchant, body: JSON.stringify({ url }) }),
    session: (id) => call(`/api/sessions/${id}`, { bearer: merchant }),
    async refund(sessionId, body, idempotencyKey) {
      const response = await fetch(`${server.url}/api/sessions/${sessionId}/refunds`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { id?: string; status?: Refund['status']; error?: { code: string } } };
    },
    createWebhookEndpoint: (url) => call('/api/webhook_endpoints', { method: 'POST', bearer: merchant, body: JSON.stringify({ url }) }),
    async events() {
      const all: Event[] = [];
      for (let page: { data: Event[]; has_more: boolean } | undefined; !page || page.has_more; ) {
        const after = all.at(-1);
        page = await call<{ data: Event[]; has_more: boolean }>(`/api/events?limit=100${after ? `&starting_after=${after.id}` : ''}`, { bearer: merchant });
        all.push(...page.data);
      }
      return all;
    },
    async setFaults(plan) {
      const response = await fetch(`${sandboxUrl}/sandbox/service/faults`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${server.serviceKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(plan),
      });
      if (!response.ok) throw new Error(`PUT /sandbox/service/faults answered ${response.status}: ${await response.text()}`);
    },
    async charges() {
      const response = await fetch(`${sandboxUrl}/sandbox/service/api/v1/charges?limit=100`, {
        headers: { authorization: `Bearer ${server.serviceKey}`, 'merchant-account': DEMO_MERCHANT_ACCOUNT },
      });
      if (!response.ok) throw new Error(`GET /sandbox/service/api/v1/charges answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { data: Charge[] }).data;
    },
  };
}

/** Neither known nor given up: reconciliation still owes these an outcome. */
const UNSETTLED: ReadonlySet<Session['status']> = new Set(['processing', 'pending']);
/** A session whose payment, or one of whose refunds, reconciliation still owes an outcome. */
const unsettled = (session: Session): boolean => UNSETTLED.has(session.status) || session.refunds.some((refund) => refund.status === 'pending');
const POLL_CONCURRENCY = 50;

/**
 * Polls the merchant view of every session until none is processing or
 * pending (reconciliation has settled them all) or `timeoutMs` passes, and
 * returns the last view of each. A session that fails to answer (the server
 * restarting) is asked again on the next round.
 */
export async function settledSessions(shop: ShopClient, ids: readonly string[], timeoutMs: number, pollMs = 250): Promise<Session[]> {
  const latest = new Map<string, Session>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = ids.filter((id) => {
      const session = latest.get(id);
      return session === undefined || unsettled(session);
    });
    // In slices: thousands of requests at once would cost more sockets than they save time.
    for (let i = 0; i < open.length; i += POLL_CONCURRENCY) {
      await Promise.all(open.slice(i, i + POLL_CONCURRENCY).map((id) => shop.session(id).then((s) => latest.set(id, s), () => latest.delete(id))));
    }
    const waiting = open.some((id) => !latest.has(id) || unsettled(latest.get(id)!));
    if (!waiting || Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const missing = ids.filter((id) => !latest.has(id));
  if (missing.length > 0) throw new Error(`no answer for ${missing.length} session(s), e.g. ${missing[0]}`);
  return ids.map((id) => latest.get(id)!);
}

/**
 * Every charge the sandbox service holds, with the idempotency key it was made
 * under, read from its own database: the list API caps at 100 charges and
 * does not return keys, which are what tie a charge to one attempt of one
 * session. WAL mode lets this read while the server runs.
 */
export async function readLedger(dataDir: string): Promise<LedgerEntry[]> {
  const db = await openSandboxDb(join(dataDir, 'sandbox', 'sandbox.db'));
  try {
    return await allLedgerEntries(db);
  } finally {
    await db.destroy();
  }
}

/** What the sandbox service holds of kept cards, from its own database: every merchant-initiated charge with its stored credential, and every kept payment method. */
export async function readKeptCards(dataDir: string): Promise<ServiceKeptCards> {
  const db = await openSandboxDb(join(dataDir, 'sandbox', 'sandbox.db'));
  try {
    return { charges: await allMerchantInitiatedCharges(db), methods: await allKeptPaymentMethods(db) };
  } finally {
    await db.destroy();
  }
}

export interface ServiceKeptCards {
  charges: Awaited<ReturnType<typeof allMerchantInitiatedCharges>>;
  methods: Awaited<ReturnType<typeof allKeptPaymentMethods>>;
}

export interface LedgerAudit {
  sessions: number;
  charges: number;
  succeeded: number;
  declined: number;
  /** Sessions with more than one succeeded charge (must be none). */
  duplicates: string[];
  /** A succeeded session without its charge at the service, or a charge its session does not know (must be none). */
  lost: string[];
  /** A charge whose amount or outcome is not its session's (must be none): the latest attempt's amount is `amount_charged`, an earlier one's `amount` when that is the price (testing/soak-express.ts holds a quoted session's to its quotes). */
  mismatched: string[];
  /** Sessions still processing or pending, or with a refund pending (must be none once reconciliation ran). */
  pending: string[];
  refunds: RefundAudit;
}

export interface RefundAudit {
  /** Refunds at the service. */
  count: number;
  /** More than one refund at the service for one refund of ours (must be none). */
  duplicates: string[];
  /** A refund of ours succeeded without its refund at the service, or one at the service we do not know as succeeded (must be none). */
  lost: string[];
  /** Refunds that gave back more than the session took (must be none). */
  overRefunded: string[];
}

/**
 * What the merchant's view says attempt `attemptNo` charged: the latest attempt's is `amount_charged`; an earlier
 * one's is `amount` when that is the session's price, and unknown here when the price was quoted (by delivery option
 * or the merchant's quote endpoint) and may have changed between attempts.
 */
function chargedBy(session: Session, attemptNo: number): number | undefined {
  if (attemptNo === session.attempts) return session.amount_charged ?? session.amount;
  const quoted = session.quote_endpoint || (session.shipping?.options.length ?? 0) > 0;
  return quoted ? undefined : session.amount;
}

/** What a session's last outcome should be for its charge's status. */
const sessionStatusFor = (charge: LedgerEntry['charge']): Session['status'] => (charge.status === 'succeeded' ? 'succeeded' : 'declined');

/**
 * The service's ledger against the store, as the merchant sees it. A charge
 * is tied to its attempt by the attempt's idempotency key: the last attempt's
 * charge must be the session's outcome; an earlier attempt's must have been a
 * decline, the only charge after which a session may be paid again.
 */
export function auditLedger(sessions: readonly Session[], ledger: readonly LedgerEntry[]): LedgerAudit {
  const attemptByKey = new Map<string, { session: Session; attemptNo: number }>();
  for (const session of sessions) {
    for (let attemptNo = 1; attemptNo <= session.attempts; attemptNo++) attemptByKey.set(idempotencyKeyFor(session.id, attemptNo), { session, attemptNo });
  }
  const charges = ledger.filter((entry) => entry.operation === 'charge').length;
  const audit: LedgerAudit = { sessions: sessions.length, charges, succeeded: 0, declined: 0, duplicates: [], lost: [], mismatched: [], pending: [], refunds: auditRefunds(sessions, ledger) };
  const succeededCharges = new Map<string, number>();
  const chargeIds = new Set<string>();

  for (const { charge, idempotency_key } of ledger.filter((entry) => entry.operation === 'charge')) {
    chargeIds.add(charge.id);
    const attempt = idempotency_key === null ? undefined : attemptByKey.get(idempotency_key);
    if (!attempt) {
      audit.lost.push(`${charge.id} (${charge.status}) belongs to no attempt of any session (key ${idempotency_key})`);
      continue;
    }
    const { session, attemptNo } = attempt;
    if (charge.status === 'succeeded') succeededCharges.set(session.id, (succeededCharges.get(session.id) ?? 0) + 1);
    const charged = chargedBy(session, attemptNo);
    if ((charged !== undefined && charge.amount !== charged) || charge.currency !== session.currency.toLowerCase()) {
      audit.mismatched.push(`${charge.id}: ${charge.amount} ${charge.currency}, attempt ${attemptNo} of session ${session.id} charged ${charged ?? 'a quoted amount'} ${session.currency}`);
    }
    if (attemptNo < session.attempts) {
      if (charge.status === 'succeeded') audit.lost.push(`${charge.id} succeeded on attempt ${attemptNo} of ${session.id}, which then took attempt ${session.attempts}`);
    } else if (session.outcome?.charge_id !== charge.id) {
      audit.lost.push(`${charge.id} (${charge.status}) is unknown to ${session.id} (${session.status}, outcome ${session.outcome?.charge_id ?? 'none'})`);
    } else if (session.status !== sessionStatusFor(charge)) {
      audit.mismatched.push(`${charge.id} ${charge.status}, session ${session.id} ${session.status}`);
    }
  }

  for (const session of sessions) {
    if ((succeededCharges.get(session.id) ?? 0) > 1) audit.duplicates.push(session.id);
    if (unsettled(session)) audit.pending.push(session.id);
    if (session.status === 'succeeded') audit.succeeded++;
    if (session.status === 'declined') audit.declined++;
    if (session.status === 'succeeded' && !(session.outcome?.charge_id && chargeIds.has(session.outcome.charge_id))) {
      audit.lost.push(`${session.id} succeeded with charge ${session.outcome?.charge_id ?? 'none'}, which the service does not have`);
    }
  }
  return audit;
}

/**
 * The service's refunds against the sessions' refunds: each of ours that
 * succeeded is one refund at the service under its key, the service has no
 * other, and no session gave back more than it took.
 */
export function auditRefunds(sessions: readonly Session[], ledger: readonly LedgerEntry[]): RefundAudit {
  const atService = new Map<string, number[]>();
  for (const { idempotency_key, refund } of ledger.filter((entry) => entry.operation === 'refund')) {
    if (!refund || idempotency_key === null) continue;
    atService.set(idempotency_key, [...(atService.get(idempotency_key) ?? []), refund.amount]);
  }
  const audit: RefundAudit = { count: [...atService.values()].reduce((sum, amounts) => sum + amounts.length, 0), duplicates: [], lost: [], overRefunded: [] };
  const known = new Set<string>();
  for (const session of sessions) {
    const taken = session.status === 'captured' ? (session.amount_captured ?? 0) : session.status === 'succeeded' ? (session.amount_charged ?? session.amount) : 0;
    let givenBack = 0;
    for (const refund of session.refunds) {
      const key = refundIdempotencyKey(session.id, refund.id);
      const amounts = atService.get(key) ?? [];
      givenBack += amounts.reduce((sum, amount) => sum + amount, 0);
      if (amounts.length > 1) audit.duplicates.push(`${refund.id} of ${session.id}: ${amounts.length} refunds at the service`);
      if (refund.status !== 'succeeded') continue;
      known.add(key);
      if (amounts.length === 0 || amounts[0] !== refund.amount) audit.lost.push(`${refund.id} of ${session.id} succeeded (${refund.amount}); the service has ${amounts.join(', ') || 'nothing'}`);
    }
    if (givenBack > taken) audit.overRefunded.push(`${session.id} took ${taken} and gave back ${givenBack}`);
  }
  for (const key of atService.keys()) if (!known.has(key)) audit.lost.push(`the service refunded under ${key}, which no succeeded refund has`);
  return audit;
}
