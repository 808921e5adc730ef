import type { Queryable } from '../db.js';
import { LEDGER_COLUMNS, ledgerRowOf, type LedgerColumns, type LedgerRow } from './inventory-reads.js';

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
  const { rows } = await db.query<LedgerColumns>(
    `SELECT ${LEDGER_COLUMNS}
     FROM inventory_ledger WHERE shop_id = $1 AND location_id = $2 AND stock_item_id = $3
     ORDER BY id DESC LIMIT $4`,
    [shopId, locationId, stockItemId, limit],
  );
  return rows.map((row) => ledgerRowOf(row, true));
}
