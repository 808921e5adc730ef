import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec, toPlainString } from '../../src/domain/decimal.js';
import { wholeUnitsOf } from '../../src/domain/sibling-units.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { buy, platformShows, settle, svcData } from '../sandbox/support.js';
import { cheeseShop, KILO, LOOSE, PACK, SIBLINGS, WHEEL } from '../support/cheese-shop.js';
import { type ServerDatabase, serverDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { inventorySender } from '../support/inventory-requests.js';

// PRODUCT.md §20: orders on different siblings of one stock item at once, on two instances of
// real PostgreSQL and Citus, never lose an update, and the platform never shows more than the item holds.

const adjust = inventorySender('/api/v1/inventory/adjustments', 'POST');

/** The i-th checkout: a sibling and what its line measures, in kg, with its whole units. */
function checkoutOf(i: number) {
  const sibling = SIBLINGS[i % 3]!;
  if (sibling === LOOSE) return { sibling, grams: 100 * (1 + (i % 4)), quantity: 1, unit: 'g' };
  if (sibling === PACK) return { sibling, grams: 250, quantity: 1 + (i % 2), unit: 'g' };
  return { sibling, grams: 1000, quantity: 1 + (i % 2), unit: 'kg' };
}

describe.each(serverDrivers({ citus: true }))('stock items under concurrency on $name', (driver) => {
  // On Citus each writing connection opens one to the shard's worker, which takes 100 shared
  // with the other test files running at once (as test/inventory/concurrency.test.ts).
  const POOL = driver.name === 'citus' ? 16 : 40;
  let database: ServerDatabase;
  let dbA: Db;
  let dbB: Db;
  let serverA: RunningServer;
  let serverB: RunningServer;

  beforeAll(async () => {
    database = await driver.database();
    dbA = await openPostgres({ connectionString: database.url, max: POOL });
    dbB = await openPostgres({ connectionString: database.url, max: POOL });
    serverA = await startTestServer(dbA);
    serverB = await startTestServer(dbB);
  });

  afterAll(async () => {
    await serverA?.close();
    await serverB?.close();
    await dbA?.close();
    await dbB?.close();
    await database?.drop();
  });

  /** The item's total, checked against its ledger (sum and chain) and every sibling's whole units. */
  async function expectWheel(shopId: string, key: string, expected: Dec) {
    const level = await dbA.query<{ total: string }>(
      `SELECT total FROM stock_item_levels WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = $2`,
      [shopId, WHEEL],
    );
    const ledger = await dbA.query<{ before: string; after: string; delta: string }>(
      `SELECT quantity_before AS before, quantity_after AS after, delta FROM inventory_ledger
       WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = $2 ORDER BY id`,
      [shopId, WHEEL],
    );
    expect(toPlainString(new Dec(level.rows[0]!.total))).toBe(toPlainString(expected));
    const sum = ledger.rows.reduce((acc, row) => acc.plus(row.delta), new Dec(0));
    expect(toPlainString(sum)).toBe(toPlainString(expected));
    const broken = ledger.rows.filter((row, i) => i > 0 && !new Dec(row.before).eq(ledger.rows[i - 1]!.after));
    expect(broken, 'a lost update shows as two rows starting from the same total').toEqual([]);
    const units = { [LOOSE]: ['g', 100], [PACK]: ['g', 250], [KILO]: ['kg', 1] } as const;
    for (const sibling of SIBLINGS) {
      const [unit, value] = units[sibling as keyof typeof units];
      const whole = wholeUnitsOf(expected, 'kg', unit, new Dec(value)).toNumber();
      expect(await platformShows(serverA, key, sibling), `sibling ${sibling}`).toBe(whole);
    }
  }

  it('32 checkouts of different siblings at once on two instances: every one booked once on the wheel', async () => {
    const shop = await seedShop(dbA, cheeseShop(40));
    const checkouts = Array.from({ length: 32 }, (_, i) => checkoutOf(i));
    await Promise.all(
      checkouts.map((c, i) =>
        buy(i % 2 ? serverB : serverA, shop.key, [
          {
            id: c.sibling,
            quantity: c.quantity,
            // A line measures in its variant's unit.
            properties: { _svc_data: svcData('weight', c.unit === 'kg' ? c.grams / 1000 : c.grams, c.unit) },
          },
        ]),
      ),
    );
    await settle(serverA, dbA, 60_000);
    await settle(serverB, dbB, 60_000);
    const sold = checkouts.reduce((kg, c) => kg.plus(new Dec(c.grams).times(c.quantity).div(1000)), new Dec(0));
    await expectWheel(shop.shopId, shop.key, new Dec(40).minus(sold));
  });

  it('32 API adjustments of different siblings at once: none is lost and every sibling shows the floor', async () => {
    const shop = await seedShop(dbA, cheeseShop(5));
    const deltas = Array.from({ length: 32 }, (_, i) => ({
      variantId: SIBLINGS[i % 3]!,
      delta: i % 2 ? { value: -(i * 7 + 3), unit: 'g' } : { value: Number((0.1 + i / 1000).toFixed(3)), unit: 'kg' },
    }));
    const answers = await Promise.all(
      deltas.map((d, i) => adjust(i % 2 ? serverB : serverA, shop.key, { locationId: '70001', adjustments: [d] })),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => a.text)).toEqual([]);
    const moved = deltas.reduce(
      (kg, d) => kg.plus(d.delta.unit === 'g' ? new Dec(d.delta.value).div(1000) : new Dec(String(d.delta.value))),
      new Dec(0),
    );
    await expectWheel(shop.shopId, shop.key, new Dec(5).plus(moved));
    const ledger = await call(serverB, `/api/v1/inventory/ledger?locationId=70001&variantId=${PACK}&limit=100`, {
      key: shop.key,
    });
    expect(ledger.body.data.entries).toHaveLength(33);
  });
});
