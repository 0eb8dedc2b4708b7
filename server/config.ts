/**
 * Every setting comes from the environment, validated once at start so a bad
 * value fails loudly, naming the variable, instead of surfacing mid-payment.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { DecryptionMode, GoogleMerchantId, SandboxServiceKey, WalletEnvironment } from '../contracts';
import { defaultStoreLimits, type StoreLimits } from '../common/store/limits';

const optionalString = z.string().trim().min(1).optional();

/** `/` or `/a/b`: where `{base_path}/v3/apps/{appId}` is served; `/` is stored as '' so paths concatenate. */
const BasePath = z
  .string()
  .trim()
  .regex(/^\/([A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*)?$/, 'each base path is / or /segment[/segment...]')
  .transform((path) => (path === '/' ? '' : path));

/** Express's named ranges for `trust proxy`. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * The most proxies a request plausibly crosses before us: a CDN, a cloud load
 * balancer, an ingress, a sidecar, nginx. A hop count above it trusts
 * X-Forwarded-For entries the client wrote itself.
 */
export const MAX_TRUSTED_HOPS = 5;

/** The widest block a proxy list may name, in either family: a /8. Wider ones (0.0.0.0/0, ::/0, 0.0.0.0/1) trust most of the internet. */
export const MIN_TRUSTED_PREFIX = 8;

const IPV4_MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');

/**
 * Why one entry of a `trust proxy` list is refused, or undefined: a named
 * range, an address, or a CIDR block of at least /8 that proxy-addr (Express)
 * accepts. An IPv6 block is also judged by the IPv4 clients it covers, since
 * Express matches an IPv4 client against it as `::ffff:a.b.c.d`: `::/8` would
 * trust every IPv4 client.
 */
function proxyEntryProblem(entry: string): string | undefined {
  if (PROXY_RANGE_NAMES.includes(entry)) return undefined;
  const wrong = `"${entry}" is not a hop count, an address, a CIDR block or loopback/linklocal/uniquelocal`;
  const [address = '', prefixText, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0 || address.includes('%')) return wrong;
  if (prefixText === undefined) return undefined;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > (family === 4 ? 32 : 128)) return wrong;
  const prefix = Number(prefixText);
  const everyone = `"${entry}" trusts ${prefix === 0 ? 'every address' : 'a large part of the internet'}, so any client could choose its own address with X-Forwarded-For; name the proxies' addresses, or blocks of /${MIN_TRUSTED_PREFIX} or narrower`;
  if (prefix < MIN_TRUSTED_PREFIX) return everyone;
  if (family === 6) {
    const block = ipaddr.IPv6.parse(address);
    // A block around ::ffff:0:0/96 trusts every IPv4 client; one inside it, the IPv4 block it maps.
    if (prefix <= 96 && IPV4_MAPPED[0].match(block, prefix)) return `"${entry}" holds ::ffff:0:0/96, so it trusts every IPv4 client (Express matches one as ::ffff:a.b.c.d), and any could choose its own address with X-Forwarded-For; name the proxies' addresses, or blocks of /${MIN_TRUSTED_PREFIX} or narrower`;
    if (prefix > 96 && block.match(IPV4_MAPPED) && prefix - 96 < MIN_TRUSTED_PREFIX) return everyone;
  }
  return undefined;
}

/**
 * Express's `trust proxy` in its own syntax: a hop count (0 to
 * MAX_TRUSTED_HOPS), or a comma-separated list of addresses, CIDR blocks
 * (/8 or narrower) and named ranges (`loopback`, ...). `false` (the default)
 * trusts no proxy. What trusts everyone is refused, as is what Express itself
 * would refuse at start (docs/operations.md): `true`, `0.0.0.0/0`, `::/0`,
 * `::ffff:0:0/96`, `1000`.
 */
const TrustProxy = z
  .string()
  .trim()
  .transform((value, ctx): number | string[] | false => {
    if (value === '' || value === 'false') return false;
    if (/^\d+$/.test(value)) {
      if (Number(value) <= MAX_TRUSTED_HOPS) return Number(value);
      ctx.addIssue({ code: 'custom', message: `${value} hops: more proxies than any deployment puts in front of the server (at most ${MAX_TRUSTED_HOPS}); the extra entries of X-Forwarded-For would be the client's own` });
      return z.NEVER;
    }
    if (value === 'true') {
      ctx.addIssue({ code: 'custom', message: 'true trusts every hop, so any client could choose its address; give the hop count or the proxies\' addresses' });
      return z.NEVER;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const problem = entries.map(proxyEntryProblem).find((found) => found !== undefined);
    if (problem === undefined) return entries;
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });
/** The default gateway name: a placeholder until Google lists the payment service's own. */
const PLACEHOLDER_GATEWAY = 'walletcheckout';

/**
 * The platform's ES256 signing key: a PEM, or the path of a PEM file. Only a
 * P-256 private key will do, since Google verifies the authJwt as ES256.
 */
const SigningKey = z
  .string()
  .trim()
  .min(1)
  .transform((value, ctx) => {
    try {
      const pem = value.startsWith('-----BEGIN') ? value.replace(/\\n/g, '\n') : readFileSync(value, 'utf8');
      const key = createPrivateKey(pem);
      if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return key;
      ctx.addIssue({ code: 'custom', message: 'must be a P-256 (ES256) private key' });
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `a PEM private key or the path of one: ${(error as Error).message}` });
    }
    return z.NEVER;
  });

/** The longest the merchant's quote endpoint may be given: the widget waits 8 s for the relay, which waits for the endpoint. */
const MAX_QUOTE_ENDPOINT_TIMEOUT_MS = 7_000;

/** Secret keys of the embedded sandbox service (`sk_sandbox_`) and of test merchants' services (`sk_test_`). */
const SANDBOX_KEY = /^sk_(sandbox|test)_/;

const Env = z
  .object({
    /** `production` refuses the defaults that are only safe on a developer's machine (productionProblems). */
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    /** Which proxies in front of us to believe about the client's address (X-Forwarded-For): rate limits key on it. */
    TRUST_PROXY: TrustProxy.default(false),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().default('data'),
    /** postgres://user:password@host:port/database: the store on PostgreSQL, shared by several instances. */
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'a postgres:// or postgresql:// URL' }).optional(),
    /** The connection that LISTENs for work and holds the sweep lock, where DATABASE_URL is a transaction pooler (PgBouncer): a session one. */
    DATABASE_LISTEN_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'a postgres:// or postgresql:// URL' }).optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(defaultStoreLimits.poolSize),
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(defaultStoreLimits.connectTimeoutMs),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(defaultStoreLimits.statementTimeoutMs),
    DATABASE_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(defaultStoreLimits.idleTimeoutMs),
    /** redis://[user:password@]host:port[/db] (rediss:// for TLS): where every instance counts the rate limits. */
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'a redis:// or rediss:// URL' }).optional(),
    GATEWAY_NAME: z.string().regex(/^[a-z0-9_-]+$/).default(PLACEHOLDER_GATEWAY),
    PAYMENT_SERVICE_URL: z.url().optional(),
    PAYMENT_SERVICE_KEY: optionalString,
    /** A standalone sandbox (`npm run sandbox`): its origin and service key; the backend then embeds none. */
    SANDBOX_URL: z.url({ protocol: /^https?$/, error: 'an http:// or https:// origin' }).refine(isBareOrigin, 'an origin only (http://host:port): no path, query or credentials').optional(),
    SANDBOX_SERVICE_KEY: SandboxServiceKey.optional(),
    SERVICE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    WALLET_ENVIRONMENT: WalletEnvironment.optional(),
    /** Whose signatures are trusted: fetched only over an authenticated channel, or read from a local file. */
    GOOGLE_ROOT_KEYS: optionalString.refine((value) => value === undefined || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^https:\/\//i.test(value), 'a path or an https:// URL of a keys.json'),
    DECRYPTION_MODE: DecryptionMode.default('gateway'),
    /** Google Pay for platforms: our Google merchant id, and the key whose public half Google holds. */
    PLATFORM_GOOGLE_MERCHANT_ID: GoogleMerchantId.optional(),
    PLATFORM_SIGNING_KEY: SigningKey.optional(),
    /**
     * Platform mode's origin verification (docs/platform.md): how long after a check each origin of a platform-mode
     * app is checked again (6 hours; from a minute to a week), and how long a fetch of its file may take (5 s; up to 30 s).
     */
    ORIGIN_VERIFICATION_INTERVAL_MS: z.coerce.number().int().min(60_000).max(604_800_000).default(21_600_000),
    ORIGIN_VERIFICATION_TIMEOUT_MS: z.coerce.number().int().positive().max(30_000).default(5_000),
    /** A loopback origin (127.0.0.0/8, ::1, localhost): `skip` takes it without a fetch (the default outside production), `fetch` checks its file as any other's. */
    ORIGIN_VERIFICATION_LOOPBACK: z.enum(['skip', 'fetch']).optional(),
    DATA_ENCRYPTION_KEY: z
      .string()
      .refine((key) => Buffer.from(key, 'base64').length === 32, 'a base64-encoded 32-byte key')
      .optional(),
    RECONCILE_INTERVAL_MS: z.coerce.number().int().positive().default(5_000),
    /** The longest wait between the sweeps' passes while they find nothing to do (docs/operations.md, "What an idle instance does"). */
    RECONCILE_IDLE_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
    /**
     * How long a session's billing addresses are kept (docs/api.md#retention): 180 days covers the card networks'
     * 120-day dispute window, in which the check is the merchant's evidence, and the time to answer one; from 30
     * (a session lives up to 7 days, a hold 7 more, and a refund or dispute needs the address) to 3650.
     */
    PERSONAL_DATA_RETENTION_DAYS: z.coerce.number().int().min(30).max(3650).default(180),
    /**
     * Webhooks (docs/webhooks.md): whether the worker sends on its own (`automatic`) or only when asked (`on-demand`: tests
     * and the contract fuzz), how long a receiver has to answer 2xx, the retry schedule.
     */
    WEBHOOK_DELIVERY: z.enum(['automatic', 'on-demand']).default('automatic'),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(30_000),
    WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().positive().default(3_600_000),
    WEBHOOK_RETRY_WINDOW_MS: z.coerce.number().int().positive().default(259_200_000),
    /**
     * How long the merchant's quote endpoint has to answer (docs/express-checkout.md#the-merchants-quote-endpoint): 5 s, at most 7 s,
     * so that the server answers the widget's relay within its 8 s, itself within the 10 s Google gives the sheet's callback.
     */
    QUOTE_ENDPOINT_TIMEOUT_MS: z.coerce.number().int().positive().max(MAX_QUOTE_ENDPOINT_TIMEOUT_MS).default(5_000),
    SANDBOX_AUTHENTICATION_TTL_MS: z.coerce.number().int().positive().default(300_000),
    /** Shutdown (docs/operations.md): serving on while draining, then the requests in flight, all within the deadline. */
    SHUTDOWN_DRAIN_DELAY_MS: z.coerce.number().int().min(0).default(5_000),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(25_000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(45_000),
    READINESS_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
    RATE_LIMIT_PAY_PER_MINUTE: z.coerce.number().int().positive().default(30),
    RATE_LIMIT_READS_PER_MINUTE: z.coerce.number().int().positive().default(300),
    RATE_LIMIT_MERCHANT_PER_MINUTE: z.coerce.number().int().positive().default(600),
    DEMO: z.enum(['on', 'off']).default('on'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `pretty`: one readable line per event (pino-pretty); `json`: pino's lines. Default: pretty in development on a terminal, json otherwise. */
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    APPS_API_BASE_PATHS: z
      .string()
      .default('/,/drive')
      .transform((list) => list.split(','))
      .pipe(z.array(BasePath).min(1)),
    OAUTH_ISSUER: optionalString,
    OAUTH_AUDIENCE: optionalString,
    OAUTH_JWKS: optionalString,
    OAUTH_SCOPE_BASE: z.url().default('https://www.googleapis.com/auth').transform((url) => url.replace(/\/$/, '')),
    // Printable ASCII without quote or backslash: it is sent as a quoted-string in WWW-Authenticate.
    OAUTH_REALM: z.string().regex(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/, 'printable ASCII without " or \\').default('wallet-checkout'),
  })
  .refine((env) => !env.PAYMENT_SERVICE_URL === !env.PAYMENT_SERVICE_KEY, {
    message: 'PAYMENT_SERVICE_URL and PAYMENT_SERVICE_KEY are set together (a real service) or not at all (the embedded sandbox)',
    path: ['PAYMENT_SERVICE_URL'],
  })
  .refine((env) => !env.SANDBOX_URL === !env.SANDBOX_SERVICE_KEY, {
    message: 'SANDBOX_URL and SANDBOX_SERVICE_KEY are set together (a standalone sandbox) or not at all',
    path: ['SANDBOX_URL'],
  })
  .refine((env) => !(env.SANDBOX_URL && env.PAYMENT_SERVICE_URL), {
    message: 'SANDBOX_URL (a standalone sandbox) and PAYMENT_SERVICE_URL (a real service) name two payment services: set one',
    path: ['SANDBOX_URL'],
  })
  .refine((env) => !(env.PAYMENT_SERVICE_URL && env.WALLET_ENVIRONMENT === 'SANDBOX'), {
    message: 'the sandbox wallet seals tokens only the sandbox service can open: use TEST or PRODUCTION with a real service, or SANDBOX_URL for a standalone sandbox',
    path: ['WALLET_ENVIRONMENT'],
  })
  .refine((env) => !(env.WALLET_ENVIRONMENT && env.WALLET_ENVIRONMENT !== 'SANDBOX' && !env.PAYMENT_SERVICE_URL), {
    message: "Google's TEST and PRODUCTION wallets seal tokens for a real payment service, which the sandbox (embedded or standalone) cannot open: set PAYMENT_SERVICE_URL and PAYMENT_SERVICE_KEY, or use SANDBOX",
    path: ['WALLET_ENVIRONMENT'],
  })
  .refine((env) => !env.PLATFORM_GOOGLE_MERCHANT_ID === !env.PLATFORM_SIGNING_KEY, {
    message: 'PLATFORM_GOOGLE_MERCHANT_ID and PLATFORM_SIGNING_KEY are set together (platform mode available) or not at all',
    path: ['PLATFORM_GOOGLE_MERCHANT_ID'],
  })
  .refine((env) => [0, 3].includes([env.OAUTH_ISSUER, env.OAUTH_AUDIENCE, env.OAUTH_JWKS].filter((v) => v !== undefined).length), {
    message: 'OAUTH_ISSUER, OAUTH_AUDIENCE and OAUTH_JWKS are set together (a real issuer) or not at all (the development issuer)',
    path: ['OAUTH_ISSUER'],
  })
  // The workers and the store close after the grace period: a deadline within it would cut payments the grace lets finish.
  .refine((env) => env.SHUTDOWN_TIMEOUT_MS > env.SHUTDOWN_DRAIN_DELAY_MS + env.SHUTDOWN_GRACE_MS, {
    message: 'must be longer than SHUTDOWN_DRAIN_DELAY_MS + SHUTDOWN_GRACE_MS (the deadline ends the whole shutdown; leave room for the webhook worker and the store to close)',
    path: ['SHUTDOWN_TIMEOUT_MS'],
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    for (const [variable, message] of productionProblems(env)) ctx.addIssue({ code: 'custom', path: [variable], message: `production: ${message}` });
  });

/** `https://host[:port]` and nothing else: it is joined with paths, and credentials in it would be sent everywhere it is. */
function isBareOrigin(url: string): boolean {
  const parsed = new URL(url);
  return parsed.username === '' && parsed.password === '' && parsed.search === '' && parsed.hash === '' && parsed.pathname === '/' && !/[?#]/.test(url);
}

/**
 * Fewer distinct bytes than 32 random ones ever show: a random key has about
 * 30 (fewer than 16 happens with odds far below 1 in 10^12), while a typed
 * or patterned key ("aaaa...", a repeated word, zeros) has a handful.
 */
const MIN_DISTINCT_KEY_BYTES = 16;
const looksTyped = (key: Buffer): boolean => new Set(key).size < MIN_DISTINCT_KEY_BYTES;

/**
 * What NODE_ENV=production refuses: each default that is convenient on a
 * developer's machine and unsafe with real shoppers, as [variable, why].
 */
function productionProblems(env: z.infer<typeof Env>): [string, string][] {
  const problems: [string, string][] = [];
  const https = (url: string | undefined) => url !== undefined && new URL(url).protocol === 'https:';
  if (env.SANDBOX_URL) problems.push(['SANDBOX_URL', 'the sandbox service is for development; set a real payment service (PAYMENT_SERVICE_URL)']);
  else if (!env.PAYMENT_SERVICE_URL) problems.push(['PAYMENT_SERVICE_URL', 'the embedded sandbox service is for development; set a real payment service']);
  else if (!https(env.PAYMENT_SERVICE_URL)) problems.push(['PAYMENT_SERVICE_URL', 'must be https: the service key and payment data travel on it']);
  if (env.PAYMENT_SERVICE_KEY && SANDBOX_KEY.test(env.PAYMENT_SERVICE_KEY)) problems.push(['PAYMENT_SERVICE_KEY', 'a sandbox or test key; use the live key']);
  if (env.WALLET_ENVIRONMENT === 'SANDBOX') problems.push(['WALLET_ENVIRONMENT', 'the sandbox wallet is for development']);
  if (!env.OAUTH_ISSUER) problems.push(['OAUTH_ISSUER', 'the development token issuer signs tokens with a key on local disk; set a real issuer (OAUTH_ISSUER, OAUTH_AUDIENCE, OAUTH_JWKS)']);
  if (!env.PUBLIC_URL) problems.push(['PUBLIC_URL', 'must be set: the origin derived from the listening address is http']);
  else if (!https(env.PUBLIC_URL) || new URL(env.PUBLIC_URL).hostname.includes('*')) problems.push(['PUBLIC_URL', 'must be one https origin, without wildcards']);
  else if (!isBareOrigin(env.PUBLIC_URL)) problems.push(['PUBLIC_URL', 'must be an origin only (https://host[:port]): no user or password, path, query or fragment']);
  // A file path is fine; a URL must be https, or whoever is on the network path chooses which keys we trust.
  // (GOOGLE_ROOT_KEYS has the same rule in every mode, above.)
  if (/^http:/i.test(env.OAUTH_JWKS ?? '')) problems.push(['OAUTH_JWKS', 'a URL must be https: these keys decide which access tokens are trusted']);
  if (env.GATEWAY_NAME === PLACEHOLDER_GATEWAY) problems.push(['GATEWAY_NAME', `"${PLACEHOLDER_GATEWAY}" is a placeholder: set the gateway id Google lists for your payment service`]);
  if (env.DEMO === 'on') problems.push(['DEMO', 'the demo store must be off (DEMO=off)']);
  if (env.ORIGIN_VERIFICATION_LOOPBACK === 'skip') problems.push(['ORIGIN_VERIFICATION_LOOPBACK', 'production verifies every origin it signs for: remove it, or set fetch']);
  if (!env.DATA_ENCRYPTION_KEY) problems.push(['DATA_ENCRYPTION_KEY', 'must be set: a key generated under DATA_DIR is lost with the disk and differs between instances']);
  else if (looksTyped(Buffer.from(env.DATA_ENCRYPTION_KEY, 'base64'))) problems.push(['DATA_ENCRYPTION_KEY', 'is not random: generate it with `openssl rand -base64 32`']);
  return problems;
}

/** Every variable read; .env.example documents each (a test holds them together). */
export const configVariables: readonly string[] = Object.keys(Env.shape);

/** The OAuth 2.0 authorization server whose JWT access tokens the apps API accepts. */
export interface OAuthIssuer {
  issuer: string;
  audience: string;
  /** A JWKS URL (http/https) or the path of a JWKS file. */
  jwks: string;
}

export interface AppLookupConfig {
  /** Prefixes `{base_url}` is served under, '' for the root. */
  basePaths: string[];
  /** Absent: the development issuer under DATA_DIR/dev-issuer/ is trusted instead. */
  issuer: OAuthIssuer | undefined;
  /** `{scope_base}` of the scopes, without a trailing slash. */
  scopeBase: string;
  realm: string;
}

/** Google Pay for platforms (docs/platform.md): who we are to Google, and how we vouch for a merchant's site. */
export interface PlatformConfig {
  googleMerchantId: string;
  /** Signs each session's authJwt (ES256). */
  signingKey: KeyObject;
}

/** `public`: https to global unicast addresses only (webhooks/address-policy.ts; NODE_ENV=production); `any`: development and tests. */
export type WebhookAddressPolicy = 'public' | 'any';

/** A webhook delivery's retries (webhooks/delivery.ts). */
export interface RetrySchedule {
  /** The first retry comes within this; each next one within twice the last, up to maxMs (full jitter). */
  baseMs: number;
  maxMs: number;
  /** From the event (or from a redelivery): after this the delivery is `failed`. */
  windowMs: number;
}

/** Platform mode's proof of each origin it signs for (checkout/origin-verification.ts). */
export interface OriginVerificationConfig {
  /** `public` (NODE_ENV=production): the file is fetched over https from public addresses only, as webhooks are sent. */
  addressPolicy: WebhookAddressPolicy;
  /** Development and tests: a loopback origin (127.0.0.0/8, ::1, localhost) is accepted without a fetch. Never in production. */
  loopbackWithoutFetch: boolean;
  /** ORIGIN_VERIFICATION_INTERVAL_MS: how long after a check an origin is checked again. */
  intervalMs: number;
  /** ORIGIN_VERIFICATION_TIMEOUT_MS: the whole fetch, from connecting to the last byte. */
  timeoutMs: number;
  /**
   * "Verify now" fetches an origin at most once in this time (10 s; a sooner one answers the last
   * check's result): a merchant's requests must not make us a way to hammer a site it listed.
   */
  verifyNowSpacingMs: number;
}

/** Per client address and minute (checkout/routes.ts's limiters). */
export interface RateLimits {
  payPerMinute: number;
  readsPerMinute: number;
  /** Every secret-key route: create, list, read, capture, release, refund, roll the key. */
  merchantPerMinute: number;
}

export interface Config {
  port: number;
  host: string;
  /** Express's `trust proxy`: a hop count, trusted addresses and ranges, or false. */
  trustProxy: number | string[] | false;
  /** The origin shoppers' browsers reach us at; derived from the listening address when unset. */
  publicUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL connection string; absent: the store is SQLite under dataDir. */
  databaseUrl: string | undefined;
  /** With databaseUrl: where the instance LISTENs for work and holds the sweep lock (DATABASE_LISTEN_URL, else DATABASE_URL). */
  databaseListenUrl: string | undefined;
  /** The store's pool and timeouts. */
  storeLimits: StoreLimits;
  /**
   * Redis, where the rate limiters count (one budget per client across the instances); absent: in the
   * database on PostgreSQL, in memory on SQLite. While Redis is unreachable each instance counts in memory.
   */
  redisUrl: string | undefined;
  gatewayName: string;
  /**
   * Where charges go: a real service; a standalone sandbox (`npm run sandbox`), whose wallet script and root
   * keys the backend also takes from it; or the sandbox this process embeds (the default).
   */
  paymentService: PaymentServiceConfig;
  serviceTimeoutMs: number;
  walletEnvironment: WalletEnvironment;
  /** Google's keys.json for direct mode: a path or URL; absent: Google's own for the environment, or the sandbox's. */
  googleRootKeys: string | undefined;
  /** The integration mode of the demo application and the default of `npm run app:create`. */
  decryptionMode: DecryptionMode;
  /** Absent: apps in platform mode cannot be paid (their public view answers platform_not_configured). */
  platform: PlatformConfig | undefined;
  /** Platform mode's proof of each origin it signs for (checkout/origin-verification.ts). */
  originVerification: OriginVerificationConfig;
  /** Encrypts the charge requests kept while an outcome is unknown; absent: a key generated under DATA_DIR/secrets. */
  dataEncryptionKey: string | undefined;
  reconcileIntervalMs: number;
  reconcileIdleIntervalMs: number;
  /** PERSONAL_DATA_RETENTION_DAYS in ms: a session's billing addresses are erased this long after they were written. */
  personalDataRetentionMs: number;
  webhooks: WebhookConfig;
  /** QUOTE_ENDPOINT_TIMEOUT_MS: the whole call to a merchant's quote endpoint, from resolving its host to the answer's last byte. */
  quoteEndpointTimeoutMs: number;
  /** The embedded sandbox: how long a 3-D Secure challenge stays open. */
  sandboxAuthenticationTtlMs: number;
  /** On SIGTERM: how long /readyz answers 503 while the instance goes on serving, before it stops accepting. */
  shutdownDrainDelayMs: number;
  /** How long a shutdown waits for requests in flight (payments) before closing their connections. */
  shutdownGraceMs: number;
  /** From SIGTERM to a forced exit (1), whatever is still running. */
  shutdownTimeoutMs: number;
  /** Ctrl-C's (SIGINT's) drain delay: 0 in development, where no load balancer is told; production drains as on SIGTERM. */
  interruptDrainDelayMs: number;
  /** How long /readyz waits for the store and the payment service. */
  readinessTimeoutMs: number;
  /** Per client address, on the widget's endpoints and on the merchant's (secret-key) ones. */
  rateLimits: RateLimits;
  demo: boolean;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  /** LOG_FORMAT; undefined: pretty in development when the output is a terminal (server/main.ts), json otherwise. */
  logFormat: 'json' | 'pretty' | undefined;
  /** NODE_ENV=development: the defaults for a developer's machine (readable logs, Ctrl-C stops at once). */
  development: boolean;
  appLookup: AppLookupConfig;
}

export type PaymentServiceConfig =
  | { kind: 'real'; url: string; secretKey: string }
  | { kind: 'standalone-sandbox'; origin: string; secretKey: string }
  | { kind: 'embedded-sandbox' };

/** The delivery worker (server/webhooks/delivery.ts) and the endpoints' address rule. */
export interface WebhookConfig {
  /** `public` (NODE_ENV=production): https to public addresses only (SSRF); `any`: development and tests reach loopback over http. */
  addressPolicy: WebhookAddressPolicy;
  delivery: 'automatic' | 'on-demand';
  timeoutMs: number;
  retry: RetrySchedule;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** The process environment, filled in from `./.env` (KEY=value lines) if there is one: a variable already set wins. */
function environment(): Record<string, string | undefined> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return process.env;
}

function paymentServiceOf(e: z.infer<typeof Env>): PaymentServiceConfig {
  if (e.PAYMENT_SERVICE_URL && e.PAYMENT_SERVICE_KEY) return { kind: 'real', url: e.PAYMENT_SERVICE_URL.replace(/\/$/, ''), secretKey: e.PAYMENT_SERVICE_KEY };
  if (e.SANDBOX_URL && e.SANDBOX_SERVICE_KEY) return { kind: 'standalone-sandbox', origin: new URL(e.SANDBOX_URL).origin, secretKey: e.SANDBOX_SERVICE_KEY };
  return { kind: 'embedded-sandbox' };
}

export function loadConfig(env: Record<string, string | undefined> = environment()): ConfigResult {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`) };
  }
  const e = parsed.data;
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      trustProxy: e.TRUST_PROXY,
      publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
      dataDir: e.DATA_DIR,
      databaseUrl: e.DATABASE_URL,
      databaseListenUrl: e.DATABASE_URL && (e.DATABASE_LISTEN_URL ?? e.DATABASE_URL),
      storeLimits: {
        poolSize: e.DATABASE_POOL_SIZE,
        connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
        idleTimeoutMs: e.DATABASE_IDLE_TIMEOUT_MS,
      },
      redisUrl: e.REDIS_URL,
      gatewayName: e.GATEWAY_NAME,
      paymentService: paymentServiceOf(e),
      serviceTimeoutMs: e.SERVICE_TIMEOUT_MS,
      walletEnvironment: e.WALLET_ENVIRONMENT ?? (e.PAYMENT_SERVICE_URL ? 'TEST' : 'SANDBOX'),
      googleRootKeys: e.GOOGLE_ROOT_KEYS,
      decryptionMode: e.DECRYPTION_MODE,
      platform: e.PLATFORM_GOOGLE_MERCHANT_ID && e.PLATFORM_SIGNING_KEY ? { googleMerchantId: e.PLATFORM_GOOGLE_MERCHANT_ID, signingKey: e.PLATFORM_SIGNING_KEY } : undefined,
      originVerification: {
        // The webhooks' address rule: the merchant chooses these origins as they choose webhook URLs.
        addressPolicy: e.NODE_ENV === 'production' ? 'public' : 'any',
        // Production never takes an origin unchecked, loopback or not (`skip` is refused there, productionProblems).
        loopbackWithoutFetch: (e.ORIGIN_VERIFICATION_LOOPBACK ?? (e.NODE_ENV === 'production' ? 'fetch' : 'skip')) === 'skip',
        intervalMs: e.ORIGIN_VERIFICATION_INTERVAL_MS,
        timeoutMs: e.ORIGIN_VERIFICATION_TIMEOUT_MS,
        verifyNowSpacingMs: 10_000,
      },
      dataEncryptionKey: e.DATA_ENCRYPTION_KEY,
      reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
      reconcileIdleIntervalMs: e.RECONCILE_IDLE_INTERVAL_MS,
      personalDataRetentionMs: e.PERSONAL_DATA_RETENTION_DAYS * 24 * 60 * 60 * 1000,
      webhooks: {
        addressPolicy: e.NODE_ENV === 'production' ? 'public' : 'any',
        delivery: e.WEBHOOK_DELIVERY,
        timeoutMs: e.WEBHOOK_TIMEOUT_MS,
        retry: { baseMs: e.WEBHOOK_RETRY_BASE_MS, maxMs: e.WEBHOOK_RETRY_MAX_MS, windowMs: e.WEBHOOK_RETRY_WINDOW_MS },
      },
      quoteEndpointTimeoutMs: e.QUOTE_ENDPOINT_TIMEOUT_MS,
      sandboxAuthenticationTtlMs: e.SANDBOX_AUTHENTICATION_TTL_MS,
      shutdownDrainDelayMs: e.SHUTDOWN_DRAIN_DELAY_MS,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
      interruptDrainDelayMs: e.NODE_ENV === 'development' ? 0 : e.SHUTDOWN_DRAIN_DELAY_MS,
      readinessTimeoutMs: e.READINESS_TIMEOUT_MS,
      rateLimits: { payPerMinute: e.RATE_LIMIT_PAY_PER_MINUTE, readsPerMinute: e.RATE_LIMIT_READS_PER_MINUTE, merchantPerMinute: e.RATE_LIMIT_MERCHANT_PER_MINUTE },
      demo: e.DEMO === 'on',
      logLevel: e.LOG_LEVEL,
      logFormat: e.LOG_FORMAT,
      development: e.NODE_ENV === 'development',
      appLookup: {
        basePaths: [...new Set(e.APPS_API_BASE_PATHS)],
        issuer: e.OAUTH_ISSUER && e.OAUTH_AUDIENCE && e.OAUTH_JWKS ? { issuer: e.OAUTH_ISSUER, audience: e.OAUTH_AUDIENCE, jwks: e.OAUTH_JWKS } : undefined,
        scopeBase: e.OAUTH_SCOPE_BASE,
        realm: e.OAUTH_REALM,
      },
    },
  };
}
