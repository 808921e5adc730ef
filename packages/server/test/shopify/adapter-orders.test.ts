/**
 * Shopify orders through the adapter, on the fake Shopify: read whole with line properties,
 * exact prices, location, refunds and edits; orders changed since a watermark, oldest first.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readShopifyOrder, shopifyOrdersChangedSince } from '../../src/platform/shopify/orders.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import type { FakeShopify } from '../support/fake-shopify/index.js';
import { GRAMS, KG, LOCATION, OTHER_LOCATION, shopOnFakeShopify, svcData } from './adapter-fixture.js';

describe.each(testDrivers())('Shopify orders through the adapter on %s', (driver) => {
  let db: Db;
  let fake: FakeShopify;
  let setup: Awaited<ReturnType<typeof shopOnFakeShopify>>;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    setup = await shopOnFakeShopify(db);
    fake = setup.fake;
    fake.setAvailable(LOCATION, KG, 50);
    fake.setAvailable(LOCATION, GRAMS, 50);
    fake.setAvailable(OTHER_LOCATION, KG, 50);
  });
  afterEach(async () => {
    await fake.close();
  });

  it('when an order is read, then its lines carry their properties, exact price, variant and product, at its location', async () => {
    const orderId = fake.placeOrder({
      locationId: OTHER_LOCATION,
      lines: [
        { variantId: KG, quantity: 2, price: '12.35', customAttributes: { _svc_data: svcData(0.617), Grind: 'fine' } },
        { variantId: GRAMS, quantity: 1 },
      ],
    });
    const order = await readShopifyOrder(setup.admin, orderId);
    expect(order).toMatchObject({ id: orderId, status: 'open', locationId: OTHER_LOCATION, refunds: [] });
    expect(order!.createdAt).toBeInstanceOf(Date);
    expect(order!.lineItems).toHaveLength(2);
    expect(order!.lineItems[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      productId: '1001',
      variantId: KG,
      quantity: 2,
      price: '12.35',
      fulfilled: false,
      properties: [
        { name: '_svc_data', value: svcData(0.617) },
        { name: 'Grind', value: 'fine' },
      ],
    });
    expect(order!.lineItems[1]).toMatchObject({ variantId: GRAMS, quantity: 1, properties: [] });
  });

  it('when an order is unknown, then it reads as undefined', async () => {
    expect(await readShopifyOrder(setup.admin, '999999999')).toBeUndefined();
  });

  it('when lines were refunded with each restock type, then refunds carry them and the lines keep the units sold', async () => {
    const orderId = fake.placeOrder({ locationId: LOCATION, lines: [{ variantId: KG, quantity: 5 }] });
    const [line] = (await readShopifyOrder(setup.admin, orderId))!.lineItems;
    fake.refund(orderId, { lines: [{ lineItemId: line!.id, quantity: 1, restockType: 'return' }] });
    fake.refund(orderId, { lines: [{ lineItemId: line!.id, quantity: 2, restockType: 'no_restock' }] });

    const order = (await readShopifyOrder(setup.admin, orderId))!;
    expect(order.lineItems[0]!.quantity).toBe(5);
    expect(order.refunds).toEqual([
      { id: expect.stringMatching(/^\d+$/), lines: [{ lineItemId: line!.id, quantity: 1, restockType: 'return' }] },
      { id: expect.stringMatching(/^\d+$/), lines: [{ lineItemId: line!.id, quantity: 2, restockType: 'no_restock' }] },
    ]);
  });

  it('when an order is cancelled with restock, then it reads cancelled with a cancel refund', async () => {
    const orderId = fake.placeOrder({ locationId: LOCATION, lines: [{ variantId: KG, quantity: 3 }] });
    fake.cancelOrder(orderId, { restock: true });
    const order = (await readShopifyOrder(setup.admin, orderId))!;
    expect(order.status).toBe('cancelled');
    expect(order.refunds.flatMap((r) => r.lines)).toEqual([
      { lineItemId: order.lineItems[0]!.id, quantity: 3, restockType: 'cancel' },
    ]);
    expect(order.lineItems[0]!.quantity).toBe(3);
  });

  it('when the merchant edited the order on Shopify, then the lines read as edited and a removed line is gone', async () => {
    const orderId = fake.placeOrder({
      locationId: LOCATION,
      lines: [
        { variantId: KG, quantity: 4 },
        { variantId: GRAMS, quantity: 2 },
      ],
    });
    const [kg, grams] = (await readShopifyOrder(setup.admin, orderId))!.lineItems;
    fake.editOrderOnShopify(orderId, {
      setQuantity: [
        { lineItemId: kg!.id, quantity: 1, restock: true },
        { lineItemId: grams!.id, quantity: 0, restock: true },
      ],
      addVariants: [{ variantId: GRAMS, quantity: 3 }],
    });
    const order = (await readShopifyOrder(setup.admin, orderId))!;
    expect(order.lineItems.map((l) => [l.variantId, l.quantity])).toEqual([
      [KG, 1],
      [GRAMS, 3],
    ]);
  });

  it('when orders change, then those changed since a watermark come back, least recently updated first', async () => {
    const first = fake.placeOrder({ locationId: LOCATION, lines: [{ variantId: KG, quantity: 1 }] });
    const second = fake.placeOrder({ locationId: LOCATION, lines: [{ variantId: KG, quantity: 1 }] });
    const all = await shopifyOrdersChangedSince(setup.admin, null);
    expect(all).toEqual([first, second]);

    await new Promise((resolve) => setTimeout(resolve, 1100)); // Shopify's search compares whole seconds
    const watermark = new Date();
    fake.cancelOrder(first, { restock: true });
    expect(await shopifyOrdersChangedSince(setup.admin, watermark)).toEqual([first]);
  });
});
