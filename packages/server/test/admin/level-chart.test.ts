import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

// India is 5:30 ahead of UTC all year (no summer time): the local times below hold on any date.
const ZONE = 'Asia/Kolkata';

/** The level page's chart and its times in the browser's zone, at 1280 and 360 px (issue 25). */
describe.each(testDrivers())('the level chart and local times in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    // 2002 is sold per 100 g: 1,250 g is 12 of the platform's units.
    const fixture = shopFixture();
    fixture.products![0]!.variants![1]!.inventory = [{ locationId: '70001', quantity: { value: 1250, unit: 'g' } }];
    const shop = await seedShop(db, fixture);
    for (const value of [-300.5, 75]) {
      const answer = await call(server, '/api/v1/inventory/adjustments', {
        key: shop.key,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `chart-${value}` },
        body: JSON.stringify({
          locationId: '70001',
          adjustments: [{ variantId: '2002', delta: { value, unit: 'g' } }],
        }),
      });
      expect(answer.status).toBe(200);
    }
    // The import, then two writes in one minute, months ago.
    const { rows } = await db.query<{ id: string }>(
      `SELECT id::text FROM inventory_ledger WHERE shop_id = $1 AND variant_id = '2002' ORDER BY id`,
      [shop.shopId],
    );
    const at = ['2026-03-01T08:00:00Z', '2026-03-01T09:15:05Z', '2026-03-01T09:15:41Z'];
    for (const [i, { id }] of rows.entries()) {
      await db.query('UPDATE inventory_ledger SET created_at = $3 WHERE shop_id = $1 AND id = $2', [
        shop.shopId,
        id,
        at[i],
      ]);
    }
    browser = await launchBrowser();
    context = await browser.newContext({ timezoneId: ZONE, locale: 'en-GB' });
    page = await context.newPage();
    const staff = await staffWithPassword(db, shop.domain);
    await signIn(page, server, staff.email, staff.password);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await db?.close();
  });

  const chart = () => page.locator('#level-chart');
  const tooltip = () => page.locator('#level-chart .chart-tooltip');

  test('when the level page opens, then the ledger times are in the browser’s zone, with seconds where entries share a minute', async () => {
    await page.goto(`${server.url}/admin/inventory/70001/2002`);
    const times = page.locator('#ledger time');
    expect(await times.allTextContents()).toEqual([
      '2026-03-01 14:45:41 GMT+5:30',
      '2026-03-01 14:45:05 GMT+5:30',
      '2026-03-01 13:30 GMT+5:30',
    ]);
    // The UTC text the server wrote stays on hover.
    expect(await times.first().getAttribute('title')).toBe('2026-03-01 09:15:41 UTC');
  });

  test('when the chart draws, then its legend names both series, its time axis has month ticks, and hovering shows the values', async () => {
    await page.goto(`${server.url}/admin/inventory/70001/2002`);
    await page.waitForSelector('#level-chart[data-drawn="true"] canvas');
    const legend = (await page.locator('#level-chart .u-legend').textContent()) ?? '';
    expect(legend).toContain('Exact level (g)');
    expect(legend).toContain("Platform's whole units (of 100 g)");
    expect(legend).not.toContain('--');
    // From March to now at 1280 px: a tick a month, never crowded.
    expect(await chart().getAttribute('data-time-step')).toBe('1mo');
    expect(await chart().getAttribute('data-time-ticks')).toMatch(/^Mar 2026 \| Apr \| May \| Jun/);

    const plot = (await page.locator('#level-chart .u-over').boundingBox())!;
    await page.mouse.move(plot.x + plot.width - 5, plot.y + plot.height / 2);
    // The last step runs to now: 1,250 − 300.5 + 75 = 1,024.5 g, 10 of the platform's 100 g units.
    expect(await tooltip().textContent()).toMatch(/: 1,024\.5 g exact, 10 × 100 g on the platform$/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-level-chart-1280`);
  });

  test('when the chart is reached with the keyboard, then the arrow keys move from entry to entry', async () => {
    await page.goto(`${server.url}/admin/inventory/70001/2002`);
    await page.waitForSelector('#level-chart[data-drawn="true"] canvas');
    await chart().focus();
    await page.keyboard.press('Home');
    // Before the import: nothing.
    expect(await tooltip().textContent()).toMatch(/: 0 g exact, 0 × 100 g on the platform$/);
    await page.keyboard.press('ArrowRight');
    expect(await tooltip().textContent()).toMatch(/^1 Mar 2026, 13:30:00 GMT\+5:30: 1,250 g exact, 12 × 100 g/);
    await page.keyboard.press('ArrowRight');
    expect(await tooltip().textContent()).toMatch(/: 949\.5 g exact, 9 × 100 g on the platform$/);
  });

  test('when the page is 360 px wide, then the chart fits the screen with fewer ticks', async () => {
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      await page.goto(`${server.url}/admin/inventory/70001/2002`);
      await page.waitForSelector('#level-chart[data-drawn="true"] canvas');
      const box = (await page.locator('#level-chart canvas').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
      const ticks = (await chart().getAttribute('data-time-ticks'))!.split(' | ');
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks.length).toBeLessThanOrEqual(4);
      await screenshot(page, `${driver.name}-level-chart-360`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
