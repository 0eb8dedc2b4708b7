/**
 * Platform mode signs Google Pay authJwts for a merchant's site only once the
 * app proved it controls that origin (docs/platform.md, "Verifying the
 * merchant's origins"): the backend fetches
 * `{origin}/.well-known/wallet-checkout-verification.txt` and looks for the
 * token of that app and origin among its lines. The fetch follows the webhook
 * address rules (webhooks/address-policy.ts: in production https to public
 * addresses only, checked in the connection's own DNS lookup), follows no
 * redirect, and is bounded in time and size. Each origin of a platform-mode app
 * is checked again every interval by a sweep on every instance (one instance
 * checks a given origin, by a compare-and-set); ORIGIN_VERIFICATION_LAPSE_AFTER
 * failed checks in a row lapse a verified origin.
 */
import ipaddr from 'ipaddr.js';
import type { App } from '../apps';
import { isWebOrigin, ORIGIN_VERIFICATION_LAPSE_AFTER, ORIGIN_VERIFICATION_PATH, type OriginVerification, type OriginVerificationList, type OriginVerificationStatus, signsFor } from '../../contracts';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { Logger } from '../../common/logging';
import type { Store } from '../store';
import {
  claimOriginVerification,
  dueOriginVerifications,
  type OriginCheckOutcome,
  originVerificationOf,
  originVerificationsOf,
  type OriginVerificationRow,
  recordOriginCheck,
  syncOriginVerifications,
} from '../store/origin-verifications';
import type { OriginVerificationConfig, WebhookAddressPolicy } from '../config';
import { checkEndpointUrl, type Resolve, systemResolve } from '../webhooks/address-policy';
import { type OutboundOptions, requestOutbound } from '../webhooks/outbound';

export interface OriginVerificationDependencies {
  store: Store;
  config: OriginVerificationConfig;
  logger?: Logger;
  /** DNS, replaceable in tests (the address rules resolve through it). */
  resolve?: Resolve;
}

/** The most of a verification file read: a file of tokens is a few hundred bytes; anything longer is not one. */
export const MAX_VERIFICATION_FILE_BYTES = 4096;

const USER_AGENT = 'WalletCheckout-OriginVerification/1.0';
/** Rows a sweep pass takes at once, and how many of their fetches run at the same time. */
const SWEEP_BATCH = 50;
const SWEEP_CONCURRENCY = 8;

/** Where an origin's verification file is fetched from (an origin has no path: the file's is appended). */
export const verificationFileUrl = (origin: string): string => `${origin}${ORIGIN_VERIFICATION_PATH}`;

/** 127.0.0.0/8, ::1 or `localhost`: a developer's machine, never anybody's shop. */
export function isLoopbackOrigin(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return false;
  }
  if (host === 'localhost') return true;
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.parse(host);
  // IPv6's loopback range is ::1 alone; an IPv4-mapped 127.x (::ffff:127.0.0.1) is another range and not taken here.
  return address.range() === 'loopback';
}

/** Whether this origin is taken without a fetch: a loopback one, on a development server only. */
const skipsFetch = (config: OriginVerificationConfig, origin: string) => config.loopbackWithoutFetch && isLoopbackOrigin(origin);

export function statusOf(row: Pick<OriginVerificationRow, 'verified_at' | 'failures'> | undefined, origin: string, config: OriginVerificationConfig): OriginVerificationStatus {
  if (skipsFetch(config, origin)) return 'loopback';
  if (!row || row.verified_at === null) return 'pending';
  return row.failures >= ORIGIN_VERIFICATION_LAPSE_AFTER ? 'lapsed' : 'verified';
}

/**
 * Whether an authJwt may be signed for a page on `origin`: a verified origin
 * of the app's (or a loopback one on a development server). One read of the
 * store, by its primary key.
 */
export async function originMaySign(deps: OriginVerificationDependencies, app: App, origin: string): Promise<boolean> {
  if (skipsFetch(deps.config, origin)) return true;
  return signsFor(statusOf(await originVerificationOf(deps.store, app.id, origin), origin, deps.config));
}

/** GETs the file: no redirect followed, no more than MAX_VERIFICATION_FILE_BYTES read, all within `timeoutMs`. */
const getFile = (url: URL, options: OutboundOptions) => {
  const tooLarge = { error: `the file is larger than ${MAX_VERIFICATION_FILE_BYTES} bytes` };
  return requestOutbound<{ body: string }>(
    url,
    {
      method: 'GET',
      headers: { accept: 'text/plain', 'user-agent': USER_AGENT },
      timeoutError: `no complete reply within ${options.timeoutMs} ms`,
      onResponse(response, settle) {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) return settle({ error: `the origin answered a redirect (HTTP ${status}), which is not followed: serve the file at this address itself` });
        if (status !== 200) return settle({ error: `the origin answered HTTP ${status}` });
        if (Number(response.headers['content-length']) > MAX_VERIFICATION_FILE_BYTES) return settle(tooLarge);
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_VERIFICATION_FILE_BYTES) return settle(tooLarge);
          chunks.push(chunk);
        });
        response.on('end', () => settle({ body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', () => settle({ error: 'the reply was cut off' }));
      },
    },
    options,
  );
};

/**
 * Fetches the origin's verification file and looks for `token` among its lines
 * (whitespace around a line is ignored). The outcome names what went wrong,
 * never what the origin sent.
 */
export async function fetchVerificationFile(
  origin: string,
  token: string,
  options: { addressPolicy: WebhookAddressPolicy; timeoutMs: number; resolve?: Resolve },
): Promise<OriginCheckOutcome> {
  // A store may hold an origin written before the origin rules were what they are (`null`, from a javascript: URL).
  if (!isWebOrigin(origin)) return { ok: false, reason: 'not an http(s) origin: it cannot serve the file' };
  const url = new URL(ORIGIN_VERIFICATION_PATH, origin);
  const resolve = options.resolve ?? systemResolve;
  const allowed = await checkEndpointUrl(url.href, options.addressPolicy, resolve);
  if (!allowed.ok) return { ok: false, reason: `refused: ${allowed.error.message.replace(/^url: /, '')}` };
  const fetched = await getFile(url, { addressPolicy: options.addressPolicy, timeoutMs: options.timeoutMs, resolve });
  if ('error' in fetched) return { ok: false, reason: fetched.error };
  const lines = fetched.body.replace(/^\uFEFF/, '').split(/\r?\n/).map((line) => line.trim());
  return lines.includes(token) ? { ok: true } : { ok: false, reason: "the file does not hold this origin's token" };
}

function viewOf(row: OriginVerificationRow, app: App, config: OriginVerificationConfig): OriginVerification {
  const status = statusOf(row, row.origin, config);
  return {
    object: 'origin_verification',
    origin: row.origin,
    status,
    file_url: verificationFileUrl(row.origin),
    token: row.token,
    verified_at: row.verified_at,
    last_checked: row.last_checked,
    last_failure: row.last_failure,
    failed_checks: row.failures,
    next_check: app.googlePayMode === 'platform' && status !== 'loopback' ? row.next_check : null,
  };
}

/** The app's rows, one per allowed origin in the app's order (made here for an origin that has none). */
async function rowsOf(store: Store, app: App): Promise<OriginVerificationRow[]> {
  let rows = await originVerificationsOf(store, app.id);
  if (app.allowedOrigins.some((origin) => !rows.some((row) => row.origin === origin))) {
    await syncOriginVerifications(store, app.id, app.allowedOrigins, Date.now());
    rows = await originVerificationsOf(store, app.id);
  }
  return app.allowedOrigins.flatMap((origin) => rows.filter((row) => row.origin === origin));
}

/** What the API, the dashboard and the operator's command show: each allowed origin, its file and token, and its checks. */
export async function originVerifications(deps: OriginVerificationDependencies, app: App): Promise<OriginVerificationList> {
  const rows = await rowsOf(deps.store, app);
  return { object: 'list', data: rows.map((row) => viewOf(row, app, deps.config)), has_more: false, required: app.googlePayMode === 'platform' };
}

/** Records a check's outcome, and says so in the log when it lapsed a verified origin. */
async function record(deps: OriginVerificationDependencies, row: OriginVerificationRow, outcome: OriginCheckOutcome, now: number): Promise<OriginVerificationRow | undefined> {
  const recorded = await recordOriginCheck(deps.store, row.app_id, row.origin, outcome, now, now + deps.config.intervalMs);
  if (recorded && !outcome.ok && recorded.verified_at !== null && recorded.failures === ORIGIN_VERIFICATION_LAPSE_AFTER) {
    deps.logger?.warn({ app: row.app_id, origin: row.origin, reason: outcome.reason }, `origin verification lapsed after ${ORIGIN_VERIFICATION_LAPSE_AFTER} failed checks: no authJwt is signed for it until a check succeeds`);
  }
  return recorded;
}

const notListed: Failure<'invalid_request'> = { code: 'invalid_request', message: "origin: not one of the application's allowed origins" };

/** An origin as given (a URL of it will do: its origin is taken), or the text itself if it is no URL. */
function originOf(given: string): string {
  try {
    return new URL(given).origin;
  } catch {
    return given;
  }
}

/**
 * "Verify now": checks one of the app's origins at once (the dashboard, the API, `npm run app:update --
 * --verify-origins`), unless it was checked less than verifyNowSpacingMs ago: then its last result stands.
 */
export async function verifyOrigin(deps: OriginVerificationDependencies, app: App, given: string, now = Date.now()): Promise<Result<OriginVerification, Failure<'invalid_request'>>> {
  const origin = originOf(given);
  const row = (await rowsOf(deps.store, app)).find((candidate) => candidate.origin === origin);
  if (!row) return err(notListed);
  if (skipsFetch(deps.config, origin)) return ok(viewOf(row, app, deps.config));
  if (row.last_checked !== null && now >= row.last_checked && now - row.last_checked < deps.config.verifyNowSpacingMs) return ok(viewOf(row, app, deps.config));
  const outcome = await fetchVerificationFile(origin, row.token, { ...deps.config, resolve: deps.resolve });
  const recorded = await record(deps, row, outcome, now);
  // Removed from the app's origins while it was being checked.
  return recorded ? ok(viewOf(recorded, app, deps.config)) : err(notListed);
}

export interface OriginSweepReport {
  /** Origins fetched in this pass. */
  checked: number;
  verified: number;
  failed: number;
  /** Verified origins this pass lapsed. */
  lapsed: number;
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachConcurrently<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

/**
 * One pass of the periodic re-check: every origin of a platform-mode app whose
 * next check is due at `now` is claimed (moved to now + the interval; another
 * instance's pass skips it) and fetched, each claimed just before its fetch.
 * `now` is the clock the pass reads, injected by tests; once `stopping()` says
 * so, no further origin is taken (a shutdown waits for the fetches in flight only).
 */
export async function sweepOriginVerifications(deps: OriginVerificationDependencies, now = Date.now(), stopping: () => boolean = () => false): Promise<OriginSweepReport> {
  const report: OriginSweepReport = { checked: 0, verified: 0, failed: 0, lapsed: 0 };
  for (;;) {
    if (stopping()) return report;
    const due = await dueOriginVerifications(deps.store, now, SWEEP_BATCH);
    await eachConcurrently(due, SWEEP_CONCURRENCY, async (row) => {
      if (stopping() || !(await claimOriginVerification(deps.store, row, now + deps.config.intervalMs))) return;
      // A development server takes a loopback origin as it is: claimed all the same, so that it leaves the due list.
      if (skipsFetch(deps.config, row.origin)) return;
      const outcome = await fetchVerificationFile(row.origin, row.token, { ...deps.config, resolve: deps.resolve });
      const recorded = await record(deps, row, outcome, now);
      report.checked++;
      if (outcome.ok) report.verified++;
      else report.failed++;
      if (recorded && !outcome.ok && recorded.verified_at !== null && recorded.failures === ORIGIN_VERIFICATION_LAPSE_AFTER) report.lapsed++;
    });
    if (due.length < SWEEP_BATCH) return report;
  }
}

export interface OriginVerifier {
  /** One pass now (after any pass under way), at `now` if given. */
  run(now?: number): Promise<OriginSweepReport>;
  /** Stops the timer and waits for the pass under way. */
  stop(): Promise<void>;
}

/** How often the sweep looks for due origins: each origin itself is checked every interval. */
export const ORIGIN_SWEEP_TICK_MS = 60_000;

/** Runs a pass at start (origins added while no server ran) and every tick, one pass at a time. */
export function startOriginVerifier(deps: OriginVerificationDependencies): OriginVerifier {
  let last: Promise<unknown> = Promise.resolve();
  let busy = 0;
  let stopped = false;
  const run = (now?: number) => {
    busy++;
    const pass = last.catch(() => undefined).then(() => sweepOriginVerifications(deps, now, () => stopped));
    last = pass.finally(() => busy--);
    return pass;
  };
  const onError = (error: unknown) => deps.logger?.error({ err: error }, 'origin verification sweep failed');
  const tick = () => {
    // A pass still running (slow origins) is not queued behind again.
    if (busy > 0) return;
    run().then((report) => {
      if (report.checked > 0) deps.logger?.info({ ...report }, 'origins re-checked');
    }, onError);
  };
  tick();
  const timer = setInterval(tick, Math.min(ORIGIN_SWEEP_TICK_MS, deps.config.intervalMs));
  timer.unref();
  return {
    run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await last.catch(() => undefined);
    },
  };
}
