import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec, toPlainString } from '../../src/domain/decimal.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { buy, platformShows, send, settle, svcData, typeStock } from '../sandbox/support.js';
import { cheeseShop, KILO, LOOSE, PACK, SIBLINGS, WHEEL } from '../support/cheese-shop.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';

// PRODUCT.md §20 with §14: orders, cancels, refunds and typed stock of any sibling book on the
// item, and every sibling follows, on the sandbox platform.

const pack = (quantity = 1) => ({ id: PACK, quantity, properties: { _svc_data: svcData('weight', 250, 'g') } });

describe.each(testDrivers())('stock items: platform events on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  async function wheel(shopId: string): Promise<string> {
    const { rows } = await db.query<{ total: string }>(
      `SELECT total FROM stock_item_levels WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = $2`,
      [shopId, WHEEL],
    );
    return toPlainString(new Dec(rows[0]!.total));
  }

  const shows = (key: string) => Promise.all(SIBLINGS.map((id) => platformShows(server, key, id)));

  it('a 250 g pack sold drops the wheel by exactly 0.25 kg and every variant follows; a cancel gives it back', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    const order = await buy(server, shop.key, [pack()]);
    await settle(server, db);
    expect(await wheel(shop.shopId)).toBe('0.75');
    expect(await shows(shop.key)).toEqual([7, 3, 0]);
    const ledger = await call(server, `/api/v1/inventory/ledger?locationId=70001&variantId=${LOOSE}`, {
      key: shop.key,
    });
    expect(ledger.body.data.entries[0]).toMatchObject({ operation: 'sale', delta: -0.25, unit: 'kg', variantId: PACK });

    const cancelled = await send(server, shop.key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: true });
    expect(cancelled.status).toBeLessThan(300);
    await settle(server, db);
    expect(await wheel(shop.shopId)).toBe('1');
    expect(await shows(shop.key)).toEqual([10, 4, 1]);
  });

  it('a refund with restock of one of two packs gives 0.25 kg back to the wheel', async () => {
    const shop = await seedShop(db, cheeseShop(2));
    const order = await buy(server, shop.key, [
      pack(2),
      { id: LOOSE, quantity: 3, properties: { _svc_data: svcData('weight', 100, 'g') } },
    ]);
    await settle(server, db);
    expect(await wheel(shop.shopId)).toBe('1.2');
    expect(await shows(shop.key)).toEqual([12, 4, 1]);
    const line = order.line_items.find((l: any) => String(l.variant_id) === PACK);
    const refunded = await send(server, shop.key, 'POST', `/sandbox/orders/${order.id}/refunds`, {
      lines: [{ lineItemId: String(line.id), quantity: 1, restockType: 'return' }],
    });
    expect(refunded.status).toBeLessThan(300);
    await settle(server, db);
    expect(await wheel(shop.shopId)).toBe('1.45');
    expect(await shows(shop.key)).toEqual([14, 5, 1]);
  });

  it('stock typed on one sibling is adopted on the wheel, and the others follow', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    // The merchant counts 5 loose portions where Tare expects 10: (5 − 10) × 100 g comes off the wheel.
    await typeStock(server, shop.key, LOOSE, 5);
    await settle(server, db);
    expect(await wheel(shop.shopId)).toBe('0.5');
    expect(await shows(shop.key)).toEqual([5, 2, 0]);
    const ledger = await call(server, `/api/v1/inventory/ledger?locationId=70001&variantId=${KILO}`, { key: shop.key });
    expect(ledger.body.data.entries[0]).toMatchObject({
      operation: 'platform_adjustment',
      delta: -0.5,
      variantId: LOOSE,
    });
  });

  it('with override, stock typed on one sibling is projected back and the wheel keeps its total', async () => {
    const file = cheeseShop(1);
    const shop = await seedShop(db, { ...file, settings: { ...file.settings, platformStockChanges: 'override' } });
    await typeStock(server, shop.key, PACK, 9);
    await settle(server, db);
    expect(await wheel(shop.shopId)).toBe('1');
    expect(await shows(shop.key)).toEqual([10, 4, 1]);
  });
});
