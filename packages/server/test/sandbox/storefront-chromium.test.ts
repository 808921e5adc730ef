import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import {
  launchBrowser,
  screenshot,
  seriousAccessibilityViolations,
  type TestBrowser,
} from '../admin/support/browser.js';
import { testDrivers } from '../support/databases.js';
import { startTestServer } from '../support/harness.js';
import { buyWithKeyboard, demoShop, expectSaleBooked, scrollsSideways, storefrontUrl } from './storefront-journey.js';

// The "done when" in Chromium: one server, store and browser for the file.
const [pglite] = testDrivers();

describe('sandbox storefront in Chromium', () => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let key: string;

  beforeAll(async () => {
    db = await pglite!.create();
    server = await startTestServer(db);
    ({ key } = await demoShop(db));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await db?.close();
  });

  async function withPage(context: Promise<BrowserContext>, use: (page: Page) => Promise<void>) {
    const opened = await context;
    try {
      await use(await opened.newPage());
    } finally {
      await opened.close();
    }
  }

  test('when a customer buys 1.25 kg of the demo coffee with the keyboard only, then the cart charges 1.25 × 24.00 and Tare’s stock drops by exactly 1.25 kg', async () => {
    await withPage(browser.newContext(), async (page) => {
      const bought = await buyWithKeyboard(page, server);
      expect(bought.shownPrice).toBe('$30.00');
      expect(bought.status).toBe('Added to cart: $30.00');
      expect(bought.total).toBe('$30.00');
      await screenshot(page, 'storefront-order');
      await expectSaleBooked(server, db, key, bought.orderId);
    });
  });

  test('when a value the rules refuse is added, then an alert says why and nothing reaches the cart', async () => {
    await withPage(browser.newContext(), async (page) => {
      await page.goto(`${storefrontUrl(server)}products/1001`);
      const input = page.getByLabel('Net weight (kg)');
      await input.fill('1.3');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('1.3 is not a multiple of the increment 0.25 from 0.25');
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      await page.goto(`${storefrontUrl(server)}cart`);
      expect(await page.textContent('main')).toContain('Your cart is empty.');
    });
  });

  test('when the pages are read by axe, then they have no serious accessibility problem', async () => {
    await withPage(browser.newContext(), async (page) => {
      for (const path of ['', 'products/1001', 'products/1001?variant=2002', 'products/1004', 'cart']) {
        await page.goto(`${storefrontUrl(server)}${path}`);
        expect(await seriousAccessibilityViolations(page), path).toEqual([]);
      }
    });
  });

  test('when the storefront is opened on a 390 px phone, then no page scrolls sideways', async () => {
    await withPage(browser.newContext(), async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ['', 'products/1001', 'products/1001?variant=2002']) {
        await page.goto(`${storefrontUrl(server)}${path}`);
        expect(await page.evaluate(scrollsSideways), path).toBe(false);
      }
      await screenshot(page, 'storefront-phone-product');
      // A cart with a line carrying its label properties, added by the picker.
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect.poll(() => page.locator('.tare-picker__status').textContent()).toMatch(/^Added to cart/);
      await page.goto(`${storefrontUrl(server)}cart`);
      expect(await page.locator('.cart tbody tr').count()).toBe(1);
      expect(await page.evaluate(scrollsSideways), 'cart').toBe(false);
      await screenshot(page, 'storefront-phone-cart');
    });
  });
});
