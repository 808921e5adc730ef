import type { MeasurementType } from '../../domain/units.js';
import type { Queryable } from '../db.js';
import { appendLedger, type LedgerEntry } from './inventory.js';

// Stock items (PRODUCT.md §20): one stock per (location, item) shared by the variants linked to it.

export interface StockItemRecord {
  id: string;
  title: string;
  measurementType: MeasurementType;
  unit: string;
}

/** The shop's stock items among `ids` (all of them when `ids` is omitted), by id. */
export async function findStockItems(
  db: Queryable,
  shopId: string,
  ids?: string[],
): Promise<Map<string, StockItemRecord>> {
  const { rows } = await db.query<StockItemRecord>(
    `SELECT id, title, measurement_type AS "measurementType", unit FROM stock_items
     WHERE shop_id = $1 AND ($2::text[] IS NULL OR id = ANY($2::text[])) ORDER BY id COLLATE "C"`,
    [shopId, ids ?? null],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Inserts or updates stock items; returns how many rows changed (an unchanged item is not written). */
export async function upsertStockItems(db: Queryable, shopId: string, items: StockItemRecord[]): Promise<number> {
  if (items.length === 0) return 0;
  // Counted by RETURNING, not rowCount: Citus pulls an INSERT … SELECT from unnest(…) through the
  // coordinator and reports every row it sent, those the ON CONFLICT … WHERE left alone included.
  const { rows } = await db.query(
    `INSERT INTO stock_items AS s (shop_id, id, title, measurement_type, unit)
     SELECT $1, i.id, i.title, i.measurement_type, i.unit
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS i(id, title, measurement_type, unit)
     ORDER BY i.id COLLATE "C"
     ON CONFLICT (shop_id, id) DO UPDATE SET title = EXCLUDED.title, measurement_type = EXCLUDED.measurement_type,
       unit = EXCLUDED.unit
     WHERE (s.title, s.measurement_type, s.unit) IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.measurement_type, EXCLUDED.unit)
     RETURNING 1`,
    [
      shopId,
      items.map((i) => i.id),
      items.map((i) => i.title),
      items.map((i) => i.measurementType),
      items.map((i) => i.unit),
    ],
  );
  return rows.length;
}

/** Links variants to stock items (`null` unlinks); returns how many links changed. */
export async function linkVariants(
  db: Queryable,
  shopId: string,
  links: { variantId: string; stockItemId: string | null }[],
): Promise<number> {
  if (links.length === 0) return 0;
  const { rowCount } = await db.query(
    `UPDATE variants v SET stock_item_id = w.stock_item_id
     FROM unnest($2::text[], $3::text[]) AS w(variant_id, stock_item_id)
     WHERE v.shop_id = $1 AND v.id = w.variant_id AND v.stock_item_id IS DISTINCT FROM w.stock_item_id`,
    [shopId, links.map((l) => l.variantId), links.map((l) => l.stockItemId)],
  );
  return rowCount ?? 0;
}

/**
 * For the stock items any of `variantIds` is linked to, every variant linked to them (the
 * requested ones and their siblings), by item id, in variant id byte order. Variants without a
 * link are absent. Nothing is locked.
 */
export async function findSiblings(
  db: Queryable,
  shopId: string,
  variantIds: string[],
): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ stock_item_id: string; id: string }>(
    `SELECT s.stock_item_id, s.id FROM variants s
     WHERE s.shop_id = $1 AND s.stock_item_id IN (
       SELECT stock_item_id FROM variants WHERE shop_id = $1 AND id = ANY($2::text[]) AND stock_item_id IS NOT NULL)
     ORDER BY s.id COLLATE "C"`,
    [shopId, variantIds],
  );
  const siblings = new Map<string, string[]>();
  for (const row of rows) siblings.set(row.stock_item_id, [...(siblings.get(row.stock_item_id) ?? []), row.id]);
  return siblings;
}

/** An item's level locked for a write: its total (decimal text in `levelUnit`) and the item's own unit. */
export interface LockedItemLevel {
  stockItemId: string;
  measurementType: MeasurementType;
  unit: string;
  total: string;
  levelUnit: string;
}

/**
 * Locks the levels of these stock items at the location, creating missing ones at 0 in the
 * item's unit, in item id byte order: the first locks of any write touching a linked variant
 * (the lock order: item levels by item id, then variant levels by variant id; docs/operations.md).
 * An unknown location locks nothing and returns nothing.
 *
 * As for variant levels (`lockLevelsForWrite`), levels that all exist are locked with `FOR
 * UPDATE`, which writes nothing: the write then rewrites each item level once (`writeItemLevels`).
 * Only when one is missing do all of them go through an upsert in the same order, which creates
 * it, and then the same lock (an upsert was the lock for every write until 2026-11-26: each item
 * write left two row versions of its item level, one of them the level "updated" to itself).
 */
export async function lockItemLevels(
  db: Queryable,
  shopId: string,
  locationId: string,
  itemIds: string[],
): Promise<Map<string, LockedItemLevel>> {
  let locked = await lockExistingItemLevels(db, shopId, locationId, itemIds);
  // No row: a level is missing (nothing was locked), or there is nothing to lock (unknown location).
  if (locked.rows.length === 0 && (await createItemLevels(db, shopId, locationId, itemIds))) {
    locked = await lockExistingItemLevels(db, shopId, locationId, itemIds);
  }
  return new Map(
    locked.rows.map((row) => [
      row.id,
      {
        stockItemId: row.id,
        measurementType: row.measurement_type,
        unit: row.unit,
        total: row.total,
        levelUnit: row.level_unit,
      },
    ]),
  );
}

interface LockedItemLevelRow {
  id: string;
  measurement_type: MeasurementType;
  unit: string;
  total: string;
  level_unit: string;
}

/** The item levels locked in item id order when all exist; none locked (no row) otherwise. */
function lockExistingItemLevels(db: Queryable, shopId: string, locationId: string, itemIds: string[]) {
  return db.query<LockedItemLevelRow>(
    `WITH loc AS (SELECT id FROM locations WHERE shop_id = $1 AND id = $2),
     items AS (SELECT id, unit, measurement_type FROM stock_items WHERE shop_id = $1 AND id = ANY($3::text[])),
     complete AS (
       SELECT NOT EXISTS (
         SELECT 1 FROM items CROSS JOIN loc WHERE NOT EXISTS (
           SELECT 1 FROM stock_item_levels l
           WHERE l.shop_id = $1 AND l.location_id = loc.id AND l.stock_item_id = items.id)) AS ok),
     locked AS (
       SELECT l.stock_item_id, l.total, l.unit FROM stock_item_levels l
       WHERE (SELECT ok FROM complete) AND l.shop_id = $1 AND l.location_id = (SELECT id FROM loc)
         AND l.stock_item_id IN (SELECT id FROM items)
       ORDER BY l.stock_item_id COLLATE "C" FOR UPDATE)
     SELECT items.id, items.measurement_type, items.unit, locked.total, locked.unit AS level_unit
     FROM items JOIN locked ON locked.stock_item_id = items.id`,
    [shopId, locationId, itemIds],
  );
}

/**
 * `lockItemLevels` when a level is missing: every one upserted in item id order (missing ones at
 * 0), which locks them all; says whether the location and an item were found. An `INSERT …
 * SELECT` of the shop's colocated rows, joined on the shop, is routed whole to its shard on
 * Citus; inside a CTE beside the read it would run in steps (decision 119).
 */
async function createItemLevels(db: Queryable, shopId: string, locationId: string, itemIds: string[]) {
  const { rows } = await db.query(
    `INSERT INTO stock_item_levels AS l (shop_id, location_id, stock_item_id, total, unit)
     SELECT i.shop_id, loc.id, i.id, 0, i.unit
       FROM stock_items i JOIN locations loc ON loc.shop_id = i.shop_id AND loc.id = $2
      WHERE i.shop_id = $1 AND i.id = ANY($3::text[])
      ORDER BY i.id COLLATE "C"
     ON CONFLICT (shop_id, location_id, stock_item_id) DO UPDATE SET total = l.total
     RETURNING 1`,
    [shopId, locationId, itemIds],
  );
  return rows.length > 0;
}

/**
 * The levels, at these locations, of the stock item a variant is linked to (empty when it is not
 * linked), by location, locked in location byte order. Whatever then locks the variant's own
 * level takes it after its item's, in the writes' lock order (docs/operations.md).
 */
export async function lockItemLevelsOfVariant(
  db: Queryable,
  shopId: string,
  variantId: string,
  locationIds: string[],
): Promise<Map<string, { stockItemId: string; total: string; unit: string }>> {
  if (locationIds.length === 0) return new Map();
  const { rows } = await db.query<{ location_id: string; stock_item_id: string; total: string; unit: string }>(
    `SELECT l.location_id, l.stock_item_id, l.total, l.unit FROM stock_item_levels l
     JOIN variants v ON v.shop_id = l.shop_id AND v.stock_item_id = l.stock_item_id
     WHERE v.shop_id = $1 AND v.id = $2 AND l.location_id = ANY($3::text[])
     ORDER BY l.location_id COLLATE "C" FOR UPDATE OF l`,
    [shopId, variantId, locationIds],
  );
  return new Map(
    rows.map((row) => [row.location_id, { stockItemId: row.stock_item_id, total: row.total, unit: row.unit }]),
  );
}

/** A ledger row of an item's level: `variantId` names the variant that caused it (none for an import). */
export interface ItemLedgerEntry extends Omit<LedgerEntry, 'variantId'> {
  variantId: string | null;
  stockItemId: string;
}

/** What a write leaves on a linked variant's own row: the item's total and what the platform shows. */
export interface SiblingRow {
  variantId: string;
  total: string;
  unit: string;
  platformAvailable: number | null;
}

/**
 * Writes the items' new totals and each linked variant's copy of its item's total with what the
 * platform now shows (levels already locked), then appends the ledger rows as a variant's write
 * does (`appendLedger`). Two `UPDATE` CTEs in one statement are routed whole to the shop's shard on
 * Citus; an `INSERT` beside them would make Citus run the statement in steps (decision 119).
 */
export async function writeItemLevels(
  db: Queryable,
  shopId: string,
  locationId: string,
  write: {
    items: { stockItemId: string; total: string; unit: string }[];
    ledger: ItemLedgerEntry[];
    siblings: SiblingRow[];
  },
): Promise<void> {
  const { items, ledger, siblings } = write;
  // A WITH statement ends in a query: here, how many rows the two updates wrote.
  await db.query(
    `WITH items AS (
       UPDATE stock_item_levels l SET total = w.total, unit = w.unit, updated_at = now()
       FROM unnest($3::text[], $4::numeric[], $5::text[]) AS w(id, total, unit)
       WHERE l.shop_id = $1 AND l.location_id = $2 AND l.stock_item_id = w.id
       RETURNING 1),
     siblings AS (
       UPDATE inventory_levels l SET total = w.total, unit = w.unit, platform_available = w.platform_available,
         updated_at = now()
       FROM unnest($6::text[], $7::numeric[], $8::text[], $9::bigint[]) AS w(id, total, unit, platform_available)
       WHERE l.shop_id = $1 AND l.location_id = $2 AND l.variant_id = w.id
       RETURNING 1)
     SELECT (SELECT count(*) FROM items) + (SELECT count(*) FROM siblings) AS written`,
    [
      shopId,
      locationId,
      items.map((i) => i.stockItemId),
      items.map((i) => i.total),
      items.map((i) => i.unit),
      siblings.map((s) => s.variantId),
      siblings.map((s) => s.total),
      siblings.map((s) => s.unit),
      siblings.map((s) => s.platformAvailable),
    ],
  );
  await appendLedger(db, ledger);
}

/** The variants linked to each of these stock items, by item id, in variant id byte order. */
export async function listLinkedVariants(
  db: Queryable,
  shopId: string,
  itemIds: string[],
): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ stock_item_id: string; id: string }>(
    `SELECT stock_item_id, id FROM variants WHERE shop_id = $1 AND stock_item_id = ANY($2::text[])
     ORDER BY id COLLATE "C"`,
    [shopId, itemIds],
  );
  const linked = new Map<string, string[]>();
  for (const row of rows) linked.set(row.stock_item_id, [...(linked.get(row.stock_item_id) ?? []), row.id]);
  return linked;
}

/** The locations at which each of these stock items has a level, by item id. */
export async function itemLevelLocations(
  db: Queryable,
  shopId: string,
  itemIds: string[],
): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ stock_item_id: string; location_id: string }>(
    `SELECT stock_item_id, location_id FROM stock_item_levels WHERE shop_id = $1 AND stock_item_id = ANY($2::text[])`,
    [shopId, itemIds],
  );
  const at = new Map<string, string[]>();
  for (const row of rows) at.set(row.stock_item_id, [...(at.get(row.stock_item_id) ?? []), row.location_id]);
  return at;
}

/** A stock item's level at a location (null fields when it has none) and every variant linked to it. */
export interface ItemLevelRead {
  item: StockItemRecord;
  total: string | null;
  levelUnit: string | null;
  updatedAt: Date | null;
  variants: { variantId: string; unit: string; unitValue: string }[];
}

/**
 * One round trip: whether the location exists, and the item with its level there and its linked
 * variants (in variant id byte order); `item` undefined when the shop has no such item.
 */
export async function readItemLevel(
  db: Queryable,
  shopId: string,
  stockItemId: string,
  locationId: string,
): Promise<{ locationFound: boolean; level: ItemLevelRead | undefined }> {
  const { rows } = await db.query<{
    location_found: boolean;
    id: string | null;
    title: string;
    measurement_type: MeasurementType;
    unit: string;
    total: string | null;
    level_unit: string | null;
    updated_at: Date | null;
    variants: { variantId: string; unit: string; unitValue: string }[] | null;
  }>(
    `SELECT EXISTS (SELECT 1 FROM locations WHERE shop_id = $1 AND id = $3) AS location_found,
       i.id, i.title, i.measurement_type, i.unit, l.total, l.unit AS level_unit, l.updated_at,
       (SELECT json_agg(json_build_object('variantId', v.id, 'unit', v.unit, 'unitValue', v.unit_value::text)
          ORDER BY v.id COLLATE "C")
        FROM variants v WHERE v.shop_id = $1 AND v.stock_item_id = i.id) AS variants
     FROM (SELECT 1) AS one
     LEFT JOIN stock_items i ON i.shop_id = $1 AND i.id = $2
     LEFT JOIN stock_item_levels l ON l.shop_id = $1 AND l.location_id = $3 AND l.stock_item_id = i.id`,
    [shopId, stockItemId, locationId],
  );
  const row = rows[0]!;
  if (row.id === null) return { locationFound: row.location_found, level: undefined };
  return {
    locationFound: row.location_found,
    level: {
      item: { id: row.id, title: row.title, measurementType: row.measurement_type, unit: row.unit },
      total: row.total,
      levelUnit: row.level_unit,
      updatedAt: row.updated_at === null ? null : new Date(row.updated_at),
      variants: row.variants ?? [],
    },
  };
}
