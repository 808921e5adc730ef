/**
 * PRODUCT.md §20 and decision 97: a stock item's level is the lock of its variants. A write to a
 * linked variant rewrites the item's level once (locking it writes nothing), and the import's
 * re-projection of a linked variant whose unit changed takes the item's level before the
 * variant's, as every write does, so it waits for a sale holding the item and projects the total
 * that sale left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { cheeseShop, PACK, WHEEL } from '../support/cheese-shop.js';
import { createPostgresDatabase, testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { inventorySender } from '../support/inventory-requests.js';
import type { RunningServer } from '../../src/main.js';

const adjust = inventorySender('/api/v1/inventory/adjustments', 'POST');

/** Counts the row versions written to `table` while `run` runs (a row trigger; an update to itself counts). */
async function rowVersionsWritten(db: Db, table: string, run: () => Promise<void>): Promise<number> {
  const counter = `test_${table}_writes`;
  await db.query(`CREATE TABLE IF NOT EXISTS ${counter} (n bigint NOT NULL);
    DELETE FROM ${counter}; INSERT INTO ${counter} VALUES (0);
    CREATE OR REPLACE FUNCTION ${counter}() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN UPDATE ${counter} SET n = n + 1; RETURN NULL; END $$;
    CREATE TRIGGER ${counter} AFTER INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${counter}()`);
  try {
    await run();
  } finally {
    await db.query(`DROP TRIGGER ${counter} ON ${table}`);
  }
  const { rows } = await db.query<{ n: string }>(`SELECT n::text FROM ${counter}`);
  return Number(rows[0]!.n);
}

describe.each(testDrivers({ citus: true }))('stock items: row versions of a write on $name', ({ name, create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  // The row trigger of rowVersionsWritten writes a table of the coordinator, which a trigger on a
  // worker's shard cannot reach (Citus already refuses to create it); the statements counted are
  // the same on Citus, as in inventory/concurrency.test.ts.
  it.skipIf(name === 'citus')(
    'an adjustment of a linked variant writes its item level once and each sibling row once',
    async () => {
      const shop = await seedShop(db, cheeseShop(2));
      let answer: Awaited<ReturnType<typeof adjust>> | undefined;
      const siblingRows = await rowVersionsWritten(db, 'inventory_levels', async () => {
        const itemRows = await rowVersionsWritten(db, 'stock_item_levels', async () => {
          answer = await adjust(server, shop.key, {
            locationId: '70001',
            adjustments: [{ variantId: PACK, delta: { value: -250, unit: 'g' } }],
          });
        });
        expect(itemRows, 'the item level: locked without a write, then written once').toBe(1);
      });
      expect(answer!.status, answer!.text).toBe(200);
      expect(siblingRows, 'the three siblings each keep a copy of the total').toBe(3);
      const level = await call(server, `/api/v1/inventory/levels?locationId=70001&variantId=${PACK}`, {
        key: shop.key,
      });
      expect(level.body.data.levels[0].quantity).toEqual({ value: 1750, unit: 'g' });
    },
  );

  it('a write at a location where the item has no level yet creates it at 0 and books on it', async () => {
    const shop = await seedShop(db, cheeseShop());
    const answer = await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [{ variantId: PACK, delta: { value: 500, unit: 'g' } }],
    });
    expect(answer.status, answer.text).toBe(200);
    const { rows } = await db.query<{ total: string }>(
      `SELECT total::text FROM stock_item_levels WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = $2`,
      [shop.shopId, WHEEL],
    );
    expect(rows.map((r) => Number(r.total))).toEqual([0.5]);
  });
});

/** The cheese shop's file again without its stock item (the stored links stay), the pack now per `grams`. */
function packResized(shop: ImportShop, grams: number): ImportShop {
  return {
    ...shop,
    stockItems: [],
    products: shop.products!.map((product) => ({
      ...product,
      variants: product.variants.map(({ stockItemId: _, ...variant }) =>
        variant.id === PACK ? { ...variant, unitMeasurement: { unit: 'g', value: grams } } : variant,
      ),
    })),
  };
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('stock items: the import re-projects under the item lock', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Db;
  /** Another instance's pool: the sale's transaction stays open while the import runs. */
  let saleDb: Db;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    db = await openPostgres({ connectionString: database.url, max: 6 });
    saleDb = await openPostgres({ connectionString: database.url, max: 2 });
    await migrate(db);
  });

  afterAll(async () => {
    await saleDb?.close();
    await db?.close();
    await database?.drop();
  });

  it('a unit change of a linked variant waits for a sale holding the item, then shows the total that sale left', async () => {
    const file = cheeseShop(1);
    const shop = await seedShop(db, file);
    const checked = validateImport({ shops: [packResized(file, 200)] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));

    let imported: Promise<unknown> | undefined;
    let importDone = false;
    let importWaited = false;
    await saleDb.transaction(async (sale) => {
      // A sale's first lock: the item's level.
      await sale.query(
        `SELECT total FROM stock_item_levels WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = $2
         FOR UPDATE`,
        [shop.shopId, WHEEL],
      );
      const { rows } = await sale.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      imported = importCatalog({ db, gateway: createLocalGateway() }, checked.value).finally(() => (importDone = true));
      // Until the import either finishes or waits for a lock held here (no time limit but the test's).
      while (!importDone && !importWaited) {
        const waiting = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
          [rows[0]!.pid],
        );
        importWaited = waiting.rows[0]!.n > 0;
        if (!importWaited) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // The sale's next lock, the sold variant's level, is free: the import holds nothing under the item.
      await sale.query(
        `SELECT total FROM inventory_levels WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2
         FOR UPDATE NOWAIT`,
        [shop.shopId, PACK],
      );
      await sale.query(
        `UPDATE stock_item_levels SET total = 0.8 WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = $2`,
        [shop.shopId, WHEEL],
      );
    });
    await imported;
    expect(importWaited, 'the import waited for the item level the sale held').toBe(true);
    const { rows } = await db.query<{ available: string }>(
      `SELECT available::text FROM local_platform_levels WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2`,
      [shop.shopId, PACK],
    );
    // 0.8 kg in packs of 200 g: 4 (the 1 kg before the sale would show 5).
    expect(rows[0]!.available).toBe('4');
  });
});
