import type { Db } from '../../src/store/db.js';

// Reading inventory state straight from the database, to prove what a request did or did not write.

/** Everything an inventory write may touch for a shop, without timestamps. */
export async function snapshot(db: Db, shopId: string) {
  const rows = async (sql: string) => (await db.query<Record<string, unknown>>(sql, [shopId])).rows;
  return {
    levels: await rows(
      `SELECT location_id, variant_id, total::text AS total, unit FROM inventory_levels
       WHERE shop_id = $1 ORDER BY location_id, variant_id`,
    ),
    ledger: await rows(
      `SELECT id::text AS id, location_id, variant_id, operation, quantity_before::text AS before,
         quantity_after::text AS after, delta::text AS delta, unit, idempotency_key, request_id
       FROM inventory_ledger WHERE shop_id = $1 ORDER BY inventory_ledger.id`,
    ),
    platform: await rows(
      `SELECT location_id, variant_id, available::text AS available FROM local_platform_levels
       WHERE shop_id = $1 ORDER BY location_id, variant_id`,
    ),
    keys: await rows(
      `SELECT key, response_status, response_body, request_id FROM idempotency_keys WHERE shop_id = $1 ORDER BY key`,
    ),
  };
}
export async function total(db: Db, shopId: string, variantId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ total: string }>(
    `SELECT total::text AS total FROM inventory_levels WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2`,
    [shopId, variantId],
  );
  return rows[0]?.total;
}
export async function platformLevel(db: Db, shopId: string, variantId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ available: string }>(
    `SELECT available::text AS available FROM local_platform_levels
     WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2`,
    [shopId, variantId],
  );
  return rows[0]?.available;
}
export async function ledgerOf(db: Db, shopId: string, requestId: string) {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT variant_id, operation, quantity_before::text AS before, quantity_after::text AS after, delta::text AS delta,
       unit, idempotency_key, request_id
     FROM inventory_ledger WHERE shop_id = $1 AND request_id = $2 ORDER BY id`,
    [shopId, requestId],
  );
  return rows;
}
