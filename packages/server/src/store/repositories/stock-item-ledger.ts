import { actorFromColumns } from '../../domain/actor.js';
import type { Queryable } from '../db.js';
import type { LedgerRow } from './inventory-reads.js';

/**
 * The newest `limit` ledger rows of a stock item's level at a location (newest first), over the
 * index inventory_ledger_stock_item; each names the variant that caused it (null for an import or
 * a write on the item itself). The admin's item page reads it by the item, which may have no
 * linked variant to read it through.
 */
export async function readItemLedger(
  db: Queryable,
  shopId: string,
  stockItemId: string,
  locationId: string,
  limit: number,
): Promise<LedgerRow[]> {
  const { rows } = await db.query<{
    id: string;
    operation: string;
    delta: string;
    quantity_before: string;
    quantity_after: string;
    unit: string;
    reference_type: string | null;
    reference_id: string | null;
    request_id: string | null;
    created_at: Date;
    actor_type: string | null;
    actor_id: string | null;
    actor_name: string | null;
    variant_id: string | null;
  }>(
    `SELECT id, operation, delta, quantity_before, quantity_after, unit, reference_type, reference_id, request_id,
       created_at, actor_type, actor_id, actor_name, variant_id
     FROM inventory_ledger WHERE shop_id = $1 AND location_id = $2 AND stock_item_id = $3
     ORDER BY id DESC LIMIT $4`,
    [shopId, locationId, stockItemId, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    operation: row.operation,
    delta: row.delta,
    before: row.quantity_before,
    after: row.quantity_after,
    unit: row.unit,
    referenceType: row.reference_type,
    referenceId: row.reference_id,
    requestId: row.request_id,
    createdAt: new Date(row.created_at),
    actor: actorFromColumns(row.actor_type, row.actor_id, row.actor_name),
    variantId: row.variant_id,
  }));
}
