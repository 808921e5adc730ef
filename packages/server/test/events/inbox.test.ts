import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { PlatformGateway } from '../../src/platform/gateway.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker } from '../../src/services/events/inbox-worker.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { storeEvent } from '../../src/store/repositories/platform-events.js';
import { serverDrivers, testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';

const LOC = '70001';
const logger = createLogger('silent');

async function eventRows(db: Db, shopId: string) {
  const { rows } = await db.query<{ event_id: string; status: string; attempts: number; last_error: string | null }>(
    'SELECT event_id, status, attempts, last_error FROM platform_events WHERE shop_id = $1 ORDER BY id',
    [shopId],
  );
  return rows;
}

async function total(db: Db, shopId: string) {
  const { rows } = await db.query<{ total: string }>(
    `SELECT total FROM inventory_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = '2001'`,
    [shopId, LOC],
  );
  return rows[0]!.total;
}

describe.each(testDrivers({ citus: true }))('Event inbox on $name', (driver) => {
  let db: Db;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it('when the same event is stored twice, then the inbox keeps it once and applies it once', async () => {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 100 }));
    const platform = createPlatformSimulator(db, shopId);
    const placed = await platform.placeOrder({
      id: '5001',
      locationId: LOC,
      lines: [{ id: '9001', variantId: '2001', quantity: 1, measure: { value: 2.5, unit: 'kg' } }],
    });
    await platform.deliver(placed);
    await platform.deliver(placed);
    const worker = createInboxWorker({ db, gateway: createLocalGateway(), logger });
    await worker.drainNow();
    await platform.deliver(placed); // after processing: still recognised
    await worker.drainNow();

    expect(await eventRows(db, shopId)).toEqual([expect.objectContaining({ status: 'processed', attempts: 1 })]);
    expect(await total(db, shopId)).toBe('97.5');
  });

  it('when PostgreSQL aborts processing to break a deadlock, then the event runs again at once and is no failed attempt', async () => {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 100 }));
    const platform = createPlatformSimulator(db, shopId);
    const local = createLocalGateway();
    let aborts = 0;
    const deadlockedOnce: PlatformGateway = {
      ...local,
      readOrder(tx, shop, orderId, options) {
        if (aborts++ > 0) return local.readOrder(tx, shop, orderId, options);
        return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
      },
    };
    await platform.deliver(
      await platform.placeOrder({
        id: '5004',
        locationId: LOC,
        lines: [{ id: '9001', variantId: '2001', quantity: 1, measure: { value: 1, unit: 'kg' } }],
      }),
    );
    await createInboxWorker({ db, gateway: deadlockedOnce, logger }).drainNow();

    expect(aborts).toBe(2);
    expect(await eventRows(db, shopId)).toEqual([
      expect.objectContaining({ status: 'processed', attempts: 1, last_error: null }),
    ]);
    expect(await total(db, shopId)).toBe('99');
  });

  it('when processing fails, then the event is retried with backoff, parked after the last attempt, and the others go on', async () => {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 100 }));
    const platform = createPlatformSimulator(db, shopId);
    const local = createLocalGateway();
    // The platform cannot be read for order 5002 (a poisoned event); 5003 is fine.
    const failing: PlatformGateway = {
      ...local,
      readOrder: (tx, shop, orderId, options) =>
        orderId === '5002'
          ? Promise.reject(new Error('platform exploded'))
          : local.readOrder(tx, shop, orderId, options),
    };
    const measure = { value: 1, unit: 'kg' };
    await platform.deliver(
      await platform.placeOrder({
        id: '5002',
        locationId: LOC,
        lines: [{ id: '9001', variantId: '2001', quantity: 1, measure }],
      }),
    );
    await platform.deliver(
      await platform.placeOrder({
        id: '5003',
        locationId: LOC,
        lines: [{ id: '9002', variantId: '2001', quantity: 1, measure }],
      }),
    );
    const worker = createInboxWorker({ db, gateway: failing, logger, maxAttempts: 3 });
    await worker.drainNow();

    let rows = await eventRows(db, shopId);
    expect(rows[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'platform exploded' });
    expect(rows[1]).toMatchObject({ status: 'processed' });
    expect(await total(db, shopId)).toBe('99');

    // Due again at once, twice more: then parked, with its error, and never tried again.
    for (let i = 0; i < 3; i++) {
      await db.query(`UPDATE platform_events SET next_attempt_at = now() WHERE shop_id = $1`, [shopId]);
      await worker.drainNow();
    }
    rows = await eventRows(db, shopId);
    expect(rows[0]).toMatchObject({ status: 'parked', attempts: 3, last_error: 'platform exploded' });

    // Once the platform answers again, a parked event is replayed by hand (`tare reconcile --fix` books the order too).
    await db.query(`UPDATE platform_events SET status = 'pending', next_attempt_at = now() WHERE shop_id = $1`, [
      shopId,
    ]);
    await createInboxWorker({ db, gateway: local, logger }).drainNow();
    expect(await total(db, shopId)).toBe('98');
  });
});

describe.each(serverDrivers({ citus: true }))('Two instances on one $name database', (driver) => {
  it('when two instances work through the same inbox at once, then every event is applied exactly once', async () => {
    const database = await driver.database();
    const dbs: Db[] = [];
    try {
      for (let i = 0; i < 2; i++) dbs.push(await openPostgres({ connectionString: database.url, max: 4 }));
      const [a, b] = dbs as [Db, Db];
      const { shopId } = await seedShop(a, coffeeShop({ kg: 100 }));
      const platform = createPlatformSimulator(a, shopId);
      const orders = 40;
      for (let i = 0; i < orders; i++) {
        const event = await platform.placeOrder({
          id: String(6000 + i),
          locationId: LOC,
          lines: [{ id: String(96000 + i), variantId: '2001', quantity: 1, measure: { value: 0.25, unit: 'kg' } }],
        });
        await platform.deliver(event);
        if (i % 3 === 0)
          await storeEvent(b, { shopId, eventId: event.eventId, topic: event.topic, payload: event.payload as never });
      }
      const workers = [a, b].map((db) => createInboxWorker({ db, gateway: createLocalGateway(), logger }));
      // Two instances may deadlock on a level now and then (PostgreSQL picks a victim): that
      // event is retried after its backoff, brought forward here instead of waiting for it.
      for (let round = 0; round < 10; round++) {
        await Promise.all(workers.map((w) => w.drainNow()));
        const pending = await a.query(
          `UPDATE platform_events SET next_attempt_at = now() WHERE shop_id = $1 AND status = 'pending'`,
          [shopId],
        );
        if (pending.rowCount === 0) break;
      }

      expect(await total(a, shopId)).toBe('90');
      const { rows } = await a.query<{ sales: string; processed: string }>(
        `SELECT (SELECT count(*) FROM inventory_ledger WHERE shop_id = $1 AND operation = 'sale')::text AS sales,
           (SELECT count(*) FROM platform_events WHERE shop_id = $1 AND topic = 'order_placed' AND status = 'processed')::text
             AS processed`,
        [shopId],
      );
      expect(rows[0]).toEqual({ sales: String(orders), processed: String(orders) });
      // Orders placed faster than they are processed make the platform move unseen: the checks
      // that follow (stock_changed) find every such move explained by the orders.
      const { rows: left } = await a.query(
        `SELECT 1 FROM platform_events WHERE shop_id = $1 AND status <> 'processed'`,
        [shopId],
      );
      expect(left).toEqual([]);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await database.drop();
    }
  }, 120_000);
});
