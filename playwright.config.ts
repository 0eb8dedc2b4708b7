import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
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
});
