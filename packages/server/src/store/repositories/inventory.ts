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

export interface LockedLevel {
  variantId: string;
  total: string;
  unit: string;
}

/**
 * Locks the levels of `variantIds` at one location for this transaction, creating missing ones
 * at zero in `units[i]`. Rows are created and locked in one fixed order (variant id, byte
 * order), so two batches touching the same variants in any order can never deadlock.
 */
export async function lockLevels(
  db: Queryable,
  shopId: string,
  locationId: string,
  levels: { variantId: string; unit: string }[],
): Promise<Map<string, LockedLevel>> {
  const sorted = [...levels].sort((a, b) => (a.variantId < b.variantId ? -1 : a.variantId > b.variantId ? 1 : 0));
  // One statement: missing levels are created at zero, existing ones "updated" to themselves,
  // which locks them (waiting for any writer holding them) and returns their latest committed
  // total. Rows are processed, and so locked, in the SELECT's order.
  const { rows } = await db.query<{ variant_id: string; total: string; unit: string }>(
    `INSERT INTO inventory_levels AS l (shop_id, location_id, variant_id, total, unit)
     SELECT $1, $2, v.id, 0, v.unit FROM unnest($3::text[], $4::text[]) AS v(id, unit)
     ORDER BY v.id COLLATE "C"
     ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET total = l.total
     RETURNING l.variant_id, l.total, l.unit`,
    [shopId, locationId, sorted.map((l) => l.variantId), sorted.map((l) => l.unit)],
  );
  return new Map(rows.map((r) => [r.variant_id, { variantId: r.variant_id, total: r.total, unit: r.unit }]));
}

/** Writes new totals (already locked by `lockLevels`) and appends their ledger rows, in two statements. */
export async function writeLevelsWithLedger(db: Queryable, entries: LedgerEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const [first] = entries;
  const column = <K extends keyof LedgerEntry>(k: K) => entries.map((e) => e[k]);
  // One round trip: the totals and their ledger rows (different tables, so the two
  // data-modifying parts of the statement cannot see or disturb each other).
  await db.query(
    `WITH v AS (
       SELECT * FROM unnest($6::text[], $7::numeric[], $8::numeric[], $9::numeric[], $10::text[])
         WITH ORDINALITY AS v(id, before, after, delta, unit, n)),
     updated AS (
       UPDATE inventory_levels l SET total = v.after, unit = v.unit, updated_at = now()
       FROM v WHERE l.shop_id = $1 AND l.location_id = $2 AND l.variant_id = v.id)
     INSERT INTO inventory_ledger (shop_id, location_id, variant_id, operation, quantity_before, quantity_after,
       delta, unit, idempotency_key, request_id)
     SELECT $1, $2, v.id, $3, v.before, v.after, v.delta, v.unit, $4, $5 FROM v ORDER BY v.n`,
    [
      first!.shopId,
      first!.locationId,
      first!.operation,
      first!.idempotencyKey,
      first!.requestId,
      column('variantId'),
      column('before'),
      column('after'),
      column('delta'),
      column('unit'),
    ],
  );
}
