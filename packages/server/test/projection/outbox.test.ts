import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { PlatformUnavailableError } from '../../src/platform/gateway.js';
import { createPushWorker, type PushOutcome } from '../../src/services/projection/push-worker.js';
import type { Db } from '../../src/store/db.js';
import { queueProjections, type QueuedPush } from '../../src/store/repositories/projection-outbox.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { coffeeShop } from '../support/platform-simulator.js';

const LOC = '70001';
const logger = createLogger('silent');

/**
 * A remote platform as the push worker sees it: whole units per variant written by
 * compare-and-set, a push replayed on a key it has seen, and faults to inject.
 */
function remotePlatform(initial: Record<string, number>) {
  const levels = new Map(Object.entries(initial));
  const answered = new Map<string, PushOutcome[]>();
  const calls: { key: string; pushes: QueuedPush[] }[] = [];
  const faults = {
    loseAnswers: 0,
    throttleMs: 0,
    beforeWrite: undefined as (() => void) | undefined,
    /** Variants the platform refuses to write (not stocked at the location): the whole call fails. */
    refused: new Set<string>(),
  };
  const keyOf = (pushes: QueuedPush[]) => pushes.map((p) => `${p.variantId}@${p.generation}`).join(',');
  async function push(_shopId: string, pushes: QueuedPush[]): Promise<PushOutcome[]> {
    const key = keyOf(pushes);
    calls.push({ key, pushes });
    if (faults.throttleMs) throw new PlatformUnavailableError('throttled', { retryAfterMs: faults.throttleMs });
    if (pushes.some((p) => faults.refused.has(p.variantId))) throw new Error('ITEM_NOT_STOCKED_AT_LOCATION');
    const replay = answered.get(key);
    const outcomes =
      replay ??
      pushes.map((p): PushOutcome => {
        faults.beforeWrite?.();
        faults.beforeWrite = undefined;
        if (p.expected !== null && (levels.get(p.variantId) ?? 0) !== p.expected) return { status: 'stale' };
        levels.set(p.variantId, p.available);
        return { status: 'applied' };
      });
    answered.set(key, outcomes);
    if (faults.loseAnswers > 0) {
      faults.loseAnswers--;
      throw new PlatformUnavailableError('the answer was lost');
    }
    return outcomes;
  }
  return { levels, calls, faults, push, readLevel: async (variantId: string) => levels.get(variantId) ?? 0 };
}

describe.each(testDrivers({ citus: true }))('Projection outbox on %s', (driver) => {
  let db: Db;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  async function setUp(remoteFigures: Record<string, number>) {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 10 }));
    const remote = remotePlatform(remoteFigures);
    const worker = createPushWorker({
      db,
      logger,
      push: remote.push,
      readLevel: (_tx, _shopId, level) => remote.readLevel(level.variantId),
    });
    const queue = (variantId: string, expected: number | null, available: number) =>
      db.transaction((tx) =>
        queueProjections(tx, shopId, [{ locationId: LOC, variantId, expected, available }], 'gid://tare/Test/1'),
      );
    return { shopId, remote, worker, queue };
  }

  async function outboxRows(shopId: string) {
    const { rows } = await db.query<{ variant_id: string; available: string; expected: string | null }>(
      'SELECT variant_id, available, expected FROM projection_outbox WHERE shop_id = $1 ORDER BY variant_id',
      [shopId],
    );
    return rows.map((r) => ({
      variantId: r.variant_id,
      available: Number(r.available),
      expected: r.expected && Number(r.expected),
    }));
  }

  /** Events the inbox got for the shop (a push found stale at a figure not Tare's own stores one). */
  async function eventCount(shopId: string): Promise<number> {
    const { rows } = await db.query('SELECT 1 FROM platform_events WHERE shop_id = $1', [shopId]);
    return rows.length;
  }

  const makeDue = (shopId: string) =>
    db.query('UPDATE projection_outbox SET next_attempt_at = now() WHERE shop_id = $1', [shopId]);

  it('when a level is written twice before its push, then the platform gets the latest figure in one write', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    await queue('2001', 12, 15);
    expect(await outboxRows(shopId)).toEqual([{ variantId: '2001', available: 15, expected: 10 }]);
    await worker.drainNow();
    expect(remote.levels.get('2001')).toBe(15);
    expect(remote.calls).toHaveLength(1);
    expect(await outboxRows(shopId)).toEqual([]);
  });

  it('when the platform already shows the figure, then nothing is queued', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 5 });
    await queue('2001', 5, 5);
    await worker.drainNow();
    expect(await outboxRows(shopId)).toEqual([]);
    expect(remote.calls).toHaveLength(0);
  });

  it('when an order moves the platform while a push waits, then the push expects the moved figure', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    // The platform sells 2 units; Tare books the sale: its expectation moves by −2 (12 → 10).
    remote.levels.set('2001', 8);
    await queue('2001', 10, 11);
    expect(await outboxRows(shopId)).toEqual([{ variantId: '2001', available: 11, expected: 8 }]);
    await worker.drainNow();
    expect(remote.levels.get('2001')).toBe(11);
  });

  it('when an order moves the platform while a push waits and Tare then shows what it expects, then the push still lands its figure', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    await queue('2001', 12, 12); // a write of a fraction only: the queued push stands as it was
    expect(await outboxRows(shopId)).toEqual([{ variantId: '2001', available: 12, expected: 10 }]);
    // The platform sells 2 units and Tare books exactly 2: its whole units are the moved
    // expectation (12 − 2), and the waiting push must move with them, or it finds 8 for its 10.
    remote.levels.set('2001', 8);
    await queue('2001', 10, 10);
    expect(await outboxRows(shopId)).toEqual([{ variantId: '2001', available: 10, expected: 8 }]);
    await worker.drainNow();
    expect(remote.levels.get('2001')).toBe(10);
    expect(await outboxRows(shopId)).toEqual([]);
    expect(await eventCount(shopId)).toBe(0);
  });

  it('when a push whose answer was lost is moved by an order, then its lost figures move with it', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    remote.faults.loseAnswers = 1;
    await worker.drainNow(); // 12 landed, answer lost
    remote.levels.set('2001', 9); // the platform sells 3 units…
    await queue('2001', 9, 9); // …and Tare books exactly 3 (12 − 3): the lost 12 is now a 9
    const { rows: queued } = await db.query<{ pushed: string[] }>(
      'SELECT pushed::text[] AS pushed FROM projection_outbox WHERE shop_id = $1',
      [shopId],
    );
    expect(queued).toEqual([{ pushed: ['9'] }]);
    expect(await outboxRows(shopId)).toEqual([{ variantId: '2001', available: 9, expected: 7 }]);
    await makeDue(shopId);
    // Stale (expects 7, finds 9): the figure it was refused at, so §14 looks at it (and finds
    // Tare and the platform in step); nothing is overwritten.
    await worker.drainNow();
    expect(remote.levels.get('2001')).toBe(9);
    expect(await outboxRows(shopId)).toEqual([]);
  });

  it('when the answer of a push is lost, then the retry reuses its key and the platform applies it once', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    remote.faults.loseAnswers = 1;
    await worker.drainNow();
    expect(remote.levels.get('2001')).toBe(12);
    expect(await outboxRows(shopId)).toHaveLength(1);
    await makeDue(shopId);
    await worker.drainNow();
    expect(remote.calls.map((c) => c.key)).toEqual([remote.calls[0]!.key, remote.calls[0]!.key]);
    expect(await outboxRows(shopId)).toEqual([]);
    expect(remote.levels.get('2001')).toBe(12);
  });

  it('when a lost push is followed by a new figure, then finding its own figure on the platform is not taken for the merchant', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    remote.faults.loseAnswers = 1;
    await worker.drainNow(); // 12 landed, answer lost
    await queue('2001', 12, 14); // a new write: new generation, new key, still expecting 10
    await makeDue(shopId);
    await worker.drainNow(); // stale (platform shows 12, one of Tare's own) → rebased → 14
    expect(remote.levels.get('2001')).toBe(14);
    expect(await outboxRows(shopId)).toEqual([]);
    expect(await eventCount(shopId)).toBe(0);
  });

  it('when the merchant changes the level between read and write, then nothing is overwritten and §14 takes over', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    remote.faults.beforeWrite = () => remote.levels.set('2001', 7);
    await worker.drainNow();
    expect(remote.levels.get('2001')).toBe(7);
    expect(await outboxRows(shopId)).toEqual([]);
    const { rows: events } = await db.query<{ topic: string; payload: unknown }>(
      'SELECT topic, payload FROM platform_events WHERE shop_id = $1',
      [shopId],
    );
    expect(events).toEqual([{ topic: 'stock_changed', payload: { locationId: LOC, variantId: '2001', available: 7 } }]);
    const { rows: levels } = await db.query<{ platform_available: string }>(
      `SELECT platform_available FROM inventory_levels WHERE shop_id = $1 AND variant_id = '2001'`,
      [shopId],
    );
    // Tare's expectation is back at what the platform showed before the merchant's change.
    expect(Number(levels[0]!.platform_available)).toBe(10);
  });

  it('when the platform throttles, then the push waits as long as it asks and is not lost', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    remote.faults.throttleMs = 30_000;
    await worker.drainNow();
    const { rows } = await db.query<{ wait: number; last_error: string }>(
      `SELECT extract(epoch FROM next_attempt_at - now())::float8 AS wait, last_error FROM projection_outbox WHERE shop_id = $1`,
      [shopId],
    );
    expect(rows[0]!.wait).toBeGreaterThan(20);
    expect(rows[0]!.last_error).toBe('throttled');
    remote.faults.throttleMs = 0;
    await makeDue(shopId);
    await worker.drainNow();
    expect(remote.levels.get('2001')).toBe(12);
  });

  it('when two workers drain at once, then each figure is written once', async () => {
    const { shopId, remote, queue } = await setUp({ '2001': 10, '2002': 0, '2003': 0 });
    await queue('2001', 10, 11);
    await queue('2002', 0, 3);
    await queue('2003', 0, 4);
    const workers = [0, 1].map(() =>
      createPushWorker({
        db,
        logger,
        batchSize: 1,
        push: remote.push,
        readLevel: (_tx, _shopId, level) => remote.readLevel(level.variantId),
      }),
    );
    await Promise.all(workers.map((w) => w.drainNow()));
    expect(remote.calls.map((c) => c.key.split('@')[0]).sort()).toEqual(['2001', '2002', '2003']);
    expect(Object.fromEntries(remote.levels)).toEqual({ '2001': 11, '2002': 3, '2003': 4 });
    expect(await outboxRows(shopId)).toEqual([]);
  });

  it('when the platform refuses one level of a batch, then the others land and only that one waits', async () => {
    const { shopId, remote, worker, queue } = await setUp({ '2001': 10, '2002': 0 });
    await queue('2001', 10, 11);
    await queue('2002', 0, 3);
    remote.faults.refused.add('2002');
    await worker.drainNow();
    expect(Object.fromEntries(remote.levels)).toEqual({ '2001': 11, '2002': 0 });
    const { rows } = await db.query<{ variant_id: string; last_error: string }>(
      'SELECT variant_id, last_error FROM projection_outbox WHERE shop_id = $1',
      [shopId],
    );
    expect(rows).toEqual([{ variant_id: '2002', last_error: 'ITEM_NOT_STOCKED_AT_LOCATION' }]);
  });

  it('when a level is queued again after its push landed, then the new push has a key of its own', async () => {
    const { remote, worker, queue } = await setUp({ '2001': 10 });
    await queue('2001', 10, 12);
    await worker.drainNow();
    await queue('2001', 12, 15);
    await worker.drainNow();
    expect(remote.levels.get('2001')).toBe(15);
    expect(new Set(remote.calls.map((c) => c.key)).size).toBe(2);
  });
});
