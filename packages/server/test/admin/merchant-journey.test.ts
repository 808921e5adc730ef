/**
 * Issue 12's "done when", only through the UI as a merchant would (labels and buttons): sign
 * in, create an API key, add a new product with a measured variant, set its stock, see it in the
 * ledger and the chart; then an integrator's requests with that key read what was configured.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

describe.each(testDrivers())('a merchant’s journey in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string };
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db);
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await db?.close();
  });

  /** Clicks the button and waits for the page the post answers with. */
  const submit = async (name: string) => {
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name }).click()]);
  };

  test('when a merchant creates a key, a measured product and its stock, then an integrator reads them with that key', async () => {
    const staff = await staffWithPassword(db, shop.domain);
    await signIn(page, server, staff.email, staff.password);

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Storefront integration');
    await submit('Create key');
    const key = await page.getByLabel('New API key').inputValue();
    expect(key).not.toBe('');

    await page.getByRole('link', { name: 'Products' }).click();
    await page.getByRole('link', { name: 'Add product' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Add a product');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // First without an id: the import's own message beside the field, what was typed kept.
    await page.getByLabel('Product title').fill('Loose green tea');
    await page.getByLabel('Measurement type').selectOption('weight');
    await page.getByLabel('Variant id').fill('2500');
    await page.getByLabel('Variant title').fill('By the gram');
    await page.getByLabel('Price', { exact: true }).fill('4.20');
    await page.getByLabel('Unit', { exact: true }).selectOption('g');
    await page.getByLabel('Unit value').fill('100');
    for (const [label, value] of [
      ['Minimum', '50'],
      ['Increment', '10'],
      ['Default value', '100'],
      ['Maximum', '1000'],
    ] as const) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
    await submit('Create product');
    expect(await page.locator('#productId-error').textContent()).toBe(
      'Product id must be a number of 1 to 20 digits, like 5001',
    );
    expect(await page.getByLabel('Product id').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Variant title').inputValue()).toBe('By the gram');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Product id').fill('1500');
    await screenshot(page, `${driver.name}-product-new`);
    await submit('Create product');
    expect(new URL(page.url()).pathname).toBe('/admin/products/1500/variants/2500');
    expect(await page.getByRole('status').first().textContent()).toContain('Created');

    await page.getByRole('link', { name: 'Set stock at Main store' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/inventory/70001/2500');
    await page.getByLabel('New level').fill('1234.5');
    await page.locator('#set-unit').selectOption('g');
    await submit('Set stock');
    expect(await page.locator('#exact-total').textContent()).toBe('1,234.5 g');
    expect(await page.locator('#platform-units').textContent()).toBe('12');
    expect(await page.locator('#fraction').textContent()).toBe('34.5 g');
    const rows = page.locator('#ledger tbody tr');
    expect(await rows.count()).toBe(1);
    expect((await rows.first().getByRole('cell').allTextContents()).slice(1)).toEqual([
      'Set',
      '+1,234.5 g',
      '0 g',
      '1,234.5 g',
      'Admin',
      staff.email,
    ]);
    await page.waitForSelector('#level-chart[data-drawn="true"] canvas');
    await screenshot(page, `${driver.name}-journey-level`);

    // The inventory list has it too, at the shop's location.
    await page.getByRole('link', { name: 'Inventory', exact: true }).click();
    expect(await page.getByRole('row').filter({ hasText: 'Loose green tea' }).count()).toBe(1);

    // The integrator, with the key the merchant created.
    const settings = {
      onlineStore: { displayStyle: 'number', rules: { min: 50, increment: 10, defaultValue: 100, max: 1000 } },
    };
    const product = await call(server, '/api/v1/products/1500', { key });
    expect(product.status).toBe(200);
    expect(product.body.data.product).toEqual({
      id: '1500',
      measurementType: 'weight',
      variants: [{ id: '2500', unitMeasurement: { unit: 'g', value: 100 }, settings }],
    });
    const variant = await call(server, '/api/v1/products/1500/variants/2500', { key });
    expect(variant.body.data.variant).toEqual({
      id: '2500',
      unitMeasurement: { unit: 'g', value: 100 },
      settings,
      product: { id: '1500', measurementType: 'weight' },
    });
    const levels = await call(server, '/api/v1/inventory/levels?locationId=70001&variantId=2500', { key });
    expect(levels.body.data.levels).toEqual([
      expect.objectContaining({
        variantId: '2500',
        quantity: { value: 1234.5, unit: 'g' },
        platform: { available: 12 },
        fraction: { value: 34.5, unit: 'g' },
      }),
    ]);
  });
});
