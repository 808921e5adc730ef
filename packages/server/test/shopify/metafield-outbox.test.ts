/**
 * The metafield outbox's promises (PRODUCT.md §18) on its own, against a remote that records what
 * it holds: a newer document replaces a queued older one (one write, the latest), a document
 * queued while an older one is in flight is never lost, and two workers write each document once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { MetafieldOutcome } from '../../src/platform/shopify/metafields.js';
import { createMetafieldWorker } from '../../src/services/storefront/metafield-worker.js';
import type { Db } from '../../src/store/db.js';
import { queueMetafields, type QueuedMetafield } from '../../src/store/repositories/metafield-outbox.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { coffeeShop } from '../support/platform-simulator.js';

const logger = createLogger('silent');

/** Shopify as the metafield worker sees it: the document each metafield holds, and every write. */
function remoteMetafields() {
  const held = new Map<string, unknown>();
  const writes: string[] = [];
  let beforeWrite: (() => Promise<void>) | undefined;
  async function write(_shopId: string, items: QueuedMetafield[]): Promise<MetafieldOutcome[]> {
    const hook = beforeWrite;
    beforeWrite = undefined;
    await hook?.();
    for (const item of items) {
      held.set(item.ownerId, item.document);
      writes.push(`${item.ownerId}=${JSON.stringify(item.document)}`);
    }
    return items.map(() => ({ status: 'written' }));
  }
  return {
    held,
    writes,
    write,
    /** Runs `hook` once, while the next write is in flight (leased, not yet answered). */
    duringNextWrite(hook: () => Promise<void>) {
      beforeWrite = hook;
    },
  };
}

describe.each(testDrivers({ citus: true }))('Metafield outbox on $name', (driver) => {
  let db: Db;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  async function setUp() {
    const { shopId } = await seedShop(db, coffeeShop({ kg: 10 }));
    const remote = remoteMetafields();
    const worker = createMetafieldWorker({ db, logger, write: remote.write });
    const queue = (variantId: string, document: unknown) =>
      db.transaction((tx) =>
        queueMetafields(tx, shopId, [{ ownerType: 'ProductVariant', ownerId: variantId, document }]),
      );
    const queued = async () =>
      (await db.query('SELECT owner_id FROM metafield_outbox WHERE shop_id = $1', [shopId])).rows.length;
    return { shopId, remote, worker, queue, queued };
  }

  it('when a document is queued twice before its write, then Shopify gets the latest in one write', async () => {
    const { remote, worker, queue, queued } = await setUp();
    expect(await queue('2001', { v: 1 })).toBe(1);
    expect(await queue('2001', { v: 2 })).toBe(1);
    expect(await queued()).toBe(1);
    await worker.drainNow();
    expect(remote.writes).toEqual(['2001={"v":2}']);
    expect(await queued()).toBe(0);
    // Shopify holds it now: the same document again queues nothing.
    expect(await queue('2001', { v: 2 })).toBe(0);
  });

  it('when the same document is queued again before its write, then nothing is counted as queued', async () => {
    // The count is what callers report and notify on: on Citus the upsert, pulled through the
    // coordinator, reported the waiting row its ON CONFLICT … WHERE left alone as queued.
    const { remote, worker, queue, queued } = await setUp();
    expect(await queue('2001', { v: 1 })).toBe(1);
    expect(await queue('2001', { v: 1 })).toBe(0);
    expect(await queued()).toBe(1);
    await worker.drainNow();
    expect(remote.writes).toEqual(['2001={"v":1}']);
  });

  it('when a document goes back to what Shopify holds while a newer one is in flight, then Shopify ends holding it', async () => {
    const { remote, worker, queue, queued } = await setUp();
    await queue('2001', { v: 1 });
    await worker.drainNow();
    await queue('2001', { v: 2 });
    // While {v:2} is on its way, the variant is changed back to what Shopify held before.
    remote.duringNextWrite(async () => {
      await queue('2001', { v: 1 });
    });
    await worker.drainNow();
    expect(remote.held.get('2001')).toEqual({ v: 1 });
    expect(await queued()).toBe(0);
  });

  it('when two workers drain at once, then each document is written once', async () => {
    const { shopId, remote, queued } = await setUp();
    await db.transaction((tx) =>
      queueMetafields(
        tx,
        shopId,
        ['2001', '2002', '2003'].map((ownerId) => ({
          ownerType: 'ProductVariant' as const,
          ownerId,
          document: { ownerId },
        })),
      ),
    );
    const workers = [0, 1].map(() => createMetafieldWorker({ db, logger, batchSize: 1, write: remote.write }));
    await Promise.all(workers.map((w) => w.drainNow()));
    expect([...remote.writes].sort()).toEqual([
      '2001={"ownerId":"2001"}',
      '2002={"ownerId":"2002"}',
      '2003={"ownerId":"2003"}',
    ]);
    expect(await queued()).toBe(0);
  });
});
