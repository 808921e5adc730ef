import { currencyDigits, lineUnitPrice } from '@tare/contracts';
import { CartInputError } from './errors.js';

export interface CartLinePriceInput {
  /** The variant as the API answers it; its presets (pills, dropdown) may have their own price. */
  variant: {
    unitMeasurement: { unit: string; value: number };
    settings?: { onlineStore: { presets?: readonly { value: number; price?: string }[] } };
  };
  /** What the customer chose, in the variant's unit; left out for a line that is not measured. */
  measurement?: { value: number; unit: string };
  /** Price per unit measurement, as decimal text (e.g. `'42.00'`). */
  price: string;
  /** ISO 4217 code, e.g. `'USD'`. */
  currency: string;
}

/**
 * What one unit of the line's quantity costs at checkout, as decimal text at the currency's minor
 * unit: Tare's one pricing rule (the sandbox cart's, the admin preview's and the checkout
 * function's). A measurement equal to a preset with its own price costs that price; any other
 * costs measurement ÷ `unitMeasurement.value` × price; rounded half-even to the minor unit, once.
 * @throws CartInputError when the measurement is not in the variant's unit, or an amount is not a number.
 * @example cartLinePrice({ variant: { unitMeasurement: { unit: 'kg', value: 1 } }, measurement: { value: 2.5, unit: 'kg' }, price: '24', currency: 'USD' }) // '60.00'
 */
export function cartLinePrice(input: CartLinePriceInput): string {
  const { variant, measurement } = input;
  const unit = variant.unitMeasurement.unit;
  if (measurement !== undefined && measurement.unit !== unit) {
    throw new CartInputError([`measurement.unit '${measurement.unit}' must equal the variant's unit '${unit}'`]);
  }
  const pricing = {
    price: input.price,
    unitValue: variant.unitMeasurement.value,
    presets: variant.settings?.onlineStore.presets,
  };
  try {
    return lineUnitPrice(pricing, measurement?.value, currencyDigits(input.currency));
  } catch (error) {
    if (error instanceof RangeError) throw new CartInputError([error.message]);
    throw error;
  }
}
