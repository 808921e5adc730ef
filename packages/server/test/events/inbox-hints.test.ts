import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { PlatformGateway } from '../../src/platform/gateway.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker } from '../../src/services/events/inbox-worker.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';
import { recording, type Sent } from '../support/recording-db.js';

// Where the inbox looks (decision 111): the shop a notification names, shops scheduled for a
// retry, and every shop only in a sweep (at start, every minute, drainNow). Timers are set to an
// hour here, so only what a test does wakes the worker.

const logger = createLogger('silent');
const HOUR = 3_600_000;

async function statuses(db: Db, shopId: string): Promise<string[]> {
  const { rows } = await db.query<{ status: string }>(
    'SELECT status FROM platform_events WHERE shop_id = $1 ORDER BY id',
    [shopId],
  );
  return rows.map((r) => r.status);
}

/** Resolves once `check` holds (looked at every 20 ms; fails after 20 s). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not reached in 20 s');
}

describe.each(testDrivers({ citus: true }))('Inbox hints on $name', ({ create }) => {
  let db: Db;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  async function orderFor(shopId: string, id: string) {
    const platform = createPlatformSimulator(db, shopId);
    const line = { id: `9${id}`, variantId: '2001', quantity: 1, measure: { value: 1, unit: 'kg' } };
    await platform.deliver(await platform.placeOrder({ id, locationId: '70001', lines: [line] }));
  }

  it('when events were stored while no instance listened, then an instance claims them when it starts', async () => {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 100 }));
    await orderFor(shopId, '5201'); // its notification reached no one (an instance down, a crash)
    const worker = createInboxWorker({ db, gateway: createLocalGateway(), logger, pollMs: HOUR, sweepMs: HOUR });
    const stop = await worker.start();
    try {
      await until(async () => (await statuses(db, shopId))[0] === 'processed');
    } finally {
      await stop();
    }
  });

  it('when a notified event has been processed, then the idle poll sends no statement at all', async () => {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 100 }));
    const sent: Sent[] = [];
    const worker = createInboxWorker({
      db: recording(db, sent),
      gateway: createLocalGateway(),
      logger,
      pollMs: HOUR,
      sweepMs: HOUR,
    });
    const stop = await worker.start();
    try {
      await worker.drainNow();
      await orderFor(shopId, '5202'); // the notification wakes the worker for this shop
      await until(async () => (await statuses(db, shopId))[0] === 'processed');
      await worker.wake(shopId); // let the run that processed it finish
      sent.length = 0;
      await worker.poll();
      expect(sent).toEqual([]);
    } finally {
      await stop();
    }
  });

  it('when an event fails, then its shop is scheduled for the retry and the poll after it is due claims it', async () => {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 100 }));
    const local = createLocalGateway();
    let failures = 1;
    const flaky: PlatformGateway = {
      ...local,
      readOrder: (tx, shop, orderId, options) =>
        failures-- > 0 ? Promise.reject(new Error('platform timed out')) : local.readOrder(tx, shop, orderId, options),
    };
    const worker = createInboxWorker({ db, gateway: flaky, logger, pollMs: HOUR, sweepMs: HOUR });
    await orderFor(shopId, '5203');
    await worker.wake(shopId);
    expect(await statuses(db, shopId)).toEqual(['pending']);
    expect([...worker.scheduled().keys()]).toEqual([shopId]);

    await worker.poll(); // the retry is not due yet: left alone
    expect(await statuses(db, shopId)).toEqual(['pending']);

    // The backoff (1 s) has passed, for the store and for the worker's clock.
    await db.query('UPDATE platform_events SET next_attempt_at = now() WHERE shop_id = $1', [shopId]);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2000);
      await worker.poll();
    } finally {
      vi.useRealTimers();
    }
    expect(await statuses(db, shopId)).toEqual(['processed']);
    expect(worker.scheduled().size).toBe(0);
  });
});
