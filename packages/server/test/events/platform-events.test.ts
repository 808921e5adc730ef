import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker, type InboxWorker } from '../../src/services/events/inbox-worker.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { bookedLedger, followedLevel } from '../support/inventory-state.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';

const LOC = '70001';

async function inboxCounts(db: Db) {
  const { rows } = await db.query<{ status: string; n: string }>(
    'SELECT status, count(*)::text AS n FROM platform_events GROUP BY status',
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

describe.each(testDrivers({ citus: true }))('Platform events on $name', (driver) => {
  let db: Db;
  let worker: InboxWorker;
  const logger = createLogger('silent');

  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    worker = createInboxWorker({ db, gateway: createLocalGateway(), logger });
  });

  async function shopWithSimulator(settings?: Parameters<typeof coffeeShop>[1]) {
    const seeded = await seedShop(db, coffeeShop({ kg: 10, g: 1250 }, settings));
    return { ...seeded, platform: createPlatformSimulator(db, seeded.shopId) };
  }

  describe('orders', () => {
    it('when a measured order is placed, then its consumption is booked as a sale and the platform shows the rest', async () => {
      const { shopId, platform } = await shopWithSimulator();
      const placed = await platform.placeOrder({
        id: '5001',
        locationId: LOC,
        lines: [{ id: '9001', variantId: '2001', quantity: 1, measure: { value: 2.5, unit: 'kg' } }],
      });
      expect((await followedLevel(db, shopId, '2001')).platform).toBe(9); // the platform took its whole unit

      await platform.deliver(placed);
      await worker.drainNow();

      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '7.5', platform: 7, expected: 7 });
      expect(await bookedLedger(db, shopId, '2001')).toEqual([
        { operation: 'sale', delta: '-2.5', reference: { type: 'order', id: '5001' } },
      ]);
    });

    it('when an order mixes measured, ordinary and broken lines, then only the measured lines are booked', async () => {
      const { shopId, platform } = await shopWithSimulator();
      await platform.deliver(
        await platform.placeOrder({
          id: '5002',
          locationId: LOC,
          lines: [
            { id: '9001', variantId: '2002', quantity: 3, measure: { value: 250, unit: 'g' } },
            { id: '9002', variantId: '2001', quantity: 2, measure: { value: 0.5, unit: 'kg' } },
            { id: '9005', variantId: '2001', quantity: 1, measure: { value: 500, unit: 'g' } }, // not the variant's unit
            { id: '9003', variantId: '2001', quantity: 1 }, // ordinary: no _svc_data
            { id: '9004', variantId: '2001', quantity: 1, measure: 'invalid' },
          ],
        }),
      );
      await worker.drainNow();

      expect((await followedLevel(db, shopId, '2002')).total).toBe('500');
      expect((await followedLevel(db, shopId, '2001')).total).toBe('9');
      expect(await bookedLedger(db, shopId, '2001')).toEqual([
        { operation: 'sale', delta: '-1', reference: { type: 'order', id: '5002' } },
      ]);
    });

    it('when events arrive twice and in reverse order, then the totals are those of an orderly delivery', async () => {
      const { shopId, platform } = await shopWithSimulator();
      const lines = [{ id: '9001', variantId: '2001', quantity: 2, measure: { value: 1.5, unit: 'kg' } }];
      const placed = await platform.placeOrder({ id: '5003', locationId: LOC, lines });
      const refunded = await platform.refund('5003', LOC, [
        { lineItemId: '9001', variantId: '2001', quantity: 1, restockType: 'return' },
      ]);
      const cancelled = await platform.refund(
        '5003',
        LOC,
        [{ lineItemId: '9001', variantId: '2001', quantity: 1, restockType: 'cancel' }],
        { cancel: true },
      );
      for (const event of [cancelled, refunded, placed, placed, cancelled, refunded]) {
        await platform.deliver(event);
        await worker.drainNow();
      }

      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '10', platform: 10, expected: 10 });
      const rows = await bookedLedger(db, shopId, '2001');
      expect(rows.map((r) => r.operation).sort()).toEqual(['order_cancel', 'refund', 'sale']);
      expect(await inboxCounts(db)).toMatchObject({ processed: expect.any(Number) });
      expect((await inboxCounts(db)).pending).toBeUndefined();
    });

    it('when a refund does not restock, then nothing comes back', async () => {
      const { shopId, platform } = await shopWithSimulator();
      await platform.deliver(
        await platform.placeOrder({
          id: '5004',
          locationId: LOC,
          lines: [{ id: '9001', variantId: '2001', quantity: 2, measure: { value: 1, unit: 'kg' } }],
        }),
      );
      await platform.deliver(
        await platform.refund('5004', LOC, [
          { lineItemId: '9001', variantId: '2001', quantity: 2, restockType: 'no_restock' },
        ]),
      );
      await worker.drainNow();
      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '8', platform: 8, expected: 8 });
    });

    it('when an order names a variant or location Tare does not know, then it is recorded as skipped and nothing fails', async () => {
      const { shopId, platform } = await shopWithSimulator();
      await db.query(`INSERT INTO locations (shop_id, id, name) VALUES ($1, '70009', 'Popup')`, [shopId]);
      await platform.deliver(
        await platform.placeOrder({
          id: '5005',
          locationId: LOC,
          lines: [{ id: '9001', variantId: '2999', quantity: 1, measure: { value: 1, unit: 'kg' } }],
        }),
      );
      await worker.drainNow();
      const { rows } = await db.query<{ skipped: unknown }>(
        'SELECT skipped FROM tracked_orders WHERE shop_id = $1 AND order_id = $2',
        [shopId, '5005'],
      );
      expect(rows[0]!.skipped).toEqual([{ lineItemId: '9001', variantId: '2999', reason: 'unknown_variant' }]);
      expect(await inboxCounts(db)).not.toHaveProperty('parked');
    });
  });

  describe('stock changed on the platform', () => {
    it('when the merchant types a figure, then Tare adopts it and keeps the fraction', async () => {
      const { shopId, platform } = await shopWithSimulator();
      await platform.deliver(await platform.typeStock(LOC, '2002', 20));
      await worker.drainNow();

      expect(await followedLevel(db, shopId, '2002')).toEqual({ total: '2050', platform: 20, expected: 20 });
      const rows = await bookedLedger(db, shopId, '2002');
      expect(rows).toEqual([
        { operation: 'platform_adjustment', delta: '800', reference: { type: 'platform', id: expect.any(String) } },
      ]);
    });

    it('when the shop overrides platform changes, then Tare projects its own level back', async () => {
      const { shopId, platform } = await shopWithSimulator({ platformStockChanges: 'override' });
      await platform.deliver(await platform.typeStock(LOC, '2002', 20));
      await worker.drainNow();
      expect(await followedLevel(db, shopId, '2002')).toEqual({ total: '1250', platform: 12, expected: 12 });
      expect(await bookedLedger(db, shopId, '2002')).toEqual([]);
    });

    it("when Tare's own projection echoes back, then nothing changes", async () => {
      const { shopId, platform } = await shopWithSimulator();
      await platform.deliver(await platform.typeStock(LOC, '2001', 10));
      await worker.drainNow();
      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '10', platform: 10, expected: 10 });
      expect(await bookedLedger(db, shopId, '2001')).toEqual([]);
    });

    it('when an order is still on its way as the merchant types a figure, then the sale is booked first and the figure stands', async () => {
      const { shopId, platform } = await shopWithSimulator();
      const placed = await platform.placeOrder({
        id: '5006',
        locationId: LOC,
        lines: [{ id: '9001', variantId: '2001', quantity: 1, measure: { value: 2.5, unit: 'kg' } }],
      });
      await platform.deliver(await platform.typeStock(LOC, '2001', 20));
      await worker.drainNow();

      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '20.5', platform: 20, expected: 20 });
      expect((await bookedLedger(db, shopId, '2001')).map((r) => [r.operation, r.delta])).toEqual([
        ['sale', '-2.5'],
        ['platform_adjustment', '13'],
      ]);
      await platform.deliver(placed); // late: already booked
      await worker.drainNow();
      expect((await followedLevel(db, shopId, '2001')).total).toBe('20.5');
    });
  });
});
