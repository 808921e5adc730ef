import { type DimensionSetting, type OrderItem, type ServiceData, typeOfUnit, validateSvcData } from '@tare/contracts';
import { Dec, decimalFromJson, toJsonNumber } from '../../domain/decimal.js';
import { derivedUnitPrice, formatUnitPrice, type LineMeasurement } from '../../domain/order-lines.js';
import type { PlatformLineItem } from '../../platform/gateway.js';
import { svcDataVariant, type VariantFactorFields } from '../../domain/variant-factors.js';

export interface ManagedLine {
  line: PlatformLineItem;
  svcData: ServiceData;
  measurement: LineMeasurement;
  /**
   * The unit measurement the line's unit price is quoted per: the variant's (100 g for a variant
   * sold per 100 g); for a line without a variant, the one its `_svc_data` states, else 1 of its unit.
   */
  per: { value: Dec; unit: string };
}

/** The configured variants an order's lines name, by id. */
export type LineVariants = ReadonlyMap<string, LineVariant>;
export type LineVariant = { unit: string; unitValue: string } & VariantFactorFields;

/**
 * The service-managed lines of an order: those whose `_svc_data` is valid (the same rules as
 * the cart helper), checked against the line's variant unit and factors (PRODUCT.md §19) when
 * the variant is known.
 */
export function managedLines(lines: PlatformLineItem[], variants: LineVariants): ManagedLine[] {
  const managed: ManagedLine[] = [];
  for (const line of lines) {
    const raw = line.properties.find((p) => p.name === '_svc_data')?.value;
    const variant = line.variantId ? variants.get(line.variantId) : undefined;
    const checked = validateSvcData(raw, variant ? svcDataVariant(variant) : undefined);
    if (!checked.ok) continue;
    const first = checked.data.measurement.dimensions[0];
    const type = checked.data.measurement.type;
    const stated = checked.data.unitMeasurement;
    const per = variant
      ? { value: new Dec(variant.unitValue), unit: variant.unit }
      : stated && typeOfUnit(stated.unit) === type
        ? { value: decimalFromJson(stated.value), unit: stated.unit }
        : { value: new Dec(1), unit: first.unit };
    managed.push({
      line,
      svcData: checked.data,
      measurement: { type, value: decimalFromJson(first.value), unit: first.unit },
      per,
    });
  }
  return managed;
}

/**
 * Why a line that carries `_svc_data` is not service-managed, or undefined when it carries none
 * (an ordinary line) or is managed: the validator's reasons, joined.
 */
export function svcDataProblems(line: PlatformLineItem, variant: LineVariant | undefined): string | undefined {
  const raw = line.properties.find((p) => p.name === '_svc_data')?.value;
  if (raw === undefined) return undefined;
  const checked = validateSvcData(raw, variant ? svcDataVariant(variant) : undefined);
  return checked.ok ? undefined : checked.reasons.join('; ');
}

/**
 * A line as the API shows it. `unitPrice` quotes the variant's price per its unit measurement
 * (PRODUCT.md §11: a variant's `price` is per `unitMeasurement`), whatever the line measures: the
 * line's own price is rounded to the currency's minor unit, so a rate derived from it would read
 * $2.49 for a $2.50-per-metre ribbon cut at 0.762 m. A line without a configured variant has
 * only its own price to go by (`derivedUnitPrice`).
 */
export function toOrderItem(
  managed: ManagedLine,
  currency: string,
  variants: ReadonlyMap<string, { price: string; dimensions?: DimensionSetting[] | null }>,
): OrderItem {
  const { line, measurement, per } = managed;
  const variant = line.variantId ? variants.get(line.variantId) : undefined;
  const price = variant?.price ?? derivedUnitPrice(line.price, measurement, per, currency);
  // The factors (PRODUCT.md §19), each named as the line names it, else as the variant does.
  const factors = managed.svcData.measurement.dimensions.slice(1).map((factor, i) => ({
    value: factor.value,
    unit: factor.unit,
    name: typeof factor['name'] === 'string' ? factor['name'] : (variant?.dimensions?.[i]?.name ?? `factor ${i + 1}`),
  }));
  return {
    lineItemId: line.id,
    productId: line.productId,
    variantId: line.variantId,
    quantity: line.quantity,
    measurement: {
      type: measurement.type,
      value: toJsonNumber(measurement.value),
      unit: measurement.unit,
      ...(factors.length > 0 ? { dimensions: factors } : {}),
    },
    unitPrice: formatUnitPrice(price, per, currency),
  };
}
