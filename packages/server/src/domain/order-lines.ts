import { currencyDigits } from '@tare/contracts';
import { convert, type MeasurementType } from './units.js';
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

/**
 * A price per unit measurement as customers read it, in the shop's currency: `$24.00 per kg`,
 * `$1.80 per 100 g`. The price is shown exactly, with at least the currency's minor digits and
 * any further ones it has (`$0.125 per g`): nothing is rounded here.
 * @example formatUnitPrice('2.50', { value: new Dec(1), unit: 'm' }, 'USD') // '$2.50 per m'
 */
export function formatUnitPrice(
  price: string | Dec,
  per: { value: Dec; unit: string },
  currency: string,
  locale = 'en-US',
): string {
  const exact = new Dec(price);
  const digits = currencyDigits(currency);
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: Math.max(digits, exact.decimalPlaces()),
  });
  // Intl formats a decimal string exactly (Intl.NumberFormat v3, Node 20); TypeScript's ES2022
  // lib declares numbers only, and a number could not carry every price.
  const money = (format.format as unknown as (value: string) => string)(toPlainString(exact));
  const unitValue = per.value.eq(1) ? '' : `${toPlainString(per.value)} `;
  return `${money} per ${unitValue}${per.unit}`;
}

/**
 * For a line without a variant, which has no price per unit of its own: what its charged price
 * makes per unit measurement `per` (converted into the line's unit), price × per ÷ measured
 * value, rounded half-even to the currency's minor unit. The charged price was itself rounded,
 * so this can be a minor unit off the rate the storefront quoted; a line with a variant quotes
 * the variant's price instead.
 * @example derivedUnitPrice('5.00', { value: new Dec(500), unit: 'g' }, { value: new Dec(1), unit: 'kg' }, 'USD') // 10.00
 */
export function derivedUnitPrice(
  price: string,
  measured: { value: Dec; unit: string },
  per: { value: Dec; unit: string },
  currency: string,
): Dec {
  return new Dec(price)
    .times(convert(per.value, per.unit, measured.unit))
    .div(measured.value)
    .toDecimalPlaces(currencyDigits(currency), Dec.ROUND_HALF_EVEN);
}
