import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { firefoxScreenshot, launchFirefox, type TestFirefox } from '../admin/support/firefox.js';
import { testDrivers } from '../support/databases.js';
import { startTestServer } from '../support/harness.js';
import { buyWithKeyboard, demoShop, expectSaleBooked, scrollsSideways, storefrontUrl } from './storefront-journey.js';

// The "done when" in Firefox: one server, store and browser for the file.
const [pglite] = testDrivers();

describe('sandbox storefront in Firefox', () => {
  let db: Db;
  let server: RunningServer;
  let firefox: TestFirefox;
  let key: string;
  let page: Page;

  beforeAll(async () => {
    db = await pglite!.create();
    server = await startTestServer(db);
    ({ key } = await demoShop(db));
    firefox = await launchFirefox();
  });
  afterAll(async () => {
    await firefox?.close();
    await server?.close();
    await db?.close();
  });
  beforeEach(async () => {
    page = await (await firefox.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 860 });
  });
  afterEach(async () => {
    await page?.browserContext().close();
  });

  test('when a customer buys 1.25 kg of the demo coffee with the keyboard only, then the cart charges 1.25 × 24.00 and Tare’s stock drops by exactly 1.25 kg', async () => {
    const bought = await buyWithKeyboard(page, server);
    expect(bought.shownPrice).toBe('$30.00');
    expect(bought.status).toBe('Added to cart: $30.00');
    expect(bought.total).toBe('$30.00');
    await firefoxScreenshot(page, 'firefox-storefront-order');
    await expectSaleBooked(server, db, key, bought.orderId);
  });

  test('when the storefront is opened on a 390 px phone, then no page scrolls sideways', async () => {
    await page.setViewport({ width: 390, height: 844 });
    for (const path of ['', 'products/1001', 'products/1001?variant=2002', 'cart']) {
      await page.goto(`${storefrontUrl(server)}${path}`);
      expect(await page.evaluate(scrollsSideways), path).toBe(false);
    }
  });
});
