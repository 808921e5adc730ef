import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker } from '../../src/services/events/inbox-worker.js';
import { reconcile } from '../../src/services/events/reconcile.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { bookedLedger, followedLevel } from '../support/inventory-state.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';

const LOC = '70001';
const gateway = createLocalGateway();
const logger = createLogger('silent');

/** `_svc_data` texts that are valid JSON of the right shape but that Tare cannot book as stated. */
const UNBOOKABLE = [
  { name: 'more than 9 decimal places', raw: measured('0.1234567891'), reason: 'unbookable_measurement' },
  { name: 'a value below what Tare keeps', raw: measured('1e-12'), reason: 'unbookable_measurement' },
  { name: 'a value past what a level holds', raw: measured('1e15'), reason: 'unbookable_measurement' },
  { name: 'a value far past JSON precision', raw: measured('1e300'), reason: 'unbookable_measurement' },
  { name: 'an unknown unit', raw: measured('1', 'furlong'), reason: 'invalid_svc_data' },
  { name: 'a unit of another type', raw: measured('1', 'm'), reason: 'invalid_svc_data' },
];

/** A weight measurement written as JSON text, so that the number keeps every digit the customer typed. */
function measured(value: string, unit = 'kg'): string {
  return `{"measurement":{"type":"weight","dimensions":[{"value":${value},"unit":"${unit}"}]}}`;
}

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
});
