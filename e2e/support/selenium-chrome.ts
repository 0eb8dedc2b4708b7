import { existsSync } from 'node:fs';
import { Builder, type WebDriver } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';
import { chromiumLaunchOptions } from './chromium';

/**
 * Debian's chromedriver (chromium-driver, which scripts/ensure-chromium.sh installs) driving
 * Debian's Chromium, as a QA team's selenium-webdriver suite would (packages/qa-kit/README.md,
 * "WebDriver"). Both paths are given, so Selenium Manager never tries a download.
 */
export const chromedriverPath = process.env.CHROMEDRIVER_PATH ?? '/usr/bin/chromedriver';

/** Absent here: the test skips, saying (in its output) how to install it; under CI=true it fails instead. */
export function chromedriverMissing(): string | undefined {
  if (existsSync(chromedriverPath)) return undefined;
  const missing = `chromedriver is not at ${chromedriverPath} (bash scripts/ensure-chromium.sh installs Debian's chromium-driver, or set CHROMEDRIVER_PATH)`;
  if (process.env.CI) throw new Error(missing);
  console.warn(`skipped: ${missing}`);
  return missing;
}

export async function launchSeleniumChrome(): Promise<WebDriver> {
  const options = new chrome.Options();
  options.addArguments('--headless=new', ...(chromiumLaunchOptions.args ?? []));
  if (chromiumLaunchOptions.executablePath) options.setChromeBinaryPath(chromiumLaunchOptions.executablePath);
  return new Builder().forBrowser('chrome').setChromeOptions(options).setChromeService(new chrome.ServiceBuilder(chromedriverPath)).build();
}
