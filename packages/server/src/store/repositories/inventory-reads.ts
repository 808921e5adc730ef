import { type Actor, actorFromColumns } from '../../domain/actor.js';
import type { Queryable } from '../db.js';

// Reads of stock (PRODUCT.md §13), apart from the write path's locking queries.

/** A configured variant and its level at one location; the level fields are null when it has none. */
export interface LevelRead {
  variantId: string;
  /** The variant's unit (`unitMeasurement.unit`) and unit value, as decimal text. */
  unit: string;
  unitValue: string;
  /** The level's exact total, as decimal text in `levelUnit`. */
  total: string | null;
  levelUnit: string | null;
  /** The whole units Tare last projected to the platform (int8 as text); null if never. */
  platformAvailable: string | null;
  updatedAt: Date | null;
  /** The stock item the variant sells from: `total` and `levelUnit` are then the item's. */
  stockItemId: string | null;
}

/**
 * One round trip: whether the location exists, and for each of `variantIds` the shop has
 * configured, its level at the location (if any). Unknown variants are absent.
 */
export async function readLevels(
  db: Queryable,
  shopId: string,
  locationId: string,
  variantIds: string[],
): Promise<{ locationFound: boolean; levels: Map<string, LevelRead> }> {
  const { rows } = await db.query<{
    location_found: boolean;
    id: string | null;
    unit: string;
    unit_value: string;
    total: string | null;
    level_unit: string | null;
    platform_available: string | null;
    updated_at: Date | null;
    stock_item_id: string | null;
  }>(
    // A linked variant reads its item's level (PRODUCT.md §20), and its own row for what the platform was shown.
    `WITH v AS (SELECT id, unit, unit_value, stock_item_id FROM variants WHERE shop_id = $1 AND id = ANY($3::text[]))
     SELECT EXISTS (SELECT 1 FROM locations WHERE shop_id = $1 AND id = $2) AS location_found,
       v.id, v.unit, v.unit_value, v.stock_item_id,
       CASE WHEN v.stock_item_id IS NULL THEN l.total ELSE i.total END AS total,
       CASE WHEN v.stock_item_id IS NULL THEN l.unit ELSE i.unit END AS level_unit,
       l.platform_available, CASE WHEN v.stock_item_id IS NULL THEN l.updated_at ELSE i.updated_at END AS updated_at
     FROM (SELECT 1) AS one
     LEFT JOIN v ON true
     LEFT JOIN inventory_levels l ON l.shop_id = $1 AND l.location_id = $2 AND l.variant_id = v.id
     LEFT JOIN stock_item_levels i ON i.shop_id = $1 AND i.location_id = $2 AND i.stock_item_id = v.stock_item_id`,
    [shopId, locationId, variantIds],
  );
  const levels = new Map<string, LevelRead>();
  for (const row of rows) {
    if (row.id === null) continue;
    levels.set(row.id, {
      variantId: row.id,
      unit: row.unit,
      unitValue: row.unit_value,
      total: row.total,
      levelUnit: row.level_unit,
      platformAvailable: row.platform_available,
      updatedAt: row.updated_at,
      stockItemId: row.stock_item_id,
    });
  }
  return { locationFound: rows[0]?.location_found === true, levels };
}

/** One ledger row; quantities are decimal text in `unit`. */
export interface LedgerRow {
  id: string;
  operation: string;
  delta: string;
  before: string;
  after: string;
  unit: string;
  referenceType: string | null;
  referenceId: string | null;
  requestId: string | null;
  createdAt: Date;
  /** Who asked for the change; null for rows written before actors were kept. */
  actor: Actor | null;
  /** In a stock item's ledger: the variant that caused the entry (null for an import). */
  variantId?: string | null;
}

/**
 * Up to `limit` ledger rows of one level, keyset-paginated on the entry id over the index
 * inventory_ledger_level (shop_id, location_id, variant_id, id): `next` reads the entries older
 * than `before` (newest first), `prev` the entries newer than `after` (returned newest first
 * too). In the same round trip: whether the location and the variant exist for the shop.
 */
export async function readLedgerPage(
  db: Queryable,
  level: { shopId: string; locationId: string; variantId: string },
  page: { direction: 'next' | 'prev'; from?: string; limit: number },
): Promise<{ locationFound: boolean; variantFound: boolean; rows: LedgerRow[] }> {
  const own = await ledgerRows(db, level, page, 'variant');
  // A linked variant's ledger is its stock item's (PRODUCT.md §20), each entry naming its
  // variant: read over inventory_ledger_stock_item, a second round trip for linked variants only.
  const rows = own.rows[0]?.stock_item_id ? (await ledgerRows(db, level, page, 'item')).rows : own.rows;
  return collect(own.rows[0], rows, page.direction);
}

/** The columns of a ledger row as `LEDGER_COLUMNS` selects them. */
export interface LedgerColumns {
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
}

export const LEDGER_COLUMNS = `id, operation, delta, quantity_before, quantity_after, unit, reference_type, reference_id,
  request_id, created_at, actor_type, actor_id, actor_name, variant_id`;

/** A ledger row for readers; `withVariant` for a stock item's, whose entries name their variant. */
export function ledgerRowOf(row: LedgerColumns, withVariant: boolean): LedgerRow {
  return {
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
    ...(withVariant ? { variantId: row.variant_id } : {}),
  };
}

type LedgerQueryRow = Omit<LedgerColumns, 'id'> & {
  location_found: boolean;
  variant_found: boolean;
  stock_item_id: string | null;
  id: string | null;
};

function ledgerRows(
  db: Queryable,
  level: { shopId: string; locationId: string; variantId: string },
  page: { direction: 'next' | 'prev'; from?: string; limit: number },
  of: 'variant' | 'item',
) {
  const params: unknown[] = [level.shopId, level.locationId, level.variantId, page.limit];
  let keyset = '';
  if (page.from !== undefined) {
    params.push(page.from);
    keyset = page.direction === 'next' ? 'AND id < $5::bigint' : 'AND id > $5::bigint';
  }
  const order = page.direction === 'next' ? 'DESC' : 'ASC';
  // A variant's own level: its rows without an item, over inventory_ledger_level.
  const rowsOf =
    of === 'variant'
      ? 'variant_id = $3 AND stock_item_id IS NULL'
      : 'stock_item_id = (SELECT stock_item_id FROM variants WHERE shop_id = $1 AND id = $3)';
  return db.query<LedgerQueryRow>(
    `WITH page AS (
       SELECT ${LEDGER_COLUMNS}
       FROM inventory_ledger
       WHERE shop_id = $1 AND location_id = $2 AND ${rowsOf} ${keyset}
       ORDER BY id ${order} LIMIT $4)
     SELECT EXISTS (SELECT 1 FROM locations WHERE shop_id = $1 AND id = $2) AS location_found,
       EXISTS (SELECT 1 FROM variants WHERE shop_id = $1 AND id = $3) AS variant_found,
       (SELECT stock_item_id FROM variants WHERE shop_id = $1 AND id = $3) AS stock_item_id, page.*
     FROM (SELECT 1) AS one
     LEFT JOIN page ON true
     ORDER BY page.id ${order}`,
    params,
  );
}

function collect(first: LedgerQueryRow | undefined, rows: LedgerQueryRow[], direction: 'next' | 'prev') {
  const linked = first?.stock_item_id != null;
  const entries: LedgerRow[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    entries.push(ledgerRowOf({ ...row, id: row.id }, linked));
  }
  if (direction === 'prev') entries.reverse();
  return {
    locationFound: first?.location_found === true,
    variantFound: first?.variant_found === true,
    rows: entries,
  };
}
