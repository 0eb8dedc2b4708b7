/**
 * The `wallet-checkout` command as a QA engineer runs it, a child process against a real backend
 * (testing/harness.ts): `listen` forwards the application's new events to a local receiver
 * (testing/webhook-receiver.ts), signed with the secret it prints, which the library's
 * webhooks.verify accepts, each body byte for byte the checkout's own delivery of that event;
 * `trigger` makes every event type by its sandbox flow (session.expired on the session's test clock,
 * refund.failed with the card whose refunds fail), and the listener forwards it;
 * a host that does not pay the application with the sandbox wallet is refused; --help says it all.
 * Last, the command as a QA team gets it: the library's tarball installed from the host's
 * /packages/ into an empty folder (the build's, dist/packages/: run npm run build first), run by npx.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../../contracts/event-types';
import { startTestServer, type TestServer } from '../../../testing/harness';
import { FAST_WEBHOOKS, startWebhookReceiver, type WebhookReceiver } from '../../../testing/webhook-receiver';
import { type CreatedWebhookEndpoint, SIGNATURE_HEADER, webhooks } from '../src';
import { RECIPES } from '../src/cli/trigger';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const cli = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

let server: TestServer;
const closers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  // A dispute reaches the checkout on the sweeps' next pass: a second apart here, as a developer may set it, not an idle minute.
  server = await startTestServer({ ...FAST_WEBHOOKS, RECONCILE_IDLE_INTERVAL_MS: '1000' });
});
afterAll(async () => {
  await Promise.all(closers.map((closer) => closer.close()));
  await server.close();
});

/** The command's environment: the host and key given, nothing inherited that could name another. */
function environment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...settings };
  for (const name of ['WALLET_CHECKOUT_URL', 'WALLET_CHECKOUT_SECRET_KEY'] as const) if (!(name in settings)) delete env[name];
  return env;
}

/** The command from its source (tsx), as `npx wallet-checkout ...` runs its build. */
const start = (args: string[], settings: Record<string, string> = {}): ChildProcessWithoutNullStreams =>
  spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: repoRoot, env: environment(settings) });

/** The command run to its end: its status and output. */
async function run(args: string[], settings: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { exited, output } = listener(start(args, settings));
  return { code: await exited, ...output };
}

/** A running command (`listen`): its output so far, its exit, and a wait for a line of its output. */
function listener(child: ChildProcessWithoutNullStreams) {
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    output,
    exited,
    async line(pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = output.stdout.match(pattern);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no line ${pattern} in ${timeoutMs} ms; stdout: ${output.stdout}; stderr: ${output.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

describe('wallet-checkout listen and trigger', () => {
  let settings: Record<string, string>;
  let delivered: WebhookReceiver;
  let forwardedTo: WebhookReceiver;
  let listening: ReturnType<typeof listener> & { child: ChildProcessWithoutNullStreams };
  let secret: string;
  let earlierEvent: string;

  beforeAll(async () => {
    const { secretKey } = await server.merchant();
    settings = { WALLET_CHECKOUT_URL: server.url, WALLET_CHECKOUT_SECRET_KEY: secretKey };
    // The checkout's own deliveries, for comparison: what production sends to a registered endpoint.
    delivered = await startWebhookReceiver();
    forwardedTo = await startWebhookReceiver();
    closers.push(delivered, forwardedTo);
    const endpoint = (await (await server.merchantPost(secretKey, '/api/webhook_endpoints', { url: delivered.url })).json()) as CreatedWebhookEndpoint;
    delivered.secrets = [endpoint.secret];
    // An event from before the listener starts: not new, never forwarded.
    const before = await server.createSession(secretKey);
    expect((await server.pay(before, { payment_data: await server.walletPaymentData(before, 'visa-success-3ds') })).status).toBe(200);
    earlierEvent = (await delivered.waitFor((events) => events.length === 1))[0]!.id;

    const child = start(['listen', '--forward-to', forwardedTo.url, '--interval-ms', '250'], settings);
    listening = { ...listener(child), child };
    closers.push({ close: async () => void (child.exitCode === null && child.kill('SIGKILL')) });
    secret = (await listening.line(/^Webhook signing secret: (whsec_\S+)$/m))[1]!;
    forwardedTo.secrets = [secret];
  });

  it.each(WEBHOOK_EVENT_TYPES)('trigger %s: the flow records it, the listener forwards it signed, byte for byte the checkout\'s delivery', async (type) => {
    const triggered = await run(['trigger', type], settings);
    expect(triggered.stderr).toBe('');
    expect(triggered.code).toBe(0);
    const eventId = triggered.stdout.match(new RegExp(`^Triggered ${type.replace('.', '\\.')}: (evt_\\S+)$`, 'm'))?.[1];
    expect(eventId, triggered.stdout).toBeDefined();

    await forwardedTo.waitFor((events) => events.some((event) => event.id === eventId));
    const forwarded = forwardedTo.deliveries.find((delivery) => delivery.event.id === eventId)!;
    expect(forwarded.event.type).toBe(type);
    // Verified as a merchant's receiver verifies a production delivery, with the printed secret.
    expect(webhooks.verify(forwarded.body, forwarded.headers[SIGNATURE_HEADER.toLowerCase()] as string, secret).id).toBe(eventId);
    expect(() => webhooks.verify(forwarded.body, forwarded.headers[SIGNATURE_HEADER.toLowerCase()] as string, 'whsec_another_secret_entirely')).toThrow();
    // The same bytes as the checkout's own delivery of it, and as the events API's record.
    await delivered.waitFor((events) => events.some((event) => event.id === eventId));
    expect(forwarded.body).toBe(delivered.deliveries.find((delivery) => delivery.event.id === eventId)!.body);
    const recorded = await fetch(`${server.url}/api/events/${eventId}`, { headers: { authorization: `Bearer ${settings.WALLET_CHECKOUT_SECRET_KEY}` } });
    expect(forwarded.body).toBe(await recorded.text());
    await listening.line(new RegExp(`^\\S+  ${type.replace('.', '\\.')}  ${eventId}  200$`, 'm'));
  });

  it('forwards each new event once, never the ones from before it started, prints no payment data, and stops on Ctrl-C', async () => {
    // Every event the application has, but the one from before: the triggered ones and those their flows made on the way.
    const listed = (await (await fetch(`${server.url}/api/events?limit=100`, { headers: { authorization: `Bearer ${settings.WALLET_CHECKOUT_SECRET_KEY}` } })).json()) as { data: { id: string }[] };
    const recordedSince = listed.data.map((event) => event.id).filter((id) => id !== earlierEvent);
    await forwardedTo.waitFor((events) => recordedSince.every((id) => events.some((event) => event.id === id)));
    for (const id of recordedSince) await listening.line(new RegExp(`  ${id}  200$`, 'm'));
    const forwardedIds = forwardedTo.deliveries.map((delivery) => delivery.event.id);
    expect([...forwardedIds].sort()).toEqual([...recordedSince].sort());
    expect(forwardedTo.forged).toBe(0);

    const [ready, secretLine, ...eventLines] = listening.output.stdout.trim().split('\n');
    expect(ready).toBe(`Ready: forwarding the new events of ${server.url} to ${new URL(forwardedTo.url).origin}/webhooks (Ctrl-C to stop)`);
    expect(secretLine).toBe(`Webhook signing secret: ${secret}`);
    expect(eventLines).toHaveLength(forwardedIds.length);
    for (const line of eventLines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}[a-z_]+\.[a-z_]+ {2}evt_[A-Za-z0-9_-]{22} {2}200$/);
    expect(listening.output.stdout).not.toContain(settings.WALLET_CHECKOUT_SECRET_KEY);
    expect(listening.output.stderr).toBe('');

    listening.child.kill('SIGINT');
    expect(await listening.exited).toBe(0);
    expect(listening.output.stdout.trim().split('\n').at(-1)).toBe(`Stopped: ${forwardedIds.length} events forwarded`);
  });
});

describe('wallet-checkout listen, its receiver down', () => {
  it('says a forward found no receiver, goes on with the next event, and stops on SIGTERM', async () => {
    const { secretKey } = await server.merchant();
    const gone = await startWebhookReceiver();
    await gone.close();
    const child = start(['listen', '--forward-to', gone.url, '--interval-ms', '250', '--events', 'session.payment_failed'], { WALLET_CHECKOUT_URL: server.url, WALLET_CHECKOUT_SECRET_KEY: secretKey });
    const listening = listener(child);
    closers.push({ close: async () => void (child.exitCode === null && child.kill('SIGKILL')) });
    await listening.line(/^Webhook signing secret: whsec_\S+$/m);
    for (const card of ['visa-success-3ds', 'visa-decline-3ds', 'visa-decline-3ds']) {
      const session = await server.createSession(secretKey);
      expect((await server.pay(session, { payment_data: await server.walletPaymentData(session, card) })).status).toBe(200);
    }
    // Both declines, each said; the success, of a type not asked for, not forwarded at all.
    await listening.line(/( {2}session\.payment_failed {2}evt_\S+ {2}no answer: ECONNREFUSED\n[^\n]*){2}/);
    expect(listening.output.stdout).not.toContain('session.succeeded');
    child.kill('SIGTERM');
    expect(await listening.exited).toBe(0);
    expect(listening.output.stdout.trim().split('\n').at(-1)).toBe('Stopped: 2 events forwarded');
  });
});

describe('wallet-checkout refusals', () => {
  it('refuses to trigger on a host that does not pay the application with the sandbox wallet, and a live key before any request', async () => {
    const { secretKey } = await server.merchant({ environment: 'TEST' });
    const refused = await run(['trigger', 'session.succeeded'], { WALLET_CHECKOUT_URL: server.url, WALLET_CHECKOUT_SECRET_KEY: secretKey });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^wallet-checkout: .+ is not in sandbox mode for this application \(its wallet is Google Pay TEST\)/);
    expect(refused.stdout).not.toContain('Triggered');

    // Nothing listens on port 9 of the loopback: a request would fail otherwise than this refusal.
    const live = await run(['trigger', 'session.succeeded', '--url', 'http://127.0.0.1:9', '--secret-key', 'sk_live_0123456789abcdef']);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain('trigger runs only in the sandbox, and this is a live key');
    expect(live.stderr).not.toContain('sk_live_0123456789abcdef');
  });

  it('refuses an unknown event type or a missing host with its usage', async () => {
    const settings = { WALLET_CHECKOUT_URL: server.url, WALLET_CHECKOUT_SECRET_KEY: (await server.merchant()).secretKey };
    const unknown = await run(['trigger', 'session.paid'], settings);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no event type session.paid');
    const noHost = await run(['listen', '--forward-to', 'http://127.0.0.1:4000/hooks']);
    expect(noHost.code).toBe(2);
    expect(noHost.stderr).toContain('no checkout host: pass --url or set WALLET_CHECKOUT_URL');
    const badFlag = await run(['listen', '--forward', 'http://127.0.0.1:4000/hooks'], settings);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("Unknown option '--forward'");
  });
});

describe('wallet-checkout --help', () => {
  it('names both commands, and each command explains every flag and, for trigger, every event type', async () => {
    const general = await run(['--help']);
    expect(general.code).toBe(0);
    expect(general.stdout).toMatch(/listen --forward-to <url>/);
    expect(general.stdout).toMatch(/trigger <event type>/);

    const listenHelp = await run(['listen', '--help']);
    expect(listenHelp.code).toBe(0);
    for (const flag of ['--forward-to <url>', '--events <types>', '--secret <whsec_...>', '--interval-ms <ms>', '--url <url>', '--secret-key <sk_...>', '-h, --help', 'WALLET_CHECKOUT_URL', 'WALLET_CHECKOUT_SECRET_KEY']) {
      expect(listenHelp.stdout).toContain(flag);
    }

    const triggerHelp = await run(['trigger', '--help']);
    expect(triggerHelp.code).toBe(0);
    const lines = triggerHelp.stdout.split('\n');
    // Every type, with the flow that makes it.
    for (const type of WEBHOOK_EVENT_TYPES) {
      const line = lines.find((candidate) => candidate.startsWith(`  ${type} `));
      expect(line?.slice(type.length + 2).trim()).toBe(RECIPES[type].flow);
    }
    for (const flag of ['--url <url>', '--secret-key <sk_...>', '-h, --help']) expect(triggerHelp.stdout).toContain(flag);
  });
});

describe('wallet-checkout installed from the checkout host', () => {
  it('runs from an empty project that installed the library\'s tarball, as npx wallet-checkout', async () => {
    const { file } = (JSON.parse(readFileSync(join(repoRoot, 'dist/packages/manifest.json'), 'utf8')) as Record<string, { file: string }>)['@wallet-checkout/node']!;
    const project = mkdtempSync(join(tmpdir(), 'wallet-checkout-cli-'));
    closers.push({ close: async () => rmSync(project, { recursive: true, force: true }) });
    // A clean environment: nothing of this repository's (its node_modules, its settings) within reach.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? project, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
    const sh = promisify(execFile);
    await sh('npm', ['install', '--save-dev', `${server.url}/packages/${file}`], { cwd: project, env });
    const { secretKey } = await server.merchant();
    const { stdout } = await sh('npx', ['wallet-checkout', 'trigger', 'refund.succeeded'], { cwd: project, env: { ...env, WALLET_CHECKOUT_URL: server.url, WALLET_CHECKOUT_SECRET_KEY: secretKey } });
    expect(stdout).toMatch(/^Triggered refund\.succeeded: evt_\S+$/m);
  }, 120_000);
});
