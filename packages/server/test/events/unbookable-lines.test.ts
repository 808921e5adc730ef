import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker } from '../../src/services/events/inbox-worker.js';
import { reconcile } from '../../src/services/events/reconcile.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { measuredText } from '../support/event-model.js';
import { bookedLedger, followedLevel } from '../support/inventory-state.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';
import { startPlatformDriver } from '../support/platform-drivers.js';

const LOC = '70001';
const gateway = createLocalGateway();
const logger = createLogger('silent');

const measured = (value: string, unit = 'kg') => measuredText(value, unit);

/** `_svc_data` texts that are valid JSON of the right shape but that Tare cannot book as stated. */
const UNBOOKABLE = [
  { name: 'more than 9 decimal places', raw: measured('0.1234567891'), reason: 'unbookable_measurement' },
  { name: 'a value below what Tare keeps', raw: measured('1e-12'), reason: 'unbookable_measurement' },
  { name: 'a value past what a level holds', raw: measured('1e15'), reason: 'unbookable_measurement' },
  { name: 'a value far past JSON precision', raw: measured('1e300'), reason: 'unbookable_measurement' },
  { name: 'an unknown unit', raw: measured('1', 'furlong'), reason: 'invalid_svc_data' },
  { name: 'a unit of another type', raw: measured('1', 'm'), reason: 'invalid_svc_data' },
];

describe.each(testDrivers())('Orders with lines Tare cannot book, on %s', (driver) => {
  let db: Db;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it.each(UNBOOKABLE)(
    'when an order line carries $name, then that line is skipped with its reason, the good line is booked, and the shop keeps following its stock',
    async ({ raw, reason }) => {
      const { shopId, domain } = await seedShop(db, coffeeShop({ kg: 10, g: 1250 }));
      const platform = createPlatformSimulator(db, shopId);
      const worker = createInboxWorker({ db, gateway, logger, maxAttempts: 2 });
      await platform.deliver(
        await platform.placeOrder({
          id: '5001',
          locationId: LOC,
          lines: [
            { id: '9001', variantId: '2001', quantity: 1, measure: { raw } },
            { id: '9002', variantId: '2001', quantity: 2, measure: { value: 0.5, unit: 'kg' } },
          ],
        }),
      );
      await worker.drainNow();

      // The good line is booked; the platform's own whole units for both lines are expected.
      expect(await bookedLedger(db, shopId, '2001')).toEqual([
        { operation: 'sale', delta: '-1', reference: { type: 'order', id: '5001' } },
      ]);
      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '9', platform: 9, expected: 9 });
      const { rows } = await db.query<{ skipped: { lineItemId: string; reason: string; detail: string }[] }>(
        'SELECT skipped FROM tracked_orders WHERE shop_id = $1 AND order_id = $2',
        [shopId, '5001'],
      );
      expect(rows[0]!.skipped).toEqual([
        { lineItemId: '9001', variantId: '2001', reason, detail: expect.stringMatching(/\w/) },
      ]);

      // Stock typed on the platform afterwards, for another variant and the same one, is still adopted.
      await platform.deliver(await platform.typeStock(LOC, '2002', 20));
      await platform.deliver(await platform.typeStock(LOC, '2001', 4));
      await worker.drainNow();
      expect(await followedLevel(db, shopId, '2002')).toEqual({ total: '2050', platform: 20, expected: 20 });
      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '4', platform: 4, expected: 4 });
      const failed = await db.query(`SELECT 1 FROM platform_events WHERE shop_id = $1 AND status <> 'processed'`, [
        shopId,
      ]);
      expect(failed.rows).toEqual([]);

      // Reconciliation reports the skipped line and still fixes.
      const [report] = await reconcile({ db, gateway }, { fix: true, shopDomain: domain });
      expect(report!.skippedOrders).toEqual([{ orderId: '5001', skipped: rows[0]!.skipped }]);
    },
  );

  it("when an order cannot be booked at all, then its event is parked naming the order, and the shop's stock notices and reconciliation go on", async () => {
    const { shopId, domain } = await seedShop(db, coffeeShop({ kg: 10, g: 1250 }));
    const platform = createPlatformSimulator(db, shopId);
    const worker = createInboxWorker({ db, gateway, logger, maxAttempts: 2 });
    // A level at the edge of what Tare stores (only a pathological history gets there): any sale
    // takes its whole units past ±2^53, which Tare refuses to book.
    const edge = '-9007199254740990';
    await db.query(
      `UPDATE inventory_levels SET total = $2::numeric, platform_available = $2::bigint WHERE shop_id = $1 AND variant_id = '2001'`,
      [shopId, edge],
    );
    await db.query(`UPDATE local_platform_levels SET available = $2 WHERE shop_id = $1 AND variant_id = '2001'`, [
      shopId,
      edge,
    ]);
    await platform.deliver(
      await platform.placeOrder({
        id: '5002',
        locationId: LOC,
        lines: [{ id: '9001', variantId: '2001', quantity: 2, measure: { value: 5, unit: 'kg' } }],
      }),
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      await worker.drainNow();
      await db.query(`UPDATE platform_events SET next_attempt_at = now() WHERE shop_id = $1 AND status = 'pending'`, [
        shopId,
      ]);
    }
    const parked = await db.query<{ status: string }>(
      `SELECT status FROM platform_events WHERE shop_id = $1 AND payload->>'orderId' = '5002'`,
      [shopId],
    );
    expect(parked.rows).toEqual([{ status: 'parked' }]);

    // A stock notice meets the order on its way (it books the orders Tare has not seen first).
    await platform.deliver(await platform.typeStock(LOC, '2002', 20));
    await worker.drainNow();
    expect(await followedLevel(db, shopId, '2002')).toEqual({ total: '2050', platform: 20, expected: 20 });

    const [report] = await reconcile({ db, gateway }, { fix: true, shopDomain: domain });
    expect(report!.failingEvents).toEqual([
      expect.objectContaining({ topic: 'order_placed', orderId: '5002', status: 'parked', attempts: 2 }),
    ]);
    expect(report!.failingEvents[0]!.lastError).toMatch(/out of range/);
    // The order's own level cannot follow the platform either: reported, the others still followed.
    expect(report!.drift).toEqual([
      expect.objectContaining({ variantId: '2001', outcome: 'failed', error: expect.stringMatching(/out of range/) }),
    ]);
  });

  it('when a Shopify order carries every kind of line Tare cannot book beside a good one, then only the good line is booked, each bad one is skipped with its reason, and stock typed on Shopify is still adopted', async () => {
    const shopify = await startPlatformDriver('shopify', db, { stock: { kg: 10, g: 1250 } });
    try {
      const { orderId, lineIds } = await shopify.placeOrder([
        { variantId: '2001', quantity: 2, price: '12.00', properties: { _svc_data: measured('0.5') } },
        ...UNBOOKABLE.map(({ raw }) => ({
          variantId: '2001',
          quantity: 1,
          price: '24.00',
          properties: { _svc_data: raw },
        })),
      ]);
      await shopify.typeStock('2002', 20);
      await shopify.settle();

      expect(await shopify.total('2001')).toBe('9');
      expect(await shopify.shown('2001')).toBe(9);
      expect(await shopify.total('2002')).toBe('2050');
      const { rows } = await db.query<{ skipped: { lineItemId: string; reason: string }[] }>(
        'SELECT skipped FROM tracked_orders WHERE shop_id = $1 AND order_id = $2',
        [shopify.shopId, orderId],
      );
      expect(rows[0]!.skipped.map(({ lineItemId, reason }) => ({ lineItemId, reason }))).toEqual(
        UNBOOKABLE.map(({ reason }, i) => ({ lineItemId: lineIds[i + 1], reason })),
      );
      const failed = await db.query(`SELECT 1 FROM platform_events WHERE shop_id = $1 AND status <> 'processed'`, [
        shopify.shopId,
      ]);
      expect(failed.rows).toEqual([]);
    } finally {
      await shopify.close();
    }
  });
});
