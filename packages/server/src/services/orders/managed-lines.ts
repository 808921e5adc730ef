import { type OrderItem, type ServiceData, validateSvcData } from '@tare/contracts';
import { decimalFromJson, toJsonNumber } from '../../domain/decimal.js';
import { formatUnitPrice, type LineMeasurement } from '../../domain/order-lines.js';
import type { PlatformLineItem } from '../../platform/gateway.js';

export interface ManagedLine {
  line: PlatformLineItem;
  svcData: ServiceData;
  measurement: LineMeasurement;
}

/**
 * The service-managed lines of an order: those whose `_svc_data` is valid (the same rules as
 * the cart helper), checked against the line's variant unit when the variant is known.
 */
export function managedLines(lines: PlatformLineItem[], variantUnits: Map<string, string>): ManagedLine[] {
  const managed: ManagedLine[] = [];
  for (const line of lines) {
    const raw = line.properties.find((p) => p.name === '_svc_data')?.value;
    const unit = line.variantId ? variantUnits.get(line.variantId) : undefined;
    const checked = validateSvcData(raw, unit ? { unit } : undefined);
    if (!checked.ok) continue;
    const first = checked.data.measurement.dimensions[0];
    managed.push({
      line,
      svcData: checked.data,
      measurement: { type: checked.data.measurement.type, value: decimalFromJson(first.value), unit: first.unit },
    });
  }
  return managed;
}

export function toOrderItem(managed: ManagedLine, currency: string): OrderItem {
  const { line, measurement } = managed;
  return {
    lineItemId: line.id,
    productId: line.productId,
    variantId: line.variantId,
    quantity: line.quantity,
    measurement: { type: measurement.type, value: toJsonNumber(measurement.value), unit: measurement.unit },
    unitPrice: formatUnitPrice(line.price, measurement, currency),
  };
}
