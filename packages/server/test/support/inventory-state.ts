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

/** A level at location 70001 as the platform events see it: Tare's total, what the platform shows, what Tare expects it to. */
export async function followedLevel(db: Db, shopId: string, variantId: string) {
  const { rows } = await db.query<{ total: string; expected: string | null; platform: string | null }>(
    `SELECT l.total, l.platform_available AS expected, p.available AS platform FROM inventory_levels l
     LEFT JOIN local_platform_levels p USING (shop_id, location_id, variant_id)
     WHERE l.shop_id = $1 AND l.location_id = '70001' AND l.variant_id = $2`,
    [shopId, variantId],
  );
  const row = rows[0]!;
  return { total: row.total, platform: Number(row.platform), expected: Number(row.expected) };
}

/** A variant's ledger after its import: what was booked, and why. */
export async function bookedLedger(db: Db, shopId: string, variantId: string) {
  const { rows } = await db.query<{ operation: string; delta: string; reference_type: string; reference_id: string }>(
    `SELECT operation, delta::text, reference_type, reference_id FROM inventory_ledger
     WHERE shop_id = $1 AND variant_id = $2 AND operation <> 'import' ORDER BY id`,
    [shopId, variantId],
  );
  return rows.map((r) => ({
    operation: r.operation,
    delta: r.delta,
    reference: { type: r.reference_type, id: r.reference_id },
  }));
}
