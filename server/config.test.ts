/**
 * Configuration: every problem names its variable; NODE_ENV=production
 * refuses each default that is only safe on a developer's machine.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { configVariables, loadConfig } from './config';

/** A production environment with nothing unsafe in it. */
const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://checkout.example.com',
  PAYMENT_SERVICE_URL: 'https://api.payments.example.com',
  PAYMENT_SERVICE_KEY: 'sk_live_0123456789',
  WALLET_ENVIRONMENT: 'PRODUCTION',
  GATEWAY_NAME: 'examplepayments',
  OAUTH_ISSUER: 'https://auth.example.com',
  OAUTH_AUDIENCE: 'wallet-checkout',
  OAUTH_JWKS: 'https://auth.example.com/jwks.json',
  DEMO: 'off',
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  DATABASE_URL: 'postgres://checkout@db.internal:5432/checkout',
};

const SANDBOX_KEY = `sk_sandbox_${'k'.repeat(43)}`;

const problems = (env: Record<string, string | undefined>) => {
  const loaded = loadConfig(env);
  return loaded.ok ? [] : loaded.problems;
};

describe('configuration', () => {
  it('has defaults for development', () => {
    const loaded = loadConfig({});
    expect(loaded.ok && loaded.config).toMatchObject({ port: 3000, databaseUrl: undefined, paymentService: { kind: 'embedded-sandbox' }, walletEnvironment: 'SANDBOX', demo: true, shutdownDrainDelayMs: 5_000, shutdownGraceMs: 25_000, shutdownTimeoutMs: 45_000, readinessTimeoutMs: 2_000, personalDataRetentionMs: 180 * 24 * 60 * 60 * 1000 });
  });

  it("stops at once on Ctrl-C in development, and drains on it in production; logs' format is left to the terminal unless LOG_FORMAT says", () => {
    const development = loadConfig({});
    expect(development.ok && development.config).toMatchObject({ development: true, interruptDrainDelayMs: 0, logFormat: undefined });
    const deployed = loadConfig(production);
    expect(deployed.ok && deployed.config).toMatchObject({ development: false, interruptDrainDelayMs: 5_000 });
    const json = loadConfig({ LOG_FORMAT: 'json' });
    expect(json.ok && json.config.logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'fancy' }).ok).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://db/checkout'],
    ['SHUTDOWN_GRACE_MS', '-1'],
    ['SHUTDOWN_DRAIN_DELAY_MS', '-1'],
    ['SHUTDOWN_TIMEOUT_MS', '30000'],
    ['READINESS_TIMEOUT_MS', '0'],
    ['NODE_ENV', 'staging'],
    ['DEMO', 'yes'],
    ['GOOGLE_ROOT_KEYS', 'http://keys.example/keys.json'],
    // Shorter than a session and its hold live, or a refund needs the address.
    ['PERSONAL_DATA_RETENTION_DAYS', '7'],
    ['PERSONAL_DATA_RETENTION_DAYS', '1.5'],
  ])('names the bad variable: %s=%s', (variable, value) => {
    const found = problems({ [variable]: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${variable}: `));
  });

  it('platform mode: a Google merchant id and a P-256 private key, as PEM or a path, both or neither', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-platform-'));
    try {
      const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      writeFileSync(join(dir, 'platform.pem'), pem);
      for (const key of [pem, join(dir, 'platform.pem'), pem.replace(/\n/g, '\\n')]) {
        const loaded = loadConfig({ PLATFORM_GOOGLE_MERCHANT_ID: 'BCR2DN4T00000000', PLATFORM_SIGNING_KEY: key });
        expect(loaded.ok && loaded.config.platform?.signingKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
      }
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      expect(problems({ PLATFORM_GOOGLE_MERCHANT_ID: 'BCR2DN4T00000000', PLATFORM_SIGNING_KEY: rsa })).toEqual(['PLATFORM_SIGNING_KEY: must be a P-256 (ES256) private key']);
      expect(problems({ PLATFORM_GOOGLE_MERCHANT_ID: 'BCR2DN4T00000000', PLATFORM_SIGNING_KEY: join(dir, 'missing.pem') })[0]).toMatch(/^PLATFORM_SIGNING_KEY: a PEM private key or the path of one/);
      expect(problems({ PLATFORM_GOOGLE_MERCHANT_ID: 'BCR2DN4T00000000' })[0]).toMatch(/^PLATFORM_GOOGLE_MERCHANT_ID: .*set together/);
      // Only an id of the form Google issues, as for an app's own (the wallet refuses any other).
      expect(problems({ PLATFORM_GOOGLE_MERCHANT_ID: 'platform1', PLATFORM_SIGNING_KEY: pem })).toEqual([expect.stringMatching(/^PLATFORM_GOOGLE_MERCHANT_ID: a Google merchant id/)]);
      const development = loadConfig({});
      expect(development.ok && development.config.platform).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('.env.example documents every variable, and its values load', () => {
    const example = readFileSync(fileURLToPath(new URL('../.env.example', import.meta.url)), 'utf8');
    for (const variable of configVariables) expect(example, variable).toMatch(new RegExp(`^#? ?${variable}=`, 'm'));
    expect(loadConfig(parseEnv(example)).ok).toBe(true);
  });

  it('accepts a safe production environment', () => {
    const loaded = loadConfig(production);
    expect(loaded.ok && loaded.config).toMatchObject({ databaseUrl: production.DATABASE_URL, databaseListenUrl: production.DATABASE_URL, demo: false, walletEnvironment: 'PRODUCTION', publicUrl: 'https://checkout.example.com' });
  });

  it.each([
    ['the embedded sandbox service', { PAYMENT_SERVICE_URL: undefined, PAYMENT_SERVICE_KEY: undefined, WALLET_ENVIRONMENT: undefined }, 'PAYMENT_SERVICE_URL'],
    ['a standalone sandbox', { PAYMENT_SERVICE_URL: undefined, PAYMENT_SERVICE_KEY: undefined, WALLET_ENVIRONMENT: undefined, SANDBOX_URL: 'https://sandbox.example.com', SANDBOX_SERVICE_KEY: SANDBOX_KEY }, 'SANDBOX_URL'],
    ['a plain-http payment service', { PAYMENT_SERVICE_URL: 'http://api.payments.example.com' }, 'PAYMENT_SERVICE_URL'],
    ["the sandbox's key", { PAYMENT_SERVICE_KEY: 'sk_sandbox_abc' }, 'PAYMENT_SERVICE_KEY'],
    ['a test key', { PAYMENT_SERVICE_KEY: 'sk_test_abc' }, 'PAYMENT_SERVICE_KEY'],
    ['the development token issuer', { OAUTH_ISSUER: undefined, OAUTH_AUDIENCE: undefined, OAUTH_JWKS: undefined }, 'OAUTH_ISSUER'],
    ['no public URL (an http origin derived from the address)', { PUBLIC_URL: undefined }, 'PUBLIC_URL'],
    ['a non-https origin', { PUBLIC_URL: 'http://checkout.example.com' }, 'PUBLIC_URL'],
    ['a wildcard origin', { PUBLIC_URL: 'https://*.example.com' }, 'PUBLIC_URL'],
    ['the placeholder gateway name', { GATEWAY_NAME: undefined }, 'GATEWAY_NAME'],
    ['the demo store on', { DEMO: 'on' }, 'DEMO'],
    ['the demo store by default', { DEMO: undefined }, 'DEMO'],
    ['a data key generated on local disk', { DATA_ENCRYPTION_KEY: undefined }, 'DATA_ENCRYPTION_KEY'],
    ['a public URL with credentials', { PUBLIC_URL: 'https://admin:hunter2@checkout.example.com' }, 'PUBLIC_URL'],
    ['a public URL with a path', { PUBLIC_URL: 'https://checkout.example.com/pay' }, 'PUBLIC_URL'],
    ['a public URL with a query', { PUBLIC_URL: 'https://checkout.example.com/?x=1' }, 'PUBLIC_URL'],
    ['a public URL with an empty query', { PUBLIC_URL: 'https://checkout.example.com?' }, 'PUBLIC_URL'],
    ['a JWKS over plain http', { OAUTH_JWKS: 'http://auth.example.com/jwks.json' }, 'OAUTH_JWKS'],
    ['a data key of one repeated byte', { DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }, 'DATA_ENCRYPTION_KEY'],
    ['a data key typed as text', { DATA_ENCRYPTION_KEY: Buffer.from('passwordpasswordpasswordpassword').toString('base64') }, 'DATA_ENCRYPTION_KEY'],
    ['loopback origins taken without their verification file', { ORIGIN_VERIFICATION_LOOPBACK: 'skip' }, 'ORIGIN_VERIFICATION_LOOPBACK'],
  ])('production refuses %s, naming %s', (_what, change, variable) => {
    const found = problems({ ...production, ...change });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((problem) => problem.startsWith(`${variable}: production: `))).toBe(true);
  });

  it('accepts keys files on disk, an https JWKS, and a public URL with a trailing slash', () => {
    expect(problems({ ...production, GOOGLE_ROOT_KEYS: '/etc/checkout/keys.json', OAUTH_JWKS: '/etc/checkout/jwks.json', PUBLIC_URL: 'https://checkout.example.com/' })).toEqual([]);
    expect(problems({ ...production, GOOGLE_ROOT_KEYS: 'https://payments.developers.google.com/paymentmethodtoken/keys.json' })).toEqual([]);
  });

  it.each([
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7, fd00::/8', ['10.0.0.0/8', '192.168.1.7', 'fd00::/8']],
    ['false', false],
  ])('reads TRUST_PROXY=%s in Express\'s syntax', (value, trustProxy) => {
    const loaded = loadConfig({ TRUST_PROXY: value });
    expect(loaded.ok && loaded.config.trustProxy).toEqual(trustProxy);
  });

  it.each(['true', 'everyone', '10.0.0.0/33', '10.0.0.1,,', '-1', '10.0.0.0/255.0.0.0', 'fe80::1%eth0'])('refuses TRUST_PROXY=%s, naming it', (value) => {
    const found = problems({ TRUST_PROXY: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^TRUST_PROXY: /);
  });

  it.each([
    ['0.0.0.0/0', /trusts every address/],
    ['::/0', /trusts every address/],
    ['10.0.0.1, 0.0.0.0/0', /"0\.0\.0\.0\/0" trusts every address/],
    ['1.2.3.4/0', /trusts every address/],
    ['0.0.0.0/1,128.0.0.0/1', /"0\.0\.0\.0\/1" trusts a large part of the internet/],
    ['2000::/3', /trusts a large part of the internet/],
    ['::ffff:0:0/96', /trusts every IPv4 client/],
    ['::/8', /trusts every IPv4 client/],
    ['::ffff:0.0.0.0/100', /trusts a large part of the internet/],
    ['1000', /1000 hops: .*at most 5/],
    ['6', /at most 5/],
  ])('refuses TRUST_PROXY=%s, which trusts everyone or more hops than exist, naming it and why', (value, why) => {
    const found = problems({ TRUST_PROXY: value });
    expect(found).toEqual([expect.stringMatching(/^TRUST_PROXY: /)]);
    expect(found[0]).toMatch(why);
  });

  it.each(['0', '1', '5', 'loopback', 'loopback,linklocal,uniquelocal', '10.0.0.0/8', '172.16.0.0/12', 'fd00::/8', '2001:db8::/32', '::ffff:10.0.0.0/104', '203.0.113.7', '::1'])(
    'takes TRUST_PROXY=%s, and Express takes what it is read as',
    (value) => {
      const loaded = loadConfig({ TRUST_PROXY: value });
      expect(loaded.ok).toBe(true);
      expect(() => express().set('trust proxy', loaded.ok && loaded.config.trustProxy)).not.toThrow();
    },
  );

  it.each(['TEST', 'PRODUCTION'])("Google's %s wallet is refused with the embedded sandbox service, which cannot open its tokens", (environment) => {
    expect(problems({ WALLET_ENVIRONMENT: environment })).toEqual([expect.stringMatching(/^WALLET_ENVIRONMENT: .*sandbox \(embedded or standalone\)/)]);
    expect(problems({ WALLET_ENVIRONMENT: environment, PAYMENT_SERVICE_URL: 'http://127.0.0.1:9/service', PAYMENT_SERVICE_KEY: 'sk_test_1' })).toEqual([]);
  });

  it('a standalone sandbox: its origin and key, the sandbox wallet by default, nothing embedded', () => {
    const loaded = loadConfig({ SANDBOX_URL: 'http://127.0.0.1:3100/', SANDBOX_SERVICE_KEY: SANDBOX_KEY });
    expect(loaded.ok && loaded.config).toMatchObject({ paymentService: { kind: 'standalone-sandbox', origin: 'http://127.0.0.1:3100', secretKey: SANDBOX_KEY }, walletEnvironment: 'SANDBOX' });
    expect(problems({ SANDBOX_URL: 'http://127.0.0.1:3100', SANDBOX_SERVICE_KEY: SANDBOX_KEY, WALLET_ENVIRONMENT: 'SANDBOX' })).toEqual([]);
  });

  it.each<[string, Record<string, string>, RegExp]>([
    ['a URL without its key', { SANDBOX_URL: 'http://127.0.0.1:3100' }, /^SANDBOX_URL: .*together/],
    ['a key without its URL', { SANDBOX_SERVICE_KEY: SANDBOX_KEY }, /^SANDBOX_URL: .*together/],
    ['a real service as well', { SANDBOX_URL: 'http://127.0.0.1:3100', SANDBOX_SERVICE_KEY: SANDBOX_KEY, PAYMENT_SERVICE_URL: 'https://pay.example', PAYMENT_SERVICE_KEY: 'sk_live_1' }, /^SANDBOX_URL: .*two payment services/],
    ["Google's TEST wallet, whose tokens the sandbox cannot open", { SANDBOX_URL: 'http://127.0.0.1:3100', SANDBOX_SERVICE_KEY: SANDBOX_KEY, WALLET_ENVIRONMENT: 'TEST' }, /^WALLET_ENVIRONMENT: .*sandbox \(embedded or standalone\)/],
    ['a URL with a path', { SANDBOX_URL: 'http://127.0.0.1:3100/sandbox', SANDBOX_SERVICE_KEY: SANDBOX_KEY }, /^SANDBOX_URL: .*origin only/],
    ['a key that is not a sandbox key', { SANDBOX_URL: 'http://127.0.0.1:3100', SANDBOX_SERVICE_KEY: 'sk_live_1' }, /^SANDBOX_SERVICE_KEY: /],
  ])('a standalone sandbox is refused with %s', (_what, env, problem) => {
    expect(problems(env)).toEqual([expect.stringMatching(problem)]);
  });

  it("platform mode's origin verification: production fetches every origin's file from public addresses; elsewhere loopback origins are taken without one unless told to fetch", () => {
    const verification = (env: Record<string, string | undefined>) => {
      const loaded = loadConfig(env);
      if (!loaded.ok) throw new Error(loaded.problems.join('; '));
      return loaded.config.originVerification;
    };
    expect(verification(production)).toEqual({ addressPolicy: 'public', loopbackWithoutFetch: false, intervalMs: 21_600_000, timeoutMs: 5_000, verifyNowSpacingMs: 10_000 });
    expect(verification({ ...production, ORIGIN_VERIFICATION_LOOPBACK: 'fetch' })).toMatchObject({ loopbackWithoutFetch: false });
    expect(verification({})).toMatchObject({ addressPolicy: 'any', loopbackWithoutFetch: true });
    expect(verification({ ORIGIN_VERIFICATION_LOOPBACK: 'fetch', ORIGIN_VERIFICATION_INTERVAL_MS: '60000', ORIGIN_VERIFICATION_TIMEOUT_MS: '800' })).toMatchObject({ loopbackWithoutFetch: false, intervalMs: 60_000, timeoutMs: 800 });
    expect(problems({ ORIGIN_VERIFICATION_INTERVAL_MS: '1000' })).toEqual([expect.stringMatching(/^ORIGIN_VERIFICATION_INTERVAL_MS: /)]);
    expect(problems({ ORIGIN_VERIFICATION_TIMEOUT_MS: '60000' })).toEqual([expect.stringMatching(/^ORIGIN_VERIFICATION_TIMEOUT_MS: /)]);
    expect(problems({ ORIGIN_VERIFICATION_LOOPBACK: 'trust' })).toEqual([expect.stringMatching(/^ORIGIN_VERIFICATION_LOOPBACK: /)]);
  });

  it("the quote endpoint's timeout: 5 s by default, never past 7 s, which would outlast the widget's 8 s for the price", () => {
    const timeout = (env: Record<string, string | undefined>) => {
      const loaded = loadConfig(env);
      if (!loaded.ok) throw new Error(loaded.problems.join('; '));
      return loaded.config.quoteEndpointTimeoutMs;
    };
    expect(timeout({})).toBe(5_000);
    expect(timeout({ QUOTE_ENDPOINT_TIMEOUT_MS: '7000' })).toBe(7_000);
    for (const refused of ['7001', '0', 'soon']) expect(problems({ QUOTE_ENDPOINT_TIMEOUT_MS: refused })).toEqual([expect.stringMatching(/^QUOTE_ENDPOINT_TIMEOUT_MS: /)]);
  });

  it('the sandbox wallet is refused in production', () => {
    // With the embedded sandbox gone, SANDBOX is already refused for a real service; production says so too.
    expect(problems({ ...production, WALLET_ENVIRONMENT: 'SANDBOX' })).toEqual(expect.arrayContaining([expect.stringMatching(/^WALLET_ENVIRONMENT: /)]));
  });

  it('production refuses the whole development setup at once, one line per variable', () => {
    const found = problems({ NODE_ENV: 'production' });
    expect(found.map((problem) => problem.split(':')[0]).sort()).toEqual(['DATA_ENCRYPTION_KEY', 'DEMO', 'GATEWAY_NAME', 'OAUTH_ISSUER', 'PAYMENT_SERVICE_URL', 'PUBLIC_URL']);
  });
});

describe('at start (server/main.ts)', () => {
  it('refuses TRUST_PROXY=0.0.0.0/0 with exit code 2 naming the variable, no stack trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-env-'));
    try {
      const tsx = fileURLToPath(import.meta.resolve('tsx'));
      const main = fileURLToPath(new URL('./main.ts', import.meta.url));
      const { NODE_ENV: _vitestSets, ...env } = process.env;
      const run = spawnSync(process.execPath, ['--import', tsx, main], { cwd: dir, env: { ...env, PORT: '0', DATA_DIR: dir, TRUST_PROXY: '0.0.0.0/0' }, encoding: 'utf8', timeout: 20_000 });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/the configuration is invalid\.\n {2}TRUST_PROXY: "0\.0\.0\.0\/0" trusts every address/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 25_000);

  it('reads ./.env, lets the environment win, and refuses to start naming each bad variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-env-'));
    try {
      writeFileSync(join(dir, '.env'), 'NODE_ENV=production\nDEMO=off\nPORT=not-a-port\n');
      const tsx = fileURLToPath(import.meta.resolve('tsx'));
      const main = fileURLToPath(new URL('./main.ts', import.meta.url));
      const { NODE_ENV: _vitestSets, ...env } = process.env;
      const run = spawnSync(process.execPath, ['--import', tsx, main], { cwd: dir, env: { ...env, PORT: '0', DATA_DIR: dir }, encoding: 'utf8', timeout: 20_000 });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('the configuration is invalid');
      // From .env: production mode and DEMO=off; PORT from the environment wins over the file's.
      expect(run.stderr).toMatch(/PAYMENT_SERVICE_URL: production: /);
      expect(run.stderr).not.toMatch(/DEMO:|PORT:/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 25_000);
});
