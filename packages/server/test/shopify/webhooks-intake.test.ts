/**
 * POST /webhooks/shopify (PRODUCT.md §16): signed deliveries of a known store are stored in the
 * inbox once per webhook id; anything else is refused or ignored and stores nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { rememberInventoryItems } from '../../src/platform/shopify/inventory-items.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { startTestServer } from '../support/harness.js';
import { connectedShop, deliver, inboxRows, sign, testKeyring } from './webhook-support.js';

describe.each(testDrivers({ citus: true }))('Shopify webhook intake on $name', (driver) => {
  const { keyring, env } = testKeyring();
  let db: Db;
  let server: RunningServer;
  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db, env);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const order = (id: number | string) => JSON.stringify({ id, admin_graphql_api_id: `gid://shopify/Order/${id}` });

  it.each(['x-shopify', 'shopify'] as const)(
    'when a delivery is signed with the store’s client secret (%s-* headers), then it is stored and answered 200',
    async (family) => {
      const shop = await connectedShop(db, keyring);
      const webhookId = randomUUID();
      const answer = await deliver(server, {
        store: shop.store,
        topic: 'orders/create',
        body: order(5001),
        secret: shop.clientSecret,
        webhookId,
        family,
      });
      expect(answer).toMatchObject({ status: 200, body: { success: true, data: { outcome: 'stored' } } });
      expect(await inboxRows(db, shop.shopId)).toEqual([
        expect.objectContaining({ event_id: webhookId, topic: 'order_placed', payload: { orderId: '5001' } }),
      ]);
    },
  );

  it('when the signature is missing, wrong, another shop’s, or the store unknown, then 401 and nothing is stored', async () => {
    const shop = await connectedShop(db, keyring);
    const other = await connectedShop(db, keyring);
    const body = order(5002);
    const attempts = [
      { signature: null },
      { signature: '' },
      { signature: 'not base64 at all' },
      { signature: sign(body, shop.clientSecret).slice(0, 20) },
      { secret: other.clientSecret },
      { secret: shop.accessToken },
      { secret: shop.clientSecret, bodyOverride: order(5003) }, // signed another body
    ];
    for (const { bodyOverride, ...attempt } of attempts as Array<Record<string, any>>) {
      const signature = attempt.signature === undefined ? sign(body, attempt.secret) : attempt.signature;
      const answer = await deliver(server, {
        store: shop.store,
        topic: 'orders/create',
        body: bodyOverride ?? body,
        signature,
      });
      expect(answer.status, JSON.stringify(attempt)).toBe(401);
      expect(answer.body).toMatchObject({ success: false, error: { code: 'unauthorized' } });
    }
    const unknown = await deliver(server, {
      store: 'nobody-here.myshopify.com',
      topic: 'orders/create',
      body,
      secret: shop.clientSecret,
    });
    expect(unknown.status).toBe(401);
    expect(await inboxRows(db, shop.shopId)).toEqual([]);
  });

  it('when the same webhook id arrives twice, then it is stored once', async () => {
    const shop = await connectedShop(db, keyring);
    const delivery = {
      store: shop.store,
      topic: 'orders/cancelled',
      body: order(5004),
      secret: shop.clientSecret,
      webhookId: randomUUID(),
    };
    expect((await deliver(server, delivery)).body.data).toEqual({ outcome: 'stored' });
    expect((await deliver(server, delivery)).body.data).toEqual({ outcome: 'duplicate' });
    expect(await inboxRows(db, shop.shopId)).toHaveLength(1);
  });

  it('when a signed body is not JSON, then 400 and nothing is stored', async () => {
    const shop = await connectedShop(db, keyring);
    for (const body of ['{"id": 5005', '', 'id=5005']) {
      const answer = await deliver(server, {
        store: shop.store,
        topic: 'orders/create',
        body,
        secret: shop.clientSecret,
      });
      expect(answer.status, body).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 'bad_request', message: 'The webhook body is not JSON.' } });
    }
    const noId = await deliver(server, {
      store: shop.store,
      topic: 'refunds/create',
      body: '{"id": 1}',
      secret: shop.clientSecret,
    });
    expect(noId).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('order id') } } });
    expect(await inboxRows(db, shop.shopId)).toEqual([]);
  });

  it('when the topic is one Tare does not follow, then 200 and nothing is stored', async () => {
    const shop = await connectedShop(db, keyring);
    const answer = await deliver(server, {
      store: shop.store,
      topic: 'customers/create',
      body: '{"id": 1, "email": "a@b.example"}',
      secret: shop.clientSecret,
    });
    expect(answer).toMatchObject({ status: 200, body: { data: { outcome: 'ignored' } } });
    expect(await inboxRows(db, shop.shopId)).toEqual([]);
  });

  it('when each followed topic arrives, then it becomes its event, ids exact past 2^53 and no customer data kept', async () => {
    const shop = await connectedShop(db, keyring);
    await rememberInventoryItems(db, shop.shopId, [{ variantId: '2001', inventoryItemId: '42001' }]);
    const deliveries: [string, string][] = [
      ['orders/create', '{"id": 820982911946154508, "name": "#1001"}'],
      ['orders/edited', '{"order_edit": {"id": 1, "order_id": 5006, "line_items": {"additions": [], "removals": []}}}'],
      ['refunds/create', '{"id": 9, "order_id": 5007, "restock": true}'],
      ['inventory_levels/update', '{"inventory_item_id": 42001, "location_id": 70001, "available": 3}'],
      ['inventory_levels/update', '{"inventory_item_id": 49999, "location_id": 70001, "available": 3}'],
      [
        'products/update',
        '{"id": 1001, "variants": [{"id": 2001, "inventory_item_id": 42001}, {"id": 2002, "inventory_item_id": 42002}]}',
      ],
      [
        'customers/data_request',
        `{"shop_id": 1, "shop_domain": "${shop.store}", "customer": {"id": 7, "email": "jane@example.com"}}`,
      ],
      [
        'customers/redact',
        `{"shop_id": 1, "shop_domain": "${shop.store}", "customer": {"id": 7, "email": "jane@example.com", "phone": "555"}, "orders_to_redact": [9007199254740993, "gid://shopify/Order/5", "nope"]}`,
      ],
    ];
    for (const [topic, body] of deliveries) {
      expect((await deliver(server, { store: shop.store, topic, body, secret: shop.clientSecret })).status).toBe(200);
    }
    const rows = await inboxRows(db, shop.shopId);
    expect(rows.map(({ topic, payload }) => ({ topic, payload }))).toEqual([
      { topic: 'order_placed', payload: { orderId: '820982911946154508' } },
      { topic: 'order_edited', payload: { orderId: '5006' } },
      { topic: 'refund_created', payload: { orderId: '5007' } },
      { topic: 'stock_changed', payload: { locationId: '70001', variantId: '2001', available: 3 } },
      // 49999 is no variant of Tare's: not stored.
      {
        topic: 'products_updated',
        payload: {
          productId: '1001',
          inventoryItems: [
            { variantId: '2001', inventoryItemId: 'gid://shopify/InventoryItem/42001' },
            { variantId: '2002', inventoryItemId: 'gid://shopify/InventoryItem/42002' },
          ],
        },
      },
      { topic: 'customers_data_request', payload: {} },
      // Only the ids of the orders whose customer Tare forgets (what is not an id is left out).
      { topic: 'customers_redact', payload: { orderIds: ['9007199254740993', '5'] } },
    ]);
    expect(JSON.stringify(rows)).not.toContain('jane@example.com');
  });
});
