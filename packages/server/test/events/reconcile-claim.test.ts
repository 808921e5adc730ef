import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { claimReconciliation } from '../../src/store/repositories/reconciliation.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';

// The periodic reconciliation's claim: one instance per shop and period. On Citus its first form
// (interval arithmetic in ON CONFLICT's WHERE) was refused at every claim, so the periodic
// reconciliation never ran there; this suite runs on every store, Citus included.

describe.each(testDrivers({ citus: true }))('the periodic reconciliation claim on $name', ({ create }) => {
  let db: Db;
  let shopId: string;
  beforeAll(async () => {
    db = await create();
    ({ shopId } = await seedShop(db));
  });
  afterAll(async () => {
    await db?.close();
  });

  const lastRun = async () =>
    (
      await db.query<{ at: Date | null }>('SELECT last_reconciled_at AS at FROM shop_sync_state WHERE shop_id = $1', [
        shopId,
      ])
    ).rows[0]?.at ?? null;

  it('is taken once per period: the first claim wins, a second within the period does not', async () => {
    expect(await claimReconciliation(db, shopId, 3_600_000)).toBe(true);
    const first = await lastRun();
    expect(first).toBeInstanceOf(Date);
    expect(await claimReconciliation(db, shopId, 3_600_000)).toBe(false);
    expect(await lastRun()).toEqual(first);
  });

  it('is taken again once the last run is older than the period, which moves the time of the last run', async () => {
    // Two hours ago, as a value: Citus refuses interval arithmetic over a column in an UPDATE.
    await db.query('UPDATE shop_sync_state SET last_reconciled_at = $2 WHERE shop_id = $1', [
      shopId,
      new Date(Date.now() - 2 * 3_600_000),
    ]);
    const old = await lastRun();
    expect(await claimReconciliation(db, shopId, 3_600_000)).toBe(true);
    expect((await lastRun())!.getTime()).toBeGreaterThan(old!.getTime());
  });

  it('of two instances claiming at once, exactly one wins', async () => {
    await db.query(`UPDATE shop_sync_state SET last_reconciled_at = NULL WHERE shop_id = $1`, [shopId]);
    const wins = await Promise.all([1, 2, 3, 4].map(() => claimReconciliation(db, shopId, 3_600_000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});
