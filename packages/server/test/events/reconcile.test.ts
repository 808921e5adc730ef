import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createLogger } from '../../src/logger.js';
import { reconcile, startReconciler } from '../../src/services/events/reconcile.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';

const LOC = '70001';

async function totals(db: Db, shopId: string) {
  const { rows } = await db.query<{ variant_id: string; total: string; platform: string }>(
    `SELECT l.variant_id, l.total, p.available AS platform FROM inventory_levels l
     JOIN local_platform_levels p USING (shop_id, location_id, variant_id) WHERE l.shop_id = $1 ORDER BY l.variant_id`,
    [shopId],
  );
  return Object.fromEntries(rows.map((r) => [r.variant_id, { total: r.total, platform: Number(r.platform) }]));
}

describe.each(testDrivers({ citus: true }))('Reconciliation on %s', (driver) => {
  let db: Db;
  const gateway = createLocalGateway();
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it('when nothing moved on the platform, then nothing drifts', async () => {
    const { domain } = await seedShop(db, coffeeShop({ kg: 10.25, g: 1250 }));
    const [report] = await reconcile({ db, gateway }, { shopDomain: domain, fix: false });
    expect(report).toMatchObject({ shop: domain, levels: 2, drift: [], skippedOrders: [] });
  });

  it('when events never arrived, then the report names the drift and --fix books the orders and adopts the rest', async () => {
    const { domain, shopId } = await seedShop(db, coffeeShop({ kg: 10.25, g: 1250 }));
    const platform = createPlatformSimulator(db, shopId);
    // Neither event reaches Tare: an order of 2 × 1.5 kg, then the merchant types 30 for 2002.
    await platform.placeOrder({
      id: '5001',
      locationId: LOC,
      lines: [{ id: '9001', variantId: '2001', quantity: 2, measure: { value: 1.5, unit: 'kg' } }],
    });
    await platform.typeStock(LOC, '2002', 30);

    const [report] = await reconcile({ db, gateway }, { shopDomain: domain, fix: false });
    expect(report!.drift).toEqual([
      { variantId: '2001', locationId: LOC, platform: 8, expected: 10, since: expect.any(Date) },
      { variantId: '2002', locationId: LOC, platform: 30, expected: 12, since: expect.any(Date) },
    ]);
    const again = await reconcile({ db, gateway }, { shopDomain: domain, fix: false });
    expect(again[0]!.drift[0]!.since).toEqual(report!.drift[0]!.since); // since when: the first sighting
    expect(await totals(db, shopId)).toEqual({
      '2001': { total: '10.25', platform: 8 },
      '2002': { total: '1250', platform: 30 },
    });

    const [fixed] = await reconcile({ db, gateway }, { shopDomain: domain, fix: true });
    expect(fixed!.ordersSynced).toBe(1);
    expect(await totals(db, shopId)).toEqual({
      '2001': { total: '7.25', platform: 7 },
      '2002': { total: '3050', platform: 30 },
    });
    const [after] = await reconcile({ db, gateway }, { shopDomain: domain, fix: false });
    expect(after!.drift).toEqual([]);
  });

  it('when two instances run the periodic reconciliation, then the orders and stock that never arrived are booked and adopted once', async () => {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 10.25, g: 1250 }));
    const platform = createPlatformSimulator(db, shopId);
    await platform.placeOrder({
      id: '5001',
      locationId: LOC,
      lines: [{ id: '9001', variantId: '2001', quantity: 2, measure: { value: 1.5, unit: 'kg' } }],
    });
    await platform.typeStock(LOC, '2002', 30);

    // A period of 0.3 s: each instance ticks every 0.3 s, and a shop is claimed by one of them per period.
    const deps = { db, gateway, logger: createLogger('silent'), everyMinutes: 0.005 };
    const instances = [startReconciler(deps), startReconciler(deps)];
    try {
      const fixed = { '2001': { total: '7.25', platform: 7 }, '2002': { total: '3050', platform: 30 } };
      for (let waited = 0; JSON.stringify(await totals(db, shopId)) !== JSON.stringify(fixed); waited += 50) {
        if (waited > 10_000) throw new Error(`not reconciled: ${JSON.stringify(await totals(db, shopId))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // A few more periods on both instances change nothing.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      for (const instance of instances) instance.stop();
    }
    expect(await totals(db, shopId)).toEqual({
      '2001': { total: '7.25', platform: 7 },
      '2002': { total: '3050', platform: 30 },
    });
    const { rows } = await db.query<{ variant_id: string; operation: string; delta: string }>(
      `SELECT variant_id, operation, delta::text FROM inventory_ledger
       WHERE shop_id = $1 AND operation <> 'import' ORDER BY variant_id, id`,
      [shopId],
    );
    expect(rows).toEqual([
      { variant_id: '2001', operation: 'sale', delta: '-3' },
      { variant_id: '2002', operation: 'platform_adjustment', delta: '1800' },
    ]);
  });

  it('when an unknown shop is named, then it says so', async () => {
    await expect(reconcile({ db, gateway }, { shopDomain: 'nope.example', fix: false })).rejects.toThrow(/No shop/);
  });
});
