import { decodeScaleBarcode, type ScaleBarcode } from '@tare/contracts';
import { Dec, toJsonNumber } from '../../domain/decimal.js';
import { QUANTITY_SCALE } from '../../domain/quantity.js';
import { convertForStorage } from '../../domain/units.js';
import { AppError, errors } from '../../errors.js';
import type { Queryable } from '../../store/db.js';
import {
  findVariantByScaleItem,
  readScaleFormats,
  type ScaleItemVariant,
} from '../../store/repositories/scale-barcodes.js';

/**
 * Reads a scale label (PRODUCT.md §22) against the shop's formats and catalog: the variant whose
 * `scaleItem` it carries, and its measurement in the variant's unit. A weight label's weight is
 * converted exactly (half-even at the 9th decimal only when the units differ, as every stored
 * quantity); a price label's measurement is price ÷ variant price × unit measurement, half-even
 * at the 9th decimal, never at the scale's precision. A code the formats refuse is 400 at `/code`
 * naming why; an item no variant carries is 404; a label that cannot give a measurement of the
 * variant (a weight for a length variant, a price for a variant priced 0) is 422.
 */
export async function decodeShopScaleBarcode(db: Queryable, shopId: string, code: string): Promise<ScaleBarcode> {
  const decoded = decodeScaleBarcode(code, await readScaleFormats(db, shopId));
  if (!decoded.ok) {
    throw errors.validation([{ path: '/code', message: decoded.message }], 'params');
  }
  const { label } = decoded;
  const variant = await findVariantByScaleItem(db, shopId, label.item);
  if (!variant) throw errors.notFound('scale item', label.item);
  const value = new Dec(label.value);
  if (value.isZero()) throw refuse(`The label carries a ${label.format.value} of 0.`, variant);
  const base = { productId: variant.productId, variantId: variant.variantId };
  if (label.format.value === 'weight') {
    const unit = label.format.unit ?? '';
    if (variant.measurementType !== 'weight') {
      throw refuse(`A weight label cannot measure a ${variant.measurementType} variant.`, variant);
    }
    const measured = convertForStorage(value, unit, variant.unit);
    return { ...base, measurement: measurement(measured, variant), derivedFrom: 'weight' };
  }
  const price = new Dec(variant.price);
  if (price.isZero()) throw refuse('A price label cannot measure a variant whose price is 0.', variant);
  const measured = value.dividedBy(price).times(variant.unitValue).toDecimalPlaces(QUANTITY_SCALE, Dec.ROUND_HALF_EVEN);
  if (measured.isZero()) throw refuse(`A price of ${label.value} buys less than 0.000000001 ${variant.unit}.`, variant);
  return {
    ...base,
    measurement: measurement(measured, variant),
    price: { amount: label.value, currency: variant.currency },
    derivedFrom: 'price',
  };
}

const measurement = (value: Dec, variant: ScaleItemVariant) => ({ value: toJsonNumber(value), unit: variant.unit });

const refuse = (message: string, variant: ScaleItemVariant) =>
  new AppError('unprocessable', message, { productId: variant.productId, variantId: variant.variantId });
