import type { Queryable } from '../db.js';

/**
 * The shop's order watermark: orders changed on the platform since then may not have reached
 * Tare yet (null: ask for every order). Read and moved under `lockShopOrders`. With it, the
 * database's clock (`now()`: this transaction's start), from which the next watermark is set.
 */
export async function readOrdersWatermark(db: Queryable, shopId: string): Promise<{ until: Date | null; now: Date }> {
  const { rows } = await db.query<{ until: Date | null; now: Date }>(
    'SELECT (SELECT orders_synced_until FROM shops WHERE id = $1) AS until, now() AS now',
    [shopId],
  );
  return rows[0]!;
}

/** Moves the watermark forward (never back) to `until`. */
export async function advanceOrdersWatermark(db: Queryable, shopId: string, until: Date): Promise<void> {
  await db.query(
    `UPDATE shops SET orders_synced_until = GREATEST(COALESCE(orders_synced_until, $2), $2) WHERE id = $1`,
    [shopId, until.toISOString()],
  );
}

export async function markReconciled(db: Queryable, shopId: string): Promise<void> {
  await db.query('UPDATE shops SET last_reconciled_at = now() WHERE id = $1', [shopId]);
}
