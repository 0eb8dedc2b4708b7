/**
 * The QA kit as a merchant gets it: packages/qa-kit copied into a directory outside
 * this repository, where only @playwright/test can be resolved, running its
 * example against the demo store of a real backend. An import of anything of
 * ours (a relative path into the repo, or a package only the repo installs)
 * fails to load there, and so fails this test; a type-only import, which
 * Playwright erases before running, is caught by reading the kit's imports.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import ts from 'typescript';
import { type TestServer, startTestServer } from '../testing/harness';
import type { CheckoutState } from '../web/checkout/types';
import type { CheckoutState as KitCheckoutState } from '../packages/qa-kit';
import { chromiumLaunchOptions } from './support/chromium';

const run = promisify(execFile);

// The kit declares CheckoutState itself so it needs no download: this stops compiling if the two part ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const kitStatesMatchTheWidget: Same<KitCheckoutState, CheckoutState> = true;

const kitDir = resolve('packages/qa-kit');

/** The kit needs @playwright/test alone; its example also checks the merchant's server side with the Node library. */
const allowedImports = (file: string) => (file === 'example.spec.ts' ? ['@playwright/test', '@wallet-checkout/node'] : ['@playwright/test']);

test('the kit imports @playwright/test and its own files, nothing else (types included); its example adds the Node library', () => {
  const outside = readdirSync(kitDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(kitDir, file), 'utf8'), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((name) => !allowedImports(file).includes(name) && !(name.startsWith('.') && !relative(kitDir, resolve(dirname(join(kitDir, file)), name)).startsWith('..')))
        .map((name) => `${file}: ${name}`),
    );
  expect(outside).toEqual([]);
});

test.describe('copied out of the repository', () => {
  let server: TestServer;
  let project: string;

  test.beforeAll(async () => {
    server = await startTestServer({ DEMO: 'on' });
    project = mkdtempSync(join(tmpdir(), 'qa-kit-'));
    cpSync(kitDir, join(project, 'qa-kit'), { recursive: true });
    // What the README says to install, and nothing more; its own dependencies resolve from where it really lives.
    mkdirSync(join(project, 'node_modules', '@playwright'), { recursive: true });
    symlinkSync(resolve('node_modules/@playwright/test'), join(project, 'node_modules', '@playwright', 'test'), 'dir');
    // The Node library as npm would install it: the built package folder (npm run build), nothing of the repository's sources.
    if (!existsSync(resolve('packages/node/dist/index.cjs'))) throw new Error('packages/node/dist is missing: run npm run build first');
    mkdirSync(join(project, 'node_modules', '@wallet-checkout'), { recursive: true });
    symlinkSync(resolve('packages/node'), join(project, 'node_modules', '@wallet-checkout', 'node'), 'dir');
  });

  test.afterAll(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test('the kit, copied out of the repository with only @playwright/test installed, runs its example against the demo store', async () => {
    test.setTimeout(180_000);
    expect(kitStatesMatchTheWidget).toBe(true);
    const playwrightCli = join(project, 'node_modules', '@playwright', 'test', 'cli.js');
    // Chromium only: Playwright's own Firefox and WebKit builds cannot be downloaded here (docs/testing.md, "Every engine").
    const result = await run(process.execPath, [playwrightCli, 'test', '--config', 'qa-kit/playwright.config.ts', '--project', 'chromium', '--workers', '1', '--reporter', 'line'], {
      cwd: project,
      // A clean environment: nothing of this run (its worker, its config) leaks into the merchant's.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? project,
        CHECKOUT_URL: server.url,
        // The demo merchant's key, which the demo keeps in its data directory: the example checks the orders on the server side.
        WALLET_CHECKOUT_SECRET_KEY: (JSON.parse(readFileSync(join(server.dataDir, 'demo-merchant.json'), 'utf8')) as { secret_key: string }).secret_key,
        ...(chromiumLaunchOptions.executablePath && { CHROMIUM_PATH: chromiumLaunchOptions.executablePath }),
      },
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the kit's example failed outside the repository:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`);
    });
    expect(result.stdout).toMatch(/7 passed/);
    expect(result.stdout).not.toMatch(/failed|skipped/);
  });
});
