import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { maskSecret } from '../../src/cli/platform-show.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/main.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { moveLocalLevels } from '../../src/platform/local/levels-repository.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import { reconcile } from '../../src/services/events/reconcile.js';
import type { Db } from '../../src/store/db.js';
import { storeEvent } from '../../src/store/repositories/platform-events.js';
import { loadShopifyConnection } from '../../src/store/repositories/shopify-connections.js';
import { findShopById } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';
import { LOC, type ShopifyShop, startShopifyShop } from '../support/shopify-shop.js';
import { formFields, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

const FORM = 'form[action="/admin/settings"]';
const MEASURED_LINE = JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 1.25 }] } });

/** A shop with stock on the platform and an open order with a measured line. */
function stockedShop(quantity: number) {
  return shopFixture({
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: [
          {
            ...variantFixture('2001', 'kg', 1),
            inventory: [{ locationId: '70001', quantity: { value: quantity, unit: 'kg' } }],
          },
        ],
      },
    ],
    orders: [
      {
        id: '5001',
        status: 'open',
        locationId: '70001',
        lineItems: [
          {
            id: '9001',
            productId: '1001',
            variantId: '2001',
            quantity: 1,
            price: '30.00',
            properties: [{ name: '_svc_data', value: MEASURED_LINE }],
          },
        ],
      },
    ],
  });
}

describe.each(testDrivers())('admin settings page in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string; shopId: string; key: string };
  let otherShop: { domain: string; shopId: string; key: string };
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db, stockedShop(12.75));
    otherShop = await seedShop(db, stockedShop(5));
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

  const appSettings = async () => (await call(server, '/api/v1/app-settings', { key: shop.key })).body.data.settings;
  const storedShop = async () => (await findShopById(db, shop.shopId))!;

  test('when merge and the add-on are switched off, then the API answers with them off at once', async () => {
    expect(await page.locator('#shop-domain').textContent()).toBe(shop.domain);
    expect(await page.locator('#shop-currency').textContent()).toBe('USD');
    expect(await page.getByLabel('Merge matching line items').isChecked()).toBe(true);
    expect(await page.getByLabel('Adopt the platform’s figure').isChecked()).toBe(true);
    expect((await appSettings()).mergeMatchingLineItems).toBe(true); // cached by the server from here on

    await page.getByLabel('Merge matching line items').uncheck();
    await page.getByLabel('Order-editing add-on').uncheck();
    await page.getByLabel('Override it with Tare’s level').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Settings saved');
    expect(await page.getByLabel('Merge matching line items').isChecked()).toBe(false);
    expect(await page.getByLabel('Order-editing add-on').isChecked()).toBe(false);

    expect((await appSettings()).mergeMatchingLineItems).toBe(false);
    const edit = await call(server, '/api/v1/orders/5001', {
      key: shop.key,
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ edits: [{ lineItemId: '9001', quantity: 2 }] }),
    });
    expect([edit.status, edit.body.error.code]).toEqual([422, 'addon_inactive']);
    expect(await storedShop()).toMatchObject({
      mergeMatchingLineItems: false,
      addonActive: false,
      platformStockChanges: 'override',
      rateLimit: { enabled: true, requestsPerMinute: 600 },
    });

    await page.getByLabel('Merge matching line items').check();
    await page.getByLabel('Order-editing add-on').check();
    await page.getByLabel('Adopt the platform’s figure').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect((await appSettings()).mergeMatchingLineItems).toBe(true);
    expect(await storedShop()).toMatchObject({ addonActive: true, platformStockChanges: 'adopt' });
  });

  test('when requests per minute is 0 or not a number, then the field is named, the value kept and nothing saved', async () => {
    const before = await storedShop();
    await page.getByLabel('Merge matching line items').uncheck();
    for (const [typed, message] of [
      ['0', 'Requests per minute must be 1 or more'],
      ['abc', 'Requests per minute must be a whole number, like 3'],
    ]) {
      await page.getByLabel('Requests per minute').fill(typed!);
      await page.getByRole('button', { name: 'Save settings' }).click();
      expect(await page.locator('#requestsPerMinute-error').textContent()).toBe(message);
      expect(await page.getByRole('alert').textContent()).toContain('1 problem to fix, shown beside the field');
      expect(await page.getByLabel('Requests per minute').inputValue()).toBe(typed);
      expect(await page.getByLabel('Requests per minute').getAttribute('aria-invalid')).toBe('true');
      // What was typed is shown again, the other fields as they were sent.
      expect(await page.getByLabel('Merge matching line items').isChecked()).toBe(false);
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await storedShop()).toEqual(before);
  });

  test('when the rate limit is set to 2 a minute, then the third request of a key is refused with 429', async () => {
    // Within the default budget: a burst of requests passes.
    for (let i = 0; i < 3; i++)
      expect((await call(server, '/api/v1/app-settings', { key: shop.key })).status).toBe(200);
    await page.getByLabel('Requests per minute').fill('2');
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Settings saved');

    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call(server, '/api/v1/app-settings', { key: shop.key }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('2;w=60');
    expect(answers[2]!.body.error.code).toBe('rate_limited');
    expect(Number(answers[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another shop's key has its own budget.
    expect((await call(server, '/api/v1/app-settings', { key: otherShop.key })).status).toBe(200);

    // Switched off, the limit no longer applies (the bucket is still empty).
    await page.getByLabel('Rate limit', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect((await call(server, '/api/v1/app-settings', { key: shop.key })).status).toBe(200);
    expect(await storedShop()).toMatchObject({ rateLimit: { enabled: false, requestsPerMinute: 2 } });

    await page.getByLabel('Rate limit', { exact: true }).check();
    await page.getByLabel('Requests per minute').fill('600');
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect(await storedShop()).toMatchObject({ rateLimit: { enabled: true, requestsPerMinute: 600 } });
  });

  test('when the form is posted twice, then only the first applies, and a change made since stands', async () => {
    await page.getByLabel('Merge matching line items').uncheck();
    const fields = await formFields(page, FORM);
    expect(fields).not.toHaveProperty('mergeMatchingLineItems');
    const first = await page.request.post(`${server.url}/admin/settings`, { form: fields, maxRedirects: 0 });
    expect([first.status(), first.headers().location]).toEqual([303, '/admin/settings?done=saved']);
    expect((await storedShop()).mergeMatchingLineItems).toBe(false);

    // Changed meanwhile through the import (another tab, the CLI): the resent form must not undo it.
    await server.services.importCatalog({
      shops: [{ domain: shop.domain, currency: 'USD', settings: { mergeMatchingLineItems: true } }],
    });
    const second = await page.request.post(`${server.url}/admin/settings`, { form: fields, maxRedirects: 0 });
    expect([second.status(), second.headers().location]).toEqual([303, '/admin/settings?done=twice']);
    expect((await storedShop()).mergeMatchingLineItems).toBe(true);
    await page.goto(`${server.url}${second.headers().location}`);
    expect(await page.getByRole('status').textContent()).toContain('only the first was applied');
    expect(await page.getByLabel('Merge matching line items').isChecked()).toBe(true);
  });

  test('when a form comes without its CSRF token or without the form marker, then nothing changes', async () => {
    const before = await storedShop();
    const { _csrf: _, ...withoutToken } = await formFields(page, FORM);
    const refused = await page.request.post(`${server.url}/admin/settings`, { form: withoutToken, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    // Every box unchecked, but not sent by this form: not taken as "switch everything off".
    const { form: __, ...unmarked } = await formFields(page, FORM);
    const incomplete = await page.request.post(`${server.url}/admin/settings`, { form: unmarked, maxRedirects: 0 });
    expect(incomplete.status()).toBe(400);
    expect(await storedShop()).toEqual(before);
  });

  test("when an order's event failed and an order line was not booked, then the page names the order, the error and the reason, and nothing of another shop", async () => {
    expect(await page.locator('#failing-events').count()).toBe(0);
    const placed = { topic: 'order_placed' as const, payload: { orderId: '5001' } };
    await storeEvent(db, { shopId: shop.shopId, eventId: 'stuck-1', ...placed });
    await storeEvent(db, { shopId: otherShop.shopId, eventId: 'their-stuck', ...placed });
    await db.query(
      `UPDATE platform_events SET status = 'parked', attempts = 10, last_error = 'level out of range'
       WHERE event_id IN ('stuck-1', 'their-stuck')`,
    );
    const skipped = (orderId: string) =>
      JSON.stringify([
        { lineItemId: '9001', variantId: '2001', reason: 'unbookable_measurement', detail: `line of ${orderId}` },
      ]);
    await db.query(
      `INSERT INTO tracked_orders (shop_id, order_id, skipped) VALUES ($1, '5077', $2), ($3, '5088', $4)`,
      [shop.shopId, skipped('5077'), otherShop.shopId, skipped('5088')],
    );

    await page.reload();
    const failing = page.locator('#failing-events tbody tr');
    expect(await failing.count()).toBe(1);
    expect(await failing.textContent()).toMatch(/stuck-1.*Order 5001.*Parked.*10.*level out of range/s);
    expect(await failing.locator('a').getAttribute('href')).toBe('/admin/orders/5001');
    const lines = page.locator('#skipped-lines tbody tr');
    expect(await lines.count()).toBe(1);
    expect(await lines.textContent()).toMatch(/Order 5077.*9001.*cannot be booked exactly \(line of 5077\)/s);
    expect(await page.content()).not.toContain('their-stuck');
    expect(await page.content()).not.toContain('5088');
    await db.query(`DELETE FROM platform_events WHERE event_id IN ('stuck-1', 'their-stuck')`);
    await db.query(`DELETE FROM tracked_orders WHERE order_id IN ('5077', '5088')`);
  });

  test("when events wait and the last reconciliation found drift, then the health section shows this shop's and never another's", async () => {
    expect(await page.locator('#inbox-pending').textContent()).toBe('0');
    expect(await page.locator('#reconciliation-result').textContent()).toContain('never');
    const inAnHour = new Date(Date.now() + 3_600_000);
    const stockChange = { topic: 'stock_changed' as const, payload: { locationId: '70001', variantId: '2001' } };
    await storeEvent(db, { shopId: shop.shopId, eventId: 'mine-1', ...stockChange, notBefore: inAnHour });
    for (const eventId of ['theirs-1', 'theirs-2', 'theirs-3']) {
      await storeEvent(db, { shopId: otherShop.shopId, eventId, ...stockChange, notBefore: inAnHour });
    }
    await db.query("UPDATE platform_events SET status = 'parked' WHERE shop_id = $1 AND event_id = 'theirs-3'", [
      otherShop.shopId,
    ]);
    // Someone typed other figures on the platform: 12 → 9 here, 5 → 45 in the other shop.
    await moveLocalLevels(db, shop.shopId, [{ locationId: '70001', variantId: '2001', by: -3 }]);
    await moveLocalLevels(db, otherShop.shopId, [{ locationId: '70001', variantId: '2001', by: 40 }]);
    const gateway = createLocalGateway();
    await reconcile({ db, gateway }, { shopDomain: shop.domain, fix: false });
    await reconcile({ db, gateway }, { shopDomain: otherShop.domain, fix: false });

    await page.reload();
    expect(await page.locator('#platform-kind').textContent()).toContain('Local sandbox');
    expect(await page.locator('#inbox-pending').textContent()).toBe('1');
    expect(await page.locator('#inbox-oldest').textContent()).toMatch(/^oldest \d+ s ago$/);
    expect(await page.locator('#inbox-parked').textContent()).toBe('0');
    expect(await page.locator('#outbox-pending').textContent()).toBe('0');
    expect(await page.locator('#reconciliation-result').textContent()).toContain(
      '1 level(s) compared, 1 differed (reported only)',
    );
    const rows = page.locator('#drift tbody tr');
    expect(await rows.count()).toBe(1);
    expect((await rows.nth(0).getByRole('cell').allTextContents()).slice(0, 5)).toEqual([
      '2001',
      '70001',
      '9',
      '12',
      '-3',
    ]);
    // The other shop's drift (5 → 45) is in no cell (the "since" column holds a time, so cells, not text).
    expect(await page.locator('#drift td').allTextContents()).not.toContain('45');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-settings`);
  });
});

describe.each(testDrivers())('admin settings page of a Shopify shop in Chromium on $name', (driver) => {
  let db: Db;
  let shop: ShopifyShop;
  let browser: TestBrowser;

  beforeAll(async () => {
    db = await driver.create();
    shop = await startShopifyShop(db, { stock: { kg: 20.5 } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    shop?.server.app.server.closeAllConnections();
    await shop?.close();
    await db?.close();
  });

  test('when Shopify refuses the token, then the page shows the sync stopped, the token masked and the push waiting, and nothing of another shop', async () => {
    const other = await shop.addShop({ stock: { kg: 5.5 } });
    shop.fake.revokeToken();
    const adjust = await call(shop.server, '/api/v1/inventory/adjustments', {
      key: shop.apiKey,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({
        locationId: LOC,
        adjustments: [{ variantId: '2001', delta: { value: -2.6, unit: 'kg' } }],
      }),
    });
    expect(adjust.status, adjust.text).toBe(200);
    await shop.server.services.projection.drainNow();
    // The stop is recorded beside the refused push.
    await expect
      .poll(async () => (await loadShopifyConnection(db, shop.shopId, shop.keyring))?.status)
      .toBe('unauthorized');

    const staff = await staffWithPassword(db, shop.domain);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, shop.server, staff.email, staff.password);
    await page.goto(`${shop.server.url}/admin/settings`);
    const facts = page.locator('#platform-facts');
    expect(await page.locator('#platform-kind').textContent()).toBe('Shopify');
    expect(await facts.textContent()).toContain(shop.fake.store);
    expect(await page.locator('#connection-status').textContent()).toBe('stopped (token refused)');
    expect(await page.locator('#access-token').textContent()).toBe(maskSecret(shop.fake.accessToken));
    expect(await page.locator('#outbox-pending').textContent()).toBe('1');
    expect(await page.locator('#outbox-oldest').textContent()).toMatch(/^oldest \d+ s ago$/);
    const html = await page.content();
    for (const secret of [shop.fake.accessToken, shop.fake.clientSecret, other.fake.store]) {
      expect(html).not.toContain(secret);
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-settings-shopify`);
    await context.close();
  });

  test('when the server does not hold the key that sealed the credentials, then the page still opens, says so and shows the backlog', async () => {
    const key = SecretKey.generate();
    const other = await startServer({
      config: loadConfig({ PORT: '0', TARE_RECONCILE_MINUTES: '0', TARE_SECRETS_KEY: key.exportBase64() }),
      logger: createLogger('silent'),
      db,
      keyring: createKeyring({ current: key }),
    });
    const context = await browser.newContext();
    try {
      const staff = await staffWithPassword(db, shop.domain);
      const page = await context.newPage();
      await signIn(page, other, staff.email, staff.password);
      const response = await page.goto(`${other.url}/admin/settings`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('#platform-kind').textContent()).toBe('Shopify');
      expect(await page.locator('[role="alert"]').textContent()).toMatch(/key/i);
      expect(await page.locator('#connection-status').count()).toBe(0);
      expect(await page.locator('#outbox-pending').textContent()).toMatch(/^\d+$/);
      expect(await page.content()).not.toContain(shop.fake.accessToken);
    } finally {
      await context.close();
      other.app.server.closeAllConnections();
      await other.close();
    }
  });
});
