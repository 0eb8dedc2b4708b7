/**
 * The QA kit's README, sections 1 and 2, run as written: in an empty folder outside this repository,
 * every `sh` block's commands (CHECKOUT_HOST being a test server of this commit, which serves the
 * kit and the Node library it built at /packages/), every `ts` block written to the file its first
 * line names, and the README's last command, `npx playwright test`, must pass: the kit's example
 * and a team's own tests (3-D Secure, a decline then another card, a hold then its capture, an
 * expiry on the session's test clock, and a webhook forwarded by `wallet-checkout listen` to a
 * receiver that verifies it), with the team's own config, against the server's demo store. A README
 * that changes without the product (or the product without its README) fails here.
 *
 * Two liberties, both the README's own: `npx playwright install` is left out for
 * `CHROMIUM_PATH` (Playwright's browsers cannot be downloaded here: docs/testing.md, "Every
 * engine"), and `WALLET_CHECKOUT_SECRET_KEY` is the demo application's, as the README says where
 * it lives (the team's tests need it; the example checks the order on the server side with it).
 * @playwright/test comes from npm's cache when it has it (--prefer-offline).
 *
 * Its section "WebDriver (selenium-webdriver)" likewise, in an empty folder of its own (its
 * `apt-get install` of Chromium and chromedriver left out: scripts/ensure-chromium.sh installed
 * both), ending on `node --test`: the example and the same five tests of the team's; and the kit's CI example, ci/github-actions.yml, as a runner
 * would: every step's `run:` in order, with the job's `env` (CHECKOUT_HOST again this server).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';
import { type TestServer, startTestServer } from '../testing/harness';
import { chromiumLaunchOptions } from './support/chromium';
import { chromedriverMissing, chromedriverPath } from './support/selenium-chrome';

const run = promisify(execFile);

const kitDir = resolve('packages/qa-kit');
const readme = readFileSync(join(kitDir, 'README.md'), 'utf8');
const importsOf = (file: string) => ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);

/** What a README section asks: commands to run (`sh`) and files to write (`ts`, `js`, named by the first line's `// path`), in its order. */
type Step = { run: string } | { write: string; text: string };

function stepsOf(heading: string): Step[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`the QA kit's README has no section "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map(([, language, body]): Step => {
    if (language === 'sh') return { run: body! };
    const path = /^\/\/ (\S+)\n/.exec(body!)?.[1];
    if (!(language === 'ts' || language === 'js') || !path) throw new Error(`a \`${language}\` block of "${heading}" is neither commands (sh) nor a file (ts or js, its first line \`// path\`)`);
    return { write: path, text: body! };
  });
}

test.beforeAll(() => {
  for (const built of ['packages/qa-kit/dist/index.js', 'dist/packages/manifest.json']) if (!existsSync(resolve(built))) throw new Error(`${built} is missing: run npm run build first`);
});

test('each built entry imports its runner alone, types included (Playwright, selenium-webdriver); the examples add the Node library, and node itself', () => {
  const runners = { index: '@playwright/test', webdriver: 'selenium-webdriver' };
  const kitFiles = Object.entries(runners).flatMap(([entry, runner]) => ['js', 'cjs', 'd.ts', 'd.cts'].map((extension) => ({ file: `${entry}.${extension}`, runner })));
  expect(Object.fromEntries(kitFiles.map(({ file }) => [file, [...new Set(importsOf(join(kitDir, 'dist', file)))]]))).toEqual(Object.fromEntries(kitFiles.map(({ file, runner }) => [file, [runner]])));
  expect([...new Set(importsOf(join(kitDir, 'example.spec.ts')))].sort()).toEqual(['@wallet-checkout/node', '@wallet-checkout/qa-kit']);
  expect([...new Set(importsOf(join(kitDir, 'example.webdriver.test.mjs')))].sort()).toEqual(['@wallet-checkout/qa-kit/webdriver', 'node:fs', 'node:test', 'selenium-webdriver', 'selenium-webdriver/chrome.js']);
});

/** One step a runner takes: shell commands, or a file to write. */
async function take(step: Step, project: string, env: NodeJS.ProcessEnv, shell = ['bash', '-euo', 'pipefail', '-c']): Promise<string> {
  if ('write' in step) {
    mkdirSync(dirname(join(project, step.write)), { recursive: true });
    writeFileSync(join(project, step.write), step.text);
    return '';
  }
  const [command = 'bash', ...args] = shell;
  const result = await run(command, [...args, step.run], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`the commands failed:\n${step.run}\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`);
  });
  return result.stdout;
}

/** `node --test`'s closing count: every test passed, `least` at the least, and none failed, was cancelled, skipped or left to do. */
function expectNodeTestsPassed(output: string, least: number): void {
  expect(Number(/^# pass (\d+)$/m.exec(output)?.[1])).toBeGreaterThanOrEqual(least);
  for (const none of ['fail', 'cancelled', 'skipped', 'todo']) expect(output).toMatch(new RegExp(`^# ${none} 0$`, 'm'));
}

test.describe('the README, run as written in an empty folder', () => {
  let server: TestServer;
  const projects: string[] = [];
  /** A new empty folder, outside this repository. */
  const emptyProject = () => {
    const project = mkdtempSync(join(tmpdir(), 'qa-kit-readme-'));
    projects.push(project);
    return project;
  };
  /** A clean environment: nothing of this run (its worker, its config, CI) leaks into the team's. */
  const teamEnv = (project: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? project,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    ...(chromiumLaunchOptions.executablePath && { CHROMIUM_PATH: chromiumLaunchOptions.executablePath }),
  });

  /** The demo application's key, which the demo keeps in its data directory (the README's DATA_DIR/demo-merchant.json). */
  let demoSecretKey: string;

  test.beforeAll(async () => {
    server = await startTestServer({ DEMO: 'on' });
    demoSecretKey = (JSON.parse(readFileSync(join(server.dataDir, 'demo-merchant.json'), 'utf8')) as { secret_key: string }).secret_key;
  });

  test.afterAll(async () => {
    await server?.close();
    for (const project of projects) rmSync(project, { recursive: true, force: true });
  });

  test('installs the kit and the Node library from the checkout host, and its example and our own tests pass with our config', async () => {
    test.setTimeout(300_000);
    const project = emptyProject();
    const env = { ...teamEnv(project), WALLET_CHECKOUT_SECRET_KEY: demoSecretKey };
    const steps = [...stepsOf('1. Install'), ...stepsOf('2. Your tests and your config')];
    const commands = steps.flatMap((step) => ('run' in step ? [step.run] : []));
    expect(commands.at(-1), 'the README ends on running the tests').toMatch(/^\S.* npx playwright test\b/m);
    let output = '';
    for (const step of steps) {
      // The README offers CHROMIUM_PATH instead of Playwright's download, which cannot be had here.
      output = await take('run' in step ? { run: step.run.replaceAll('https://CHECKOUT_HOST', server.url).split('\n').filter((line) => !/^npx playwright install\b.*CHROMIUM_PATH/.test(line)).join('\n') } : step, project, env);
    }
    // The last command's report: every file ran, and nothing failed or was skipped.
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/failed|skipped|flaky/);
    for (const file of ['example.spec.ts', 'checkout.spec.ts', 'webhooks.spec.ts']) expect(output).toContain(file);
    for (const title of ['3-D Secure: the shopper completes the challenge', 'a declined card, then another card in the same sheet pays', 'a hold is authorized, then your server captures it', 'an order left unpaid for a day has expired', 'a paid order reaches your webhook receiver, signed']) {
      expect(output).toContain(title);
    }

    // What the team's lockfile keeps: the versioned tarballs, with the integrity the build gave them.
    const manifest = JSON.parse(readFileSync(resolve('dist/packages/manifest.json'), 'utf8')) as Record<string, { file: string; integrity: string }>;
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string; integrity?: string }> };
    for (const name of ['@wallet-checkout/qa-kit', '@wallet-checkout/node']) {
      expect(lock.packages[`node_modules/${name}`]).toEqual(expect.objectContaining({ resolved: `${server.url}/packages/${manifest[name]!.file}`, integrity: manifest[name]!.integrity }));
    }
  });

  test('its WebDriver section: selenium-webdriver from the registry and the kit from the host, and node --test runs the example and our own tests', async () => {
    const missing = chromedriverMissing();
    test.skip(missing !== undefined, missing);
    test.setTimeout(300_000);
    const project = emptyProject();
    const env = { ...teamEnv(project), CHROMEDRIVER_PATH: chromedriverPath, WALLET_CHECKOUT_SECRET_KEY: demoSecretKey };
    const steps = stepsOf('WebDriver (selenium-webdriver)');
    expect(steps.flatMap((step) => ('run' in step ? [step.run] : [])).at(-1), 'the section ends on running the tests').toMatch(/^\S.* node --test\b/m);
    let output = '';
    for (const step of steps) {
      // The machine's browser and driver: this CI's come from scripts/ensure-chromium.sh.
      output = await take('run' in step ? { run: step.run.replaceAll('https://CHECKOUT_HOST', server.url).split('\n').filter((line) => !/^sudo apt-get install\b/.test(line)).join('\n') } : step, project, env);
    }
    // The example's six and the team's five.
    expectNodeTestsPassed(output, 11);
    for (const title of ['3-D Secure: a completed challenge pays', '3-D Secure: the shopper completes the challenge', 'a declined card, then another card in the same sheet pays', 'a hold is authorized, then your server captures it', 'an order left unpaid for a day has expired', 'a paid order reaches your webhook receiver, signed']) {
      expect(output).toContain(title);
    }
  });

  test("the kit's CI example: each step's run, in order, with the job's env, passes against the host", async () => {
    const missing = chromedriverMissing();
    test.skip(missing !== undefined, missing);
    test.setTimeout(180_000);
    const project = emptyProject();
    // As GitHub substitutes the repository's secret: the demo application's key.
    const workflowText = readFileSync(join(kitDir, 'ci/github-actions.yml'), 'utf8').replaceAll('https://CHECKOUT_HOST', server.url).replaceAll('${{ secrets.WALLET_CHECKOUT_SECRET_KEY }}', demoSecretKey);
    const workflow = parseYaml(workflowText) as {
      jobs: Record<string, { env?: Record<string, string>; steps: { run?: string; uses?: string }[] }>;
    };
    const jobs = Object.values(workflow.jobs);
    expect(jobs).toHaveLength(1);
    const [{ env: jobEnv = {}, steps }] = jobs as [(typeof jobs)[number]];
    expect(jobEnv).toEqual({ CHECKOUT_URL: server.url, WALLET_CHECKOUT_SECRET_KEY: demoSecretKey });
    const commands = steps.flatMap((step) => (step.run ? [step.run] : []));
    expect(commands.at(-1)).toMatch(/^node --test\b/m);
    let output = '';
    // A container job's shell: sh -e.
    for (const command of commands) output = await take({ run: command }, project, { ...teamEnv(project), CHROMEDRIVER_PATH: chromedriverPath, ...jobEnv }, ['sh', '-e', '-c']);
    expectNodeTestsPassed(output, 6);
  });

  test('the host serves each tarball under its versioned name for a year, and redirects its unversioned name for minutes', async () => {
    const { file, integrity } = (JSON.parse(readFileSync(resolve('dist/packages/manifest.json'), 'utf8')) as Record<string, { file: string; integrity: string }>)['@wallet-checkout/qa-kit']!;
    const versioned = await fetch(`${server.url}/packages/${file}`);
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get('content-type')).toBe('application/gzip');
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = Buffer.from(await versioned.arrayBuffer());
    expect(`sha512-${createHash('sha512').update(body).digest('base64')}`).toBe(integrity);

    const stable = await fetch(`${server.url}/packages/wallet-checkout-qa-kit.tgz`, { redirect: 'manual' });
    expect(stable.status).toBe(302);
    expect(new URL(stable.headers.get('location')!, stable.url).href).toBe(`${server.url}/packages/${file}`);
    expect(stable.headers.get('cache-control')).toBe('public, max-age=300');
    expect((await fetch(`${server.url}/packages/wallet-checkout-qa-kit-0.0.0.tgz`)).status).toBe(404);
  });
});
