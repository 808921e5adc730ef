import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { signIn, staffWithPassword } from '../admin/support/admin-site.js';
import {
  launchBrowser,
  screenshot,
  seriousAccessibilityViolations,
  type TestBrowser,
} from '../admin/support/browser.js';
import { demoShop } from '../sandbox/storefront-journey.js';
import { testDrivers } from '../support/databases.js';
import { call, startTestServer } from '../support/harness.js';

/** The stock item page's chart in Chromium: the item's exact level alone, in its unit (decision 108). */
describe.each(testDrivers())('the stock item chart in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    const { key } = await demoShop(db);
    // A 250 g pack taken off through its variant: booked on the wheel, 4.5 → 4.25 kg.
    const answer = await call(server, '/api/v1/inventory/adjustments', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'item-chart-pack' },
      body: JSON.stringify({
        locationId: '70001',
        adjustments: [{ variantId: '2702', delta: { value: -250, unit: 'g' } }],
      }),
    });
    expect(answer.status).toBe(200);
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    const staff = await staffWithPassword(db, DEMO_SHOP);
    await signIn(page, server, staff.email, staff.password);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await db?.close();
  });

  test('when the item page opens, then its chart draws the wheel in kg without a whole-units line, and the keys read each entry', async () => {
    await page.goto(`${server.url}/admin/inventory/stock-items/6001`);
    await page.waitForSelector('#level-chart[data-drawn="true"] canvas');
    const legend = (await page.locator('#level-chart .u-legend').textContent()) ?? '';
    expect(legend).toContain('Exact level (kg)');
    expect(legend).not.toContain('whole units');
    const tooltip = page.locator('#level-chart .chart-tooltip');
    await page.locator('#level-chart').focus();
    await page.keyboard.press('Home');
    expect(await tooltip.textContent()).toMatch(/: 0 kg exact$/);
    await page.keyboard.press('ArrowRight');
    expect(await tooltip.textContent()).toMatch(/: 4\.5 kg exact$/);
    await page.keyboard.press('ArrowRight');
    expect(await tooltip.textContent()).toMatch(/: 4\.25 kg exact$/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-stock-item-chart`);
  });
});
