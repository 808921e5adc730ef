import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { PlatformGateway } from '../../src/platform/gateway.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker } from '../../src/services/events/inbox-worker.js';
import type { Db } from '../../src/store/db.js';
import { someoneWaitsForALock, testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { bookedLedger, followedLevel } from '../support/inventory-state.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';

const LOC = '70001';
const logger = createLogger('silent');
// Transactions that really run side by side: PGlite has one connection and runs them in turn.
const servers = testDrivers({ citus: true }).filter((driver) => driver.name !== 'pglite');

// Without a database server the file still holds a suite, skipped (vitest fails a file with none).
describe.skipIf(servers.length === 0)('A stock notice racing a platform order', () => {
  describe.each(servers)('on $name', (driver) => {
    let db: Db;
    beforeAll(async () => {
      db = await driver.create();
    });
    afterAll(async () => {
      await db?.close();
    });

    it("when an order commits on the platform while a notice books the orders it has not seen, then the sale is booked once and the merchant's figure stands", async () => {
      const { shopId } = await seedShop(db, coffeeShop({ kg: 10 }));
      const platform = createPlatformSimulator(db, shopId);
      const typed = await platform.typeStock(LOC, '2001', 12); // the merchant's figure: 12 whole kg

      // A checkout takes one kg unit off the platform's shelf and holds its transaction open.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let stockMoved!: () => void;
      const moved = new Promise<void>((resolve) => (stockMoved = resolve));
      const placing = platform.placeOrder(
        {
          id: '5101',
          locationId: LOC,
          lines: [{ id: '9101', variantId: '2001', quantity: 1, measure: { value: 2.5, unit: 'kg' } }],
        },
        {
          beforeCommit: async () => {
            stockMoved();
            await gate;
          },
        },
      );
      await moved;

      // The merchant's notice: once it has asked which orders changed, the checkout commits. Had
      // the notice not waited for the checkout, the unit the order took would now show in the
      // platform's figure without the order being booked, and be taken for the merchant's.
      const local = createLocalGateway();
      let ordersAsked!: () => void;
      const asked = new Promise<void>((resolve) => (ordersAsked = resolve));
      const gateway: PlatformGateway = {
        ...local,
        async ordersChangedSince(...args) {
          const ids = await local.ordersChangedSince(...args);
          ordersAsked();
          await placing;
          return ids;
        },
      };
      await platform.deliver(typed);
      const notice = createInboxWorker({ db, gateway, logger }).drainNow();
      const polling = new AbortController();
      await Promise.race([asked, someoneWaitsForALock(db, polling.signal)]);
      polling.abort();
      release();
      const placed = await placing;
      await notice;
      await platform.deliver(placed); // the order's own event, after the notice
      await createInboxWorker({ db, gateway: local, logger }).drainNow();

      // 12 typed, one unit sold: the platform shows 11, Tare keeps the sale's half kg.
      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '11.5', platform: 11, expected: 11 });
      expect((await bookedLedger(db, shopId, '2001')).map(({ operation, delta }) => ({ operation, delta }))).toEqual([
        { operation: 'sale', delta: '-2.5' },
        { operation: 'platform_adjustment', delta: '4' },
      ]);
    });

    it("when an order lands on a remote platform as a notice reads the figure, then it is booked before the merchant's change is", async () => {
      const { shopId } = await seedShop(db, coffeeShop({ kg: 10 }));
      const platform = createPlatformSimulator(db, shopId);
      const typed = await platform.typeStock(LOC, '2001', 12);

      // Shopify's orders do not wait for Tare's locks: one lands just before the figure is read
      // the second time, after the notice asked which orders changed.
      const local = createLocalGateway();
      const elsewhere = AsyncLocalStorage.snapshot(); // outside the notice's transaction
      let reads = 0;
      let placed: Awaited<ReturnType<typeof platform.placeOrder>> | undefined;
      const gateway: PlatformGateway = {
        ...local,
        async readLevels(...args) {
          if (++reads === 2) {
            const lines = [{ id: '9201', variantId: '2001', quantity: 1, measure: { value: 2.5, unit: 'kg' } }];
            placed = await elsewhere(() =>
              platform.placeOrder({ id: '5201', locationId: LOC, lines }, { remote: true }),
            );
          }
          return local.readLevels(...args);
        },
      };
      await platform.deliver(typed);
      await createInboxWorker({ db, gateway, logger }).drainNow();
      await platform.deliver(placed!); // the order's own event, after the notice
      await createInboxWorker({ db, gateway: local, logger }).drainNow();

      expect(await followedLevel(db, shopId, '2001')).toEqual({ total: '11.5', platform: 11, expected: 11 });
      expect((await bookedLedger(db, shopId, '2001')).map(({ operation, delta }) => ({ operation, delta }))).toEqual([
        { operation: 'sale', delta: '-2.5' },
        { operation: 'platform_adjustment', delta: '4' },
      ]);
    });
  });
});
