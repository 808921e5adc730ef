import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createDrainLoop } from '../../src/services/drain-loop.js';
import type { Db } from '../../src/store/db.js';

// The loop's bookkeeping without a store: a queue of work per shop in memory, notifications
// delivered by hand at the moments a real one can arrive.

/** Work per shop, a fake `listen`, and a loop over them that records what it asked. */
function fakeQueue() {
  const due = new Map<string, number>();
  /** Not due before this time (ms since the epoch). */
  const readyAt = new Map<string, number>();
  const asked: string[] = [];
  let notify: (payload: string) => void = () => undefined;
  const hooks: { duringStep?: (shopId: string) => void; duringNextDue?: (shopId: string) => void } = {};
  const db = {
    listen: async (_channel: string, onPayload: (payload: string) => void) => {
      notify = onPayload;
      return async () => undefined;
    },
  } as unknown as Db;
  const loop = createDrainLoop({
    db,
    logger: createLogger('silent'),
    channel: 'tare_test_queue',
    failureMessage: 'test queue unavailable',
    pollMs: 3_600_000,
    sweepMs: 3_600_000,
    async step(shopId) {
      asked.push(`step ${shopId}`);
      hooks.duringStep?.(shopId);
      if (!due.get(shopId) || Date.now() < (readyAt.get(shopId) ?? 0)) return undefined;
      due.set(shopId, due.get(shopId)! - 1);
      return shopId;
    },
    async shopsDueWithin(withinMs) {
      asked.push('sweep');
      const now = Date.now();
      const pending = [...due].filter(([, n]) => n > 0);
      return new Map(
        pending
          .map(([shop]) => [shop, Math.max(0, (readyAt.get(shop) ?? 0) - now)] as const)
          .filter(([, ms]) => ms <= withinMs),
      );
    },
    async nextDueInMs(shopId) {
      asked.push(`next ${shopId}`);
      hooks.duringNextDue?.(shopId);
      return due.get(shopId) ? Math.max(0, (readyAt.get(shopId) ?? 0) - Date.now()) : null;
    },
  });
  /** Stores work for the shop and announces it, as a committed NOTIFY does. */
  const store = (shopId: string) => {
    due.set(shopId, (due.get(shopId) ?? 0) + 1);
    notify(shopId);
  };
  return { due, readyAt, asked, loop, store, hooks };
}

/** Polls as the poll `ms` from now does (the loop's clock is Date.now). */
async function pollAfter(loop: ReturnType<typeof createDrainLoop>, ms: number): Promise<void> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.now() + ms);
    await loop.poll();
  } finally {
    vi.useRealTimers();
  }
}

describe('Drain loop', () => {
  it('when a shop is notified, then only that shop is drained and nothing is scheduled after', async () => {
    const { due, asked, loop } = fakeQueue();
    const stop = await loop.start();
    await loop.drainNow(); // the start's sweep, done
    asked.length = 0;
    due.set('1', 3);
    await loop.wake('1'); // as the shop's notification does
    expect(due.get('1')).toBe(0);
    expect(asked).toEqual(['step 1', 'step 1', 'step 1', 'step 1', 'next 1']);
    expect(loop.scheduled().size).toBe(0);
    asked.length = 0;
    await loop.poll();
    expect(asked).toEqual([]);
    await stop();
  });

  it('when work is announced while its shop is being drained, then it is drained too', async () => {
    const { due, loop, store, hooks } = fakeQueue();
    const stop = await loop.start();
    await loop.drainNow();
    let once = true;
    hooks.duringStep = (shopId) => {
      if (shopId === '1' && once) {
        once = false;
        store('1'); // committed while the claim looked
      }
    };
    store('1');
    await loop.wake('1');
    expect(due.get('1')).toBe(0);
    await stop();
  });

  it('when work is announced after the shop was found empty, then it is drained before the run stops', async () => {
    const { due, loop, store, hooks } = fakeQueue();
    const stop = await loop.start();
    await loop.drainNow();
    let once = true;
    hooks.duringNextDue = (shopId) => {
      if (once) {
        once = false;
        store(shopId); // between the last empty claim and the end of the run
      }
    };
    store('2');
    await loop.wake('2');
    expect(due.get('2')).toBe(0);
    await stop();
  });

  it('when work was stored with no notification, then the idle poll leaves it and the sweep drains it', async () => {
    const { due, asked, loop } = fakeQueue();
    due.set('3', 1); // stored while no instance listened, or its notification was lost
    await loop.poll();
    expect(asked).toEqual([]);
    expect(due.get('3')).toBe(1);
    await loop.drainNow();
    expect(due.get('3')).toBe(0);
    expect(asked).toEqual(['sweep', 'step 3', 'step 3', 'next 3']);
  });

  it('when a shop has work due later, then it is scheduled and the first poll after that time drains it', async () => {
    const { due, readyAt, asked, loop } = fakeQueue();
    due.set('4', 1);
    readyAt.set('4', Date.now() + 60_000); // a retry after backoff
    await loop.wake('4');
    expect(due.get('4')).toBe(1);
    expect([...loop.scheduled().keys()]).toEqual(['4']);
    asked.length = 0;
    await loop.poll(); // not yet
    expect(asked).toEqual([]);
    await pollAfter(loop, 61_000);
    expect(due.get('4')).toBe(0);
    expect(asked).toEqual(['step 4', 'step 4', 'next 4']);
    expect(loop.scheduled().size).toBe(0);
  });

  it('when work is not due at the sweep but falls due before the next, then the sweep schedules it and a poll drains it', async () => {
    const { due, readyAt, asked, loop } = fakeQueue();
    due.set('6', 1); // a retry after backoff, stored before this instance started (no notification)
    readyAt.set('6', Date.now() + 30_000);
    due.set('7', 1); // due after the next sweep: that sweep finds it
    readyAt.set('7', Date.now() + 2 * 3_600_000);
    await loop.drainNow();
    expect(asked).toEqual(['sweep']);
    expect([...loop.scheduled().keys()]).toEqual(['6']);
    asked.length = 0;
    await pollAfter(loop, 31_000);
    expect(due.get('6')).toBe(0);
    expect(asked).toEqual(['step 6', 'step 6', 'next 6']);
    expect(due.get('7')).toBe(1);
  });

  it('when the store fails while a shop is drained, then the next poll tries the shop again', async () => {
    const { due, loop, hooks } = fakeQueue();
    due.set('5', 1);
    let failures = 1;
    hooks.duringStep = () => {
      if (failures-- > 0) throw new Error('connection refused');
    };
    await loop.wake('5');
    expect(due.get('5')).toBe(1);
    await loop.poll();
    expect(due.get('5')).toBe(0);
  });
});
