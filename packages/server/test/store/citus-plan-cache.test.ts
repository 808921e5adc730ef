import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInventoryWriter } from '../../src/services/inventory/write-inventory.js';
import { leaksLocalPlans } from '../../src/store/citus-plan-cache.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { createCitusDatabase, shardOf } from '../support/citus.js';
import { type ServerDatabase, testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { adjustVariant2001 } from '../support/inventory-requests.js';

// Citus 13.2.2 leaks about 40 KB of a connection's memory at every run of a prepared statement on
// a shard the node holds itself (citusdata/citus#8824; src/store/citus-plan-cache.ts). Tare
// prepares every statement it sends with parameters, so a connection that writes a shard where it
// lives must not grow with the writes: the shard's worker under shard routing, and a coordinator
// that holds shards. Without the guard, 40 writes grew such a connection by 6–8 MB here.

const citus = testDrivers({ citus: true }).filter((driver) => driver.name === 'citus');
const WRITES = 40;
/** Far below the leak (several statements × 40 KB per write), far above a steady connection's drift. */
const MAX_GROWTH = 1024 * 1024;

describe.skipIf(citus.length === 0)("Citus's plans of prepared statements", () => {
  let database: ServerDatabase;
  let setup: Db;
  let onWorker: string;
  let onCoordinator: string;

  beforeAll(async () => {
    database = await citus[0]!.database!();
    setup = await openPostgres({ connectionString: database.url });
    onWorker = (await seedShop(setup)).shopId;
    const kept = await shardOf(setup, onWorker);
    // A second shop on another shard: its shard (and every table's colocated with it) moves to
    // the coordinator.
    let from = kept;
    while (from.shard === kept.shard) {
      onCoordinator = (await seedShop(setup)).shopId;
      from = await shardOf(setup, onCoordinator);
    }
    const port = Number(new URL(database.url).port);
    await setup.query(`SELECT citus_set_node_property('127.0.0.1', $1, 'shouldhaveshards', true)`, [port]);
    await setup.query(
      `SELECT citus_move_shard_placement($1::bigint, '127.0.0.1', $2, '127.0.0.1', $3, shard_transfer_mode := 'block_writes')`,
      [from.shard, from.port, port],
    );
  });
  afterAll(async () => {
    await setup?.close();
    await database?.drop();
  });

  /** The backend's memory after warm-up writes and after `WRITES` more, on a Tare of one connection. */
  async function growthOverWrites(shopId: string, shardRouting: boolean): Promise<{ growth: number; port: number }> {
    const db = await openPostgres({ connectionString: database.url, shardRouting, max: 1 });
    try {
      const write = createInventoryWriter({ db, gateway: createLocalGateway() });
      const adjust = async () => expect((await adjustVariant2001(write, shopId, 0.1)).status).toBe(200);
      const memory = () =>
        db.transaction(
          async (tx) => {
            const { rows } = await tx.query<{ bytes: string; port: number }>(
              'SELECT sum(total_bytes)::text AS bytes, inet_server_port() AS port FROM pg_backend_memory_contexts',
              [],
            );
            return { bytes: Number(rows[0]!.bytes), port: rows[0]!.port };
          },
          { shopId },
        );
      // Past PostgreSQL's first five custom plans, and Citus's first run of a generic one.
      for (let i = 0; i < 10; i++) await adjust();
      const before = await memory();
      for (let i = 0; i < WRITES; i++) await adjust();
      const after = await memory();
      expect(after.port).toBe(before.port);
      return { growth: after.bytes - before.bytes, port: after.port };
    } finally {
      await db.close();
    }
  }

  it("when a routed shop's writes run on its worker, then the worker's connection does not grow with them", async () => {
    const { growth, port } = await growthOverWrites(onWorker, true);
    expect(port).not.toBe(Number(new URL(database.url).port));
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it("when the coordinator holds a shop's shard, then its connection does not grow with the shop's writes", async () => {
    const { growth, port } = await growthOverWrites(onCoordinator, false);
    expect(port).toBe(Number(new URL(database.url).port));
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  /** `plan_cache_mode` of the connection that serves `shopId` (or no shop) on `db`. */
  const planCacheMode = (db: Db, shopId?: string) =>
    db.transaction(
      async (tx) =>
        (await tx.query<{ mode: string }>('SELECT current_setting($1) AS mode', ['plan_cache_mode'])).rows[0]!.mode,
      { shopId },
    );

  it("when a node's plans are guarded, then exactly the nodes whose probe finds the leak take custom plans", async () => {
    const db = await openPostgres({ connectionString: database.url, shardRouting: true });
    try {
      const worker = new URL(database.url);
      worker.port = String(
        await db.transaction(
          async (tx) => (await tx.query<{ port: number }>('SELECT inet_server_port() AS port', [])).rows[0]!.port,
          { shopId: onWorker },
        ),
      );
      const leaks = await leaksLocalPlans(worker.toString(), onWorker);
      expect(await planCacheMode(db, onWorker)).toBe(leaks ? 'force_custom_plan' : 'auto');
      const coordinatorLeaks = await leaksLocalPlans(database.url, onCoordinator);
      expect(await planCacheMode(db)).toBe(coordinatorLeaks ? 'force_custom_plan' : 'auto');
    } finally {
      await db.close();
    }
  });

  it('when a coordinator is to hold shards but no table is distributed yet, then its connections take custom plans', async () => {
    const empty = await createCitusDatabase(database.url);
    try {
      const url = new URL(empty.url);
      const setup = await openPostgres({ connectionString: empty.url });
      try {
        expect(await planCacheMode(setup)).toBe('auto');
        await setup.query(`SELECT citus_set_node_property('127.0.0.1', $1, 'shouldhaveshards', true)`, [
          Number(url.port),
        ]);
      } finally {
        await setup.close();
      }
      const guarded = await openPostgres({ connectionString: empty.url });
      try {
        expect(await planCacheMode(guarded)).toBe('force_custom_plan');
      } finally {
        await guarded.close();
      }
    } finally {
      await empty.drop();
    }
  });

  it("when the probe's shop has no shard on the node asked, then it cannot tell and reports a leak", async () => {
    // The coordinator holds `onCoordinator`'s shard and not `onWorker`'s.
    expect(await leaksLocalPlans(database.url, onWorker)).toBe(true);
  });
});
