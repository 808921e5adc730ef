import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { PICKER_ASSETS_DIR } from '../../src/http/routes/storefront/storefront-render.js';
import {
  launchBrowser,
  screenshot,
  seriousAccessibilityViolations,
  type TestBrowser,
} from '../admin/support/browser.js';
import { testDrivers } from '../support/databases.js';
import { startTestServer } from '../support/harness.js';
import { buyWithKeyboard, demoShop, expectSaleBooked, scrollsSideways, storefrontUrl } from './storefront-journey.js';

// The "done when" in Chromium: one server, store and browser for the file.
const [pglite] = testDrivers();

describe('sandbox storefront in Chromium', () => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let key: string;

  beforeAll(async () => {
    db = await pglite!.create();
    server = await startTestServer(db);
    ({ key } = await demoShop(db));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await db?.close();
  });

  async function withPage(context: Promise<BrowserContext>, use: (page: Page) => Promise<void>) {
    const opened = await context;
    try {
      await use(await opened.newPage());
    } finally {
      await opened.close();
    }
  }

  test('when a customer buys 1.25 kg of the demo coffee with the keyboard only, then the cart charges 1.25 × 24.00 and Tare’s stock drops by exactly 1.25 kg', async () => {
    await withPage(browser.newContext(), async (page) => {
      const bought = await buyWithKeyboard(page, server);
      expect(bought.shownPrice).toBe('$30.00');
      expect(bought.status).toBe('Added to cart: $30.00');
      expect(bought.total).toBe('$30.00');
      await screenshot(page, 'storefront-order');
      await expectSaleBooked(server, db, key, bought.orderId);
    });
  });

  test('when the demo shop shows unit prices, then the picker shows the price per kg beside the price, and the cart line carries it', async () => {
    await withPage(browser.newContext(), async (page) => {
      await page.goto(`${storefrontUrl(server)}products/1001?variant=2002`);
      // Robusta at $1.80 per 100 g: the 250 g pill costs $4.50, which is $18.00/kg.
      await page.waitForSelector('tare-measure-picker input[type="radio"]');
      const shown = () =>
        page.evaluate(() => ({
          price: document.querySelector('.tare-picker__price')?.textContent,
          reference: document.querySelector('.tare-picker__reference-price')?.textContent,
        }));
      expect(await shown()).toEqual({ price: '$4.50', reference: '$18.00/kg' });
      // The 1 kg bag has its own price, so its own price per kg.
      await page.getByLabel('1 kg').check();
      expect(await shown()).toEqual({ price: '$16.00', reference: '$16.00/kg' });
      await page.getByLabel('250 g').check();
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect.poll(() => page.locator('.tare-picker__status').textContent()).toBe('Added to cart: $4.50');
      await page.goto(`${storefrontUrl(server)}cart`);
      expect(await page.textContent('main')).toContain('$18.00/kg');
      // Arabica is sold per 1 kg, the shop's reference: its unit price already says it once.
      await page.goto(`${storefrontUrl(server)}products/1001?variant=2001`);
      await page.waitForSelector('tare-measure-picker input[type="number"]');
      expect(await shown()).toEqual({ price: '$24.00', reference: '' });
    });
  });

  test('when a value the rules refuse is added, then an alert says why and nothing reaches the cart', async () => {
    await withPage(browser.newContext(), async (page) => {
      await page.goto(`${storefrontUrl(server)}products/1001`);
      const input = page.getByLabel('Net weight (kg)');
      await input.fill('1.3');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('1.3 is not a multiple of the increment 0.25 from 0.25');
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      await page.goto(`${storefrontUrl(server)}cart`);
      expect(await page.textContent('main')).toContain('Your cart is empty.');
    });
  });

  test('when a Shopify shop prices in base units, then the picker adds measurement ÷ unit value units, each stating one unit, in the shop’s French labels, and follows the theme’s variant selector', async () => {
    await withPage(browser.newContext(), async (page) => {
      const posted: unknown[] = [];
      // A theme's page on Shopify: the cart is Shopify's (captured here), the script the extension's.
      await page.route('http://shop.example/**', (route) => {
        if (route.request().url().endsWith('/cart/add.js')) {
          posted.push(route.request().postDataJSON());
          return route.fulfill({ status: 200, contentType: 'application/json', body: '{"items":[]}' });
        }
        if (route.request().url().endsWith('/tare-measure-picker.js')) {
          return route.fulfill({ path: `${PICKER_ASSETS_DIR}tare-measure-picker.js` });
        }
        const script = '<script src="/cdn/tare-measure-picker.js"></script>';
        return route.fulfill({ status: 200, contentType: 'text/html', body: baseUnitsPage(script) });
      });
      await page.goto('http://shop.example/fr/products/olive-oil');
      await page.getByLabel('Volume net (L)').selectOption('1.5');
      await expect.poll(() => page.locator('.tare-picker__price').textContent()).toMatch(/^18,00\s€$/);
      await page.getByRole('button', { name: 'Ajouter au panier' }).press('Enter');
      await expect.poll(() => posted.length).toBe(1);
      const [item] = (posted[0] as { items: { id: number; quantity: number; properties: Record<string, string> }[] })
        .items;
      expect([item!.id, item!.quantity]).toEqual([2301, 3]);
      expect(JSON.parse(item!.properties['_svc_data']!).measurement.dimensions[0]).toEqual({ unit: 'L', value: 0.5 });
      // The net measurement as the cart helpers write it (a plain decimal, whatever the locale).
      expect(item!.properties['Volume net']).toBe('0.5 L');

      // The theme's own variant selector (its product form's `id`) switches the picker's variant.
      await page.locator('form select[name="id"]').selectOption('2302');
      await expect.poll(() => page.locator('tare-measure-picker').getAttribute('variant-id')).toBe('2302');
      expect(await page.getByLabel('Volume net (mL)').inputValue()).toBe('250');
    });
  });

  test('when the pages are read by axe, then they have no serious accessibility problem', async () => {
    await withPage(browser.newContext(), async (page) => {
      for (const path of ['', 'products/1001', 'products/1001?variant=2002', 'products/1004', 'cart']) {
        await page.goto(`${storefrontUrl(server)}${path}`);
        expect(await seriousAccessibilityViolations(page), path).toEqual([]);
      }
    });
  });

  test('when the storefront is opened on a 390 px phone, then no page scrolls sideways', async () => {
    await withPage(browser.newContext(), async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ['', 'products/1001', 'products/1001?variant=2002']) {
        await page.goto(`${storefrontUrl(server)}${path}`);
        expect(await page.evaluate(scrollsSideways), path).toBe(false);
      }
      await screenshot(page, 'storefront-phone-product');
      // A cart with a line carrying its label properties, added by the picker.
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect.poll(() => page.locator('.tare-picker__status').textContent()).toMatch(/^Added to cart/);
      await page.goto(`${storefrontUrl(server)}cart`);
      expect(await page.locator('.cart tbody tr').count()).toBe(1);
      expect(await page.evaluate(scrollsSideways), 'cart').toBe(false);
      await screenshot(page, 'storefront-phone-cart');
    });
  });
});

/** A product page of a theme on Shopify, as the extension's block renders it, in base-units pricing. */
function baseUnitsPage(script: string): string {
  const variants = {
    '2301': {
      version: 1,
      type: 'volume',
      unitMeasurement: { unit: 'L', value: 0.5 },
      displayStyle: 'dropdown',
      presets: [{ value: 0.5 }, { value: 1.5 }],
      price: '6.00',
      currency: 'EUR',
    },
    '2302': {
      version: 1,
      type: 'volume',
      unitMeasurement: { unit: 'mL', value: 250 },
      displayStyle: 'number',
      rules: { min: 250, increment: 250, defaultValue: 250, max: null },
      price: '3.00',
      currency: 'EUR',
    },
  };
  const shop = {
    version: 1,
    defaultLocale: 'en',
    currency: 'EUR',
    pricingMode: 'base_units',
    labels: {
      en: { netVolume: 'Net volume', netVolume_value_L: '{Value} {Unit}' },
      fr: { netVolume: 'Volume net', netVolume_value_L: '{Value} {Unit}', netVolume_value_mL: '{Value} {Unit}' },
    },
  };
  return `<!doctype html><html lang="fr"><head>${script}</head><body>
    <form action="/fr/cart/add" method="post"><select name="id" aria-label="Variante">
      <option value="2301">Bouteille</option><option value="2302">Flacon</option></select></form>
    <tare-measure-picker variant-id="2301" root="/fr" locale="fr-CA" text-add="Ajouter au panier">
      <script type="application/json" data-tare-variants>${JSON.stringify(variants)}</script>
      <script type="application/json" data-tare-shop>${JSON.stringify(shop)}</script>
    </tare-measure-picker></body></html>`;
}
