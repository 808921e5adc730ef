import type { MeasurementType } from '../../domain/units.js';
import type { Queryable } from '../db.js';
import { listVariantsPage, type VariantKey, type VariantRecord } from './catalog.js';

export interface ProductRow {
  id: string;
  title: string;
  measurementType: MeasurementType;
  variantCount: number;
}

/**
 * One page of a shop's products by id, strictly after `after` or before `before` (keyset: a
 * shop can hold 100k variants), always in ascending id order, with up to `limit + 1` rows so the
 * caller knows whether more exist that way. `search` matches an exact product id or a part of
 * the title (case-insensitive).
 */
export async function listProductsPage(
  db: Queryable,
  shopId: string,
  page: { after?: string; before?: string; search?: string; limit: number },
): Promise<ProductRow[]> {
  const params: unknown[] = [shopId, page.limit + 1, page.search ?? null];
  let where = '';
  if (page.after !== undefined) {
    params.push(page.after);
    where = 'AND p.id > $4';
  } else if (page.before !== undefined) {
    params.push(page.before);
    where = 'AND p.id < $4';
  }
  const order = page.before !== undefined ? 'DESC' : 'ASC';
  const { rows } = await db.query<{ id: string; title: string; measurement_type: MeasurementType; count: number }>(
    `SELECT p.id, p.title, p.measurement_type,
            (SELECT count(*)::int FROM variants v WHERE v.shop_id = $1 AND v.product_id = p.id) AS count
       FROM products p
      WHERE p.shop_id = $1 ${where}
        AND ($3::text IS NULL OR p.id = $3 OR strpos(lower(p.title), lower($3)) > 0)
      ORDER BY p.id ${order} LIMIT $2`,
    params,
  );
  const products = rows.map((row) => ({
    id: row.id,
    title: row.title,
    measurementType: row.measurement_type,
    variantCount: Number(row.count),
  }));
  return order === 'DESC' ? products.reverse() : products;
}

/** Every variant of a product in its stored order (position, id), read a page at a time. */
export async function listAllVariants(db: Queryable, shopId: string, productId: string): Promise<VariantRecord[]> {
  const all: VariantRecord[] = [];
  let from: VariantKey | undefined;
  for (;;) {
    const page = await listVariantsPage(db, shopId, productId, { direction: 'next', from, limit: 1000 });
    all.push(...page.slice(0, 1000));
    if (page.length <= 1000) return all;
    from = page[999]!;
  }
}

export interface StoredLevel {
  variantId: string;
  locationId: string;
  /** Exact decimal text in `unit`, the unit the level was last written in. */
  total: string;
  unit: string;
}

/** The stock levels of a product's variants, each in the unit it is kept in. */
export async function listProductLevels(db: Queryable, shopId: string, productId: string): Promise<StoredLevel[]> {
  const { rows } = await db.query<{ variant_id: string; location_id: string; total: string; unit: string }>(
    `SELECT l.variant_id, l.location_id, l.total::text AS total, l.unit
       FROM inventory_levels l JOIN variants v ON v.shop_id = l.shop_id AND v.id = l.variant_id
      WHERE l.shop_id = $1 AND v.product_id = $2 ORDER BY l.variant_id, l.location_id`,
    [shopId, productId],
  );
  return rows.map((row) => ({
    variantId: row.variant_id,
    locationId: row.location_id,
    total: row.total,
    unit: row.unit,
  }));
}

/** A level with the whole units Tare expects its platform to show (null before the first projection). */
export interface VariantLevel extends StoredLevel {
  platformAvailable: number | null;
}

/** The stock levels of these variants of the shop, each in the unit it is kept in. */
export async function listVariantLevels(db: Queryable, shopId: string, variantIds: string[]): Promise<VariantLevel[]> {
  const { rows } = await db.query<{
    variant_id: string;
    location_id: string;
    total: string;
    unit: string;
    platform_available: number | null;
  }>(
    `SELECT variant_id, location_id, total::text AS total, unit, platform_available::float8 AS platform_available
       FROM inventory_levels WHERE shop_id = $1 AND variant_id = ANY($2::text[]) ORDER BY variant_id, location_id`,
    [shopId, variantIds],
  );
  return rows.map((row) => ({
    variantId: row.variant_id,
    locationId: row.location_id,
    total: row.total,
    unit: row.unit,
    platformAvailable: row.platform_available,
  }));
}

/** A variant's price as the products list shows it. */
export interface VariantPriceRow {
  productId: string;
  id: string;
  title: string;
  /** Exact decimal text in the shop's currency, per `unitValue` `unit`. */
  price: string;
  unit: string;
  unitValue: string;
}

/** The first `perProduct` variants (in their stored order) of each of these products. */
export async function listFirstVariantPrices(
  db: Queryable,
  shopId: string,
  productIds: string[],
  perProduct: number,
): Promise<VariantPriceRow[]> {
  if (productIds.length === 0) return [];
  const { rows } = await db.query<{
    product_id: string;
    id: string;
    title: string;
    price: string;
    unit: string;
    unit_value: string;
  }>(
    `SELECT product_id, id, title, price, unit, unit_value FROM (
       SELECT v.product_id, v.id, v.title, v.price::text AS price, v.unit, v.unit_value::text AS unit_value,
              v.position, row_number() OVER (PARTITION BY v.product_id ORDER BY v.position, v.id) AS n
         FROM variants v WHERE v.shop_id = $1 AND v.product_id = ANY($2::text[])
     ) ranked WHERE n <= $3 ORDER BY product_id, position, id`,
    [shopId, productIds, perProduct],
  );
  return rows.map((row) => ({
    productId: row.product_id,
    id: row.id,
    title: row.title,
    price: row.price,
    unit: row.unit,
    unitValue: row.unit_value,
  }));
}
