import { checkMeasurementRules } from '@tare/client';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { listProductsPage } from '../../src/store/repositories/product-list.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';
import { formFields, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

describe.each(testDrivers())('admin products pages in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string; shopId: string; key: string };
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    const base = shopFixture();
    shop = await seedShop(
      db,
      shopFixture({
        products: [
          {
            ...base.products![0]!,
            variants: base.products![0]!.variants.map((variant) =>
              variant.id === '2002'
                ? { ...variant, inventory: [{ locationId: '70001', quantity: { value: 1250.5, unit: 'g' } }] }
                : variant,
            ),
          },
          { id: '1002', title: HOSTILE, measurementType: 'length', variants: [variantFixture('2101', 'm', 1)] },
          {
            id: '1003',
            title: 'Satin ribbon',
            measurementType: 'length',
            variants: [
              {
                ...variantFixture('2201', 'm', 1),
                inventory: [{ locationId: '70001', quantity: { value: 0, unit: 'm' } }],
              },
            ],
          },
          { id: '1004', title: 'Loose tea', measurementType: 'weight', variants: [variantFixture('2301', 'g', 50)] },
        ],
      }),
    );
    // A product only the other shop has: this shop's admin must not reach it.
    await seedShop(
      db,
      shopFixture({
        products: [
          { id: '1999', title: 'Other', measurementType: 'weight', variants: [variantFixture('3001', 'kg', 1)] },
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
  beforeEach(async () => {
    const staff = await staffWithPassword(db, shop.domain);
    context = await browser.newContext();
    page = await context.newPage();
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await signIn(page, server, staff.email, staff.password);
  });
  afterEach(async () => {
    await context?.close();
  });

  const variantOf = async (productId: string, variantId: string) =>
    (await call(server, `/api/v1/products/${productId}/variants/${variantId}`, { key: shop.key })).body.data.variant;
  const levelOf = async (variantId: string) =>
    (await call(server, `/api/v1/inventory/levels?locationId=70001&variantId=${variantId}`, { key: shop.key })).body
      .data.levels[0];
  /** Clicks the button and waits for the page the post answers with (its redirect, or the form again). */
  const submit = async (name: string) => {
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name }).click()]);
  };
  const variantUrl = (productId: string, variantId: string) =>
    `${server.url}/admin/products/${productId}/variants/${variantId}`;

  test('when the shop has more products than a page, then the pages follow each other by id both ways', async () => {
    const page1 = await listProductsPage(db, shop.shopId, { limit: 2 });
    expect(page1.map((p) => p.id)).toEqual(['1001', '1002', '1003']);
    const page2 = await listProductsPage(db, shop.shopId, { after: '1002', limit: 2 });
    expect(page2.map((p) => p.id)).toEqual(['1003', '1004']);
    const back = await listProductsPage(db, shop.shopId, { before: '1003', limit: 2 });
    expect(back.map((p) => p.id)).toEqual(['1001', '1002']);
    expect((await listProductsPage(db, shop.shopId, { search: 'TEA', limit: 2 })).map((p) => p.id)).toEqual(['1004']);
    expect((await listProductsPage(db, shop.shopId, { search: '1003', limit: 2 })).map((p) => p.id)).toEqual(['1003']);
  });

  test('when the products are listed and one is opened, then names are text, search finds it and the pages are accessible', async () => {
    await page.getByRole('link', { name: 'Products' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/products');
    const rows = await page.locator('#products tbody tr').allInnerTexts();
    expect(rows.map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual([
      ['Coffee beans', '1001', 'weight', '3', '$24.00 per kg, $24.00 per 100 g, $24.00 per lb'],
      [HOSTILE, '1002', 'length', '1', '$24.00 per m'],
      ['Satin ribbon', '1003', 'length', '1', '$24.00 per m'],
      ['Loose tea', '1004', 'weight', '1', '$24.00 per 50 g'],
    ]);
    expect(await page.locator('#products img').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-products`);

    await page.getByLabel('Product id or title').fill('RIBBON');
    await submit('Search');
    expect(await page.locator('#products tbody tr').count()).toBe(1);
    await page.getByRole('link', { name: 'Satin ribbon' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/products/1003');

    await page.goto(`${server.url}/admin/products/1002`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(HOSTILE);
    expect(await page.locator('main img').count()).toBe(0);

    await page.goto(`${server.url}/admin/products/1001`);
    const variants = await page.locator('#variants tbody tr').allInnerTexts();
    expect(variants[0]).toContain('Variant 2001 (2001)');
    expect(variants[2]).toContain('Half (0.5), 1');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-product`);
  });

  test("when a variant's rules are changed in the form, then GET /variants shows them at once and the preview followed as they were typed", async () => {
    // Read first, so a cached answer exists that the save must drop.
    expect((await variantOf('1001', '2001')).settings.onlineStore.rules.defaultValue).toBe(1);
    await page.goto(`${server.url}/admin/products/1001`);
    await page.getByRole('link', { name: 'Variant 2001' }).click();

    // Rendered by the server: the default value's line, priced by the sandbox cart.
    const preview = page.locator('#preview');
    expect(await preview.locator('h3').allTextContents()).toEqual(['Default value: 1 kg']);
    expect(await preview.locator('tbody th').allTextContents()).toEqual(['_svc_data', 'Unit price', 'Net weight']);
    expect(await preview.locator('.line-price').textContent()).toBe('Line price: $24.00');

    // Updated live by products.js as the staff member types, and announced politely.
    await page.getByLabel('Default value').fill('2.5');
    await page.waitForFunction(() => document.querySelector('#preview h3')?.textContent === 'Default value: 2.5 kg');
    expect(await preview.locator('tbody td').nth(2).textContent()).toBe('2.5 kg');
    expect(await preview.locator('.line-price').textContent()).toBe('Line price: $60.00');
    const svcData = JSON.parse((await preview.locator('tbody td').first().textContent())!);
    expect(svcData.measurement).toEqual({ type: 'weight', dimensions: [{ unit: 'kg', value: 2.5 }] });
    expect(await page.locator('#preview-status').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('#preview-status').textContent()).toContain('Default value 2.5 kg, $60.00');

    await page.getByLabel('Minimum').fill('0.5');
    await page.getByLabel('Increment').fill('0.5');
    await page.getByLabel('Maximum').fill('10');
    await submit('Save variant');
    expect(await page.getByRole('status').first().textContent()).toContain('Saved');
    expect((await variantOf('1001', '2001')).settings.onlineStore).toEqual({
      displayStyle: 'number',
      rules: { min: 0.5, increment: 0.5, defaultValue: 2.5, max: 10 },
    });

    // A blank maximum is no maximum.
    await page.getByLabel('Maximum').fill('');
    await submit('Save variant');
    expect((await variantOf('1001', '2001')).settings.onlineStore.rules.max).toBeNull();
  });

  test('when a preset has its own price, then the preview charges it, and a preset without one its share of the variant price', async () => {
    await page.goto(variantUrl('1002', '2101'));
    await page.getByLabel('Display style').selectOption('pills');
    await page.getByLabel('Preset 1 amount').fill('2');
    await page.getByLabel('Preset 1 price').fill('39.00');
    await page.getByLabel('Preset 2 amount').fill('0.5');
    await page.waitForFunction(() => document.querySelectorAll('#preview .line-price').length === 2);

    // 24.00 per m: the 2 m preset costs its own 39.00 (not 48.00), the 0.5 m one 0.5 × 24.00.
    expect(await page.locator('#preview .line-price').allTextContents()).toEqual([
      'Line price: $39.00',
      'Line price: $12.00',
    ]);
    const fields = await formFields(page, '#variant-form');
    const { _csrf: _, ...values } = fields;
    // A decimal comma is read as the merchant meant it; a price that is no number is said.
    const comma = new URLSearchParams({ ...values, presetPrice_0: '39,00' });
    const read = await page.request.get(`${variantUrl('1002', '2101')}/preview?${comma}`);
    expect((await read.json()).lines[0].linePrice).toBe('$39.00');
    const query = new URLSearchParams({ ...values, presetPrice_0: '39.0.0' });
    const answer = await page.request.get(`${variantUrl('1002', '2101')}/preview?${query}`);
    expect(answer.status()).toBe(200);
    expect((await answer.json()).problems).toEqual(['Preset: the preset price is not a decimal number: 39.0.0']);
  });

  test('when the display style becomes pills with presets and then number again, then the API follows each time', async () => {
    await page.goto(variantUrl('1001', '2001'));
    await page.getByLabel('Display style').selectOption('pills');
    expect(await page.locator('#rules-fields').isHidden()).toBe(true);
    await page.getByLabel('Preset 1 amount').fill('0.5');
    await page.getByLabel('Preset 1 label').fill(`Half ${HOSTILE}`);
    await page.getByLabel('Preset 2 amount').fill('1');
    await page.getByLabel('Preset 2 price').fill('23.00');
    await page.waitForFunction(() => document.querySelectorAll('#preview h3').length === 2);
    expect(await page.locator('#preview h3').allTextContents()).toEqual([
      `Preset “Half ${HOSTILE}”: 0.5 kg`,
      'Preset: 1 kg',
    ]);
    expect(await page.locator('#preview img').count()).toBe(0);
    await submit('Save variant');
    expect((await variantOf('1001', '2001')).settings.onlineStore).toEqual({
      displayStyle: 'pills',
      presets: [
        { value: 0.5, label: `Half ${HOSTILE}` },
        { value: 1, price: '23.00' },
      ],
    });
    // Saved presets come back with blank rows to add more; a row emptied is dropped.
    await page.getByLabel('Preset 1 amount').fill('');
    await page.getByLabel('Preset 1 label').fill('');
    await page.getByLabel('Preset 4 amount').fill('2');
    await submit('Save variant');
    expect((await variantOf('1001', '2001')).settings.onlineStore.presets).toEqual([
      { value: 1, price: '23.00' },
      { value: 2 },
    ]);

    await page.getByLabel('Display style').selectOption('number');
    for (const [label, value] of [
      ['Minimum', '0.25'],
      ['Increment', '0.25'],
      ['Default value', '1'],
    ] as const) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
    await submit('Save variant');
    expect((await variantOf('1001', '2001')).settings.onlineStore).toEqual({
      displayStyle: 'number',
      rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
    });
  });

  test('when a product or variant id the shop already uses is given, then it is refused beside the id and nothing moves', async () => {
    await page.goto(`${server.url}/admin/products`);
    await page.getByRole('link', { name: 'Add product' }).click();
    await page.getByLabel('Product id').fill('1001');
    await page.getByLabel('Product title').fill('Coffee again');
    await page.getByLabel('Measurement type').selectOption('length');
    await page.getByLabel('Variant id').fill('2101'); // product 1002's variant: the import would move it
    await page.getByLabel('Variant title').fill('Moved');
    await page.getByLabel('Price', { exact: true }).fill('2.00');
    await page.getByLabel('Unit', { exact: true }).selectOption('m');
    await submit('Create product');
    expect(await page.locator('#productId-error').textContent()).toBe(
      "Product id '1001' is already used in this shop, by product “Coffee beans”",
    );
    expect(await page.locator('#variantId-error').textContent()).toBe(
      `Variant id '2101' is already used in this shop, by variant “Variant 2101” of product 1002`,
    );
    expect(await page.getByLabel('Product title').inputValue()).toBe('Coffee again');
    expect(await variantOf('1002', '2101')).toMatchObject({ unitMeasurement: { unit: 'm', value: 1 } });
    const coffee = (await call(server, '/api/v1/products/1001', { key: shop.key })).body.data.product;
    expect([coffee.measurementType, coffee.variants.length]).toEqual(['weight', 3]);

    // A variant of this product added under a used id is refused the same way.
    await page.goto(`${server.url}/admin/products/1004`);
    await page.getByRole('link', { name: 'Add variant' }).click();
    await page.getByLabel('Variant id').fill('2001');
    await page.getByLabel('Variant title').fill('Copy');
    await page.getByLabel('Price', { exact: true }).fill('1.00');
    await submit('Add variant');
    expect(await page.locator('#variantId-error').textContent()).toBe(
      "Variant id '2001' is already used in this shop, by variant “Variant 2001” of product 1001",
    );
    expect(await variantOf('1001', '2001')).toMatchObject({ product: { id: '1001' } });
  });

  test('when a variant is added to a product, then it comes last, a double post adds it once and the form keeps the rules', async () => {
    await page.goto(`${server.url}/admin/products/1004/variants/new`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Add a variant to Loose tea');
    // A weight product offers weight units only.
    expect(await page.getByLabel('Unit', { exact: true }).locator('option').allTextContents()).toEqual([
      'mg',
      'g',
      'kg',
      't',
      'oz',
      'lb',
      'st',
    ]);
    await page.getByLabel('Variant id').fill('2302');
    await page.getByLabel('Variant title').fill(`Tin ${HOSTILE}`);
    await page.getByLabel('Price', { exact: true }).fill('9.50');
    await page.getByLabel('Unit', { exact: true }).selectOption('g');
    await page.getByLabel('Unit value').fill('25');
    await page.getByLabel('Default value').fill('0');
    await submit('Add variant');
    expect(await page.locator('#defaultValue-error').textContent()).toBe('Default value must be more than 0');
    expect(await page.getByLabel('Variant title').inputValue()).toBe(`Tin ${HOSTILE}`);

    await page.getByLabel('Default value').fill('2');
    const fields = await formFields(page, '#variant-form');
    const url = `${server.url}/admin/products/1004/variants/new`;
    const first = await page.request.post(url, { form: fields, maxRedirects: 0 });
    const second = await page.request.post(url, { form: fields, maxRedirects: 0 });
    expect([first.status(), second.status()]).toEqual([303, 303]);
    expect(first.headers().location).toBe('/admin/products/1004/variants/2302?done=created');
    expect(second.headers().location).toBe('/admin/products/1004/variants/2302?done=unchanged');
    const { _csrf: _, ...withoutToken } = fields;
    expect((await page.request.post(url, { form: { ...withoutToken, variantId: '2303' } })).status()).toBe(403);
    expect((await page.request.get(`${server.url}/admin/products/1999/variants/new`)).status()).toBe(404);

    const listed = await call(server, '/api/v1/products/1004', { key: shop.key });
    expect(listed.body.data.product.variants.map((v: { id: string }) => v.id)).toEqual(['2301', '2302']);
    expect(await variantOf('1004', '2302')).toMatchObject({
      unitMeasurement: { unit: 'g', value: 25 },
      settings: {
        onlineStore: { displayStyle: 'number', rules: { min: 1, increment: 1, defaultValue: 2, max: null } },
      },
    });
    await page.goto(variantUrl('1004', '2302'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Tin ${HOSTILE}`);
    expect(await page.locator('.lead').textContent()).toContain('price 9.50 USD per unit measurement');
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Set stock at Main store' }).getAttribute('href')).toBe(
      '/admin/inventory/70001/2302',
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-product-variant-added`);
  });

  test('when the unit changes within the type (g to kg), then the stock read through the API is the same quantity', async () => {
    expect(await levelOf('2002')).toMatchObject({
      quantity: { value: 1250.5, unit: 'g' },
      platform: { available: 12 },
    });
    await page.goto(variantUrl('1001', '2002'));
    await page.getByLabel('Unit', { exact: true }).selectOption('kg');
    await page.getByLabel('Unit value').fill('0.1');
    await submit('Save variant');
    expect(await page.getByRole('status').first().textContent()).toContain('Saved');
    expect((await variantOf('1001', '2002')).unitMeasurement).toEqual({ unit: 'kg', value: 0.1 });
    expect(await levelOf('2002')).toMatchObject({
      quantity: { value: 1.2505, unit: 'kg' },
      platform: { available: 12 },
      fraction: { value: 0.0505, unit: 'kg' },
    });

    // A unit the stock does not convert to exactly (1.2505 kg in oz repeats) is refused.
    await page.getByLabel('Unit', { exact: true }).selectOption('oz');
    await page.getByLabel('Unit value').fill('4');
    await submit('Save variant');
    expect(await page.locator('#unit-error').textContent()).toMatch(
      /^Unit would round the stock at location 70001: 1250\.5 g is 44\.1\d+… oz, more than 9 decimal places$/,
    );
    expect((await variantOf('1001', '2002')).unitMeasurement).toEqual({ unit: 'kg', value: 0.1 });

    // A unit value of half as much: the import projects the stock's whole units of it at once.
    await page.getByLabel('Unit', { exact: true }).selectOption('kg');
    await page.getByLabel('Unit value').fill('0.05');
    await submit('Save variant');
    expect(await page.getByRole('status').first().textContent()).toContain('Saved');
    expect(await levelOf('2002')).toMatchObject({
      quantity: { value: 1.2505, unit: 'kg' },
      platform: { available: 25 },
      fraction: { value: 0.0005, unit: 'kg' },
    });
  });

  test('when a value is wrong, then the import’s message is beside the field, the form keeps what was typed and nothing is saved', async () => {
    const before = await variantOf('1001', '2003');
    await page.goto(variantUrl('1001', '2003'));
    await page.getByLabel('Display style').selectOption('number');
    await page.getByLabel('Minimum').fill('2');
    await page.getByLabel('Increment').fill('0.5');
    await page.getByLabel('Default value').fill('1');
    await submit('Save variant');
    expect(await page.locator('#defaultValue-error').textContent()).toBe('Default value 1 is below the minimum 2');
    expect(await page.getByLabel('Default value').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Minimum').inputValue()).toBe('2');
    expect(await page.getByRole('alert').textContent()).toContain('Nothing was saved: 1 problem to fix');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-product-variant-error`);

    await page.getByLabel('Default value').fill('lots');
    await submit('Save variant');
    expect(await page.locator('#defaultValue-error').textContent()).toBe(
      'Default value must be a number, like 4.20 (use a dot for decimals)',
    );
    expect(await page.getByLabel('Default value').inputValue()).toBe('lots');
    expect(await page.locator('#preview').textContent()).toContain('Default value must be a number');

    // A unit of another type (the select offers none: a hand-made post).
    const fields = await formFields(page, '#variant-form');
    const answer = await page.request.post(variantUrl('1001', '2003'), {
      form: { ...fields, defaultValue: '2', unit: 'm' },
    });
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain('Unit &#39;m&#39; is not a weight unit; use one of mg, g, kg, t, oz, lb, st');
    expect(await variantOf('1001', '2003')).toEqual(before);
  });

  test('when the default is off the increment grid or above the maximum, then the preview says so as it is typed and the save refuses it, in the words of the cart helpers', async () => {
    const before = await variantOf('1002', '2101');
    const offGrid = '225 is not a multiple of the increment 50 from 100';
    // The client's cart helper refuses such a default: so do the admin's preview and save.
    expect(
      checkMeasurementRules(225, {
        settings: {
          onlineStore: { displayStyle: 'number', rules: { min: 100, increment: 50, defaultValue: 225, max: null } },
        },
      }),
    ).toEqual([offGrid]);
    await page.goto(variantUrl('1002', '2101'));
    await page.getByLabel('Minimum').fill('100');
    await page.getByLabel('Increment').fill('50');
    await page.getByLabel('Default value').fill('225');
    await page.waitForFunction(
      (text) => document.querySelector('#preview')?.textContent?.includes(text),
      `Default value ${offGrid}`,
    );
    expect(await page.locator('#preview h3').count()).toBe(0);

    await submit('Save variant');
    expect(await page.locator('#defaultValue-error').textContent()).toBe(`Default value ${offGrid}`);
    expect(await page.locator('#preview').textContent()).toContain(`Default value ${offGrid}`);
    expect(await variantOf('1002', '2101')).toEqual(before);

    await page.getByLabel('Default value').fill('250');
    await page.getByLabel('Maximum').fill('200');
    await page.waitForFunction(
      (text) => document.querySelector('#preview')?.textContent?.includes(text),
      'Default value 250 is above the maximum 200',
    );
    expect(await page.locator('#preview h3').count()).toBe(0);
    await submit('Save variant');
    expect(await page.locator('#defaultValue-error').textContent()).toBe('Default value 250 is above the maximum 200');
    expect(await variantOf('1002', '2101')).toEqual(before);
  });

  test('when the variant form is posted twice (a double click), then it applies once', async () => {
    await page.goto(variantUrl('1004', '2301'));
    await page.getByLabel('Default value').fill('3');
    const fields = await formFields(page, '#variant-form');
    const first = await page.request.post(variantUrl('1004', '2301'), { form: fields, maxRedirects: 0 });
    const second = await page.request.post(variantUrl('1004', '2301'), { form: fields, maxRedirects: 0 });
    expect([first.status(), second.status()]).toEqual([303, 303]);
    // The second post wrote nothing: the import found every value already stored.
    expect(first.headers().location).toBe('/admin/products/1004/variants/2301?done=saved');
    expect(second.headers().location).toBe('/admin/products/1004/variants/2301?done=unchanged');
    expect((await variantOf('1004', '2301')).settings.onlineStore.rules.defaultValue).toBe(3);
  });

  test('when the measurement type changes, then a product without stock follows and one with stock is refused', async () => {
    await page.goto(`${server.url}/admin/products/1004`);
    await page.getByLabel('Measurement type').selectOption('volume');
    await submit('Save type');
    expect(await page.locator('#variantUnit-error').textContent()).toBe(
      "Unit of the variants: variant 2301: unit 'g' is not a volume unit; use one of ml, cl, dl, L, m3, cm3, in3, ft3, floz, cup, pt, qt, gal, imp_floz, imp_pt, imp_gal",
    );
    await page.getByLabel('Unit of every variant').selectOption('ml');
    await submit('Save type');
    expect(await page.getByRole('status').first().textContent()).toContain('Saved');
    expect(await variantOf('1004', '2301')).toMatchObject({
      unitMeasurement: { unit: 'ml', value: 50 },
      product: { id: '1004', measurementType: 'volume' },
    });

    await page.goto(`${server.url}/admin/products/1003`);
    await page.getByLabel('Measurement type').selectOption('area');
    await page.getByLabel('Unit of every variant').selectOption('m2');
    const fields = await formFields(page, 'form[action="/admin/products/1003"]');
    const answer = await page.request.post(`${server.url}/admin/products/1003`, { form: fields });
    expect(answer.status()).toBe(409);
    await submit('Save type');
    expect(await page.locator('#measurementType-error').textContent()).toBe(
      'Measurement type cannot change to area: its variants hold stock counted in length units (1 level: variant 2201 at location 70001; a level at 0 counts), and stock is not converted between types. Restate each of those levels in area units in the variant’s inventory, or create a new area product.'.replace(
        '’',
        "'",
      ),
    );
    expect(await variantOf('1003', '2201')).toMatchObject({ product: { measurementType: 'length' } });
    expect((await levelOf('2201')).quantity).toEqual({ value: 0, unit: 'm' });
  });

  test("when another shop's product is opened or posted, or a form has no CSRF token, then it is 404 or 403 and nothing changes", async () => {
    await page.goto(variantUrl('1001', '2001'));
    const fields = await formFields(page, '#variant-form');
    for (const path of [
      '/admin/products/1999',
      '/admin/products/1999/variants/3001',
      '/admin/products/1001/variants/3001',
    ]) {
      const answer = await page.request.get(`${server.url}${path}`);
      expect(answer.status()).toBe(404);
      expect(await answer.text()).toContain('There is no such page in this shop’s admin.');
    }
    const other = await page.request.post(variantUrl('1999', '3001'), { form: { ...fields, defaultValue: '5' } });
    expect(other.status()).toBe(404);
    const preview = await page.request.get(`${variantUrl('1999', '3001')}/preview?unit=kg`);
    expect(preview.status()).toBe(404);

    const { _csrf: _, ...withoutToken } = fields;
    const refused = await page.request.post(variantUrl('1001', '2001'), {
      form: { ...withoutToken, defaultValue: '5' },
    });
    expect(refused.status()).toBe(403);
    expect((await variantOf('1001', '2001')).settings.onlineStore.rules?.defaultValue).not.toBe(5);
  });
});
