import type { MeasurementType } from '../../domain/units.js';
import type { Queryable } from '../db.js';

// Every table is named with `shop_id = $1`, so that on Citus each query runs on the shop's one shard.

/** A level as stored: decimal text in the unit it was counted in, at a named location. */
export interface HeldLevel {
  locationId: string;
  locationName: string;
  total: string;
  unit: string;
}

/** A stored variant's link, its product's type and its own level rows (for an import's link checks). */
export interface StoredLink {
  variantId: string;
  stockItemId: string | null;
  measurementType: MeasurementType;
  levels: HeldLevel[];
}

/** What the shop holds for these variants: their links and level rows (absent: not stored yet). */
export async function readStoredLinks(db: Queryable, shopId: string, variantIds: string[]) {
  const { rows } = await db.query<{
    id: string;
    stock_item_id: string | null;
    measurement_type: MeasurementType;
    levels: HeldLevel[] | null;
  }>(
    `SELECT v.id, v.stock_item_id, p.measurement_type,
       (SELECT json_agg(json_build_object('locationId', l.location_id, 'locationName', loc.name,
          'total', l.total::text, 'unit', l.unit) ORDER BY l.location_id COLLATE "C")
        FROM inventory_levels l JOIN locations loc ON loc.shop_id = $1 AND loc.id = l.location_id
        WHERE l.shop_id = $1 AND l.variant_id = v.id) AS levels
     FROM variants v JOIN products p ON p.shop_id = $1 AND p.id = v.product_id
     WHERE v.shop_id = $1 AND v.id = ANY($2::text[])`,
    [shopId, variantIds],
  );
  return new Map<string, StoredLink>(
    rows.map((row) => [
      row.id,
      {
        variantId: row.id,
        stockItemId: row.stock_item_id,
        measurementType: row.measurement_type,
        levels: row.levels ?? [],
      },
    ]),
  );
}

/** A stored stock item with its level rows and the variants linked to it (with their product's type). */
export interface StoredItemState {
  id: string;
  measurementType: MeasurementType;
  unit: string;
  levels: HeldLevel[];
  linked: { variantId: string; measurementType: MeasurementType }[];
}

export async function readStoredItems(db: Queryable, shopId: string, itemIds: string[]) {
  const { rows } = await db.query<{
    id: string;
    measurement_type: MeasurementType;
    unit: string;
    levels: HeldLevel[] | null;
    linked: { variantId: string; measurementType: MeasurementType }[] | null;
  }>(
    `SELECT i.id, i.measurement_type, i.unit,
       (SELECT json_agg(json_build_object('locationId', l.location_id, 'locationName', loc.name,
          'total', l.total::text, 'unit', l.unit) ORDER BY l.location_id COLLATE "C")
        FROM stock_item_levels l JOIN locations loc ON loc.shop_id = $1 AND loc.id = l.location_id
        WHERE l.shop_id = $1 AND l.stock_item_id = i.id) AS levels,
       (SELECT json_agg(json_build_object('variantId', v.id, 'measurementType', p.measurement_type)
          ORDER BY v.id COLLATE "C")
        FROM variants v JOIN products p ON p.shop_id = $1 AND p.id = v.product_id
        WHERE v.shop_id = $1 AND v.stock_item_id = i.id) AS linked
     FROM stock_items i WHERE i.shop_id = $1 AND i.id = ANY($2::text[])`,
    [shopId, itemIds],
  );
  return new Map<string, StoredItemState>(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        measurementType: row.measurement_type,
        unit: row.unit,
        levels: row.levels ?? [],
        linked: row.linked ?? [],
      },
    ]),
  );
}
