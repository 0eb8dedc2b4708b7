/**
 * Firefox ESR (Debian's firefox-esr) over WebDriver BiDi, through puppeteer-core:
 * Firefox needs no geckodriver for it, and Playwright's moz-firefox channel does
 * not work with ESR 153 (docs/testing.md, "Every engine").
 */
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type ElementHandle, type Frame } from 'puppeteer-core';
import { type EngineDriver, type ElementQuery, describeQuery, elementHandleFor, findElement } from './driver';

export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export const firefoxInstalled = () => existsSync(firefoxPath);

export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true });
}

/** A page in a context of its own (no cookies or storage shared with another test), closed with it. */
export async function firefoxDriver(browser: Browser): Promise<EngineDriver> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  let frame: Frame = page.mainFrame();
  // findElement gives an Element or null, which puppeteer's handle types cannot follow.
  const elementFor = (query: ElementQuery) =>
    elementHandleFor(query, async (request) => (await frame.evaluateHandle(findElement, request)) as unknown as { asElement(): ElementHandle<Element> | null; dispose(): Promise<void> });
  return {
    async goto(url) {
      frame = page.mainFrame();
      await page.goto(url);
    },
    // puppeteer's evaluate types its function over handles; the driver's callers pass plain values.
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
    close: () => context.close(),
  };
}
