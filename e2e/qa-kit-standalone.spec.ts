/**
 * The QA kit as a merchant gets it: e2e/qa-kit copied into a directory outside
 * this repository, where only @playwright/test can be resolved, running its
 * example against the demo store of a real backend. An import of anything of
 * ours (a relative path into the repo, or a package only the repo installs)
 * fails to load there, and so fails this test; a type-only import, which
 * Playwright erases before running, is caught by reading the kit's imports.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import ts from 'typescript';
import { type TestServer, startTestServer } from '../server/testing/harness';
import type { CheckoutState } from '../web/checkout/types';
import type { CheckoutState as KitCheckoutState } from './qa-kit';
import { chromiumLaunchOptions } from './support/chromium';

const run = promisify(execFile);

// The kit declares CheckoutState itself so it needs no download: this stops compiling if the two part ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const kitStatesMatchTheWidget: Same<KitCheckoutState, CheckoutState> = true;

const kitDir = resolve('e2e/qa-kit');

test('the kit imports @playwright/test and its own files, nothing else (types included)', () => {
  const outside = readdirSync(kitDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(kitDir, file), 'utf8'), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((name) => name !== '@playwright/test' && !(name.startsWith('.') && !relative(kitDir, resolve(dirname(join(kitDir, file)), name)).startsWith('..')))
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
  });

  test.afterAll(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test('the kit, copied out of the repository with only @playwright/test installed, runs its example against the demo store', async () => {
    test.setTimeout(180_000);
    expect(kitStatesMatchTheWidget).toBe(true);
    const playwrightCli = join(project, 'node_modules', '@playwright', 'test', 'cli.js');
    const result = await run(process.execPath, [playwrightCli, 'test', '--config', 'qa-kit/playwright.config.ts', '--workers', '1', '--reporter', 'line'], {
      cwd: project,
      // A clean environment: nothing of this run (its worker, its config) leaks into the merchant's.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? project,
        CHECKOUT_URL: server.url,
        ...(chromiumLaunchOptions.executablePath && { CHROMIUM_PATH: chromiumLaunchOptions.executablePath }),
      },
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the kit's example failed outside the repository:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`);
    });
    expect(result.stdout).toMatch(/7 passed/);
    expect(result.stdout).not.toMatch(/failed|skipped/);
  });
});
