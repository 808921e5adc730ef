import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate } from '../../src/store/migrate.js';
import { testDrivers } from '../support/databases.js';

// Migration 0026 on a store that already holds sandbox orders: each shop's orders are numbered
// from #1001 in the order they were placed, and the orders Tare tracks take those names.

const BEFORE = mkdtempSync(join(tmpdir(), 'tare-before-0026-'));
for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql') && f < '0026')) {
  copyFileSync(join(MIGRATIONS_DIR, file), join(BEFORE, file));
}
afterAll(() => rmSync(BEFORE, { recursive: true, force: true }));

describe.each(testDrivers({ migrationsDir: BEFORE, citus: true }))('migration 0026 on $name', ({ create }) => {
  it('when sandbox orders exist, then each shop’s are named #1001 on in the order placed, and tracked orders take the names', async () => {
    const db = await create();
    try {
      const shops: string[] = [];
      for (const domain of ['first.example', 'second.example']) {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO shops (domain, currency, default_locale) VALUES ($1, 'USD', 'en') RETURNING id::text AS id`,
          [domain],
        );
        shops.push(rows[0]!.id);
        await db.query(`INSERT INTO locations (shop_id, id, name) VALUES ($1, '70001', 'Main')`, [rows[0]!.id]);
      }
      const [first, second] = shops as [string, string];
      // Ids out of the order placed: the number follows when an order was placed, not its id.
      const orders: [string, string, number][] = [
        [first, '900000009', 3],
        [first, '900000002', 2],
        [first, '900000005', 1],
        [second, '900000007', 1],
      ];
      for (const [shop, id, minutesAgo] of orders) {
        await db.query(
          `INSERT INTO local_platform_orders (shop_id, id, status, location_id, created_at)
           VALUES ($1, $2, 'open', '70001', now() - make_interval(mins => $3))`,
          [shop, id, minutesAgo],
        );
      }
      await db.query(`INSERT INTO tracked_orders (shop_id, order_id) VALUES ($1, '900000005'), ($1, '4242')`, [first]);

      expect(await migrate(db)).toEqual(['0026-order-customer.sql']);

      const numbered = await db.query<{ shop_id: string; id: string; order_number: string }>(
        `SELECT shop_id::text AS shop_id, id, order_number::text AS order_number FROM local_platform_orders
          ORDER BY shop_id, order_number`,
      );
      expect(numbered.rows).toEqual([
        { shop_id: first, id: '900000009', order_number: '1001' },
        { shop_id: first, id: '900000002', order_number: '1002' },
        { shop_id: first, id: '900000005', order_number: '1003' },
        { shop_id: second, id: '900000007', order_number: '1001' },
      ]);
      const tracked = await db.query<{ order_id: string; order_name: string | null }>(
        'SELECT order_id, order_name FROM tracked_orders WHERE shop_id = $1 ORDER BY order_id',
        [first],
      );
      // An order of another platform (not in the sandbox) keeps no name until its next sync.
      expect(tracked.rows).toEqual([
        { order_id: '4242', order_name: null },
        { order_id: '900000005', order_name: '#1003' },
      ]);
    } finally {
      await db.close();
    }
  });
});
