import { ean13CheckDigit } from '@tare/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { formFields, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

/** The demo shop's counter label: prefix 21, the Arabica's item 10001, 01234 g = 1.234 kg. */
const body = '211000101234';
const LABEL = `${body}${ean13CheckDigit(body)}`;

describe.each(testDrivers())('admin inventory: a scanned scale label in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let key: string;
  let shopId: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    ({ key, shopId } = await seedShop(db, DEMO_CATALOG.shops[0]!));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await db?.close();
  });
  beforeEach(async () => {
    const staff = await staffWithPassword(db, DEMO_SHOP);
    context = await browser.newContext();
    page = await context.newPage();
    await signIn(page, server, staff.email, staff.password);
    await page.goto(`${server.url}/admin/inventory`);
  });
  afterEach(async () => {
    await context?.close();
  });

  const total = async () =>
    (await call(server, '/api/v1/inventory/levels?locationId=70001&variantId=2001', { key })).body.data.levels[0]
      .quantity.value as number;
  const ledgerRows = async () =>
    (
      await db.query<{ delta: string; operation: string }>(
        `SELECT delta, operation FROM inventory_ledger WHERE shop_id = $1 AND variant_id = '2001' ORDER BY id`,
        [shopId],
      )
    ).rows;

  test('when the demo label of 1.234 kg is typed with Enter, then the Arabica goes down by 1.234 kg in one ledger row', async () => {
    const [before, booked] = [await total(), await ledgerRows()];
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // A keyboard-wedge scanner: the 13 digits, then Enter, into the focused field.
    await page.getByLabel('Label', { exact: true }).pressSequentially(LABEL);
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/admin\/inventory\/70001\/2001\?done=scan$/);
    expect(await page.getByRole('status').textContent()).toContain('Scale label booked as a sale');
    expect(await total()).toBe(Number((before - 1.234).toFixed(9)));
    expect(await ledgerRows()).toEqual([...booked, { delta: '-1.234', operation: 'adjustment' }]);
  });

  test('when the same scan form is posted twice, then the sale is booked once', async () => {
    const [before, booked] = [await total(), (await ledgerRows()).length];
    await page.getByLabel('Label', { exact: true }).fill(LABEL);
    const fields = await formFields(page, 'form[action="/admin/inventory/scan"]');

    const first = await page.request.post(`${server.url}/admin/inventory/scan`, { form: fields, maxRedirects: 0 });
    const second = await page.request.post(`${server.url}/admin/inventory/scan`, { form: fields, maxRedirects: 0 });

    expect([first.status(), second.status()]).toEqual([303, 303]);
    expect(await total()).toBe(Number((before - 1.234).toFixed(9)));
    expect((await ledgerRows()).length).toBe(booked + 1);
  });

  test.each([
    ['a wrong check digit', `${body}${(ean13CheckDigit(body) + 1) % 10}`, 400, 'the check digit is'],
    [
      'an item no variant carries',
      `219999901234${ean13CheckDigit('219999901234')}`,
      404,
      "No scale item with id '99999'",
    ],
  ])('when the label has %s, then the field says why and nothing is booked', async (_, code, status, reason) => {
    const booked = await ledgerRows();
    await page.getByLabel('Label', { exact: true }).fill(code);
    const response = page.waitForResponse((r) => r.url().endsWith('/admin/inventory/scan'));
    await page.getByRole('button', { name: 'Book the sale' }).click();

    expect((await response).status()).toBe(status);
    expect(await page.locator('#code-error').textContent()).toContain(reason);
    expect(await page.getByLabel('Label', { exact: true }).inputValue()).toBe(code);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await ledgerRows()).toEqual(booked);
  });
});
