/**
 * A real Chromium for the admin's tests: Debian's /usr/bin/chromium driven by playwright-core
 * (no downloaded browser), a fresh profile per launch and a fresh context per test.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { onTeardown } from '../../support/child-processes.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where CI keeps the screenshots of every page (gitignored). */
export const SCREENSHOTS_DIR = fileURLToPath(new URL('../../../../../test-output/admin-screenshots/', import.meta.url));

export interface TestBrowser {
  /** A context of its own (cookies, storage) for one test: close it when the test ends. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * Launches Chromium. Playwright gives it a fresh temporary profile (--user-data-dir) that it
 * deletes on close, and kills the browsers it launched if this process exits first.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  // A run cut short (SIGTERM from vitest) still ends the browser.
  const unregister = onTeardown(() => {
    void browser.close().catch(() => {});
  });
  return {
    newContext: (options = {}) => browser.newContext({ viewport: { width: 1280, height: 860 }, ...options }),
    async close() {
      try {
        await browser.close();
      } finally {
        unregister();
      }
    },
  };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which the admin's CSP
 * does not apply to) and returns its serious and critical violations.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }));
}

/** Saves a full-page screenshot as `<name>.png` in SCREENSHOTS_DIR. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
}
