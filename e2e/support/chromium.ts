import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

/**
 * How every browser here is launched (the browser tests and the benchmarks):
 * Debian's Chromium by default (Playwright cannot download its own browser
 * here); CHROMIUM_PATH overrides it, and a machine with neither falls back to
 * Playwright's own browser.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumLaunchOptions: LaunchOptions = {
  ...(existsSync(chromiumPath) && { executablePath: chromiumPath }),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};
