import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { createIdempotencyKeysTable } from '../../common/store/idempotency';

/**
 * Append only: a migration that has run on some machine is never edited.
 * They run on SQLite and PostgreSQL alike: ms timestamps and amounts are
 * `bigint` (Postgres' `integer` is 32-bit; SQLite stores both the same way),
 * booleans are 0/1 integers and JSON is text.
 */
export const backendMigrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('apps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('merchant_id', 'text', (c) => c.notNull())
        .addColumn('secret_key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('allowed_origins', 'text', (c) => c.notNull())
        .addColumn('auth_methods', 'text', (c) => c.notNull())
        .addColumn('card_networks', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('decryption_mode', 'text', (c) => c.notNull().defaultTo('gateway'))
        .addColumn('created', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('country_code', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('reference', 'text')
        .addColumn('intent', 'text', (c) => c.notNull())
        .addColumn('client_secret_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('outcome', 'text')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('charge_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id'))
        .addColumn('attempt_no', 'integer', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source_type', 'text', (c) => c.notNull())
        .addColumn('charge_id', 'text')
        .addColumn('outcome', 'text')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('charge_attempts_session_attempt', ['session_id', 'attempt_no'])
        .execute();
      await sql`CREATE INDEX charge_attempts_status ON charge_attempts (status)`.execute(db);
    },
  },
  '0002_app_profile': {
    // SQLite adds one column per ALTER TABLE; the defaults give existing apps an empty profile.
    async up(db: Kysely<unknown>) {
      const apps = () => db.schema.alterTable('apps');
      await apps().addColumn('short_description', 'text', (c) => c.notNull().defaultTo('')).execute();
      await apps().addColumn('long_description', 'text', (c) => c.notNull().defaultTo('')).execute();
      await apps().addColumn('product_url', 'text').execute();
      await apps().addColumn('icons', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      await apps().addColumn('security_assessment_passed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  '0003_replayable_attempts': {
    async up(db: Kysely<unknown>) {
      // The charge request of an attempt whose outcome is not known yet, encrypted
      // (lib/data-cipher.ts), so reconciliation can replay it with the same key.
      await db.schema.alterTable('charge_attempts').addColumn('request_sealed', 'text').execute();
      // Merchants' Idempotency-Key on POST /api/sessions (scope: the app id).
      await createIdempotencyKeysTable(db);
    },
  },
  '0004_holds_and_3ds': {
    async up(db: Kysely<unknown>) {
      // The app's 3-D Secure policy for PAN_ONLY cards; existing apps keep today's behaviour.
      await db.schema.alterTable('apps').addColumn('three_ds', 'text', (c) => c.notNull().defaultTo('if_required')).execute();
      // How much of a hold the merchant captured.
      await db.schema.alterTable('sessions').addColumn('amount_captured', 'bigint').execute();
      // The 3-D Secure run an attempt led to, and the payment method it authenticates.
      await db.schema.alterTable('charge_attempts').addColumn('authentication_session', 'text').execute();
      await db.schema.alterTable('charge_attempts').addColumn('payment_method', 'text').execute();
    },
  },
  '0005_google_merchant_id': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('apps').addColumn('google_merchant_id', 'text').execute();
      // Until now merchant_id was also sent to Google (merchantInfo.merchantId in PRODUCTION and
      // the direct-mode recipient): where it has the form of a Google merchant id, it was one.
      // Apps left without one that need it are named at start-up (docs/go-live.md).
      const apps = await sql<{ id: string; merchant_id: string }>`SELECT id, merchant_id FROM apps WHERE environment = 'PRODUCTION' OR decryption_mode = 'direct'`.execute(db);
      for (const app of apps.rows) {
        // The form as it stood when this ran (a migration never follows later rules).
        if (!/^(?:[A-Z0-9]{16}|\d{20})$/.test(app.merchant_id)) continue;
        await sql`UPDATE apps SET google_merchant_id = ${app.merchant_id} WHERE id = ${app.id}`.execute(db);
      }
    },
  },
  '0006_server_heartbeats': {
    // Which servers use this store (heartbeats.ts), so tools can warn when none does.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('server_heartbeats')
        .addColumn('instance_id', 'text', (c) => c.primaryKey())
        .addColumn('public_url', 'text', (c) => c.notNull())
        .addColumn('started', 'bigint', (c) => c.notNull())
        .addColumn('seen', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0007_direct_mode': {
    async up(db: Kysely<unknown>) {
      // Direct mode's recipient keys, shared by every instance of a fleet (they were a file per instance).
      await db.schema
        .createTable('direct_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull().unique())
        .addColumn('private_key_sealed', 'text', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('registered', 'bigint')
        .addColumn('retired', 'bigint')
        .execute();
      await sql`CREATE INDEX direct_keys_app_status ON direct_keys (app_id, status)`.execute(db);
      // Message ids of opened tokens, so a replayed token is refused by whichever instance sees it.
      await db.schema
        .createTable('wallet_messages')
        .addColumn('message_id', 'text', (c) => c.primaryKey())
        .addColumn('expires', 'bigint', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX wallet_messages_expires ON wallet_messages (expires)`.execute(db);
    },
  },
  '0008_google_pay_mode': {
    async up(db: Kysely<unknown>) {
      // Whose Google merchant account asks for the payment; existing apps keep their own.
      await db.schema.alterTable('apps').addColumn('google_pay_mode', 'text', (c) => c.notNull().defaultTo('merchant')).execute();
    },
  },
  '0009_session_listing': {
    // GET /api/sessions (store/session-list.ts): newest first per app, optionally by status; by the merchant's reference.
    // IF NOT EXISTS: an operator of a large PostgreSQL store may build them CONCURRENTLY first (docs/operations.md).
    async up(db: Kysely<unknown>) {
      await sql`CREATE INDEX IF NOT EXISTS sessions_app_created ON sessions (app_id, created, id)`.execute(db);
      await sql`CREATE INDEX IF NOT EXISTS sessions_app_status_created ON sessions (app_id, status, created, id)`.execute(db);
      await sql`CREATE INDEX IF NOT EXISTS sessions_app_reference ON sessions (app_id, reference)`.execute(db);
    },
  },
  '0010_app_secret_keys': {
    // Several live keys per app, so a merchant rolls its key without an outage; each app's key so far carries over.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('app_secret_keys')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('expires', 'bigint')
        .execute();
      await sql`CREATE INDEX app_secret_keys_app ON app_secret_keys (app_id)`.execute(db);
      await sql`INSERT INTO app_secret_keys (hash, app_id, created, expires) SELECT secret_key_hash, id, created, NULL FROM apps`.execute(db);
    },
  },
  '0011_events_and_webhooks': {
    // The outbox: an event is written in the transaction of the change it tells of, with one delivery per
    // endpoint that listens to it; deliveries are leased (lease_until) so one instance at a time sends each.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX events_app_created ON events (app_id, created, id)`.execute(db);
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text')
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('previous_secret_sealed', 'text')
        .addColumn('previous_secret_expires', 'bigint')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('deleted', 'bigint')
        .execute();
      await sql`CREATE INDEX webhook_endpoints_app ON webhook_endpoints (app_id)`.execute(db);
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
        .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('delivered', 'bigint')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('webhook_deliveries_event_endpoint', ['event_id', 'endpoint_id'])
        .execute();
      await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt)`.execute(db);
    },
  },
  '0012_refunds': {
    // A session's refunds reserve their amount on `sessions.amount_refunded` (a compare-and-set, store/refunds.ts),
    // so concurrent refunds cannot give back more than was taken; a failed refund gives its amount back.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('amount_refunded', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id'))
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('charge_id', 'text', (c) => c.notNull())
        .addColumn('service_refund_id', 'text')
        .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
        .addColumn('failure_code', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX refunds_session_created ON refunds (session_id, created, id)`.execute(db);
      await sql`CREATE INDEX refunds_status ON refunds (status)`.execute(db);
    },
  },
  '0013_session_expiry': {
    async up(db: Kysely<unknown>) {
      // SQLite adds a NOT NULL column only with a default: every session gets its real one at once,
      // the 24 hours a session has always been meant to live, and every new one is inserted with it.
      await db.schema.alterTable('sessions').addColumn('expires_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await sql`UPDATE sessions SET expires_at = created + ${24 * 60 * 60 * 1000}`.execute(db);
      // The expiry sweep (checkout/expiry.ts): the sessions of a few statuses whose time is up, oldest first.
      await sql`CREATE INDEX IF NOT EXISTS sessions_status_expires ON sessions (status, expires_at)`.execute(db);
    },
  },
  '0014_webhook_redelivery': {
    // A redelivery gets a retry window of its own (null: the event's, counted from its creation); GET /api/events?type= has its index.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('webhook_deliveries').addColumn('retry_until', 'bigint').execute();
      await sql`CREATE INDEX IF NOT EXISTS events_app_type_created ON events (app_id, type, created, id)`.execute(db);
    },
  },
  '0015_shared_state': {
    // What instances sharing one database must agree on (docs/operations.md): the rate limiters' windows
    // (store/rate-limits.ts), which instance's request made an attempt, and reconciliation's leases on
    // attempts and refunds (store/reconciliation.ts): `replays` counts the leases taken, so a lease is
    // taken from the row as it was read and never twice from one reading.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_limit_windows')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('reset_at', 'bigint', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX rate_limit_windows_reset_at ON rate_limit_windows (reset_at)`.execute(db);
      await db.schema.alterTable('charge_attempts').addColumn('instance_id', 'text').execute();
      for (const table of ['charge_attempts', 'refunds']) {
        await db.schema.alterTable(table).addColumn('lease_until', 'bigint').execute();
        await db.schema.alterTable(table).addColumn('replays', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      }
    },
  },
  '0016_billing_address_check': {
    // The billing addresses are personal data: sealed with the data cipher (lib/data-cipher.ts), erased after
    // PERSONAL_DATA_RETENTION_DAYS (checkout/personal-data.ts), each then `erased` and `personal_data_erased` set; the check
    // is not personal data and stays. An event whose session carries an address is sealed too
    // (`personal_data` 1) until the same erasure rewrites it. Each index holds only the rows erasure will visit.
    async up(db: Kysely<unknown>) {
      const sessions = () => db.schema.alterTable('sessions');
      await sessions().addColumn('billing_address_on_file_sealed', 'text').execute();
      await sessions().addColumn('billing_address_sealed', 'text').execute();
      await sessions().addColumn('billing_address_check', 'text').execute();
      await sessions().addColumn('personal_data_erased', 'bigint').execute();
      await db.schema.alterTable('events').addColumn('personal_data', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await sql`CREATE INDEX sessions_personal_data_created ON sessions (created) WHERE personal_data_erased IS NULL AND (billing_address_on_file_sealed IS NOT NULL OR billing_address_sealed IS NOT NULL)`.execute(db);
      await sql`CREATE INDEX events_personal_data_created ON events (created) WHERE personal_data = 1`.execute(db);
      // The replies kept for Idempotency-Key retries hold the address on file too (sealed): they are forgotten with it.
      await sql`CREATE INDEX idempotency_keys_created ON idempotency_keys (created)`.execute(db);
    },
  },
  '0017_dashboard_sessions': {
    // The dashboard's signed-in sessions (server/dashboard/, docs/dashboard.md): a cookie's token, kept as its SHA-256 only,
    // so a copy of the database opens no session; `last_seen` drives the idle expiry, `created` the absolute one.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('dashboard_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX dashboard_sessions_last_seen ON dashboard_sessions (last_seen)`.execute(db);
      // An endpoint's recent deliveries, which the dashboard shows.
      await sql`CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint_created ON webhook_deliveries (endpoint_id, created)`.execute(db);
      // The list by reference in its order (bench figure 9): with 0009's (app_id, reference) SQLite walked the app's
      // sessions newest first to skip the sort, 15 ms at 10,000 sessions and growing with the store.
      await sql`CREATE INDEX IF NOT EXISTS sessions_app_reference_created ON sessions (app_id, reference, created, id)`.execute(db);
    },
  },
  '0018_event_session': {
    // The session an event is about, as a column: since 0016 an event whose session carries a billing address is
    // sealed, so its body can no longer be searched for the session's id (the dashboard's timeline did). Events
    // recorded before are filled from their bodies, which were all plain JSON then, a batch at a time.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('events').addColumn('session_id', 'text').execute();
      const events = db as unknown as Kysely<{ events: { id: string; body: string; session_id: string | null } }>;
      for (let after = ''; ; ) {
        const batch = await events.selectFrom('events').select(['id', 'body']).where('id', '>', after).where('body', 'like', '{%').orderBy('id').limit(500).execute();
        for (const row of batch) {
          const sessionId = sessionOfEventBody(row.body);
          if (sessionId) await events.updateTable('events').set({ session_id: sessionId }).where('id', '=', row.id).execute();
        }
        if (batch.length < 500) break;
        after = batch[batch.length - 1]!.id;
      }
      await sql`CREATE INDEX IF NOT EXISTS events_app_session_created ON events (app_id, session_id, created)`.execute(db);
    },
  },
  '0019_one_reference_index': {
    // 0017's (app_id, reference, created, id) answers everything 0009's (app_id, reference) did: the shorter one was
    // only one more entry for every session created or erased to write, and to keep in memory.
    async up(db: Kysely<unknown>) {
      await sql`DROP INDEX IF EXISTS sessions_app_reference`.execute(db);
    },
  },
  '0020_dashboard_session_key': {
    // A dashboard session is tied to the secret key that opened it and ends when that key stops working: a leaked key
    // rolled with no overlap locks its holder out of the dashboard too (docs/dashboard.md). `key_hash` is the key's
    // digest, read with the session in the statement that checks it. A
    // session open before this one was tied to no key: the table is made again, empty, so those sign in again (12
    // hours at most of sessions lost, once). `app_id` is indexed for "sign out everywhere".
    async up(db: Kysely<unknown>) {
      await db.schema.dropTable('dashboard_sessions').execute();
      await db.schema
        .createTable('dashboard_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('key_hash', 'text', (c) => c.notNull().references('app_secret_keys.hash'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX dashboard_sessions_last_seen ON dashboard_sessions (last_seen)`.execute(db);
      await sql`CREATE INDEX dashboard_sessions_app ON dashboard_sessions (app_id)`.execute(db);
    },
  },
  '0021_origin_verifications': {
    // Platform mode signs authJwts only for origins whose owner proved control (docs/platform.md): one row per app and
    // allowed origin, its public token, the checks' results, and when the sweep checks it next (index: the sweep's query).
    // Every existing app's origins get a row and a token, due at once: none is verified, so a platform-mode app's pages
    // get no authJwt until its file is published and checked.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('origin_verifications')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('verified_at', 'bigint')
        .addColumn('last_checked', 'bigint')
        .addColumn('last_failure', 'text')
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_check', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('origin_verifications_pk', ['app_id', 'origin'])
        .execute();
      await sql`CREATE INDEX origin_verifications_next_check ON origin_verifications (next_check)`.execute(db);
      const now = Date.now();
      const apps = await sql<{ id: string; allowed_origins: string }>`SELECT id, allowed_origins FROM apps`.execute(db);
      for (const app of apps.rows) {
        for (const origin of new Set(JSON.parse(app.allowed_origins) as string[])) {
          // The token's form as it stood when this ran (store/origin-verifications.ts makes them since).
          const token = `wcv_${randomBytes(24).toString('base64url')}`;
          await sql`INSERT INTO origin_verifications (app_id, origin, token, created, failures, next_check) VALUES (${app.id}, ${origin}, ${token}, ${now}, 0, ${now})`.execute(db);
        }
      }
    },
  },
  '0022_address_verification': {
    // The card issuer's address verification of the latest attempt's charge, as the payment service answered it
    // (service-client's addressVerificationOf): AddressVerification JSON, shown beside billing_address_check. Not
    // personal data (it says whether two addresses agree, not where anyone lives): erasure leaves it. Sessions paid
    // before have none (null), as the service did not answer it then.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('address_verification', 'text').execute();
    },
  },
  '0023_express_checkout': {
    // What a session asks the wallet's sheet (line items, a shipping address, contact details), as JSON, and what the
    // wallet returned of it, sealed like the billing address: personal data, erased with it. The retention pass's
    // index (0016) is made again so that it also holds the sessions whose only personal data is a shipping address or
    // an e-mail: its predicate is the pass's query's (store/personal-data.ts).
    async up(db: Kysely<unknown>) {
      for (const column of ['line_items', 'shipping', 'contact', 'shipping_address_sealed', 'email_sealed']) {
        await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
      }
      await sql`DROP INDEX sessions_personal_data_created`.execute(db);
      await sql`CREATE INDEX sessions_personal_data_created ON sessions (created) WHERE personal_data_erased IS NULL AND (billing_address_on_file_sealed IS NOT NULL OR billing_address_sealed IS NOT NULL OR shipping_address_sealed IS NOT NULL OR email_sealed IS NOT NULL)`.execute(db);
    },
  },
  '0024_shipping_quotes': {
    // Delivery options priced by the server: the session's latest quote (ShippingQuote JSON: its id, option, total and
    // the address's country; newest wins), which a payment must be for; and, from the payment's claim, the option it was
    // for and what it charged. Not personal data (a country is no address). Sessions paid before have none (null).
    async up(db: Kysely<unknown>) {
      for (const column of ['latest_quote', 'shipping_option']) await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
      await db.schema.alterTable('sessions').addColumn('amount_charged', 'bigint').execute();
    },
  },
  '0025_quote_endpoints': {
    // An app's quote endpoint (one at most: a new one replaces it, with a new secret), and what a session takes from it:
    // whether its prices are quoted there and whether it takes promotion codes (one JSON column, null for neither, so a
    // session without them is written the same way on a store that predates them), and the quote its latest payment was charged.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('quote_endpoints')
        .addColumn('app_id', 'text', (c) => c.primaryKey().references('apps.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .execute();
      for (const column of ['quote_pricing', 'charged_quote']) await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
    },
  },
  '0026_saved_cards': {
    // Saved cards (docs/saved-cards.md): what a session keeps the card for, the shopper's agreement, the payment method it
    // kept (or, for a merchant-initiated session, charged) and why the service would not keep it; the kept cards, one
    // live row per app, customer and card (a partial unique index: a detached row stays, and the card may be kept anew);
    // and how far into each merchant account's feed of card updates the backend has read. Sessions before keep none (null).
    async up(db: Kysely<unknown>) {
      for (const column of ['save_payment_method', 'agreement', 'payment_method', 'payment_method_error', 'charge_reason']) {
        await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
      }
      await db.schema
        .createTable('payment_methods')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('customer', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('service_payment_method', 'text', (c) => c.notNull())
        .addColumn('network', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('exp_month', 'integer', (c) => c.notNull())
        .addColumn('exp_year', 'integer', (c) => c.notNull())
        .addColumn('token_kind', 'text', (c) => c.notNull())
        .addColumn('agreement', 'text', (c) => c.notNull())
        .addColumn('network_transaction_reference', 'text', (c) => c.notNull())
        .addColumn('country_code', 'text', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addColumn('detached', 'bigint')
        .addColumn('service_detached', 'bigint')
        .execute();
      await sql`CREATE UNIQUE INDEX payment_methods_live_card ON payment_methods (app_id, customer, fingerprint) WHERE detached IS NULL`.execute(db);
      await sql`CREATE INDEX payment_methods_app_created ON payment_methods (app_id, created, id)`.execute(db);
      await sql`CREATE INDEX payment_methods_app_customer_created ON payment_methods (app_id, customer, created, id)`.execute(db);
      await sql`CREATE INDEX payment_methods_service ON payment_methods (service_payment_method)`.execute(db);
      // The reconciliation pass's two questions: paid saving sessions whose card is not kept yet, and detaches the service has not confirmed.
      await sql`CREATE INDEX sessions_card_to_keep ON sessions (status) WHERE save_payment_method IS NOT NULL AND payment_method IS NULL AND payment_method_error IS NULL`.execute(db);
      await sql`CREATE INDEX payment_methods_detach_unconfirmed ON payment_methods (detached) WHERE detached IS NOT NULL AND service_detached IS NULL`.execute(db);
      await db.schema
        .createTable('card_update_cursors')
        .addColumn('merchant_id', 'text', (c) => c.primaryKey())
        .addColumn('sequence', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0027_test_clocks': {
    // Test clocks (docs/test-clocks.md): how far each application's clock was moved forward, in the store so that
    // every instance on it agrees. An application never moved has no row.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('test_clocks')
        .addColumn('app_id', 'text', (c) => c.primaryKey().references('apps.id'))
        .addColumn('offset_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0028_overview_index': {
    // The dashboard's overview (store/overview.ts) sums a period's payments of an app: this index holds every column
    // it reads, so each day is one range of it and no table row is read. Its decline reasons are read through
    // (app_id, status, created, id), 0009's. On a large PostgreSQL store build it first (docs/operations.md).
    async up(db: Kysely<unknown>) {
      await sql`CREATE INDEX IF NOT EXISTS sessions_app_created_money ON sessions (app_id, created, status, currency, amount, amount_charged, amount_captured, amount_refunded)`.execute(db);
    },
  },
  '0029_disputes': {
    // Disputes (docs/disputes.md): the service's, mirrored from its feed of changes (server/disputes/sync.ts) with the
    // session of the disputed charge; how far into each merchant account's feed the backend has read; and the charge's
    // attempt found by its charge id, which the feed names.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('disputes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id'))
        .addColumn('service_dispute_id', 'text', (c) => c.notNull().unique())
        .addColumn('service_sequence', 'bigint', (c) => c.notNull())
        .addColumn('charge_id', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('evidence_due_by', 'bigint', (c) => c.notNull())
        .addColumn('evidence', 'text')
        .addColumn('evidence_submitted', 'bigint')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX disputes_app_created ON disputes (app_id, created, id)`.execute(db);
      await sql`CREATE INDEX disputes_session ON disputes (session_id)`.execute(db);
      await sql`CREATE INDEX charge_attempts_charge ON charge_attempts (charge_id)`.execute(db);
      await db.schema
        .createTable('dispute_cursors')
        .addColumn('merchant_id', 'text', (c) => c.primaryKey())
        .addColumn('sequence', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0030_payment_search': {
    // The dashboard's search and filters (docs/dashboard.md, "Find any payment"): the latest outcome's card network and last
    // four and the latest decline's code as columns (they live in the `outcome` JSON, which no index reaches), the e-mail's
    // blind index (it is sealed: a keyed hash finds it without opening every row), and an index for each, and for the amount,
    // behind the app and before `created, id`, so each search is one index range read newest first. Sessions paid before are
    // filled from their outcomes, a batch at a time; their e-mails stay unsearchable (the migration holds no data key).
    // On PostgreSQL a reference prefix is a LIKE, which a text_pattern_ops index serves in any collation; SQLite's GLOB uses 0017's.
    async up(db: Kysely<unknown>) {
      for (const column of ['card_network', 'card_last4', 'decline_code', 'email_index']) await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
      const sessions = db as unknown as Kysely<{ sessions: { id: string; outcome: string | null; card_network: string | null; card_last4: string | null; decline_code: string | null } }>;
      for (let after = ''; ; ) {
        const batch = await sessions.selectFrom('sessions').select(['id', 'outcome']).where('id', '>', after).where('outcome', 'is not', null).orderBy('id').limit(500).execute();
        for (const row of batch) await sessions.updateTable('sessions').set(searchColumnsOfOutcome(row.outcome!)).where('id', '=', row.id).execute();
        if (batch.length < 500) break;
        after = batch[batch.length - 1]!.id;
      }
      for (const column of ['card_last4', 'card_network', 'amount', 'decline_code', 'email_index']) {
        await sql`CREATE INDEX IF NOT EXISTS ${sql.raw(`sessions_app_${column}`)} ON sessions (app_id, ${sql.raw(column)}, created, id)`.execute(db);
      }
      if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`CREATE INDEX IF NOT EXISTS sessions_app_reference_prefix ON sessions (app_id, reference text_pattern_ops)`.execute(db);
    },
  },
  '0031_work_notifications': {
    // PostgreSQL only (SQLite's single process wakes its workers in memory, store/local-work-signals.ts): a NOTIFY
    // on commit when a delivery becomes due to send (inserted, redelivered, a retry scheduled) and when an attempt is
    // left pending, so that idle instances LISTEN instead of polling (store/work-notifications.ts names the channels).
    // Row triggers whose WHEN is false (a lease taken, an attempt settled) cost no function call; the notifications of
    // one transaction on one channel with one payload are delivered once.
    async up(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
      await sql`CREATE FUNCTION notify_work() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify(TG_ARGV[0], ''); RETURN NULL; END $$`.execute(db);
      await sql`CREATE TRIGGER webhook_deliveries_due AFTER INSERT OR UPDATE OF status ON webhook_deliveries FOR EACH ROW WHEN (NEW.status = 'pending' AND NEW.lease_until IS NULL) EXECUTE FUNCTION notify_work('wallet_checkout_webhooks')`.execute(db);
      await sql`CREATE TRIGGER charge_attempts_pending AFTER UPDATE OF status ON charge_attempts FOR EACH ROW WHEN (NEW.status = 'pending' AND OLD.status <> 'pending') EXECUTE FUNCTION notify_work('wallet_checkout_reconcile')`.execute(db);
    },
  },
  '0032_session_disputed': {
    // Whether a session is disputed (an open or a lost dispute), on its row: every read of a session (the merchant API's view,
    // the dashboard's list and its filter, the CSV export) derives its payment status from the row alone, with no statement more.
    // store/disputes.ts sets it in the transaction that writes the dispute; sessions disputed before are marked here.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('disputed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await sql`UPDATE sessions SET disputed = 1 WHERE id IN (SELECT session_id FROM disputes WHERE status IN ('needs_response', 'under_review', 'lost'))`.execute(db);
    },
  },
  '0033_partial_search_indexes': {
    // Each pay's two commits write every index page a changed key moves in, on both engines (SQLite's WAL, PostgreSQL's):
    // the card's network and last four, the e-mail's blind index and the charge's id start NULL and are set during a pay,
    // so a full index wrote two pages for each (the NULL key's page, then the value's), and every new session added a NULL
    // key to each. A search or a lookup only ever asks for a value (`=` implies IS NOT NULL, on both engines' planners):
    // the NULLs are left out of the indexes, and a pay writes one page for each instead (docs/benchmarks.md).
    async up(db: Kysely<unknown>) {
      const partial = async (index: string, table: string, columns: string, column: string) => {
        await sql`DROP INDEX IF EXISTS ${sql.raw(index)}`.execute(db);
        await sql`CREATE INDEX ${sql.raw(index)} ON ${sql.raw(table)} (${sql.raw(columns)}) WHERE ${sql.raw(column)} IS NOT NULL`.execute(db);
      };
      for (const column of ['card_last4', 'card_network', 'decline_code', 'email_index']) await partial(`sessions_app_${column}`, 'sessions', `app_id, ${column}, created, id`, column);
      await partial('charge_attempts_charge', 'charge_attempts', 'charge_id', 'charge_id');
    },
  },
  '0034_expirable_sessions_index': {
    // The expiry sweep's index held every session by (status, expires_at), so each of a payment's status changes moved its
    // entry (two pages a move); the lapsed holds' query narrowed by the same status prefix. Now each has a partial index of
    // the sessions it can find: those that can still expire (the state table's statuses that lead to expired, listed here
    // as they were when this ran; the query repeats the list, store/session-expiry.ts), and the authorized holds. A payment
    // leaves the first once, as it starts, and a paid session is in neither: the sweep's index no longer grows with history.
    async up(db: Kysely<unknown>) {
      await sql`DROP INDEX IF EXISTS sessions_status_expires`.execute(db);
      await sql`CREATE INDEX sessions_expirable ON sessions (expires_at) WHERE status IN ('open', 'requires_authentication', 'declined', 'failed')`.execute(db);
      await sql`CREATE INDEX sessions_authorized ON sessions (updated) WHERE status = 'authorized'`.execute(db);
    },
  },
};

/** The search's columns of a stored outcome (PaymentOutcome JSON): its card, and its failure's code when it has one. */
function searchColumnsOfOutcome(outcome: string): { card_network: string | null; card_last4: string | null; decline_code?: string } {
  const parsed = JSON.parse(outcome) as { card?: { network?: string; last4?: string } | null; failure_code?: string | null };
  return { card_network: parsed.card?.network ?? null, card_last4: parsed.card?.last4 ?? null, ...(parsed.failure_code && { decline_code: parsed.failure_code }) };
}

/** The session a recorded event is about: a session event's object is the session, a refund event's names it. */
function sessionOfEventBody(body: string): string | undefined {
  const object = (JSON.parse(body) as { data?: { object?: { object?: string; id?: string; session_id?: string } } }).data?.object;
  return object?.object === 'refund' ? object.session_id : object?.id;
}
