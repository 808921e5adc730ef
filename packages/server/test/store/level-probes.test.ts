import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectLocalLevels, readLocalLevels } from '../../src/platform/local/levels-repository.js';
import type { Db, Queryable } from '../../src/store/db.js';
import { lockLevelsForImport } from '../../src/store/repositories/import-levels.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, shopFixture } from '../support/harness.js';
import { nodes, planOf } from '../support/plans.js';

const LEVELS = 4000;
const SLICE = 2000; // the import's slice of variants

// An import locks and projects its levels a slice at a time. Joined as a set, those
// statements hashed every level of the shop for each slice, so a catalog's import grew with its
// square (decision 66); each level must be a probe of the primary key instead.
// Plan shapes of PostgreSQL's own planner (planOf refuses Citus, which plans these statements as
// one task on the shop's shard): not run on Citus even in a TEST_CITUS_ALL sweep.
describe.each(testDrivers({ citus: false }))('level reads of an import slice on $name', ({ create }) => {
  let db: Db;
  let shopId: string;
  let keys: { locationId: string; variantId: string }[];

  beforeAll(async () => {
    db = await create();
    ({ shopId } = await seedShop(db, shopFixture()));
    // Variants copied from the fixture's first one, each with a level and a platform level.
    await db.query(
      `INSERT INTO variants (shop_id, id, product_id, position, title, price, unit, unit_value, display_style, rules, presets)
       SELECT shop_id, 'v' || n, product_id, 100 + n, title, price, unit, unit_value, display_style, rules, presets
       FROM variants, generate_series(1, ${LEVELS}) AS n WHERE shop_id = $1 AND id = '2001'`,
      [shopId],
    );
    for (const table of [
      'inventory_levels (shop_id, location_id, variant_id, total, unit)',
      'local_platform_levels (shop_id, location_id, variant_id, available)',
    ]) {
      const values = table.startsWith('inventory') ? "5, 'kg'" : '5';
      await db.query(
        `INSERT INTO ${table} SELECT $1, '70001', 'v' || n, ${values} FROM generate_series(1, ${LEVELS}) AS n`,
        [shopId],
      );
    }
    await db.query('ANALYZE');
    keys = Array.from({ length: SLICE }, (_, i) => ({ locationId: '70001', variantId: `v${2 * i + 1}` }));
  });
  afterAll(() => db?.close());

  it.each<[string, string, (q: Queryable) => Promise<unknown>]>([
    ['the import locks', 'inventory_levels', (q) => lockLevelsForImport(q, shopId, keys)],
    [
      'the embedded platform reads',
      'local_platform_levels',
      (q) => readLocalLevels(q, shopId, keys, { forUpdate: true }),
    ],
    [
      'the embedded platform projects',
      'local_platform_levels',
      (q) =>
        projectLocalLevels(
          q,
          shopId,
          keys.map((k) => ({ ...k, available: 1, expected: 5 })),
        ),
    ],
  ])(
    "when %s a slice of levels, then PostgreSQL's planner probes the primary key for each, never a scan of all",
    async (_, table, run) => {
      const plan = await planOf(db, run);

      const reads = nodes(plan).filter((n) => n['Relation Name'] === table && n['Node Type'] !== 'ModifyTable');
      expect(reads.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(reads.map((n) => n['Index Name'])).toContain(`${table}_pkey`);
    },
  );

  // Writes lock their levels in one sorted order, so a write and an import cannot wait on each
  // other in a cycle: the probes that lock must run over the keys already sorted.
  it.each<[string, (q: Queryable) => Promise<unknown>]>([
    ['the import locks', (q) => lockLevelsForImport(q, shopId, keys)],
    ['the embedded platform reads to write', (q) => readLocalLevels(q, shopId, keys, { forUpdate: true })],
    [
      'the embedded platform projects',
      (q) =>
        projectLocalLevels(
          q,
          shopId,
          keys.map((k) => ({ ...k, available: 1, expected: 5 })),
        ),
    ],
  ])("when %s a slice of levels, then PostgreSQL's plan locks them in key order", async (_, run) => {
    const plan = await planOf(db, run);

    const probing = nodes(plan).find(
      (n) => n['Node Type'] === 'Nested Loop' && nodes(n.Plans![1]!).some((m) => m['Node Type'] === 'LockRows'),
    );
    expect(probing, 'a nested loop whose inner side locks').toBeDefined();
    expect(nodes(probing!.Plans![0]!).map((n) => n['Node Type'])).toContain('Sort');
  });
});
