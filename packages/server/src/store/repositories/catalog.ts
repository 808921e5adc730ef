import type { MeasurementType } from '../../domain/units.js';
import type { Queryable } from '../db.js';

export interface ProductRecord {
  id: string;
  title: string;
  measurementType: MeasurementType;
}

export interface VariantRules {
  min: number;
  increment: number;
  defaultValue: number;
  max: number | null;
}

export interface VariantPreset {
  value: number;
  label?: string;
  price?: string;
}

export interface VariantRecord {
  id: string;
  productId: string;
  position: number;
  title: string;
  /** Price per unit measurement: exact decimal text in the shop's currency. */
  price: string;
  unit: string;
  /** unitMeasurement.value: exact decimal text. */
  unitValue: string;
  displayStyle: 'number' | 'pills' | 'dropdown';
  rules: VariantRules | null;
  presets: VariantPreset[] | null;
}

interface VariantRow {
  id: string;
  product_id: string;
  position: number;
  title: string;
  price: string;
  unit: string;
  unit_value: string;
  display_style: VariantRecord['displayStyle'];
  rules: VariantRules | null;
  presets: VariantPreset[] | null;
}

const VARIANT_COLUMNS = 'id, product_id, position, title, price, unit, unit_value, display_style, rules, presets';

function toVariant(row: VariantRow): VariantRecord {
  return {
    id: row.id,
    productId: row.product_id,
    position: row.position,
    title: row.title,
    price: row.price,
    unit: row.unit,
    unitValue: row.unit_value,
    displayStyle: row.display_style,
    rules: row.rules,
    presets: row.presets,
  };
}

export async function findProduct(db: Queryable, shopId: string, id: string): Promise<ProductRecord | undefined> {
  const { rows } = await db.query<{ id: string; title: string; measurement_type: MeasurementType }>(
    'SELECT id, title, measurement_type FROM products WHERE shop_id = $1 AND id = $2',
    [shopId, id],
  );
  const row = rows[0];
  return row && { id: row.id, title: row.title, measurementType: row.measurement_type };
}

export async function findVariant(
  db: Queryable,
  shopId: string,
  productId: string,
  variantId: string,
): Promise<VariantRecord | undefined> {
  const { rows } = await db.query<VariantRow>(
    `SELECT ${VARIANT_COLUMNS} FROM variants WHERE shop_id = $1 AND product_id = $2 AND id = $3`,
    [shopId, productId, variantId],
  );
  return rows[0] && toVariant(rows[0]);
}

/** Keyset position of a variant within its product: (position, id). */
export interface VariantKey {
  position: number;
  id: string;
}

/**
 * Up to `limit + 1` variants strictly after (`direction: 'next'`) or before (`'prev'`) `from`,
 * always returned in ascending (position, id) order. The extra row tells the caller whether
 * more exist in that direction.
 */
export async function listVariantsPage(
  db: Queryable,
  shopId: string,
  productId: string,
  page: { direction: 'next' | 'prev'; from?: VariantKey; limit: number },
): Promise<VariantRecord[]> {
  const params: unknown[] = [shopId, productId, page.limit + 1];
  let where = '';
  if (page.from) {
    params.push(page.from.position, page.from.id);
    where = page.direction === 'next' ? 'AND (position, id) > ($4, $5)' : 'AND (position, id) < ($4, $5)';
  }
  const order = page.direction === 'next' ? 'ASC' : 'DESC';
  const { rows } = await db.query<VariantRow>(
    `SELECT ${VARIANT_COLUMNS} FROM variants WHERE shop_id = $1 AND product_id = $2 ${where}
     ORDER BY position ${order}, id ${order} LIMIT $3`,
    params,
  );
  const variants = rows.map(toVariant);
  return page.direction === 'next' ? variants : variants.reverse();
}

/** The measurement types and variant units a shop sells, for its label set. */
export async function listEnabledUnits(
  db: Queryable,
  shopId: string,
): Promise<{ type: MeasurementType; units: string[] }[]> {
  const { rows } = await db.query<{ measurement_type: MeasurementType; units: string[] | null }>(
    `SELECT p.measurement_type, array_remove(array_agg(DISTINCT v.unit), NULL) AS units
     FROM products p LEFT JOIN variants v ON v.shop_id = p.shop_id AND v.product_id = p.id
     WHERE p.shop_id = $1 GROUP BY p.measurement_type ORDER BY p.measurement_type`,
    [shopId],
  );
  return rows.map((row) => ({ type: row.measurement_type, units: row.units ?? [] }));
}

export async function upsertProduct(db: Queryable, shopId: string, product: ProductRecord): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO products (shop_id, id, title, measurement_type) VALUES ($1, $2, $3, $4)
     ON CONFLICT (shop_id, id) DO UPDATE SET title = EXCLUDED.title, measurement_type = EXCLUDED.measurement_type
     WHERE (products.title, products.measurement_type) IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.measurement_type)`,
    [shopId, product.id, product.title, product.measurementType],
  );
  return rowCount > 0;
}

export async function upsertVariant(db: Queryable, shopId: string, variant: VariantRecord): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO variants (shop_id, id, product_id, position, title, price, unit, unit_value, display_style, rules, presets)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (shop_id, id) DO UPDATE SET product_id = EXCLUDED.product_id, position = EXCLUDED.position,
       title = EXCLUDED.title, price = EXCLUDED.price, unit = EXCLUDED.unit, unit_value = EXCLUDED.unit_value,
       display_style = EXCLUDED.display_style, rules = EXCLUDED.rules, presets = EXCLUDED.presets
     WHERE (variants.product_id, variants.position, variants.title, variants.price, variants.unit,
            variants.unit_value, variants.display_style, variants.rules, variants.presets)
       IS DISTINCT FROM (EXCLUDED.product_id, EXCLUDED.position, EXCLUDED.title, EXCLUDED.price, EXCLUDED.unit,
            EXCLUDED.unit_value, EXCLUDED.display_style, EXCLUDED.rules, EXCLUDED.presets)`,
    [
      shopId,
      variant.id,
      variant.productId,
      variant.position,
      variant.title,
      variant.price,
      variant.unit,
      variant.unitValue,
      variant.displayStyle,
      variant.rules === null ? null : JSON.stringify(variant.rules),
      variant.presets === null ? null : JSON.stringify(variant.presets),
    ],
  );
  return rowCount > 0;
}

/** Variants of a shop by id, with their product's measurement type; unknown ids are absent. */
export async function findVariantsByIds(
  db: Queryable,
  shopId: string,
  ids: string[],
): Promise<Map<string, VariantRecord & { measurementType: MeasurementType }>> {
  const { rows } = await db.query<VariantRow & { measurement_type: MeasurementType }>(
    `SELECT ${VARIANT_COLUMNS.split(', ')
      .map((c) => `v.${c}`)
      .join(', ')}, p.measurement_type
     FROM variants v JOIN products p ON p.shop_id = v.shop_id AND p.id = v.product_id
     WHERE v.shop_id = $1 AND v.id = ANY($2::text[])`,
    [shopId, ids],
  );
  return new Map(rows.map((row) => [row.id, { ...toVariant(row), measurementType: row.measurement_type }]));
}
