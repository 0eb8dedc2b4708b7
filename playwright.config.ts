import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/chromium';
import type { Engine } from './e2e/engines/driver';

/** The shopper's flows written once over the engine-neutral driver (e2e/engines), run in every engine. */
const ENGINE_FLOWS = 'engines/**/*.flows.ts';

export default defineConfig<{ engine: Engine }>({
  testDir: 'e2e',
  // Only Chromium takes screenshots: its baselines keep the names they had before there were projects.
  snapshotPathTemplate: '{snapshotDir}/{testFileDir}/{testFileName}-snapshots/{arg}{-snapshotSuffix}{ext}',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  // Chromium runs the whole suite; Firefox ESR and WebKitGTK the shopper's flows (docs/testing.md, "Every engine").
  projects: [
    { name: 'chromium', testMatch: ['**/*.spec.ts', ENGINE_FLOWS], use: { engine: 'chromium' } },
    { name: 'firefox-esr', testMatch: ENGINE_FLOWS, use: { engine: 'firefox-esr' } },
    { name: 'webkitgtk', testMatch: ENGINE_FLOWS, use: { engine: 'webkitgtk' } },
  ],
});
