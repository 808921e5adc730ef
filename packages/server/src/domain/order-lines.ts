import type { MeasurementType } from './units.js';
import { Dec, toPlainString } from './decimal.js';

/** The measured part of a service-managed line, from the first `_svc_data` dimension. */
export interface LineMeasurement {
  type: MeasurementType;
  value: Dec;
  unit: string;
}

/**
 * What a line consumes from inventory: quantity × measured value, in the measurement's unit.
 * @example consumption(2, new Dec('1.25')).toFixed() // '2.5'
 */
export function consumption(quantity: number, value: Dec): Dec {
  return value.times(quantity);
}

/** Decimal places of a currency's minor unit (USD 2, JPY 0, BHD 3). */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * A line's unit price from the variant's price per unit measurement: price × value ÷ unitValue,
 * rounded half-even to the currency's minor unit (the one rounding money needs).
 * @example linePrice('24.00', '1', new Dec('1.25'), 'USD') // '30.00'
 */
export function linePrice(variantPrice: string, unitValue: string, value: Dec, currency: string): string {
  const digits = currencyDigits(currency);
  return new Dec(variantPrice).times(value).div(unitValue).toFixed(digits, Dec.ROUND_HALF_EVEN);
}

/**
 * The price per unit measurement as customers read it, in the shop's currency: `$24.00 per kg`
 * for a 1.25 kg line charged $30.00, `$1.80 per 100 g` for a 250 g line charged $4.50 of a
 * variant sold per 100 g (per gram, that price would round to $0.02).
 */
export function formatUnitPrice(
  price: string,
  measurement: { value: Dec; unit: string },
  currency: string,
  unitValue: Dec = new Dec(1),
  locale = 'en-US',
): string {
  const perUnit = new Dec(price)
    .times(unitValue)
    .div(measurement.value)
    .toDecimalPlaces(currencyDigits(currency), Dec.ROUND_HALF_EVEN);
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency }).format(perUnit.toNumber());
  const per = unitValue.eq(1) ? measurement.unit : `${toPlainString(unitValue)} ${measurement.unit}`;
  return `${money} per ${per}`;
}
