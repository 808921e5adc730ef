import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { staffWithPassword } from './support/admin-site.js';
import { firefoxScreenshot, launchFirefox, type TestFirefox } from './support/firefox.js';

// PRODUCT.md §17: the admin works in current Chromium and Firefox. The pages are the same on
// both stores, so Firefox walks the merchant's main path once, on PGlite; Chromium covers
// every page on both stores.
const [pglite] = testDrivers();

describe('admin in Firefox', () => {
  let db: Db;
  let server: RunningServer;
  let firefox: TestFirefox;
  let shop: { domain: string; shopId: string };
  let page: Page;

  beforeAll(async () => {
    db = await pglite!.create();
    server = await startTestServer(db);
    shop = await seedShop(db);
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

  /** Submits the focused form with the keyboard and waits for the page it leads to. */
  const pressEnter = () => Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);

  test('when staff sign in, create a key and adjust stock with the keyboard, then the key works and the ledger and chart show the change', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    await page.goto(`${server.url}/admin/login`);
    await page.focus('#email');
    await page.keyboard.type(staff.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(staff.password);
    await pressEnter();
    expect(new URL(page.url()).pathname).toBe('/admin/api-keys');

    await page.focus('#name');
    await page.keyboard.type('Firefox till');
    await pressEnter();
    const token = await page.$eval('#new-key', (input) => (input as HTMLInputElement).value);
    expect(token).toMatch(/^apik_[a-z2-7]{16}_[0-9A-Za-z]{43}$/);
    expect((await call(server, '/api/v1/app-settings', { key: token })).status).toBe(200);
    await firefoxScreenshot(page, 'firefox-api-key-created');

    await page.goto(`${server.url}/admin/inventory/70001/2001`);
    await page.focus('#delta');
    await page.keyboard.type('1.25');
    await pressEnter();
    expect(await page.$eval('[role=status]', (status) => status.textContent)).toContain('Stock adjusted');
    expect(await page.$eval('#exact-total', (total) => total.textContent)).toBe('1.25 kg');
    const newest = await page.$$eval('#ledger tbody tr:first-child td', (cells) => cells.map((c) => c.textContent));
    expect(newest.slice(1, 5)).toEqual(['Adjustment', '+1.25 kg', '0 kg', '1.25 kg']);
    // uPlot drew the level in Firefox too (the script marks the chart when it has drawn it).
    await page.waitForSelector('#level-chart[data-drawn="true"] canvas');
    const level = await call(server, '/api/v1/inventory/levels?locationId=70001&variantId=2001', { key: token });
    expect(level.body.data.levels[0].quantity).toEqual({ value: 1.25, unit: 'kg' });
    await firefoxScreenshot(page, 'firefox-inventory-level');
  });
});
