import type { Queryable } from '../db.js';

/**
 * The shop's order watermark: orders changed on the platform since then may not have reached
 * Tare yet (null: ask for every order). Read and moved under `lockShopOrders`. With it, the
 * database's clock (`now()`: this transaction's start), from which the next watermark is set.
 */
export async function readOrdersWatermark(db: Queryable, shopId: string): Promise<{ until: Date | null; now: Date }> {
  const { rows } = await db.query<{ until: Date | null; now: Date }>(
    'SELECT (SELECT orders_synced_until FROM shop_sync_state WHERE shop_id = $1) AS until, now() AS now',
    [shopId],
  );
  return rows[0]!;
}

/** Moves the watermark forward (never back) to `until`. */
export async function advanceOrdersWatermark(db: Queryable, shopId: string, until: Date): Promise<void> {
  await db.query(
    `INSERT INTO shop_sync_state (shop_id, orders_synced_until) VALUES ($1, $2)
     ON CONFLICT (shop_id) DO UPDATE
       SET orders_synced_until = GREATEST(shop_sync_state.orders_synced_until, EXCLUDED.orders_synced_until)`,
    [shopId, until.toISOString()],
  );
}

// The time is taken in VALUES and set from EXCLUDED: Citus refuses now() in ON CONFLICT DO UPDATE SET.
export async function markReconciled(db: Queryable, shopId: string): Promise<void> {
  await db.query(
    `INSERT INTO shop_sync_state (shop_id, last_reconciled_at) VALUES ($1, now())
     ON CONFLICT (shop_id) DO UPDATE SET last_reconciled_at = EXCLUDED.last_reconciled_at`,
    [shopId],
  );
}
