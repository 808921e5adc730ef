import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { readLedgerPage } from '../../src/store/repositories/inventory-reads.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, shopFixture } from '../support/harness.js';
import { nodes, planOf } from '../support/plans.js';

// Plan shapes of PostgreSQL's own planner (planOf refuses Citus, which plans these statements as
// one task on the shop's shard): not run on Citus even in a TEST_CITUS_ALL sweep.
describe.each(testDrivers({ citus: false }))('inventory reads repository on $name', ({ create }) => {
  let db: Db;
  let shopId: string;

  beforeAll(async () => {
    db = await create();
    ({ shopId } = await seedShop(db, shopFixture()));
    // A ledger of 40 levels with 200 entries each, so the planner sees a table worth indexing.
    await db.query(
      `INSERT INTO inventory_ledger (shop_id, location_id, variant_id, operation, quantity_before, quantity_after,
         delta, unit)
       SELECT $1, '70001', (2001 + n % 40)::text, 'adjustment', 0, 1, 1, 'kg' FROM generate_series(1, 8000) AS n`,
      [shopId],
    );
    await db.query('ANALYZE inventory_ledger');
  });
  afterAll(() => db?.close());

  it.each([
    ['the first page', { direction: 'next' as const, limit: 51 }],
    ['a next page', { direction: 'next' as const, from: '4000', limit: 51 }],
    ['a previous page', { direction: 'prev' as const, from: '4000', limit: 51 }],
  ])(
    'when %s of a ledger is read, then PostgreSQL’s planner serves it in order from the level’s index, with no sort',
    async (_, page) => {
      const plan = await planOf(db, (q) => readLedgerPage(q, { shopId, locationId: '70001', variantId: '2001' }, page));

      const limit = nodes(plan).find(
        (n) => n['Node Type'] === 'Limit' && nodes(n).some((m) => m['Relation Name'] === 'inventory_ledger'),
      );
      expect(limit, JSON.stringify(plan)).toBeDefined();
      const [scan] = limit!.Plans!;
      expect(scan).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'inventory_ledger_level' });
    },
  );
});
