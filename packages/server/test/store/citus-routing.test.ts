import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { fannedOutDuring } from '../support/citus-plan.js';
import { testDrivers } from '../support/databases.js';
import { recording, type Sent } from '../support/recording-db.js';
import { call, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { itemWithSiblings } from '../support/sibling-item.js';
import { createPlatformSimulator } from '../support/platform-simulator.js';
import { buy, send, svcData } from '../sandbox/support.js';

// Every statement of a request touches the shop's one shard on Citus (docs/operations.md,
// "Running on Citus"): what Citus's EXPLAIN says of each statement the server sent while it
// answered the key requests. This is Citus's planner, not PostgreSQL's.

const citus = testDrivers({ citus: true }).filter((driver) => driver.name === 'citus');

describe.skipIf(citus.length === 0)('Statements routed to one shard on Citus', () => {
  let db: Db;
  let server: RunningServer;
  let key: string;
  let shopId: string;
  const sent: Sent[] = [];

  beforeAll(async () => {
    db = await citus[0]!.create();
    // Two other shops first, so the shop under test is not alone on the cluster.
    await seedShop(db);
    await seedShop(db);
    // Beside its own variants, a stock item of 40 kg sold through three (PRODUCT.md §20).
    const fixture = shopFixture();
    const { stockItem, product } = itemWithSiblings({
      itemId: '6001',
      productId: '1601',
      variantIds: ['2601', '2602', '2603'],
      locationId: '70001',
      kg: 40,
    });
    ({ key, shopId } = await seedShop(db, {
      ...fixture,
      // A second location where the item has no level yet.
      locations: [...(fixture.locations ?? []), { id: '70002', name: 'Back room' }],
      stockItems: [stockItem],
      products: [...(fixture.products ?? []), product],
    }));
    server = await startTestServer(recording(db, sent));
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  /** The statements a request sent that Citus plans on more than one shard. */
  async function fannedOut(request: () => Promise<{ status: number }>, status: number): Promise<string[]> {
    return fannedOutBy(async () => expect((await request()).status).toBe(status));
  }

  /** The statements `work` sent that Citus plans on more than one shard. */
  const fannedOutBy = (work: () => Promise<unknown>) => fannedOutDuring(db, sent, work);

  const adjust = (variantId: string, idempotencyKey: string, kg = 1.5, locationId = '70001') =>
    call(server, '/api/v1/inventory/adjustments', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify({ locationId, adjustments: [{ variantId, delta: { value: kg, unit: 'kg' } }] }),
    });

  it('when a single-entry adjustment creates a level, then every statement touches one shard', async () => {
    expect(await fannedOut(() => adjust('2001', 'routing-1'), 200)).toEqual([]);
  });

  it('when a single-entry adjustment moves an existing level, then every statement touches one shard', async () => {
    expect(await fannedOut(() => adjust('2001', 'routing-2'), 200)).toEqual([]);
  });

  it('when one adjustment moves several levels, then every statement touches one shard', async () => {
    const several = await fannedOut(
      () =>
        call(server, '/api/v1/inventory/adjustments', {
          method: 'POST',
          key,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'routing-several' },
          body: JSON.stringify({
            locationId: '70001',
            adjustments: [
              { variantId: '2003', delta: { value: 2, unit: 'lb' } },
              { variantId: '2001', delta: { value: -0.25, unit: 'kg' } },
              { variantId: '2002', delta: { value: 150, unit: 'g' } },
            ],
          }),
        }),
      200,
    );
    expect(several).toEqual([]);
    // Its ledger rows, ids rising in the request's order.
    const { rows } = await db.query<{ variant_id: string }>(
      `SELECT variant_id FROM inventory_ledger WHERE shop_id = $1 AND idempotency_key = 'routing-several' ORDER BY id`,
      [shopId],
    );
    expect(rows.map((r) => r.variant_id)).toEqual(['2003', '2001', '2002']);
  });

  it('when an adjustment sells from a stock item, then the item, its variants and the ledger are written on one shard', async () => {
    // 1.5 kg off the item: the variant sold per 1 kg and its siblings per 50 and 100 g all move.
    expect(await fannedOut(() => adjust('2601', 'routing-item', -1.5), 200)).toEqual([]);
    const { rows } = await db.query<{ total: string }>(
      `SELECT total FROM stock_item_levels WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = '6001'`,
      [shopId],
    );
    expect(rows).toEqual([{ total: '38.5' }]);
    const copies = await db.query<{ variant_id: string; total: string }>(
      `SELECT variant_id, total FROM inventory_levels
        WHERE shop_id = $1 AND location_id = '70001' AND variant_id LIKE '260_' ORDER BY variant_id`,
      [shopId],
    );
    expect(copies.rows.map((r) => [r.variant_id, Number(r.total)])).toEqual([
      ['2601', 38.5],
      ['2602', 38.5],
      ['2603', 38.5],
    ]);
    const ledger = await db.query(
      `SELECT variant_id, stock_item_id, delta FROM inventory_ledger WHERE shop_id = $1 AND idempotency_key = 'routing-item'`,
      [shopId],
    );
    expect(ledger.rows).toEqual([{ variant_id: '2601', stock_item_id: '6001', delta: '-1.5' }]);
  });

  it("when an adjustment sells from a stock item at a location without the item's level, then creating it touches one shard", async () => {
    expect(await fannedOut(() => adjust('2601', 'routing-item-new-level', 2, '70002'), 200)).toEqual([]);
    const { rows } = await db.query<{ total: string }>(
      `SELECT total FROM stock_item_levels WHERE shop_id = $1 AND location_id = '70002' AND stock_item_id = '6001'`,
      [shopId],
    );
    expect(rows).toEqual([{ total: '2' }]);
  });

  it('when an adjustment is retried with its key, then the replay touches one shard', async () => {
    expect(await fannedOut(() => adjust('2001', 'routing-2'), 200)).toEqual([]);
  });

  it('when the product and the level are read, then every statement touches one shard', async () => {
    expect(await fannedOut(() => call(server, '/api/v1/products/1001', { key }), 200)).toEqual([]);
    expect(
      await fannedOut(() => call(server, '/api/v1/inventory/levels?locationId=70001&variantId=2001', { key }), 200),
    ).toEqual([]);
  });

  it('when the levels are set (PUT), then every statement touches one shard', async () => {
    const put = (idempotencyKey: string) =>
      call(server, '/api/v1/inventory/levels', {
        method: 'PUT',
        key,
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify({
          locationId: '70001',
          levels: [
            { variantId: '2001', quantity: { value: 4.25, unit: 'kg' } },
            { variantId: '2002', quantity: { value: 300, unit: 'g' } },
          ],
        }),
      });
    expect(await fannedOut(() => put('routing-put-1'), 200)).toEqual([]);
    expect(await fannedOut(() => put('routing-put-2'), 200)).toEqual([]);
  });

  it('when the ledger is read, then every statement touches one shard', async () => {
    expect(
      await fannedOut(() => call(server, '/api/v1/inventory/ledger?locationId=70001&variantId=2001', { key }), 200),
    ).toEqual([]);
  });

  it('when the inbox books a notified order, then every statement touches one shard and an idle poll sends none', async () => {
    const platform = createPlatformSimulator(db, shopId);
    const inbox = server.services.inbox;
    const statements = await fannedOutBy(async () => {
      await platform.deliver(
        await platform.placeOrder({
          id: '5101',
          locationId: '70001',
          lines: [{ id: '9101', variantId: '2001', quantity: 1, measure: { value: 0.5, unit: 'kg' } }],
        }),
      );
      // As the order's notification wakes the server's inbox: the shop named, no cross-shop
      // search; resolves once the shop has nothing due.
      await inbox.wake(shopId);
    });
    expect(statements).toEqual([]);
    const booked = await db.query(`SELECT 1 FROM inventory_ledger WHERE shop_id = $1 AND operation = 'sale'`, [shopId]);
    expect(booked.rows).toHaveLength(1);

    // Nothing scheduled: the poll that runs every second asks no shard anything.
    expect(inbox.scheduled().size).toBe(0);
    sent.length = 0;
    await inbox.poll();
    expect(sent).toEqual([]);
  });

  it('when a customer checks out on the sandbox and the order is refunded and cancelled with restock, then every statement touches one shard', async () => {
    // The embedded platform's own share of each: its order, its whole units moved, its events.
    let order: { id: string; line_items: { id: string }[] } | undefined;
    const checkout = await fannedOutBy(async () => {
      order = await buy(server, key, [
        { id: 2001, quantity: 2, properties: { _svc_data: svcData('weight', 0.5, 'kg') } },
      ]);
    });
    expect(checkout).toEqual([]);
    const lines = [{ lineItemId: order!.line_items[0]!.id, quantity: 1, restockType: 'return' }];
    const refund = () => send(server, key, 'POST', `/sandbox/orders/${order!.id}/refunds`, { lines });
    expect(await fannedOut(refund, 201)).toEqual([]);
    const cancel = () => send(server, key, 'POST', `/sandbox/orders/${order!.id}/cancel`, { restock: true });
    expect(await fannedOut(cancel, 200)).toEqual([]);
  });
});
