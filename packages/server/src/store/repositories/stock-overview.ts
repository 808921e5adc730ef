import type { Queryable } from '../db.js';

export interface StockVariant {
  productId: string;
  productTitle: string;
  variantId: string;
  variantTitle: string;
  measurementType: string;
  /** The variant's unit measurement: its unit (the level's) and how many of it one platform unit is. */
  unit: string;
  unitValue: string;
}

export interface StockLocation {
  id: string;
  name: string;
}

/** Every variant of the shop in catalogue order (or the one asked), with its product. */
export async function listStockVariants(db: Queryable, shopId: string, variantId?: string): Promise<StockVariant[]> {
  const { rows } = await db.query<{
    product_id: string;
    product_title: string;
    variant_id: string;
    variant_title: string;
    measurement_type: string;
    unit: string;
    unit_value: string;
  }>(
    `SELECT p.id AS product_id, p.title AS product_title, v.id AS variant_id, v.title AS variant_title,
            p.measurement_type, v.unit, v.unit_value::text AS unit_value
       FROM variants v JOIN products p ON p.shop_id = v.shop_id AND p.id = v.product_id
      WHERE v.shop_id = $1 AND ($2::text IS NULL OR v.id = $2) ORDER BY p.title, p.id, v.position, v.id`,
    [shopId, variantId ?? null],
  );
  return rows.map((row) => ({
    productId: row.product_id,
    productTitle: row.product_title,
    variantId: row.variant_id,
    variantTitle: row.variant_title,
    measurementType: row.measurement_type,
    unit: row.unit,
    unitValue: row.unit_value,
  }));
}

export async function listStockLocations(db: Queryable, shopId: string, locationId?: string): Promise<StockLocation[]> {
  const { rows } = await db.query<StockLocation>(
    'SELECT id, name FROM locations WHERE shop_id = $1 AND ($2::text IS NULL OR id = $2) ORDER BY name, id',
    [shopId, locationId ?? null],
  );
  return rows;
}
