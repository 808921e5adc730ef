import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { upsertLineItem, upsertOrder } from '../../src/platform/local/orders-repository.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import type { Db } from '../../src/store/db.js';
import { loadShopifyConnection } from '../../src/store/repositories/shopify-connections.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';
import { LOC, type ShopifyShop, startShopifyShop, svcData } from '../support/shopify-shop.js';
import { buy } from '../sandbox/support.js';
import { formFields, signIn, staffWithPassword } from './support/admin-site.js';
import { launchBrowser, screenshot, seriousAccessibilityViolations, type TestBrowser } from './support/browser.js';

type Order = NonNullable<ImportShop['orders']>[number];

const HOSTILE_TITLE = '<img src=x onerror=alert(1)> Beans';

const svc = (value: number, unit: string) =>
  JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit, value }] } });

/** An order of the shop's platform: a measured line of 2001 (2 × 1.25 kg) and one of 2002 (250 g). */
const order = (id: string, status: Order['status'] = 'open'): Order => ({
  id,
  status,
  locationId: '70001',
  lineItems: [
    {
      id: `${id}1`,
      productId: '1001',
      variantId: '2001',
      quantity: 2,
      price: '30.00',
      properties: [{ name: '_svc_data', value: svc(1.25, 'kg') }],
    },
    {
      id: `${id}2`,
      productId: '1001',
      variantId: '2002',
      quantity: 1,
      price: '60.00',
      properties: [{ name: '_svc_data', value: svc(250, 'g') }],
    },
    { id: `${id}3`, productId: '1001', variantId: '2001', quantity: 1, price: '24.00' },
  ],
});

describe.each(testDrivers())('admin orders pages in Chromium on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let browser: TestBrowser;
  let shop: { domain: string; shopId: string; key: string };
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    // Orders of the import are the platform's orders, booked as already taken off its stock.
    shop = await seedShop(
      db,
      shopFixture({
        products: [
          {
            id: '1001',
            title: HOSTILE_TITLE,
            measurementType: 'weight',
            variants: [
              {
                ...variantFixture('2001', 'kg', 1),
                inventory: [{ locationId: '70001', quantity: { value: 10.25, unit: 'kg' } }],
              },
              {
                ...variantFixture('2002', 'g', 100),
                inventory: [{ locationId: '70001', quantity: { value: 5000, unit: 'g' } }],
              },
            ],
          },
        ],
        orders: [order('5001'), order('5002', 'closed'), order('5003'), order('5004')],
      }),
    );
    // Another shop with an order of its own, which this shop's staff must not reach.
    await seedShop(db, shopFixture({ orders: [order('6001')] }));
    // An order the platform holds that Tare has not booked yet (its event not processed).
    await upsertOrder(db, shop.shopId, { id: '5005', status: 'open', locationId: '70001' });
    await upsertLineItem(db, shop.shopId, {
      ...order('5005').lineItems[0]!,
      orderId: '5005',
      position: 0,
      fulfilled: false,
      properties: order('5005').lineItems[0]!.properties!,
    });
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
    // A title that ran as markup would open a dialog.
    page.on('dialog', (dialog) => {
      throw new Error(`a dialog opened: ${dialog.message()}`);
    });
    await signIn(page, server, staff.email, staff.password);
  });
  afterEach(async () => {
    await context?.close();
  });

  const apiOrder = async (orderId: string) => (await call(server, `/api/v1/orders/${orderId}`, { key: shop.key })).body;
  const editsOf = async (orderId: string) =>
    (await db.query('SELECT api_key_id FROM order_edits WHERE shop_id = $1 AND order_id = $2', [shop.shopId, orderId]))
      .rows;
  const ledgerOf = async (variantId: string) =>
    (
      await db.query<{ operation: string; delta: string; reference_id: string | null }>(
        `SELECT operation, delta::text AS delta, reference_id FROM inventory_ledger
         WHERE shop_id = $1 AND variant_id = $2 ORDER BY id`,
        [shop.shopId, variantId],
      )
    ).rows;

  test('when the orders page is opened, then it lists the booked orders and opens one with its measured lines', async () => {
    await page.getByRole('link', { name: 'Orders' }).click();
    // Each order by its name on the platform (the sandbox numbers a shop's orders from #1001).
    const links = page.locator('#orders tbody tr td:first-child a');
    const listed = await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(listed).toEqual(
      expect.arrayContaining([
        ['#1001', '/admin/orders/5001'],
        ['#1002', '/admin/orders/5002'],
        ['#1003', '/admin/orders/5003'],
        ['#1004', '/admin/orders/5004'],
      ]),
    );
    const hrefs = listed.map(([, href]) => href);
    expect(hrefs).not.toContain('/admin/orders/5005');
    expect(hrefs).not.toContain('/admin/orders/6001');
    const row = await page.locator('#orders tbody tr', { hasText: '#1001' }).getByRole('cell').allTextContents();
    // Imported orders name no customer.
    expect([row[1], row[2], row[4], row[5]]).toEqual(['No customer', 'booked', '2', '—']);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-orders`);

    await page.getByRole('link', { name: '#1001', exact: true }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Order #1001');
    expect(await page.locator('#order-id').textContent()).toBe('5001');
    expect(await page.locator('#order-customer').textContent()).toBe('No customer');
    const lines = page.locator('#lines tbody tr');
    expect(await lines.count()).toBe(2);
    expect(await lines.nth(0).getByRole('cell').allTextContents()).toEqual([
      '50011',
      HOSTILE_TITLE,
      'Variant 2001 (2001)',
      '2',
      '1.25 kg',
      '$24.00 per kg',
      '$60.00',
    ]);
    expect(await lines.nth(1).getByRole('cell').allTextContents()).toEqual([
      '50012',
      HOSTILE_TITLE,
      'Variant 2002 (2002)',
      '1',
      '250 g',
      '$24.00 per 100 g',
      '$60.00',
    ]);
    // 2 × $30.00 and 1 × $60.00 measured, and a line of 1 × $24.00 the platform keeps.
    expect(await page.locator('#measured-total').textContent()).toBe('$120.00');
    expect(await page.locator('#order-total').textContent()).toBe('$144.00');
    expect(await page.locator('#order-summary dt').nth(3).textContent()).toBe('Order total (3 lines)');
    expect(await page.locator('#lines tfoot').textContent()).toMatch(/Measured lines\s*\$120\.00/);
    // The hostile title is text everywhere on the page, never an element.
    expect(await page.locator('main img').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-order`);
  });

  test('when a measured line is edited, then the API reads the new line, the history and the ledger show the edit', async () => {
    await page.goto(`${server.url}/admin/orders/5001`);
    await page.getByLabel('Measurement of line 50011').fill('1.5');
    await page.getByLabel('Staff note (optional)').fill('Cut heavier, as asked');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/orders/5001');
    expect(await page.getByRole('status').textContent()).toContain('Order edited.');
    expect(await page.locator('#line-50011 td').nth(4).textContent()).toBe('1.5 kg');

    const read = await apiOrder('5001');
    expect(read.items.find((item: { lineItemId: string }) => item.lineItemId === '50011')).toMatchObject({
      quantity: 2,
      measurement: { type: 'weight', value: 1.5, unit: 'kg' },
    });
    const history = await page.locator('#history tbody tr').first().getByRole('cell').allTextContents();
    expect(history.slice(1)).toEqual([staff.email, 'Line 50011: measurement 1.5 kg', 'no', 'Cut heavier, as asked']);
    expect(await editsOf('5001')).toEqual([{ api_key_id: null }]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-order-edited`);
    // 2 × (1.5 − 1.25) kg more taken off 2001, booked as the order's edit.
    expect((await ledgerOf('2001')).filter((entry) => entry.reference_id === '5001')).toEqual([
      { operation: 'order_edit', delta: '-0.5', reference_id: '5001' },
    ]);
    await page.goto(`${server.url}/admin/inventory/70001/2001`);
    const ledger = await page
      .locator('#ledger tbody tr', { hasText: 'Order 5001' })
      .getByRole('cell')
      .allTextContents();
    expect(ledger.slice(1)).toEqual(['Order edit', '-0.5 kg', '10.25 kg', '9.75 kg', 'Order 5001', staff.email]);
  });

  test('when a value is not a valid measurement, then the field is named in the API’s words and nothing changes', async () => {
    const before = await apiOrder('5003');
    await page.goto(`${server.url}/admin/orders/5003`);
    await page.getByLabel('Measurement of line 50031').fill('a lot');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.locator('#value-50031-error').textContent()).toBe(
      'Measurement must be a number, like 4.20 (use a dot for decimals)',
    );
    expect(await page.getByLabel('Measurement of line 50031').inputValue()).toBe('a lot');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByLabel('Measurement of line 50031').fill('0');
    await page.getByLabel('Quantity of line 50032').fill('-1');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.locator('#value-50031-error').textContent()).toBe('Measurement must be more than 0');
    expect(await page.locator('#quantity-50032-error').textContent()).toBe('Quantity must be 0 or more');
    expect(await page.locator('#form-errors').textContent()).toContain(
      'Nothing was saved: 2 problems to fix, shown beside the fields.',
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-order-errors`);

    // A unit of another type is refused by the service itself, beside the unit.
    const fields = await formFields(page, 'form[action$="/edit"]');
    const answer = await page.request.post(`${server.url}/admin/orders/5003/edit`, {
      form: { ...fields, 'value-50031': '1', 'quantity-50032': '1', 'unit-50031': 'm' },
    });
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain('Unit &#39;m&#39; is not a weight unit');
    expect(await apiOrder('5003')).toEqual({ ...before, requestId: expect.any(String) });
    expect(await editsOf('5003')).toEqual([]);
  });

  test('when the edit form is posted twice (a double click), then the order is edited once', async () => {
    await page.goto(`${server.url}/admin/orders/5004`);
    await page.getByLabel('Quantity of line 50041').fill('3');
    const fields = await formFields(page, 'form[action$="/edit"]');
    const action = `${server.url}/admin/orders/5004/edit`;
    const first = await page.request.post(action, { form: fields, maxRedirects: 0 });
    const second = await page.request.post(action, { form: fields, maxRedirects: 0 });
    expect([first.status(), second.status()]).toEqual([303, 303]);
    expect(await editsOf('5004')).toHaveLength(1);
    expect((await ledgerOf('2001')).filter((entry) => entry.reference_id === '5004')).toEqual([
      { operation: 'order_edit', delta: '-1.25', reference_id: '5004' },
    ]);
    expect((await apiOrder('5004')).items[0].quantity).toBe(3);
  });

  test('when the order is closed, then the refusal is said at the top and nothing changes', async () => {
    await page.goto(`${server.url}/admin/orders/5002`);
    await page.getByLabel('Remove line 50022').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.locator('#form-errors').textContent()).toContain('Order 5002 is closed and cannot be edited.');
    expect(await page.locator('#lines tbody tr').count()).toBe(2);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await editsOf('5002')).toEqual([]);
  });

  test('when an order is looked up by id, then a bad id is named and one Tare has not booked still opens', async () => {
    await page.goto(`${server.url}/admin/orders`);
    await page.getByLabel('Order id').fill('five');
    await page.getByRole('button', { name: 'Open order' }).click();
    expect(await page.locator('#orderId-error').textContent()).toBe(
      'Order id must be a number of 1 to 20 digits, like 5001',
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByLabel('Order id').fill('5005');
    await page.getByRole('button', { name: 'Open order' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin/orders/5005');
    expect(await page.locator('#lines tbody tr').count()).toBe(1);
    expect(await page.locator('#bookings-heading + p').textContent()).toContain('Tare has booked no stock');
  });

  test('when the shop has more than a page of orders, then the older ones are on the next page, none twice', async () => {
    // Imported in one transaction, so every order is first seen at the same instant: the id breaks the tie.
    const ids = Array.from({ length: 53 }, (_, i) => String(7001 + i));
    const busy = await seedShop(db, shopFixture({ orders: ids.map((id) => order(id)) }));
    const staff = await staffWithPassword(db, busy.domain);
    await context.clearCookies();
    await signIn(page, server, staff.email, staff.password);
    await page.goto(`${server.url}/admin/orders`);
    const first = await page.locator('#orders tbody tr td:first-child').allTextContents();
    await page.getByRole('link', { name: 'Older orders →' }).click();
    const second = await page.locator('#orders tbody tr td:first-child').allTextContents();
    expect(await page.getByRole('link', { name: 'Older orders →' }).count()).toBe(0);
    expect(first).toHaveLength(50);
    // Imported in id order, 7001 is the shop's #1001.
    expect([...first, ...second]).toEqual(ids.reverse().map((id) => `#${Number(id) - 6000}`));
    await page.getByRole('link', { name: '← Newest orders' }).click();
    expect(await page.locator('#orders tbody tr td:first-child').first().textContent()).toBe('#1053');

    const forged = await page.request.get(`${server.url}/admin/orders?after=not-a-cursor`);
    expect(forged.status()).toBe(400);
    expect(await forged.text()).toContain('After is not a cursor this page issued.');
  });

  test('when sandbox customers check out, then the list and the order page show each order’s name and customer, a guest as No customer', async () => {
    const hostile = '<script>alert(1)</script> Ada';
    const measured = [{ id: 2001, quantity: 1, properties: { _svc_data: svc(1.25, 'kg') } }];
    const named = await buy(server, shop.key, measured, { customer: { name: hostile, email: 'ada@example.com' } });
    const guest = await buy(server, shop.key, measured);
    await server.services.inbox.drainNow();
    // The shop's imported orders are #1001 to #1005 (the measured stock they take is no other test's).
    expect([named.name, guest.name]).toEqual(['#1006', '#1007']);

    await page.goto(`${server.url}/admin/orders`);
    const cells = (name: string) =>
      page.locator('#orders tbody tr', { hasText: name }).getByRole('cell').allTextContents();
    expect((await cells('#1006')).slice(0, 2)).toEqual(['#1006', `${hostile} <ada@example.com>`]);
    expect((await cells('#1007')).slice(0, 2)).toEqual(['#1007', 'No customer']);
    // The name is text, never markup (a script that ran would have opened a dialog).
    expect(await page.locator('main script').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${driver.name}-orders-customers`);

    await page.getByRole('link', { name: '#1006', exact: true }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Order #1006');
    expect(await page.locator('#order-customer').textContent()).toBe(`${hostile} <ada@example.com>`);
    expect(await page.locator('#order-id').textContent()).toBe(named.id);
    expect(await page.locator('main script').count()).toBe(0);
    await page.goto(`${server.url}/admin/orders/${guest.id}`);
    expect(await page.locator('#order-customer').textContent()).toBe('No customer');
  });

  test("when another shop's order is opened or edited, or a form comes without its CSRF token, then it is refused", async () => {
    await page.goto(`${server.url}/admin/orders/5001`);
    const fields = await formFields(page, 'form[action$="/edit"]');
    const missing = await page.request.get(`${server.url}/admin/orders/6001`);
    expect(missing.status()).toBe(404);
    expect(await missing.text()).toContain('There is no such page in this shop’s admin.');
    const other = await page.request.post(`${server.url}/admin/orders/6001/edit`, {
      form: { ...fields, lineIds: '60011', 'was-quantity-60011': '2', 'quantity-60011': '5' },
    });
    // No page of this shop renders a form for that order: one from another order is refused.
    expect(other.status()).toBe(400);

    const { _csrf: _, ...withoutToken } = fields;
    const forged = await page.request.post(`${server.url}/admin/orders/5001/edit`, {
      form: { ...withoutToken, 'quantity-50012': '7' },
    });
    expect(forged.status()).toBe(403);
    expect((await apiOrder('5001')).items[1].quantity).toBe(1);

    await page.goto(`${server.url}/admin/orders/6001`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

describe.each(testDrivers())('admin orders of a Shopify shop in Chromium on $name', (driver) => {
  let db: Db;
  let shop: ShopifyShop;
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await driver.create();
    shop = await startShopifyShop(db, { stock: { kg: 20.5 } });
    browser = await launchBrowser();
    const staff = await staffWithPassword(db, shop.domain);
    context = await browser.newContext();
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      throw new Error(`a dialog opened: ${dialog.message()}`);
    });
    await signIn(page, shop.server, staff.email, staff.password);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    shop?.server.app.server.closeAllConnections();
    await shop?.close();
    await db?.close();
  });

  const measured = [{ variantId: '2001', quantity: 1, customAttributes: svcData(1.25, 'kg') }];
  const cells = async (name: string) =>
    (await page.locator('#orders tbody tr', { hasText: name }).getByRole('cell').allTextContents()).slice(0, 2);

  test('when Shopify sends orders/create with a name and a customer, then the list and the order page show them; a guest and a redacted customer show No customer', async () => {
    const hopper = shop.fake.placeOrder({
      locationId: LOC,
      lines: measured,
      customer: { firstName: 'Grace', lastName: '<b>Hopper</b>', email: 'grace@example.com' },
    });
    const guest = shop.fake.placeOrder({ locationId: LOC, lines: measured });
    await shop.settle();

    await page.goto(`${shop.server.url}/admin/orders`);
    // Shopify's own names: Order.name and Customer.displayName (its first and last name).
    expect(await cells('#1001')).toEqual(['#1001', 'Grace <b>Hopper</b> <grace@example.com>']);
    expect(await cells('#1002')).toEqual(['#1002', 'No customer']);
    expect(await page.locator('main b').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByRole('link', { name: '#1001', exact: true }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Order #1001');
    expect(await page.locator('#order-id').textContent()).toBe(hopper);
    expect(await page.locator('#order-customer').textContent()).toBe('Grace <b>Hopper</b> <grace@example.com>');
    await page.goto(`${shop.server.url}/admin/orders/${guest}`);
    expect(await page.locator('#order-customer').textContent()).toBe('No customer');

    // customers/redact names the orders whose customer Tare must forget.
    shop.fake.customersRedact({ id: '1', email: 'grace@example.com', orderIds: [hopper] });
    await shop.settle();
    await page.goto(`${shop.server.url}/admin/orders`);
    expect(await cells('#1001')).toEqual(['#1001', 'No customer']);
    const { rows } = await db.query('SELECT customer_name, customer_email FROM tracked_orders WHERE shop_id = $1', [
      shop.shopId,
    ]);
    expect(rows).toEqual([
      { customer_name: null, customer_email: null },
      { customer_name: null, customer_email: null },
    ]);
  });

  test('when Shopify withholds customers from the app (no protected customer data), then the order is booked and named, its customer is No customer, and the sync goes on', async () => {
    shop.fake.state.protectedCustomerData = false;
    try {
      const withheld = shop.fake.placeOrder({
        locationId: LOC,
        lines: measured,
        email: 'kept@example.com',
        customer: { firstName: 'Kept', lastName: 'Private' },
      });
      await shop.settle();
      await page.goto(`${shop.server.url}/admin/orders`);
      expect(await cells('#1003')).toEqual(['#1003', 'No customer']);
      await page.goto(`${shop.server.url}/admin/orders/${withheld}`);
      expect(await page.locator('#order-customer').textContent()).toBe('No customer');
      expect(await page.locator('#lines tbody tr').count()).toBe(1);
      expect((await loadShopifyConnection(db, shop.shopId, shop.keyring))?.status).toBe('active');
    } finally {
      shop.fake.state.protectedCustomerData = true;
    }
  });
});
