/**
 * How an idle instance on PostgreSQL learns of work without polling: one
 * connection of its own, outside the pool, LISTENs on the channels the
 * triggers of migration 0031 NOTIFY on commit (a delivery due, an attempt left
 * pending), and holds the sweep lock, a session advisory lock: the instance
 * holding it runs the sweeps that must run on a clock, and PostgreSQL frees it
 * the moment that connection ends (a crash, a restart), so another takes over.
 *
 * A notification sent while the connection is down is lost: every (re)connect
 * is reported (onConnected) so that the caller runs a catch-up scan once. The
 * connection must be a session one (direct, or PgBouncer in session mode):
 * LISTEN and session locks do not survive transaction pooling.
 */
import pg from 'pg';

/** The channels migration 0031's triggers notify (their names are written there too, as migrations never change). */
export const WORK_CHANNELS = { webhooks: 'wallet_checkout_webhooks', reconcile: 'wallet_checkout_reconcile' } as const;
export type WorkKind = keyof typeof WORK_CHANNELS;

/** pg_stat_activity's name for the listening connection, apart from the pool's `wallet-checkout`. */
export const LISTENER_APPLICATION_NAME = 'wallet-checkout-listen';

/** How long the connection's own statements (LISTEN, the lock) may take before it is taken for dead and opened again. */
const QUERY_TIMEOUT_MS = 10_000;

/** The advisory lock's key: any constant no other user of the database takes (advisory locks are per database). */
const SWEEP_LOCK_KEY = 7_310_402_618;

export interface WorkListenerHandlers {
  onWork(kind: WorkKind): void;
  /** Listening (at start or again after a drop): what was notified meanwhile is unknown, so look once. */
  onConnected(): void;
  /** This instance took the sweep lock, or lost it with its connection. */
  onLeadership(leading: boolean): void;
  onError(error: unknown): void;
}

export interface WorkListenerTiming {
  /** How often an instance without the sweep lock asks for it: how long the sweeps can go without a runner after one dies. */
  leadRetryMs: number;
  /** The wait before reconnecting, doubled after each failure up to `reconnectMaxMs`. */
  reconnectFirstMs: number;
  reconnectMaxMs: number;
}

export const defaultWorkListenerTiming: WorkListenerTiming = { leadRetryMs: 30_000, reconnectFirstMs: 500, reconnectMaxMs: 10_000 };

export interface WorkListener {
  readonly leading: boolean;
  /** Ends the connection: the sweep lock is freed with it. */
  close(): Promise<void>;
}

const kindOf = (channel: string): WorkKind | undefined => (Object.keys(WORK_CHANNELS) as WorkKind[]).find((kind) => WORK_CHANNELS[kind] === channel);

export function listenForWork(databaseUrl: string, handlers: WorkListenerHandlers, timing: WorkListenerTiming = defaultWorkListenerTiming): WorkListener {
  let client: pg.Client | undefined;
  let closed = false;
  let leading = false;
  let reconnectMs = timing.reconnectFirstMs;
  let leadTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const setLeading = (now: boolean) => {
    if (now === leading) return;
    leading = now;
    handlers.onLeadership(now);
  };

  function dropped(from: pg.Client, error?: unknown): void {
    if (client !== from) return;
    client = undefined;
    clearTimeout(leadTimer);
    setLeading(false);
    if (error !== undefined) handlers.onError(error);
    from.end().catch(() => undefined);
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closed) return;
    reconnectTimer = setTimeout(() => void connect(), reconnectMs).unref();
    reconnectMs = Math.min(reconnectMs * 2, timing.reconnectMaxMs);
  }

  async function tryLead(from: pg.Client): Promise<void> {
    try {
      const { rows } = await from.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [SWEEP_LOCK_KEY]);
      if (client === from) setLeading(rows[0]?.locked === true);
    } catch (error) {
      // A connection that fails to answer (its query timed out) may never say it is gone: start again.
      dropped(from, error);
      return;
    }
    if (!leading && client === from) leadTimer = setTimeout(() => void tryLead(from), timing.leadRetryMs).unref();
  }

  async function connect(): Promise<void> {
    // Probed from 10 s of silence: a connection cut without a reset (a partition) is found by TCP, not hours later.
    const candidate = new pg.Client({ connectionString: databaseUrl, application_name: LISTENER_APPLICATION_NAME, keepAlive: true, keepAliveInitialDelayMillis: 10_000, query_timeout: QUERY_TIMEOUT_MS });
    candidate.on('error', (error) => dropped(candidate, error));
    candidate.on('end', () => dropped(candidate));
    candidate.on('notification', ({ channel }) => {
      const kind = kindOf(channel);
      if (kind) handlers.onWork(kind);
    });
    try {
      await candidate.connect();
      await candidate.query(Object.values(WORK_CHANNELS).map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      handlers.onError(error);
      candidate.end().catch(() => undefined);
      scheduleReconnect();
      return;
    }
    if (closed) {
      await candidate.end().catch(() => undefined);
      return;
    }
    client = candidate;
    reconnectMs = timing.reconnectFirstMs;
    handlers.onConnected();
    await tryLead(candidate);
  }

  void connect();

  return {
    get leading() {
      return leading;
    },
    async close() {
      closed = true;
      clearTimeout(leadTimer);
      clearTimeout(reconnectTimer);
      const open = client;
      client = undefined;
      setLeading(false);
      await open?.end().catch(() => undefined);
    },
  };
}
