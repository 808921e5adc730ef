import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInventoryWriter, type InventoryWriter } from '../../src/services/inventory/write-inventory.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { createShardRouter } from '../../src/store/shard-routing.js';
import { PLATFORM_EVENT_STORED, storeEvent } from '../../src/store/repositories/platform-events.js';
import { PROJECTION_QUEUED, queueProjections } from '../../src/store/repositories/projection-outbox.js';
import { shardOf } from '../support/citus.js';
import { type ServerDatabase, testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { adjustVariant2001 } from '../support/inventory-requests.js';

// Shard routing (TARE_SHARD_ROUTING=on, src/store/shard-routing.ts): an inventory write runs on
// the Citus worker that holds its shop's shard. What must not change: one series of ids, no lost
// update, one write per key, notifications heard on the coordinator, and a worker Tare cannot
// reach leaving the shop to the coordinator.

const citus = testDrivers({ citus: true }).filter((driver) => driver.name === 'citus');
/** Where a worker's own copy of a sequence starts counting (Citus: its group id × 2^48). */
const WORKER_RANGE = 2n ** 48n;

describe.skipIf(citus.length === 0)('Shard routing on Citus', () => {
  let database: ServerDatabase;
  /** Two instances on one database: one routing to the workers, one not. */
  let routed: Db;
  let plain: Db;
  let shops: string[];
  let viaWorker: InventoryWriter;
  let viaCoordinator: InventoryWriter;

  beforeAll(async () => {
    database = await citus[0]!.database!();
    routed = await openPostgres({ connectionString: database.url, shardRouting: true });
    plain = await openPostgres({ connectionString: database.url });
    shops = [(await seedShop(plain)).shopId, (await seedShop(plain)).shopId, (await seedShop(plain)).shopId];
    viaWorker = createInventoryWriter({ db: routed, gateway: createLocalGateway() });
    viaCoordinator = createInventoryWriter({ db: plain, gateway: createLocalGateway() });
  });
  afterAll(async () => {
    await routed?.close();
    await plain?.close();
    await database?.drop();
  });

  /** The port of the node that answers a transaction of `db`, for the shop or none. */
  const portOf = (db: Db, shopId?: string) =>
    db.transaction(
      async (tx) => (await tx.query<{ port: number }>('SELECT inet_server_port() AS port', [])).rows[0]!.port,
      { shopId },
    );

  /** The level's ledger in id order, and its total. */
  async function ledgerOf(shopId: string) {
    const { rows } = await plain.query<{ id: string; before: string; after: string }>(
      `SELECT id::text, quantity_before::text AS before, quantity_after::text AS after FROM inventory_ledger
        WHERE shop_id = $1 AND location_id = '70001' AND variant_id = '2001' ORDER BY inventory_ledger.id`,
      [shopId],
    );
    const level = await plain.query<{ total: string }>(
      `SELECT total::text FROM inventory_levels WHERE shop_id = $1 AND location_id = '70001' AND variant_id = '2001'`,
      [shopId],
    );
    return { rows, total: Number(level.rows[0]?.total ?? 0) };
  }

  /** Each row starts where the one before it ended, every id from the coordinator's one series. */
  function expectOneChain(rows: { id: string; before: string; after: string }[]) {
    for (const [i, row] of rows.entries()) {
      expect(BigInt(row.id)).toBeLessThan(WORKER_RANGE);
      if (i > 0) expect(Number(row.before)).toBe(Number(rows[i - 1]!.after));
    }
  }

  it("when a transaction names its shop, then it runs on the worker that holds the shop's shard", async () => {
    const coordinator = Number(new URL(database.url).port);
    for (const shopId of shops) {
      const worker = (await shardOf(plain, shopId)).port;
      expect(worker).not.toBe(coordinator);
      expect(await portOf(routed, shopId)).toBe(worker);
      // Unnamed, or with routing off, the coordinator answers.
      expect(await portOf(plain, shopId)).toBe(coordinator);
    }
    expect(await portOf(routed)).toBe(coordinator);
  });

  it('when writes to one level alternate between a worker and the coordinator, then the ledger keeps one series of ids in the order of the writes', async () => {
    const [shopId] = shops as [string];
    for (let i = 0; i < 6; i++) {
      const answer = await adjustVariant2001(i % 2 ? viaCoordinator : viaWorker, shopId, 0.5);
      expect(answer.status).toBe(200);
    }
    const { rows, total } = await ledgerOf(shopId);
    expect(rows).toHaveLength(6);
    expectOneChain(rows);
    expect(total).toBe(3);
  });

  it('when writes through a worker and the coordinator race on one level, then none is lost and each key writes once', async () => {
    const [, shopId] = shops as [string, string];
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => adjustVariant2001(i % 2 ? viaCoordinator : viaWorker, shopId, 0.25)),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    // The same key sent through both at once (two instances, one routing): one write, one answer.
    const keys = Array.from({ length: 6 }, () => randomUUID());
    const pairs = await Promise.all(
      keys.map((key) =>
        Promise.all([adjustVariant2001(viaWorker, shopId, 1, key), adjustVariant2001(viaCoordinator, shopId, 1, key)]),
      ),
    );
    for (const [first, second] of pairs) {
      // A retry of a key that is still being written may be told so (409, retry); never run twice.
      for (const answer of [first, second]) expect([200, 409]).toContain(answer.status);
      if (first.status === 200 && second.status === 200) expect(second.body).toBe(first.body);
    }
    const { rows, total } = await ledgerOf(shopId);
    expectOneChain(rows);
    expect(rows).toHaveLength(24 + keys.length);
    expect(total).toBe(6 + keys.length);
  });

  it('when a routed write stores an event, then the coordinator hears it once it commits and never if it rolls back', async () => {
    const [, , shopId] = shops as [string, string, string];
    const heard: string[] = [];
    const unlisten = await plain.listen(PLATFORM_EVENT_STORED, (payload) => heard.push(payload));
    try {
      const event = (eventId: string) => ({
        shopId,
        eventId,
        topic: 'stock_changed' as const,
        payload: { locationId: '70001', variantId: '2001', available: 3 },
      });
      await expect(
        routed.transaction(
          async (tx) => {
            await storeEvent(tx, event('rolled-back'));
            throw new Error('rolled back on purpose');
          },
          { shopId },
        ),
      ).rejects.toThrow('rolled back on purpose');
      await routed.transaction((tx) => storeEvent(tx, event('committed')), { shopId });
      for (let waited = 0; !heard.includes(shopId) && waited < 5000; waited += 50) await sleep(50);
      expect(heard).toEqual([shopId]);
      const { rows } = await plain.query<{ id: string; event_id: string }>(
        `SELECT id::text, event_id FROM platform_events WHERE shop_id = $1`,
        [shopId],
      );
      expect(rows.map((r) => r.event_id)).toEqual(['committed']);
      expect(BigInt(rows[0]!.id)).toBeLessThan(WORKER_RANGE);
    } finally {
      await unlisten();
    }
  });

  it("when a routed write queues a stock push, then its generation is the coordinator's and the push workers hear of it after commit", async () => {
    const [shopId] = shops as [string];
    const heard: string[] = [];
    const unlisten = await plain.listen(PROJECTION_QUEUED, (payload) => heard.push(payload));
    try {
      const push = { locationId: '70001', variantId: '2001', available: 7, expected: 3 };
      await routed.transaction((tx) => queueProjections(tx, shopId, [push], 'gid://tare/Test/1'), { shopId });
      for (let waited = 0; !heard.includes(shopId) && waited < 5000; waited += 50) await sleep(50);
      expect(heard).toEqual([shopId]);
      const { rows } = await plain.query<{ generation: string; available: string }>(
        `SELECT generation::text, available::text FROM projection_outbox WHERE shop_id = $1`,
        [shopId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.available).toBe('7');
      expect(BigInt(rows[0]!.generation)).toBeLessThan(WORKER_RANGE);
    } finally {
      await unlisten();
    }
  });

  it('when a routed transaction would draw an id or notify on the worker, then it fails and writes nothing', async () => {
    const [shopId] = shops as [string];
    for (const sql of ["SELECT nextval('inventory_ledger_id_seq')", "SELECT pg_notify('tare_test', 'x')"]) {
      await expect(routed.transaction((tx) => tx.query(sql, []), { shopId })).rejects.toThrow(
        /through tx\.coordinator/,
      );
      // The same statement outside a routed transaction runs on the coordinator.
      await plain.transaction((tx) => tx.query(sql, []), { shopId });
    }
  });

  it('when a worker cannot be reached, then the coordinator serves the shop, the worker is not tried again at once, and it is once the look-up expires', async () => {
    // The coordinator names the shop's worker behind a proxy that refuses connections at first.
    const [shopId] = shops as [string];
    const worker = (await shardOf(plain, shopId)).port;
    let reachable = false;
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((socket) => {
      if (!reachable) return socket.destroy();
      sockets.add(socket);
      const upstream = net.connect(worker, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as net.AddressInfo).port;
    let lookups = 0;
    const coordinator = {
      query: async () => {
        lookups++;
        return { rows: [{ host: '127.0.0.1', port }] };
      },
    } as unknown as pg.Pool;
    const router = createShardRouter(coordinator, database.url, { connectionTimeoutMillis: 2000 });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await router.connect(shopId)).toBeUndefined();
      expect(await router.connect(shopId)).toBeUndefined();
      // One look-up for the placement, one failed connection.
      expect(lookups).toBe(1);
      reachable = true;
      vi.setSystemTime(Date.now() + 61_000);
      const client = await router.connect(shopId);
      expect(lookups).toBe(2);
      try {
        expect((await client!.query<{ port: number }>('SELECT inet_server_port() AS port')).rows[0]!.port).toBe(worker);
      } finally {
        client?.release();
      }
    } finally {
      vi.useRealTimers();
      await router.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
