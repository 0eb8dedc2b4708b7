/** The driver over a Playwright page: Chromium, the engine the whole Playwright suite runs in. */
import type { Page } from '@playwright/test';
import { type EngineDriver, findElement, frameDriver } from './driver';

export const playwrightDriver = (page: Page): EngineDriver =>
  frameDriver(page, (frame, request) => frame.evaluateHandle(findElement, request), () => page.close());
