/**
 * A starting point for running the kit's example on its own. Merge what you
 * need into your own config; the kit itself needs no setting. One project per
 * engine: `--project=chromium` (or firefox, webkit) picks one (README.md, "Engines").
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: { headless: true },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        // A Chromium of your own (CHROMIUM_PATH), or Playwright's (`npx playwright install chromium`).
        launchOptions: process.env.CHROMIUM_PATH ? { executablePath: process.env.CHROMIUM_PATH } : {},
      },
    },
    // Playwright's own builds: `npx playwright install firefox webkit`.
    { name: 'firefox', use: { browserName: 'firefox' } },
    { name: 'webkit', use: { browserName: 'webkit' } },
  ],
});
