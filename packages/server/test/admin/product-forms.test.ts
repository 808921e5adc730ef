import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { type AdminHttp, adminSession } from './support/admin-http.js';
import { NEW_VARIANT_FORM, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

/** The products list's prices, and the new product form's units and cart line preview (issue 25). */
describe.each(testDrivers())('products list prices and the new product form on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let shop: { domain: string; shopId: string; key: string };
  let staff: { email: string; password: string };
  let admin: AdminHttp;
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db, shopFixture({ currency: 'EUR' }));
    staff = await staffWithPassword(db, shop.domain);
    admin = await adminSession(server, staff.email, staff.password);
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    await signIn(page, server, staff.email, staff.password);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await db?.close();
  });

  const priceOf = async (shopId: string, variantId: string) =>
    (
      await db.query<{ price: string }>('SELECT price::text AS price FROM variants WHERE shop_id = $1 AND id = $2', [
        shopId,
        variantId,
      ])
    ).rows[0]?.price;

  test('when the products list opens, then it names the currency and each variant’s price in it', async () => {
    const list = (await admin.get('/admin/products')).text;
    expect(list).toContain('Prices are in EUR.');
    expect(list).toContain('<th scope="col">Prices (EUR)</th>');
    expect(list).toContain('<summary>€24.00 per kg, €24.00 per 100 g, €24.00 per lb</summary>');
  });

  test('when a variant’s price is saved from the list, then the catalog has it; a price that is no amount is refused beside its field', async () => {
    const fields = await admin.formOn('/admin/products', '/variants/2002/price');
    expect(fields.price).toBe('24.00');
    // Typed with a decimal comma, read as the product forms read a price.
    const saved = await admin.post('/admin/products/1001/variants/2002/price', { ...fields, price: '2,45' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/admin/products?done=price#price-2002');
    const after = (await admin.get('/admin/products?done=price')).text;
    expect(after).toContain('Price saved');
    expect(after).toContain('€2.45 per 100 g');
    expect(await priceOf(shop.shopId, '2002')).toBe('2.45');

    const refused = await admin.post('/admin/products/1001/variants/2002/price', { ...fields, price: 'cheap' });
    expect(refused.status).toBe(400);
    // In words, once, beside the field (the top only counts the problems).
    expect(refused.text.split('Price must be an amount like 4.20').length - 1).toBe(1);
    expect(refused.text).toMatch(/<p class="field-error" id="price-2002-error">Price must be an amount like 4\.20[:<]/);
    expect(refused.text).toMatch(/<input id="price-2002-input" name="price"[^>]*value="cheap" aria-invalid="true"/);
    expect(await priceOf(shop.shopId, '2002')).toBe('2.45');
  });

  test('when a price form comes without its CSRF token, then it is refused; another shop’s variant of the same id is never changed', async () => {
    const other = await seedShop(db, shopFixture());
    await page.goto(`${server.url}/admin/products`);
    const forged = await page.request.post(`${server.url}/admin/products/1001/variants/2001/price`, {
      form: { price: '1.00' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(await priceOf(shop.shopId, '2001')).toBe('24.00');
    const fields = await admin.formOn('/admin/products', '/variants/2001/price');
    expect((await admin.post('/admin/products/1001/variants/2001/price', { ...fields, price: '1.50' })).status).toBe(
      303,
    );
    expect([await priceOf(shop.shopId, '2001'), await priceOf(other.shopId, '2001')]).toEqual(['1.50', '24.00']);
  });

  test('when the shop sells on Shopify, then the list shows its prices without a form and a posted price is refused', async () => {
    // Shopify owns a Shopify shop's prices (decision 87): it would put its own back.
    const shopify = await seedShop(db, shopFixture({ currency: 'EUR' }));
    await db.query("UPDATE shops SET platform = 'shopify' WHERE id = $1", [shopify.shopId]);
    const owner = await staffWithPassword(db, shopify.domain);
    const session = await adminSession(server, owner.email, owner.password);
    const list = (await session.get('/admin/products')).text;
    expect(list).toContain('Prices are in EUR and edited in Shopify’s admin.');
    expect(list).toContain('€24.00 per kg, €24.00 per 100 g, €24.00 per lb');
    expect(list).not.toContain('/price"');
    const refused = await session.post('/admin/products/1001/variants/2001/price', { price: '1.00', back: '' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('This shop’s prices are edited in Shopify’s admin');
    expect(await priceOf(shopify.shopId, '2001')).toBe('24.00');
  });

  test('when the new product form opens, then it previews the cart line at the price typed, before the first save', async () => {
    const form = (await admin.get('/admin/products/new')).text;
    expect(form).toContain('data-preview="/admin/products/new/preview"');
    expect(form).toContain('Cart line preview');
    const query = new URLSearchParams({
      ...NEW_VARIANT_FORM,
      productId: '1600',
      productTitle: 'Rice',
      measurementType: 'weight',
    });
    const preview = await admin.get(`/admin/products/new/preview?${query}`);
    expect(preview.status).toBe(200);
    const result = JSON.parse(preview.text);
    expect(result.problems).toEqual([]);
    expect(result.lines).toMatchObject([{ choice: 'Default value', measurement: '1.5 kg', linePrice: '€36.00' }]);
    // Nothing was saved by the preview.
    expect(
      (await db.query('SELECT 1 FROM products WHERE shop_id = $1 AND id = $2', [shop.shopId, '1600'])).rows,
    ).toEqual([]);
    // A unit of another type than the one chosen is said, not priced.
    const wrong = JSON.parse(
      (
        await admin.get(
          `/admin/products/new/preview?${new URLSearchParams({ ...NEW_VARIANT_FORM, measurementType: 'length' })}`,
        )
      ).text,
    );
    expect(wrong.lines).toEqual([]);
    expect(wrong.problems.length).toBeGreaterThan(0);
  });

  test('when a measurement type is chosen in the browser, then the unit select offers that type’s units only and the preview follows the form', async () => {
    await page.goto(`${server.url}/admin/products/new`);
    const units = () => page.locator('#unit option').allTextContents();
    await page.getByLabel('Measurement type').selectOption('length');
    expect(await units()).toEqual(['mm', 'cm', 'm', 'km', 'in', 'ft', 'yd', 'mi']);
    await page.getByLabel('Measurement type').selectOption('weight');
    expect(await units()).toEqual(['mg', 'g', 'kg', 't', 'oz', 'lb', 'st']);
    await page.getByLabel('Unit', { exact: true }).selectOption('kg');
    await page.getByLabel('Price', { exact: true }).fill('10.00');
    await page.getByLabel('Default value', { exact: true }).fill('3');
    await page.waitForFunction(
      () => document.querySelector('#preview .line-price')?.textContent?.includes('€30.00'),
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.locator('#preview h3').first().textContent()).toBe('Default value: 3 kg');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-product-new-preview`);
  });
});
