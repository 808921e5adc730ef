import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startAutovacuum } from '../../src/services/autovacuum.js';
import { maintainTable, tablesDue } from '../../src/store/autovacuum.js';
import type { Db } from '../../src/store/db.js';
import { reapKeys } from '../../src/store/repositories/idempotency.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';

const KEYS = 'public.idempotency_keys';
const pglite = testDrivers().find((d) => d.name === 'pglite')!;

// PGlite has no autovacuum daemon: the space of deleted rows is never reused without a VACUUM,
// so a table whose rows come and go (idempotency keys, written by every write and reaped after
// their retention) grows with the store's history (decision 67).
describe('autovacuum on PGlite', () => {
  let db: Db;
  let shopId: string;

  beforeEach(async () => {
    db = await pglite.create();
    ({ shopId } = await seedShop(db));
  });
  afterEach(() => db?.close());

  /** Stores `count` answered keys, as that many writes would, then reaps them all (expired). */
  async function churn(count: number): Promise<void> {
    await db.query(
      `INSERT INTO idempotency_keys (shop_id, key, fingerprint, response_status, response_body, request_id)
       SELECT $1, gen_random_uuid()::text, '\\x00', 200, repeat('x', 250), 'r' FROM generate_series(1, $2::int)`,
      [shopId, count],
    );
    expect(await reapKeys(db, 0)).toBe(count);
  }
  const size = async () =>
    Number((await db.query<{ size: string }>(`SELECT pg_relation_size('${KEYS}')::text AS size`)).rows[0]!.size);
  const due = async (table: string) => (await tablesDue(db)).find((t) => t.table === table);

  it("takes on a table by the daemon's thresholds: vacuum past 50 dead rows, analyze past 50 changed", async () => {
    await churn(10);
    expect(await due(KEYS)).toBeUndefined();

    await churn(40); // 100 rows changed (50 inserted, 50 deleted), 50 dead: analyze only
    expect(await due(KEYS)).toEqual({ table: KEYS, vacuum: false, analyze: true });
    await maintainTable(db, (await due(KEYS))!);
    expect(await due(KEYS)).toBeUndefined();

    await churn(60); // 60 more dead rows
    expect(await due(KEYS)).toEqual({ table: KEYS, vacuum: true, analyze: true });
    await maintainTable(db, (await due(KEYS))!);
    expect(await due(KEYS)).toBeUndefined();
    const stats = await db.query<{ dead: string; vacuumed: boolean; analyzed: boolean }>(
      `SELECT n_dead_tup::text AS dead, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed
       FROM pg_stat_user_tables WHERE relname = 'idempotency_keys'`,
    );
    expect(stats.rows).toEqual([{ dead: '0', vacuumed: true, analyzed: true }]);
  });

  it("keeps a churning table's size: each round reuses the space the last one freed", async () => {
    const autovacuum = startAutovacuum({ db, logger: createLogger('silent') });
    try {
      const sizes: number[] = [];
      for (let round = 0; round < 5; round++) {
        await churn(2000);
        expect((await autovacuum.run()).map((t) => t.table)).toContain(KEYS);
        sizes.push(await size());
      }
      expect(sizes.at(-1)).toBeLessThanOrEqual(sizes[1]!);
    } finally {
      await autovacuum.stop();
    }
  });

  it('without it, the same churn grows the table every round (what it prevents)', async () => {
    const sizes: number[] = [];
    for (let round = 0; round < 5; round++) {
      await churn(2000);
      sizes.push(await size());
    }
    expect(sizes.at(-1)).toBeGreaterThan(4 * sizes[0]!);
  });
});
