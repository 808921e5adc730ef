import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { listSkippedOrders } from '../../src/store/repositories/order-bookings.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, shopFixture } from '../support/harness.js';
import { nodes, planOf } from '../support/plans.js';

// Plan shapes of PostgreSQL's own planner (planOf refuses Citus, which plans these statements as
// one task on the shop's shard): not run on Citus even in a TEST_CITUS_ALL sweep.
describe.each(testDrivers({ citus: false }))('skipped order lines on $name', ({ create }) => {
  let db: Db;
  let shopId: string;

  beforeAll(async () => {
    db = await create();
    ({ shopId } = await seedShop(db, shopFixture()));
    // 8,000 orders followed, one in a hundred with a line Tare could not book.
    await db.query(
      `INSERT INTO tracked_orders (shop_id, order_id, skipped, updated_at)
       SELECT $1, (600000 + n)::text,
         CASE WHEN n % 100 = 0 THEN jsonb_build_array(jsonb_build_object('lineItemId', n::text,
           'variantId', '2001', 'reason', 'invalid_svc_data')) ELSE '[]'::jsonb END,
         now() - make_interval(secs => n)
       FROM generate_series(1, 8000) AS n`,
      [shopId],
    );
    await db.query('ANALYZE tracked_orders');
  });
  afterAll(() => db?.close());

  it('when the latest orders with skipped lines are listed, then only those are read, through their own index (PostgreSQL’s planner)', async () => {
    const listed = await listSkippedOrders(db, shopId, 5);
    expect(listed.map((o) => o.orderId)).toEqual(['600100', '600200', '600300', '600400', '600500']);
    expect(listed[0]!.skipped).toEqual([{ lineItemId: '100', variantId: '2001', reason: 'invalid_svc_data' }]);

    const plan = await planOf(db, (q) => listSkippedOrders(q, shopId, 5));
    const scans = nodes(plan).filter((n) => n['Relation Name'] === 'tracked_orders');
    expect(scans, JSON.stringify(plan)).toEqual([
      expect.objectContaining({ 'Node Type': 'Index Scan', 'Index Name': 'tracked_orders_skipped' }),
    ]);
  });
});
