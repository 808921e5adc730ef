/**
 * Firefox for the admin's tests: Debian's firefox-esr driven over WebDriver BiDi by
 * puppeteer-core. (playwright-core drives stock Firefox only through BiDi commands that
 * Firefox ESR does not have yet; puppeteer speaks the BiDi that Firefox ships.)
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { onTeardown } from '../../support/child-processes.js';
import { SCREENSHOTS_DIR } from './browser.js';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export interface TestFirefox {
  browser: Browser;
  close(): Promise<void>;
}

/** Launches headless Firefox with a fresh temporary profile (deleted on close). */
export async function launchFirefox(): Promise<TestFirefox> {
  if (!existsSync(FIREFOX)) {
    throw new Error(
      `Firefox is not at ${FIREFOX}: apt-get install -y firefox-esr (as .ci/run does), or set FIREFOX_PATH`,
    );
  }
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  // A run cut short (SIGTERM from vitest) kills Firefox at once: the teardown must be synchronous.
  const unregister = onTeardown(() => {
    browser.process()?.kill('SIGKILL');
  });
  return {
    browser,
    async close() {
      try {
        await browser.close();
      } finally {
        unregister();
      }
    },
  };
}

/** Saves a full-page screenshot as `<name>.png` beside Chromium's. */
export async function firefoxScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`) as `${string}.png`, fullPage: true });
}
