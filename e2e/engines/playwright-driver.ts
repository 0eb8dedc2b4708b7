/** The driver over a Playwright page: Chromium, the engine the whole Playwright suite runs in. */
import type { Frame, Page } from '@playwright/test';
import { type EngineDriver, type ElementQuery, describeQuery, elementHandleFor, findElement } from './driver';

export function playwrightDriver(page: Page): EngineDriver {
  let frame: Frame = page.mainFrame();
  const elementFor = (query: ElementQuery) => elementHandleFor(query, (request) => frame.evaluateHandle(findElement, request));
  return {
    async goto(url) {
      frame = page.mainFrame();
      await page.goto(url);
    },
    // Playwright types its argument as what survives serialization; the driver's callers pass plain values.
    evaluate: (fn, arg) => frame.evaluate(fn as (arg: unknown) => never, arg),
    async addScript(source) {
      await frame.addScriptTag({ content: source });
    },
    async click(query) {
      await (await elementFor(query)).click();
    },
    press: (key) => page.keyboard.press(key),
    async enterFrame(query) {
      const inner = await (await elementFor(query)).contentFrame();
      if (!inner) throw new Error(`${describeQuery(query)} is not a frame`);
      frame = inner;
    },
    async leaveFrames() {
      frame = page.mainFrame();
    },
    close: () => page.close(),
  };
}
