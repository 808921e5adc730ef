import type { ScaleBarcodeFormat } from '@tare/contracts';
import type { MeasurementType } from '../../domain/units.js';
import type { Queryable } from '../db.js';

/** A shop's scale label formats (PRODUCT.md §22), `[]` when it has none. */
export async function readScaleFormats(db: Queryable, shopId: string): Promise<ScaleBarcodeFormat[]> {
  const { rows } = await db.query<{ scale_barcodes: ScaleBarcodeFormat[] }>(
    'SELECT scale_barcodes FROM shops WHERE id = $1',
    [shopId],
  );
  return rows[0]?.scale_barcodes ?? [];
}

/** Replaces the shop's formats when they differ; returns whether they did. */
export async function writeScaleFormats(
  db: Queryable,
  shopId: string,
  formats: ScaleBarcodeFormat[],
): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE shops SET scale_barcodes = $2::jsonb, updated_at = now() WHERE id = $1 AND scale_barcodes <> $2::jsonb',
    [shopId, JSON.stringify(formats)],
  );
  return rowCount > 0;
}

/**
 * Sets the scale items of many variants in one statement (`null` clears one), touching only the
 * rows that differ; returns how many changed. The variants must exist.
 */
export async function writeScaleItems(
  db: Queryable,
  shopId: string,
  items: { variantId: string; scaleItem: string | null }[],
): Promise<number> {
  if (items.length === 0) return 0;
  const { rowCount } = await db.query(
    `UPDATE variants v SET scale_item = s.scale_item
     FROM unnest($2::text[], $3::text[]) AS s(id, scale_item)
     WHERE v.shop_id = $1 AND v.id = s.id AND v.scale_item IS DISTINCT FROM s.scale_item`,
    [shopId, items.map((i) => i.variantId), items.map((i) => i.scaleItem)],
  );
  return rowCount;
}

/** The variants of a shop holding any of `scaleItems`, by item. */
export async function findScaleItemHolders(
  db: Queryable,
  shopId: string,
  scaleItems: string[],
): Promise<Map<string, string>> {
  if (scaleItems.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; scale_item: string }>(
    'SELECT id, scale_item FROM variants WHERE shop_id = $1 AND scale_item = ANY($2::text[])',
    [shopId, scaleItems],
  );
  return new Map(rows.map((row) => [row.scale_item, row.id]));
}

/** What a scan needs of the variant carrying a scale item. */
export interface ScaleItemVariant {
  productId: string;
  variantId: string;
  measurementType: MeasurementType;
  /** Price per unit measurement, exact decimal text in the shop's currency. */
  price: string;
  unit: string;
  /** unitMeasurement.value, exact decimal text. */
  unitValue: string;
  /** The shop's currency, which a price label is in. */
  currency: string;
}

export async function findVariantByScaleItem(
  db: Queryable,
  shopId: string,
  scaleItem: string,
): Promise<ScaleItemVariant | undefined> {
  const { rows } = await db.query<{
    product_id: string;
    id: string;
    measurement_type: MeasurementType;
    price: string;
    unit: string;
    unit_value: string;
    currency: string;
  }>(
    `SELECT v.product_id, v.id, p.measurement_type, v.price, v.unit, v.unit_value, s.currency
     FROM variants v JOIN products p ON p.shop_id = v.shop_id AND p.id = v.product_id
     JOIN shops s ON s.id = v.shop_id
     WHERE v.shop_id = $1 AND v.scale_item = $2`,
    [shopId, scaleItem],
  );
  const row = rows[0];
  return (
    row && {
      productId: row.product_id,
      variantId: row.id,
      measurementType: row.measurement_type,
      price: row.price,
      unit: row.unit,
      unitValue: row.unit_value,
      currency: row.currency,
    }
  );
}
