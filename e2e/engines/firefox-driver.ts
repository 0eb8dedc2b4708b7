/**
 * Firefox ESR (Debian's firefox-esr) over WebDriver BiDi, through puppeteer-core:
 * Firefox needs no geckodriver for it, and Playwright's moz-firefox channel does
 * not work with ESR 153 (docs/testing.md, "Every engine").
 */
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type ElementHandle, type Frame } from 'puppeteer-core';
import { type EngineDriver, findElement, frameDriver } from './driver';

export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export const firefoxInstalled = () => existsSync(firefoxPath);

/** Puppeteer gives up after 30 s by default; the worker's fixture allows `timeoutMs`. */
export function launchFirefox(timeoutMs: number): Promise<Browser> {
  return puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true, timeout: timeoutMs });
}

/** A page in a context of its own (no cookies or storage shared with another test), closed with it. */
export async function firefoxDriver(browser: Browser): Promise<EngineDriver> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  // findElement gives an Element or null, which puppeteer's handle types cannot follow.
  const search = async (frame: Frame, request: Parameters<typeof findElement>[0]) =>
    (await frame.evaluateHandle(findElement, request)) as unknown as { asElement(): ElementHandle<Element> | null; dispose(): Promise<void> };
  return frameDriver(page, search, () => context.close());
}
