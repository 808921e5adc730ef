import type { Queryable } from '../db.js';

export interface LevelKey {
  shopId: string;
  locationId: string;
  variantId: string;
}

export interface LedgerEntry extends LevelKey {
  operation: 'adjustment' | 'set' | 'import' | 'order_edit';
  before: string;
  after: string;
  delta: string;
  unit: string;
  idempotencyKey: string | null;
  requestId: string | null;
}

/** The level's exact total (decimal text in `unit`), locking the row for this transaction. */
export async function lockLevel(db: Queryable, key: LevelKey): Promise<{ total: string; unit: string } | undefined> {
  const { rows } = await db.query<{ total: string; unit: string }>(
    `SELECT total, unit FROM inventory_levels
     WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3 FOR UPDATE`,
    [key.shopId, key.locationId, key.variantId],
  );
  return rows[0];
}

export async function writeLevel(db: Queryable, key: LevelKey, total: string, unit: string): Promise<void> {
  await db.query(
    `INSERT INTO inventory_levels (shop_id, location_id, variant_id, total, unit) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (shop_id, location_id, variant_id)
     DO UPDATE SET total = EXCLUDED.total, unit = EXCLUDED.unit, updated_at = now()`,
    [key.shopId, key.locationId, key.variantId, total, unit],
  );
}

export async function appendLedger(db: Queryable, entry: LedgerEntry): Promise<void> {
  await db.query(
    `INSERT INTO inventory_ledger (shop_id, location_id, variant_id, operation, quantity_before, quantity_after,
       delta, unit, idempotency_key, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      entry.shopId,
      entry.locationId,
      entry.variantId,
      entry.operation,
      entry.before,
      entry.after,
      entry.delta,
      entry.unit,
      entry.idempotencyKey,
      entry.requestId,
    ],
  );
}
