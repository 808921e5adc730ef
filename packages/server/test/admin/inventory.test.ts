import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';
import { formFields, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

describe.each(testDrivers({ citus: true }))('admin inventory pages in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string; shopId: string; key: string };
  let otherShop: { domain: string; key: string };
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db);
    // A variant only the other shop has: this shop's admin must not reach it.
    otherShop = await seedShop(
      db,
      shopFixture({
        products: [
          { id: '1001', title: 'Other', measurementType: 'weight', variants: [variantFixture('3001', 'kg', 1)] },
        ],
      }),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await db?.close();
  });
  let staff: { email: string; password: string };
  beforeEach(async () => {
    staff = await staffWithPassword(db, shop.domain);
    context = await browser.newContext();
    page = await context.newPage();
    await signIn(page, server, staff.email, staff.password);
  });
  afterEach(async () => {
    await context?.close();
  });

  const levelOf = async (key: string, variantId: string) =>
    (await call(server, `/api/v1/inventory/levels?locationId=70001&variantId=${variantId}`, { key })).body.data
      .levels[0];

  test('when stock is adjusted and set in the admin, then the API reads it, the ledger shows its cause and the chart draws it', async () => {
    await page.getByRole('link', { name: 'Inventory' }).click();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-inventory`);
    await page.getByRole('link', { name: 'Variant 2001' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/inventory/70001/2001');

    await page.getByLabel('Change').fill('12.75');
    await page.getByRole('button', { name: 'Adjust stock' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Stock adjusted');
    expect(await page.locator('#exact-total').textContent()).toBe('12.75 kg');
    expect(await page.locator('#platform-units').textContent()).toBe('12');
    expect(await page.locator('#fraction').textContent()).toBe('0.75 kg');

    await page.getByLabel('New level').fill('500');
    await page.locator('#set-unit').selectOption('g');
    await page.getByRole('button', { name: 'Set stock' }).click();
    expect(await page.locator('#exact-total').textContent()).toBe('0.5 kg');
    expect(await levelOf(shop.key, '2001')).toMatchObject({
      quantity: { value: 0.5, unit: 'kg' },
      platform: { available: 0 },
      fraction: { value: 0.5, unit: 'kg' },
    });

    const rows = page.locator('#ledger tbody tr');
    expect(await rows.count()).toBe(2);
    const [newest, oldest] = [
      await rows.nth(0).getByRole('cell').allTextContents(),
      await rows.nth(1).getByRole('cell').allTextContents(),
    ];
    expect(newest.slice(1)).toEqual(['Set', '-12.25 kg', '12.75 kg', '0.5 kg', 'Admin', staff.email]);
    expect(oldest.slice(1)).toEqual(['Adjustment', '+12.75 kg', '0 kg', '12.75 kg', 'Admin', staff.email]);
    await page.waitForSelector('#level-chart[data-drawn="true"] canvas');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-inventory-level`);
  });

  test('when the adjust form is posted twice (a double click), then the stock changes once', async () => {
    await page.goto(`${server.url}/admin/inventory/70001/2002`);
    await page.getByLabel('Change').fill('250');
    const fields = await formFields(page, 'form[action$="/adjust"]');
    const action = `${server.url}/admin/inventory/70001/2002/adjust`;
    const first = await page.request.post(action, { form: fields, maxRedirects: 0 });
    const second = await page.request.post(action, { form: fields, maxRedirects: 0 });
    expect([first.status(), second.status()]).toEqual([303, 303]);
    expect((await levelOf(shop.key, '2002')).quantity).toEqual({ value: 250, unit: 'g' });
  });

  test('when the value or unit is wrong, then the field is named as the API names it and nothing is booked', async () => {
    await page.goto(`${server.url}/admin/inventory/70001/2003`);
    await page.getByLabel('Change').fill('a lot');
    await page.getByRole('button', { name: 'Adjust stock' }).click();
    expect(await page.locator('#delta-error').textContent()).toBe(
      'Change must be a number, like 4.20 (use a dot for decimals)',
    );
    expect(await page.getByLabel('Change').inputValue()).toBe('a lot');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    const fields = await formFields(page, 'form[action$="/adjust"]');
    const answer = await page.request.post(`${server.url}/admin/inventory/70001/2003/adjust`, {
      form: { ...fields, delta: '1', unit: 'ml' },
    });
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain('Change: unit &#39;ml&#39; is not valid for variant 2003 (weight)');
    expect((await levelOf(shop.key, '2003')).quantity.value).toBe(0);
    const { rows } = await db.query('SELECT 1 FROM inventory_ledger WHERE shop_id = $1 AND variant_id = $2', [
      shop.shopId,
      '2003',
    ]);
    expect(rows).toEqual([]);
  });

  test('when a level is set below zero or beyond any finite number, then it is refused as the API refuses it and nothing is booked', async () => {
    const ledgerRows = async () =>
      (await db.query('SELECT 1 FROM inventory_ledger WHERE shop_id = $1 AND variant_id = $2', [shop.shopId, '2002']))
        .rows.length;
    const [before, booked] = [await levelOf(shop.key, '2002'), await ledgerRows()];
    await page.goto(`${server.url}/admin/inventory/70001/2002`);
    await page.getByLabel('New level').fill('-3');
    await page.locator('#set-unit').selectOption('kg');
    await page.getByRole('button', { name: 'Set stock' }).click();
    expect(await page.locator('#quantity-error').textContent()).toBe('New level must be 0 or more');
    expect(await page.getByRole('status').count()).toBe(0);

    const fields = await formFields(page, 'form[action$="/set"]');
    const huge = await page.request.post(`${server.url}/admin/inventory/70001/2002/set`, {
      form: { ...fields, quantity: `1${'0'.repeat(400)}`, unit: 'kg' },
    });
    expect(huge.status()).toBe(400);
    expect(await huge.text()).toContain('New level must be a finite number');
    expect(await levelOf(shop.key, '2002')).toEqual(before);
    expect(await ledgerRows()).toBe(booked);
  });

  test("when another shop's level is opened, then it is 404; a form posted to it is refused and its stock is untouched", async () => {
    await page.goto(`${server.url}/admin/inventory/70001/2001`);
    const fields = await formFields(page, 'form[action$="/adjust"]');
    const missing = await page.request.get(`${server.url}/admin/inventory/70001/3001`);
    expect(missing.status()).toBe(404);
    const other = await page.request.post(`${server.url}/admin/inventory/70001/3001/adjust`, {
      form: { ...fields, delta: '5' },
    });
    // No page of this shop renders a form for that level: one from another level is refused.
    expect(other.status()).toBe(400);
    expect(await missing.text()).toContain('There is no such page in this shop’s admin.');
    expect((await levelOf(otherShop.key, '3001')).quantity.value).toBe(0);
  });
});
