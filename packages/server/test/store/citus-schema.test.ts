import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { onCitus } from '../../src/store/migrate.js';
import { testDrivers } from '../support/databases.js';

// Migration 0025 on Citus (docs/operations.md, "Running on Citus"): the cross-shop tables are
// reference tables and every other table with a shop_id is distributed by it, all colocated.
const REFERENCE_TABLES = [
  'admin_form_submissions',
  'admin_sessions',
  'admin_users',
  'api_keys',
  'server_secrets',
  'shopify_connections',
  'shops',
];

const citus = testDrivers({ citus: true }).filter((driver) => driver.name === 'citus');

describe.skipIf(citus.length === 0)('Tare migrated on Citus', () => {
  let db: Db;
  let plain: Db;
  beforeAll(async () => {
    [db, plain] = await Promise.all([citus[0]!.create(), testDrivers()[0]!.create()]);
  });
  afterAll(() => Promise.all([db?.close(), plain?.close()]));

  const placement = async () =>
    (
      await db.query<{ table: string; kind: string; colocation: number; has_shop_id: boolean }>(
        `SELECT c.relname AS table,
                CASE WHEN p.partmethod = 'h' THEN 'distributed:' || column_to_column_name(p.logicalrelid, p.partkey)
                     WHEN p.repmodel = 't' THEN 'reference' WHEN p.logicalrelid IS NULL THEN 'local'
                     ELSE 'citus local' END AS kind,
                p.colocationid AS colocation,
                EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'shop_id') AS has_shop_id
           FROM pg_class c LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
          WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
          ORDER BY 1`,
      )
    ).rows;

  it('makes the cross-shop tables reference tables and leaves only the migrations log on the coordinator', async () => {
    const tables = await placement();
    expect(tables.filter((t) => t.kind === 'reference').map((t) => t.table)).toEqual(REFERENCE_TABLES);
    expect(tables.filter((t) => t.kind === 'local' || t.kind === 'citus local').map((t) => t.table)).toEqual([
      'schema_migrations',
    ]);
  });

  it('distributes every other table with a shop_id by shop_id, all in one colocation group', async () => {
    const tenant = (await placement()).filter((t) => t.has_shop_id && !REFERENCE_TABLES.includes(t.table));
    expect(tenant.length).toBeGreaterThan(20);
    for (const table of tenant) expect(table, table.table).toMatchObject({ kind: 'distributed:shop_id' });
    expect(new Set(tenant.map((t) => t.colocation)).size).toBe(1);
  });

  it('keeps every foreign key, and puts shop_id first in the keys that lacked it', async () => {
    const { rows: keys } = await db.query<{ table: string; key: string }>(
      `SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS key FROM pg_constraint
        WHERE contype = 'p' AND conrelid::regclass::text IN ('inventory_ledger', 'order_edits', 'platform_events')
        ORDER BY 1`,
    );
    expect(keys).toEqual([
      { table: 'inventory_ledger', key: 'PRIMARY KEY (shop_id, id)' },
      { table: 'order_edits', key: 'PRIMARY KEY (shop_id, id)' },
      { table: 'platform_events', key: 'PRIMARY KEY (shop_id, id)' },
    ]);
    // Migration 0025 sets the foreign keys aside while it places the tables: all of PostgreSQL's
    // are back.
    expect(await foreignKeys(db)).toEqual(await foreignKeys(plain));
  });

  it('is told from PostgreSQL (tare serve names the store it runs on)', async () => {
    expect([await onCitus(db), await onCitus(plain)]).toEqual([true, false]);
  });

  it('refuses a row whose shop does not exist, through the foreign key to the reference table', async () => {
    await expect(
      db.query(`INSERT INTO locations (shop_id, id, name) VALUES (987654321, 'l', 'nowhere')`),
    ).rejects.toThrow(/foreign key/);
  });
});

/** Every foreign key of the schema's tables, as `table: definition` (not the shards' on the coordinator). */
async function foreignKeys(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>(
    `SELECT conrelid::regclass::text || ': ' || pg_get_constraintdef(oid) AS key FROM pg_constraint
      WHERE contype = 'f' AND connamespace = 'public'::regnamespace
        AND conrelid::regclass::text !~ '_[0-9]+$'
      ORDER BY 1`,
  );
  return rows.map((r) => r.key);
}
