/**
 * The admin settings page's unit prices (PRODUCT.md §21) and scale label formats (§22): a
 * merchant sees and edits them, they are judged by the import's own checks, and every refusal is
 * in words beside its field, with nothing saved.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { readScaleFormats } from '../../src/store/repositories/scale-barcodes.js';
import { findShopById } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { machineTalkIn } from '../support/machine-talk.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';
import { adminSession } from './support/admin-http.js';
import { signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

/** Cheese at €4.80 per 250 g, item 10001 on the scale. */
const cheeseShop = () =>
  shopFixture({
    currency: 'EUR',
    products: [
      {
        id: '1001',
        title: 'Cheese',
        measurementType: 'weight',
        variants: [
          {
            ...variantFixture('2001', 'g', 250),
            price: '4.80',
            inventory: [{ locationId: '70001', quantity: { value: 5000, unit: 'g' } }],
          },
        ],
      },
    ],
  });

describe.each(testDrivers())('admin settings: unit prices and scale labels in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string; shopId: string; key: string };
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db, cheeseShop());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await db?.close();
  });
  beforeEach(async () => {
    const staff = await staffWithPassword(db, shop.domain);
    context = await browser.newContext();
    page = await context.newPage();
    await signIn(page, server, staff.email, staff.password);
    await page.goto(`${server.url}/admin/settings`);
  });
  afterEach(async () => {
    await context?.close();
  });

  const save = async () => {
    await page.getByRole('button', { name: 'Save settings' }).click();
  };
  const variantUnitPrice = async () =>
    (await call(server, '/api/v1/products/1001/variants/2001', { key: shop.key })).body.data.variant.unitPrice;

  test('when unit prices are switched on per 100 g, then the variant answers €1.92 per 100 g, and off again none', async () => {
    expect(await page.getByLabel('Show unit prices').isChecked()).toBe(false);
    expect(await variantUnitPrice()).toBeUndefined();
    await page.getByLabel('Show unit prices').check();
    await save();
    expect(await page.getByRole('status').textContent()).toContain('Settings saved');
    // Per the default reference: €4.80 per 250 g is €19.20 per kg.
    expect(await variantUnitPrice()).toEqual({ amount: '19.20', currency: 'EUR', reference: { value: 1, unit: 'kg' } });

    await page.getByLabel('Weight: per').fill('100');
    await page.getByLabel('Weight reference unit').selectOption('g');
    await save();
    expect(await variantUnitPrice()).toEqual({ amount: '1.92', currency: 'EUR', reference: { value: 100, unit: 'g' } });
    expect((await findShopById(db, shop.shopId))!.unitPricing).toEqual({
      enabled: true,
      reference: { weight: { value: 100, unit: 'g' } },
    });
    expect(await page.getByLabel('Weight: per').inputValue()).toBe('100');

    await page.getByLabel('Show unit prices').uncheck();
    await save();
    expect(await variantUnitPrice()).toBeUndefined();
  });

  test('when a scale label format is added, edited and removed, then the shop’s formats follow and a label decodes with it', async () => {
    expect(await readScaleFormats(db, shop.shopId)).toEqual([]);
    // 21 + item 00000 + 01234 (1.234 kg) + check digit: no format claims prefix 21 yet.
    const label = '/api/v1/scale-barcodes/2100000012343';
    expect((await call(server, label, { key: shop.key })).status).toBe(400);
    const add = page.getByRole('group', { name: 'Add a format' });
    await add.getByLabel('Prefix').fill('21');
    await add.getByLabel('Item digits').fill('5');
    await add.getByLabel('Value digits').fill('5');
    await add.getByLabel('Decimals').fill('3');
    await add.getByLabel('Unit').selectOption('kg');
    await save();
    expect(await page.getByRole('status').textContent()).toContain('Settings saved');
    expect(await readScaleFormats(db, shop.shopId)).toEqual([
      { prefix: '21', itemDigits: 5, value: 'weight', valueDigits: 5, decimals: 3, unit: 'kg' },
    ]);
    // Now the format reads the label: its item is one no variant carries.
    const decoded = await call(server, label, { key: shop.key });
    expect([decoded.status, decoded.body.error?.code]).toEqual([404, 'not_found']);

    const first = page.getByRole('group', { name: 'Format 1' });
    await first.getByLabel('Decimals').fill('2');
    await save();
    expect((await readScaleFormats(db, shop.shopId))[0]).toMatchObject({ decimals: 2 });

    await page.getByRole('group', { name: 'Format 1' }).getByLabel('Remove this format').check();
    await save();
    expect(await readScaleFormats(db, shop.shopId)).toEqual([]);
  });

  test('when the form is posted without its CSRF token, then it is refused and nothing is saved', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    const admin = await adminSession(server, staff.email, staff.password);
    const fields = await admin.formOn('/admin/settings', '/admin/settings');
    const before = await findShopById(db, shop.shopId);
    const forged = await admin.post('/admin/settings', { ...fields, unitPricingEnabled: 'on', _csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(await findShopById(db, shop.shopId)).toEqual(before);
  });

  test('when the formats and references are wrong, then each field says why in words and nothing is saved', async () => {
    const before = await findShopById(db, shop.shopId);
    const add = page.getByRole('group', { name: 'Add a format' });
    await add.getByLabel('Prefix').fill('19');
    await add.getByLabel('Item digits').fill('five');
    await add.getByLabel('Value digits').fill('5');
    await add.getByLabel('Decimals').fill('2');
    await add.getByLabel('Value', { exact: true }).selectOption('price');
    await add.getByLabel('Unit').selectOption('kg');
    await page.getByLabel('Show unit prices').check();
    await page.getByLabel('Volume: per').fill('0');
    await save();

    const error = (id: string) => page.locator(`#${id}-error`).textContent();
    expect(await error('scale_0_itemDigits')).toBe('Format 1 item digits must be a whole number, like 3');
    expect(await error('reference_volume_value')).toBe('Volume reference must be more than 0');
    expect(await page.getByRole('alert').textContent()).toContain(
      'Nothing was saved: 2 problems to fix, shown beside the fields.',
    );
    expect(
      await page.getByRole('group', { name: 'Format 1' }).getByLabel('Item digits').getAttribute('aria-invalid'),
    ).toBe('true');
    // What was typed is shown again.
    expect(await page.getByRole('group', { name: 'Format 1' }).getByLabel('Prefix').inputValue()).toBe('19');
    expect(await page.getByLabel('Show unit prices').isChecked()).toBe(true);

    // Once the schema is met, the import's own checks speak: the prefix, the unit, the 13 digits.
    await page.getByRole('group', { name: 'Format 1' }).getByLabel('Item digits').fill('5');
    await page.getByRole('group', { name: 'Format 1' }).getByLabel('Value digits').fill('6');
    await page.getByLabel('Volume: per').fill('');
    await page.getByLabel('Length reference unit').selectOption('cm');
    await save();
    expect(await error('scale_0_prefix')).toBe(
      "Format 1 prefix '19' is not a GS1 variable-measure prefix (20–29 or 02)",
    );
    expect(await error('scale_0_unit')).toBe(
      "Format 1 unit a price format is in the shop's currency and takes no unit",
    );
    expect(await error('scale_0_valueDigits')).toBe(
      'Format 1 value digits prefix 2 + item 5 + value 6 + check digit 1 makes 14 digits, not 13',
    );
    const texts = [
      ...(await page.locator('.field-error').allTextContents()),
      await page.getByRole('alert').textContent(),
    ];
    expect(texts.flatMap((text) => machineTalkIn(text ?? ''))).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await findShopById(db, shop.shopId)).toEqual(before);
    expect(await readScaleFormats(db, shop.shopId)).toEqual([]);
  });
});
