/**
 * The production build: what `npm run build` compiles runs on plain
 * node, from a directory holding only what docs/operations.md says a
 * production host needs (testing/compiled-server.ts), with no
 * TypeScript tooling installed there: it serves, finds every file it reads at
 * run time, takes a whole payment, and the operator's commands work on its store.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEntries } from '../../scripts/build-server';
import { compiledSandboxArgs, compiledServerArgs } from './node-process';
import type { PublicSession } from '../../contracts';
import { type ChildServer, type ShopClient, shopClient, startChildServer } from '../child-server';
import { STAGED_WIDGET, type StagedServer, stageCompiledServer } from '../compiled-server';
import { startSandboxProcess } from './sandbox-process';

const run = promisify(execFile);

let staged: StagedServer;
let server: ChildServer;
let shop: ShopClient;

beforeAll(async () => {
  staged = await stageCompiledServer();
  server = await startChildServer({ launch: staged.launch, env: staged.env });
  shop = shopClient(server);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
  staged?.remove();
});

/** One of the compiled commands, run as an operator would on the production host, by default with the server's DATA_DIR. */
const command = (name: string, args: string[], dataDir = server.dataDir) =>
  run(process.execPath, ['--enable-source-maps', `dist/server/${name}.js`, ...args], { cwd: staged.dir, env: { ...process.env, ...staged.env, DATA_DIR: dataDir } });

describe('the compiled server, on plain node with production dependencies only', () => {
  it('is what npm run start:prod runs', () => {
    const { scripts } = JSON.parse(readFileSync(join(staged.dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['start:prod']).toBe(`node ${compiledServerArgs.join(' ')}`);
    expect(staged.launch.args).toEqual(compiledServerArgs);
    expect(scripts.sandbox).toBe(`npm run build && node ${compiledSandboxArgs.join(' ')}`);
  });

  it('has no TypeScript tooling within reach and no source file to fall back on', () => {
    const resolveFromBundle = createRequire(join(staged.dir, 'dist/server/main.js')).resolve;
    for (const tool of ['tsx', 'typescript', 'esbuild']) expect(() => resolveFromBundle(tool), tool).toThrow(/Cannot find module/);
    const files = readdirSync(staged.dir, { recursive: true, encoding: 'utf8' }).filter((file) => !file.startsWith('node_modules'));
    expect(files.filter((file) => /\.(m|c)?tsx?$/.test(file))).toEqual([]);
    expect(files.filter((file) => file.startsWith(join('dist', 'server')) && file.endsWith('.js')).sort()).toEqual(
      Object.keys(serverEntries).map((name) => join('dist', 'server', `${name}.js`)).sort(),
    );
  });

  it('runs the sandbox on its own too (dist/server/sandbox.js)', async () => {
    const sandbox = await startSandboxProcess({ SANDBOX_DATA_DIR: join(server.dataDir, 'standalone') }, { args: [...compiledSandboxArgs], cwd: staged.dir });
    try {
      expect(await (await fetch(`${sandbox.url}/healthz`)).json()).toEqual({ status: 'ok' });
      expect((await fetch(`${sandbox.url}/sandbox/service/ledger`, { headers: { authorization: `Bearer ${sandbox.serviceKey}` } })).status).toBe(200);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  });

  it('is ready: the store migrated and the embedded sandbox service answering', async () => {
    const reply = await fetch(`${server.url}/readyz`);
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ status: 'ready', checks: { store: 'ok', payment_service: 'ok' } });
  });

  it('serves the widget from dist/web, under its plain and its versioned name', async () => {
    for (const path of ['/checkout.js', `/${STAGED_WIDGET.file}`]) {
      const reply = await fetch(`${server.url}${path}`);
      expect(reply.status, path).toBe(200);
      expect(await reply.text()).toBe(STAGED_WIDGET.body);
    }
    const manifest = await fetch(`${server.url}/checkout/manifest.json`).then((r) => r.json());
    expect(manifest).toEqual({ 'checkout.js': { src: `/${STAGED_WIDGET.file}`, integrity: 'sha384-staged' } });
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const reply = await fetch(`${server.url}/openapi.json`);
    expect(reply.status).toBe(200);
    const document = (await reply.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/api/sessions/{id}/pay');
  });

  it('renders the demo store and the gallery from their templates in demo/pages', async () => {
    const store = await fetch(`${server.url}/`);
    expect(store.status).toBe(200);
    expect(await store.text()).toContain(`src="${server.url}/checkout.js"`);
    const gallery = await fetch(`${server.url}/demo/gallery`);
    expect(gallery.status).toBe(200);
    expect(await gallery.text()).toContain('checkout.js');
  });

  it('takes a whole payment over HTTP: session, wallet token, pay, the merchant sees it paid, in USD and in JPY', async () => {
    // JPY has no minor unit: the widget's view says so only if the ISO 4217 table (currency-codes' XML) was found.
    for (const [currency, exponent] of [['USD', 2], ['JPY', 0]] as const) {
      const session = await shop.createSession({ amount: 2400, currency });
      const view = (await fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } }).then((r) =>
        r.json(),
      )) as PublicSession;
      expect(view.currency_exponent).toBe(exponent);
      const paid = await shop.pay(session, await shop.walletPaymentData(session, 'visa-success-3ds'));
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(paid.body.outcome?.status).toBe('succeeded');
      expect(await shop.session(session.id)).toMatchObject({ status: 'succeeded', amount: 2400, currency });
    }
  });

  it('runs the operator commands compiled: app:create writes to the store the running server uses', async () => {
    const { stdout } = await command('app-create', ['--name', 'Compiled shop', '--merchant-id', 'compiled', '--origin', 'https://shop.example']);
    expect(stdout).toMatch(/^Application created: app_\S+ \(Compiled shop/m);
    expect(stdout).toContain(server.url);
    const secretKey = /^Secret key[^:]*: (sk_\S+)$/m.exec(stdout)?.[1];
    const created = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 500, currency: 'EUR', country_code: 'FR' }),
    });
    expect(created.status).toBe(201);
    for (const name of ['app-update', 'app-roll-key', 'direct-keys']) {
      const { stdout: usage } = await command(name, ['--help']);
      expect(usage, name).toMatch(/^Usage: /);
    }
  });

  it('maps a stack trace back to the TypeScript sources (source maps on)', async () => {
    // A DATA_DIR under a file: the store cannot be opened, and the error escapes with its stack.
    const failed = await command('app-create', ['--name', 'x', '--merchant-id', 'x', '--origin', 'https://shop.example'], join(staged.dir, 'package.json', 'data')).then(
      () => undefined,
      (error: { stderr: string }) => error,
    );
    expect(failed?.stderr).toMatch(/at openStore \(\S*server\/store\/index\.ts:\d+:\d+\)/);
  });
});
