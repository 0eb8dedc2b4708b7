/**
 * A starting point for running the kit's example on its own. Merge what you
 * need into your own config; the kit itself needs no setting.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    headless: true,
    // A Chromium of your own (CHROMIUM_PATH), or Playwright's (`npx playwright install chromium`).
    launchOptions: process.env.CHROMIUM_PATH ? { executablePath: process.env.CHROMIUM_PATH } : {},
  },
});
