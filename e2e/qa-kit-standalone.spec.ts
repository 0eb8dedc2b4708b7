/**
 * The QA kit as a merchant gets it: the built package (packages/qa-kit, `npm run build`)
 * packed by npm and unpacked into the node_modules of a directory outside this
 * repository, where only @playwright/test is installed beside it, running its
 * example against the demo store of a real backend. An import of anything of
 * ours (a relative path into the repo, or a package only the repo installs)
 * fails to load there, and so fails this test; the declarations, which
 * Playwright never loads, are checked by reading their imports.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import ts from 'typescript';
import { type TestServer, startTestServer } from '../testing/harness';
import { chromiumLaunchOptions } from './support/chromium';

const run = promisify(execFile);

const kitDir = resolve('packages/qa-kit');
const importsOf = (file: string) => ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);

test.beforeAll(() => {
  if (!existsSync(join(kitDir, 'dist/index.js'))) throw new Error('packages/qa-kit/dist is missing: run npm run build first');
});

test('the built kit imports @playwright/test alone (types included); its example and config add the kit and the Node library', () => {
  const kitFiles = ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts'];
  expect(Object.fromEntries(kitFiles.map((file) => [file, [...new Set(importsOf(join(kitDir, 'dist', file)))]]))).toEqual(Object.fromEntries(kitFiles.map((file) => [file, ['@playwright/test']])));
  const exampleImports = ['example.spec.ts', 'playwright.config.ts'].flatMap((file) => importsOf(join(kitDir, file)));
  expect([...new Set(exampleImports)].sort()).toEqual(['@playwright/test', '@wallet-checkout/node', '@wallet-checkout/qa-kit']);
});

test.describe('installed outside the repository', () => {
  let server: TestServer;
  let project: string;

  test.beforeAll(async () => {
    server = await startTestServer({ DEMO: 'on' });
    project = mkdtempSync(join(tmpdir(), 'qa-kit-'));
    // What the README says to install: @playwright/test, resolved from where it really lives...
    mkdirSync(join(project, 'node_modules', '@playwright'), { recursive: true });
    symlinkSync(resolve('node_modules/@playwright/test'), join(project, 'node_modules', '@playwright', 'test'), 'dir');
    // ...and the kit's tarball, unpacked where npm installs it: only the files the package ships.
    const kit = join(project, 'node_modules', '@wallet-checkout', 'qa-kit');
    mkdirSync(kit, { recursive: true });
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: kitDir });
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
    await run('tar', ['-xzf', join(project, filename), '-C', kit, '--strip-components=1']);
    // The Node library as npm would install it: the built package folder (npm run build), nothing of the repository's sources.
    if (!existsSync(resolve('packages/node/dist/index.cjs'))) throw new Error('packages/node/dist is missing: run npm run build first');
    symlinkSync(resolve('packages/node'), join(project, 'node_modules', '@wallet-checkout', 'node'), 'dir');
    // The example and its config, copied from the installed package into the merchant's tests.
    mkdirSync(join(project, 'tests'));
    for (const file of ['example.spec.ts', 'playwright.config.ts']) cpSync(join(kit, file), join(project, 'tests', file));
  });

  test.afterAll(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test('the kit, installed from its tarball outside the repository beside @playwright/test alone, runs its example against the demo store', async () => {
    test.setTimeout(180_000);
    const playwrightCli = join(project, 'node_modules', '@playwright', 'test', 'cli.js');
    // Chromium only: Playwright's own Firefox and WebKit builds cannot be downloaded here (docs/testing.md, "Every engine").
    const result = await run(process.execPath, [playwrightCli, 'test', '--config', 'tests/playwright.config.ts', '--project', 'chromium', '--workers', '1', '--reporter', 'line'], {
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
