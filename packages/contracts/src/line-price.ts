/**
 * What one unit of a cart line's quantity costs (PRODUCT.md §15, §18, docs/sandbox.md): the one
 * pricing rule of the sandbox cart, the admin's cart line preview, order edits, the client's cart
 * helpers and the checkout function. Plain TypeScript over BigInt, no dependency, so that it runs
 * unchanged in Node, browsers and a Shopify Function: every amount is read exactly from its decimal
 * text (a JSON number from its shortest form, as the server's `decimalFromJson` does), computed as
 * an integer fraction and rounded once.
 */
import { divideHalfEven, exactDecimal as exact, formatMinor, pow10, sameScaled } from './exact-decimal.js';

/** What a line is priced from: the variant's price, its unit measurement and its presets. */
export interface LinePricing {
  /** The variant's price per unit measurement: decimal text in the shop's currency (`'42.00'`). */
  price: string;
  /** `unitMeasurement.value`, in the variant's unit: a JSON number or decimal text. */
  unitValue: number | string;
  /** The variant's presets; one with a `price` is the price of a line of exactly its value. */
  presets?: readonly { value: number; price?: string }[] | null;
}

/** A price stated in decimal text, rounded half-even to `digits` decimals. */
function roundPrice(price: string, what: string, digits: number): string {
  const p = exact(price, what);
  return formatMinor(divideHalfEven(p.int * pow10(digits), pow10(p.scale)), digits);
}

/**
 * The price one unit of a line's quantity is charged, as decimal text with the currency's
 * `minorDigits` decimals:
 * - a measured line whose measurement equals a preset that has a price: that price;
 * - any other measured line: measurement ÷ `unitValue` × variant price;
 * - an unmeasured line (`measurement` undefined): the variant price;
 * each rounded half-even to the minor unit, once.
 *
 * @param measurement the line's measurement (`_svc_data`'s `dimensions[0].value`) in the
 *   variant's unit, a JSON number or decimal text; undefined when the line is not measured.
 * @param minorDigits decimals of the currency's minor unit (`currencyDigits`: USD 2, JPY 0, BHD 3).
 * @throws RangeError when an amount is not decimal text or a finite number, or `unitValue` is 0.
 * @example lineUnitPrice({ price: '42.00', unitValue: 1, presets: [{ value: 1, price: '39.00' }] }, 1, 2) // '39.00'
 * @example lineUnitPrice({ price: '42.00', unitValue: 1, presets: [{ value: 1, price: '39.00' }] }, 0.5, 2) // '21.00'
 * @example lineUnitPrice({ price: '24.00', unitValue: 100 }, 250, 2) // '60.00'
 */
export function lineUnitPrice(
  variant: LinePricing,
  measurement: number | string | undefined,
  minorDigits: number,
): string {
  if (!Number.isInteger(minorDigits) || minorDigits < 0) throw new RangeError(`not a count of digits: ${minorDigits}`);
  // Read up front, so a bad variant is refused whichever line is priced.
  const price = exact(variant.price, 'the variant price');
  const unit = exact(variant.unitValue, 'the unit measurement');
  if (unit.int <= 0n) throw new RangeError(`the unit measurement must be greater than 0: ${String(variant.unitValue)}`);
  if (measurement === undefined) return roundPrice(variant.price, 'the variant price', minorDigits);
  const measured = exact(measurement, 'the measurement');
  const preset = (variant.presets ?? []).find(
    (p) => p.price !== undefined && sameScaled(exact(p.value, 'a preset'), measured),
  );
  if (preset?.price !== undefined) return roundPrice(preset.price, 'the preset price', minorDigits);

  // measured ÷ unit × price in minor units, as one integer fraction.
  const numerator = measured.int * price.int * pow10(unit.scale + minorDigits);
  const denominator = unit.int * pow10(measured.scale + price.scale);
  return formatMinor(divideHalfEven(numerator, denominator), minorDigits);
}

/**
 * Currencies whose minor unit is not 2 digits, as CLDR (and so Node's `Intl`) has them. A table,
 * not `Intl`: Shopify runs the checkout function on QuickJS (Javy), which has no `Intl`, and the
 * function must round as the server and the client do (line-price.test.ts checks the table
 * against `Intl` for every currency it knows).
 */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(
    'AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PKR PYG RWF SLL SOS SYP UGX VND VUV XAF XOF XPF YER'
      .split(' ')
      .map((code) => [code, 0]),
  ),
  ...Object.fromEntries('BHD JOD KWD LYD OMR TND'.split(' ').map((code) => [code, 3])),
};

/**
 * Decimals of a currency's minor unit (USD 2, JPY 0, BHD 3); any other well-formed code has 2, as
 * `Intl.NumberFormat` answers.
 * @throws RangeError when `currency` is not three letters.
 * @example currencyDigits('BHD') // 3
 */
export function currencyDigits(currency: string): number {
  if (!/^[A-Za-z]{3}$/.test(currency)) throw new RangeError(`Invalid currency code : ${currency}`);
  return MINOR_DIGITS[currency.toUpperCase()] ?? 2;
}
