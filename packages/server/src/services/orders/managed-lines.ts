import { type OrderItem, type ServiceData, validateSvcData } from '@tare/contracts';
import { Dec, decimalFromJson, toJsonNumber } from '../../domain/decimal.js';
import { formatUnitPrice, type LineMeasurement } from '../../domain/order-lines.js';
import type { PlatformLineItem } from '../../platform/gateway.js';

export interface ManagedLine {
  line: PlatformLineItem;
  svcData: ServiceData;
  measurement: LineMeasurement;
  /** The unit measurement the line's price is quoted per (100 for a variant sold per 100 g). */
  unitValue: Dec;
}

/** The configured variants an order's lines name, by id. */
export type LineVariants = ReadonlyMap<string, { unit: string; unitValue: string }>;

/**
 * The service-managed lines of an order: those whose `_svc_data` is valid (the same rules as
 * the cart helper), checked against the line's variant unit when the variant is known.
 */
export function managedLines(lines: PlatformLineItem[], variants: LineVariants): ManagedLine[] {
  const managed: ManagedLine[] = [];
  for (const line of lines) {
    const raw = line.properties.find((p) => p.name === '_svc_data')?.value;
    const variant = line.variantId ? variants.get(line.variantId) : undefined;
    const checked = validateSvcData(raw, variant ? { unit: variant.unit } : undefined);
    if (!checked.ok) continue;
    const first = checked.data.measurement.dimensions[0];
    // The variant's unit measurement; for a line without one, what `_svc_data` says in its unit.
    const stated = checked.data.unitMeasurement;
    const unitValue = variant
      ? new Dec(variant.unitValue)
      : stated?.unit === first.unit
        ? decimalFromJson(stated.value)
        : new Dec(1);
    managed.push({
      line,
      svcData: checked.data,
      measurement: { type: checked.data.measurement.type, value: decimalFromJson(first.value), unit: first.unit },
      unitValue,
    });
  }
  return managed;
}

export function toOrderItem(managed: ManagedLine, currency: string): OrderItem {
  const { line, measurement, unitValue } = managed;
  return {
    lineItemId: line.id,
    productId: line.productId,
    variantId: line.variantId,
    quantity: line.quantity,
    measurement: { type: measurement.type, value: toJsonNumber(measurement.value), unit: measurement.unit },
    unitPrice: formatUnitPrice(line.price, measurement, currency, unitValue),
  };
}
