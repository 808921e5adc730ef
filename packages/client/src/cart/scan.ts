import type { ScaleBarcode } from '../types.js';
import { CartInputError } from './errors.js';
import { type BuildLineItemInput, buildLineItemProperties, type LineItemProperty } from './line-item.js';

export type ScannedLineInput = Omit<BuildLineItemInput, 'measurement'> & {
  /** The answer of `client.scaleBarcodes.get(code)` for the scanned label. */
  scan: ScaleBarcode;
};

/**
 * A scanned scale label as a cart line: the labelled pack is one line of quantity 1 measuring
 * what the label says, in the variant's unit (`scan.measurement`, as the service read it).
 * @throws CartInputError when the scan is of another product or variant than the one given, or
 *   for any reason `buildLineItemProperties` refuses the measurement.
 * @example scannedLineItem({ scan, product, variant, labels, price: '24', currency: 'USD', locale: 'en-US' })
 *   // { variantId: '2001', quantity: 1, properties: [{ name: '_svc_data', … }, …] }
 */
export function scannedLineItem(input: ScannedLineInput): {
  variantId: string;
  quantity: 1;
  properties: LineItemProperty[];
} {
  const { scan, ...rest } = input;
  const reasons: string[] = [];
  if (scan.productId !== input.product.id) {
    reasons.push(`the label is of product ${scan.productId}, not ${input.product.id}`);
  }
  if (scan.variantId !== input.variant.id) {
    reasons.push(`the label is of variant ${scan.variantId}, not ${input.variant.id}`);
  }
  if (reasons.length > 0) throw new CartInputError(reasons);
  return {
    variantId: scan.variantId,
    quantity: 1,
    properties: buildLineItemProperties({ ...rest, measurement: scan.measurement }),
  };
}
