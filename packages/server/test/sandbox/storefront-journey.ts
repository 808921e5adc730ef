/**
 * The issue's "done when" as a customer does it, for a browser driven by playwright-core
 * (Chromium) or puppeteer-core (Firefox): keyboard only, on the demo shop's storefront, buy
 * 1.25 kg of the coffee with the picker and check out; then read through the API what Tare made
 * of the sale. Both drivers' pages fit `KeyboardPage`.
 */
import { expect } from 'vitest';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import type { Db } from '../../src/store/db.js';
import { call } from '../support/harness.js';
import { settle } from './support.js';

export interface KeyboardPage {
  goto(url: string): Promise<unknown>;
  keyboard: {
    press(key: string): Promise<unknown>;
    down(key: string): Promise<unknown>;
    up(key: string): Promise<unknown>;
    type(text: string): Promise<unknown>;
  };
  waitForSelector(selector: string): Promise<unknown>;
  evaluate<T>(fn: () => T): Promise<T>;
}

/** The demo shop as `tare serve` loads it, and a key to read it through the API. */
export async function demoShop(db: Db): Promise<{ key: string }> {
  await importCatalog({ db, gateway: createLocalGateway() }, DEMO_CATALOG);
  return { key: (await createApiKey(db, { shopDomain: DEMO_SHOP })).token };
}

export const storefrontUrl = (server: RunningServer) => `${server.url}/sandbox/storefront/${DEMO_SHOP}/`;

/** What has the keyboard focus, in words: `input number (picker)`, `button Add to cart`. */
const focused = () => {
  const active = document.activeElement as HTMLElement | null;
  if (!active) return '';
  const kind = active.tagName === 'INPUT' ? `input ${active.getAttribute('type')}` : active.tagName.toLowerCase();
  const inPicker = active.closest('tare-measure-picker') ? ' (picker)' : '';
  return `${kind}${active.tagName === 'BUTTON' ? ` ${active.textContent?.trim()}` : ''}${inPicker}`;
};

/** Presses Tab until `target` has the focus (at most 20 times, as a customer would). */
async function tabTo(page: KeyboardPage, target: string): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    const now = await page.evaluate(focused);
    if (now === target) return;
    seen.push(now);
  }
  throw new Error(`Tab never reached ${target}; it went through ${seen.join(', ')}`);
}

const pickerStatus = () => document.querySelector('.tare-picker__status')?.textContent ?? '';

/**
 * Opens the coffee's page, tabs to the picker's input, types 1.25 (kg), tabs to "Add to cart"
 * and presses Enter, then tabs to "Check out" and presses Enter. Returns the order placed and
 * what the page showed on the way.
 */
export async function buyWithKeyboard(page: KeyboardPage, server: RunningServer) {
  await page.goto(`${storefrontUrl(server)}products/1001`);
  await page.waitForSelector('tare-measure-picker input[type="number"]');
  await tabTo(page, 'input number (picker)');
  // Select what the field holds (its default, 1), so that typing replaces it.
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type('1.25');
  const shownPrice = await page.evaluate(() => document.querySelector('.tare-picker__price')?.textContent);
  await tabTo(page, 'button Add to cart (picker)');
  await page.keyboard.press('Enter');
  for (let i = 0; i < 200 && !(await page.evaluate(pickerStatus)).startsWith('Added'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const status = await page.evaluate(pickerStatus);
  await tabTo(page, 'button Check out');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#order-id');
  const orderId = await page.evaluate(() => document.querySelector('#order-id')?.getAttribute('data-order-id') ?? '');
  const total = await page.evaluate(() => document.querySelector('#order-total')?.textContent);
  return { orderId, shownPrice, status, total };
}

/** Tare's view after the sale, through the API: 12.75 − 1.25 kg exactly, the line at 1.25 × 24.00, the ledger's sale. */
export async function expectSaleBooked(server: RunningServer, db: Db, key: string, orderId: string): Promise<void> {
  await settle(server, db);
  const level = await call(server, '/api/v1/inventory/levels?locationId=70001&variantId=2001', { key });
  expect(level.body.data.levels[0].quantity).toEqual({ value: 11.5, unit: 'kg' });
  const order = await call(server, `/sandbox/orders/${orderId}`, { key });
  expect(order.body.order.line_items.map((l: any) => [l.variant_id, l.quantity, l.price])).toEqual([['2001', 1, 3000]]);
  const measured = await call(server, `/api/v1/orders/${orderId}`, { key });
  expect(measured.body.data.items.map((i: any) => i.measurement)).toEqual([
    { type: 'weight', value: 1.25, unit: 'kg' },
  ]);
  const ledger = await call(server, '/api/v1/inventory/ledger?locationId=70001&variantId=2001&limit=1', { key });
  expect(ledger.body.data.entries[0]).toMatchObject({
    operation: 'sale',
    delta: -1.25,
    quantityBefore: 12.75,
    quantityAfter: 11.5,
    unit: 'kg',
    reference: { type: 'order', id: orderId },
  });
}

/** Whether the page scrolls sideways (wider than the viewport). */
export const scrollsSideways = () => document.documentElement.scrollWidth > document.documentElement.clientWidth;
