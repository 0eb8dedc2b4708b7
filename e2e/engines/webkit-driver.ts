/**
 * WebKitGTK (Safari's engine, Debian's webkit2gtk-driver) through WebKitWebDriver,
 * with the `webdriver` package of WebdriverIO as its classic WebDriver client.
 * WebKitWebDriver starts MiniBrowser, which needs a display: both run under
 * xvfb-run, on a display and a port of their own, and go down together.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import WebDriver, { type Client } from 'webdriver';
import { type EngineDriver, type ElementQuery, type Key, describeQuery, findElement, waitFor } from './driver';

/** MiniBrowser lives under the multiarch library folder (x86_64-linux-gnu, aarch64-linux-gnu, ...), in webkit2gtk-4.1 or 4.0. */
const debianMiniBrowser = () =>
  readdirSync('/usr/lib')
    .filter((dir) => dir.endsWith('-linux-gnu'))
    .flatMap((dir) => ['webkit2gtk-4.1', 'webkit2gtk-4.0'].map((api) => join('/usr/lib', dir, api, 'MiniBrowser')))
    .find((path) => existsSync(path));

export const miniBrowserPath = process.env.WEBKIT_MINIBROWSER_PATH ?? debianMiniBrowser();

const driverPath = process.env.WEBKIT_WEBDRIVER_PATH ?? '/usr/bin/WebKitWebDriver';

export const webkitInstalled = () => existsSync(driverPath) && !!miniBrowserPath && existsSync(miniBrowserPath) && existsSync('/usr/bin/xvfb-run');

// WebdriverIO steers its users from the protocol's Switch To Frame to its own switchFrame, which this
// protocol-level client does not have: its notice on every frame switch is noise here.
process.env.DISABLE_WEBDRIVERIO_DEPRECATION_WARNINGS = 'true';

/** WebDriver's code points for the keys the flows press (W3C WebDriver, "Keyboard actions"). */
const KEYS: Record<Key, string> = { Tab: '\uE004', Enter: '\uE007', Escape: '\uE00C', ArrowDown: '\uE015' };

/** The W3C name of an element reference in a script's result. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
type ElementReference = { [ELEMENT]: string };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export interface WebKitSession {
  client: Client;
  close(): Promise<void>;
}

/**
 * WebKitWebDriver and one MiniBrowser session. A session costs seconds to open
 * and to close, so a worker keeps one and each test starts it afresh (webkitDriver).
 */
/** `timeoutMs`: how long the driver may take to listen, as the worker's fixture allows. */
export async function launchWebKit(timeoutMs: number): Promise<WebKitSession> {
  const port = await freePort();
  // Its own process group, so that closing ends xvfb-run, Xvfb, the driver and the browser together.
  const driver: ChildProcess = spawn('xvfb-run', ['--auto-servernum', driverPath, `--host=127.0.0.1`, `--port=${port}`], { detached: true, stdio: 'ignore' });
  const stop = () => {
    if (driver.exitCode === null && driver.pid) process.kill(-driver.pid, 'SIGTERM');
  };
  // A worker that dies without its fixtures' teardown still takes the display and the browser with it.
  process.once('exit', stop);
  try {
    await waitFor('WebKitWebDriver to listen', async () => (await fetch(`http://127.0.0.1:${port}/status`).catch(() => null))?.ok || null, timeoutMs);
    const client = await WebDriver.newSession({
      hostname: '127.0.0.1',
      port,
      logLevel: 'warn',
      logLevels: { '@wdio/utils': 'warn' },
      capabilities: {
        browserName: 'MiniBrowser',
        // WebKitWebDriver speaks classic WebDriver only: no BiDi session.
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] },
      } as WebdriverIO.Capabilities,
    });
    return {
      client,
      async close() {
        await client.deleteSession().catch(() => undefined);
        stop();
        process.off('exit', stop);
      },
    };
  } catch (error) {
    stop();
    process.off('exit', stop);
    throw error;
  }
}

export async function webkitDriver({ client }: WebKitSession): Promise<EngineDriver> {
  // What one test left behind: its cookies, and a page still running its scripts.
  await client.navigateTo('about:blank');
  await client.deleteAllCookies();
  const run = <R>(fn: (arg: never) => R, arg: unknown) => client.executeScript(`return (${fn}).apply(null, arguments)`, [arg as object]) as Promise<Awaited<R>>;
  const elementFor = (query: ElementQuery) => waitFor(describeQuery(query), () => run(findElement, { query, as: 'element' }) as Promise<ElementReference | null>);
  return {
    async goto(url) {
      await client.switchToFrame(null);
      await client.navigateTo(url);
    },
    evaluate: (fn, arg) => run(fn, arg),
    async addScript(source) {
      await client.executeScript(source, []);
    },
    async click(query) {
      await client.elementClick((await elementFor(query))[ELEMENT]);
    },
    async press(key) {
      await client.performActions([{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value: KEYS[key] }, { type: 'keyUp', value: KEYS[key] }] }]);
      await client.releaseActions();
    },
    async type(query, text) {
      await client.elementSendKeys((await elementFor(query))[ELEMENT], text);
    },
    async enterFrame(query) {
      await client.switchToFrame(await elementFor(query));
    },
    async leaveFrames() {
      await client.switchToFrame(null);
    },
    // The session outlives the test (see launchWebKit).
    close: async () => undefined,
  };
}
