import type { DimensionSetting } from '@tare/contracts';
import { isUnitOfType, type MeasurementType } from '../../domain/units.js';
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
  /** PRODUCT.md §19: the lengths the measure is made from; null when sold by its quantity directly. */
  dimensions: DimensionSetting[] | null;
  /** Exact decimal text (0–100), or null for no overage. */
  overagePercent: string | null;
  /** The stock item the variant sells from (read only: the import links it with linkVariants). */
  stockItemId?: string | null;
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
  dimensions: DimensionSetting[] | null;
  overage_percent: string | null;
  stock_item_id: string | null;
}

const VARIANT_COLUMNS =
  'id, product_id, position, title, price, unit, unit_value, display_style, rules, presets, dimensions, overage_percent, stock_item_id';

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
    dimensions: row.dimensions,
    overagePercent: row.overage_percent,
    stockItemId: row.stock_item_id,
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

/**
 * The measurement types and variant units a shop sells, for its label set: each type of its
 * products, with the units of its variants that belong to that type (the import admits no
 * other), both in the database's text order. Read by two skip scans (`products_by_type`,
 * `variants_by_unit`): one index probe per distinct value, whatever the catalog's size.
 */
export async function listEnabledUnits(
  db: Queryable,
  shopId: string,
): Promise<{ type: MeasurementType; units: string[] }[]> {
  const { rows } = await db.query<{ kind: 'type' | 'unit'; value: string }>(
    `WITH RECURSIVE types AS (
       (SELECT measurement_type AS value FROM products WHERE shop_id = $1 ORDER BY measurement_type LIMIT 1)
       UNION ALL
       SELECT (SELECT p.measurement_type FROM products p WHERE p.shop_id = $1 AND p.measurement_type > t.value
               ORDER BY p.measurement_type LIMIT 1)
       FROM types t WHERE t.value IS NOT NULL),
     units AS (
       (SELECT unit AS value FROM variants WHERE shop_id = $1 ORDER BY unit LIMIT 1)
       UNION ALL
       SELECT (SELECT v.unit FROM variants v WHERE v.shop_id = $1 AND v.unit > u.value ORDER BY v.unit LIMIT 1)
       FROM units u WHERE u.value IS NOT NULL)
     SELECT 'type' AS kind, value FROM types WHERE value IS NOT NULL
     UNION ALL
     SELECT 'unit' AS kind, value FROM units WHERE value IS NOT NULL`,
    [shopId],
  );
  const units = rows.filter((row) => row.kind === 'unit').map((row) => row.value);
  return rows
    .filter((row) => row.kind === 'type')
    .map((row) => {
      const type = row.value as MeasurementType;
      return { type, units: units.filter((unit) => isUnitOfType(unit, type)) };
    });
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

/** Products of a shop by id; unknown ids are absent. */
export async function findProductsByIds(
  db: Queryable,
  shopId: string,
  ids: string[],
): Promise<Map<string, ProductRecord>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; title: string; measurement_type: MeasurementType }>(
    'SELECT id, title, measurement_type FROM products WHERE shop_id = $1 AND id = ANY($2::text[])',
    [shopId, ids],
  );
  return new Map(rows.map((row) => [row.id, { id: row.id, title: row.title, measurementType: row.measurement_type }]));
}

/**
 * Whether a stored variant certainly equals `record` as `upsertVariants` compares them: texts
 * equal as written (a number written otherwise, `1.5` for `1.50`, counts as different and goes to
 * the upsert, which compares it as a number), JSON equal whatever its keys' order.
 */
export function sameVariant(stored: VariantRecord, record: VariantRecord): boolean {
  return (
    stored.productId === record.productId &&
    stored.position === record.position &&
    stored.title === record.title &&
    stored.price === record.price &&
    stored.unit === record.unit &&
    stored.unitValue === record.unitValue &&
    stored.displayStyle === record.displayStyle &&
    sameJson(stored.rules, record.rules) &&
    sameJson(stored.presets, record.presets) &&
    sameJson(stored.dimensions, record.dimensions) &&
    stored.overagePercent === record.overagePercent
  );
}

/** Deep equality of JSON values as jsonb holds them (keys in any order, absent = undefined). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  const entries = (o: object) => Object.entries(o).filter(([, v]) => v !== undefined);
  const x = entries(a);
  const y = new Map(entries(b));
  return x.length === y.size && x.every(([k, v]) => y.has(k) && sameJson(v, y.get(k)));
}

/**
 * Upserts many products in one statement, touching only rows whose values differ; returns how
 * many were inserted or changed. Ids must be distinct (the import validates that).
 */
export async function upsertProducts(db: Queryable, shopId: string, products: ProductRecord[]): Promise<number> {
  if (products.length === 0) return 0;
  // Counted by RETURNING, not rowCount: Citus pulls an INSERT … SELECT from unnest(…) through the
  // coordinator and reports every row it sent, those the ON CONFLICT … WHERE left alone included.
  const { rows } = await db.query(
    `INSERT INTO products (shop_id, id, title, measurement_type)
     SELECT $1, p.id, p.title, p.measurement_type
     FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS p(id, title, measurement_type, n) ORDER BY p.n
     ON CONFLICT (shop_id, id) DO UPDATE SET title = EXCLUDED.title, measurement_type = EXCLUDED.measurement_type
     WHERE (products.title, products.measurement_type) IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.measurement_type)
     RETURNING 1`,
    [shopId, products.map((p) => p.id), products.map((p) => p.title), products.map((p) => p.measurementType)],
  );
  return rows.length;
}

/** `upsertVariant` for many variants in one statement; returns how many were inserted or changed. */
export async function upsertVariants(db: Queryable, shopId: string, variants: VariantRecord[]): Promise<number> {
  if (variants.length === 0) return 0;
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  // Counted by RETURNING, as upsertProducts.
  const { rows } = await db.query(
    `INSERT INTO variants (shop_id, id, product_id, position, title, price, unit, unit_value, display_style, rules, presets,
       dimensions, overage_percent)
     SELECT $1, v.id, v.product_id, v.position, v.title, v.price, v.unit, v.unit_value, v.display_style,
       v.rules::jsonb, v.presets::jsonb, v.dimensions::jsonb, v.overage_percent
     FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::numeric[], $7::text[], $8::numeric[], $9::text[],
       $10::text[], $11::text[], $12::text[], $13::numeric[])
       WITH ORDINALITY AS v(id, product_id, position, title, price, unit, unit_value, display_style, rules, presets,
         dimensions, overage_percent, n)
     ORDER BY v.n
     ON CONFLICT (shop_id, id) DO UPDATE SET product_id = EXCLUDED.product_id, position = EXCLUDED.position,
       title = EXCLUDED.title, price = EXCLUDED.price, unit = EXCLUDED.unit, unit_value = EXCLUDED.unit_value,
       display_style = EXCLUDED.display_style, rules = EXCLUDED.rules, presets = EXCLUDED.presets,
       dimensions = EXCLUDED.dimensions, overage_percent = EXCLUDED.overage_percent
     WHERE (variants.product_id, variants.position, variants.title, variants.price, variants.unit,
            variants.unit_value, variants.display_style, variants.rules, variants.presets, variants.dimensions,
            variants.overage_percent)
       IS DISTINCT FROM (EXCLUDED.product_id, EXCLUDED.position, EXCLUDED.title, EXCLUDED.price, EXCLUDED.unit,
            EXCLUDED.unit_value, EXCLUDED.display_style, EXCLUDED.rules, EXCLUDED.presets, EXCLUDED.dimensions,
            EXCLUDED.overage_percent)
     RETURNING 1`,
    [
      shopId,
      variants.map((v) => v.id),
      variants.map((v) => v.productId),
      variants.map((v) => v.position),
      variants.map((v) => v.title),
      variants.map((v) => v.price),
      variants.map((v) => v.unit),
      variants.map((v) => v.unitValue),
      variants.map((v) => v.displayStyle),
      variants.map((v) => json(v.rules)),
      variants.map((v) => json(v.presets)),
      variants.map((v) => json(v.dimensions)),
      variants.map((v) => v.overagePercent),
    ],
  );
  return rows.length;
}
