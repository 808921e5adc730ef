import type { VariantMeasurementConfig } from '@tare/contracts';
import { validate, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  cartTransformRun,
  type CartTransformRunResult,
} from '../../../../extensions/cart-transform/src/cart_transform_run.js';
import {
  BAGS,
  cartLine,
  INPUT_QUERY,
  type LineSpec,
  outputErrors,
  PER_KG,
  priced,
  runInput,
  SCHEMA,
  svcData,
} from './support.js';

/** The function's output, after checking it is a `CartTransformRunResult` of the pinned schema. */
function run(...args: Parameters<typeof runInput>): CartTransformRunResult {
  const output = cartTransformRun(runInput(...args));
  expect(outputErrors(output)).toEqual([]);
  return output;
}
const priceOf = (spec: LineSpec, mode?: 'function' | 'base_units') => {
  const { operations } = run([cartLine(spec)], mode);
  return operations.length === 0 ? 'no operation' : operations[0]!.lineUpdate.price.adjustment.fixedPricePerUnit.amount;
};

const rules = (r: Partial<NonNullable<VariantMeasurementConfig['rules']>>): VariantMeasurementConfig => ({
  ...PER_KG,
  rules: { ...PER_KG.rules!, ...r },
});
const PER_100_G: VariantMeasurementConfig = {
  ...PER_KG,
  unitMeasurement: { unit: 'g', value: 100 },
  rules: { min: 50, increment: 50, defaultValue: 250, max: null },
  price: '1.80',
};
const DROPDOWN: VariantMeasurementConfig = { ...BAGS, displayStyle: 'dropdown' };

describe('the input query', () => {
  it('when validated against the Cart Transform API schema of the pinned version, then it has no error', () => {
    expect(validate(SCHEMA, parse(INPUT_QUERY)).map((e) => e.message)).toEqual([]);
  });
});

describe('cartTransformRun on a line the rules allow', () => {
  it.each<[string, LineSpec, string]>([
    ['1.25 kg at 24.00 per kg', { svc: 1.25 }, '30.00'],
    ['the minimum 0.25 kg', { svc: 0.25 }, '6.00'],
    ['the maximum 5 kg', { svc: 5 }, '120.00'],
    ['3 × 1.25 kg (the price is per unit of the quantity)', { svc: 1.25, quantity: 3 }, '30.00'],
    ['250 g of a variant priced 1.80 per 100 g', { svc: 250, unit: 'g', config: PER_100_G, amount: '1.80' }, '4.50'],
    ['1.333 kg, rounded half-even once', { svc: 1.333, config: rules({ increment: 0.001 }) }, '31.99'],
    ['a pill without its own price (0.5 kg at 18.00 per kg)', { svc: 0.5, config: BAGS }, '9.00'],
    ['a dropdown choice (0.25 kg at 18.00 per kg)', { svc: 0.25, config: DROPDOWN }, '4.50'],
    ['a preset with its own price (1 kg for 16.00)', { svc: 1, config: BAGS }, '16.00'],
    ['a forged price in _svc_data, which is no part of pricing', { svc: forged({ price: '0.01' }) }, '30.00'],
    ['yen (0 minor digits)', { svc: 1.25, amount: '2400', currency: 'JPY' }, '3000'],
    ['yen half-way between two yen (half-even)', { svc: 0.5, amount: '5', currency: 'JPY', config: halfKg() }, '2'],
    ['Bahraini dinars (3 minor digits; 1.0625 half-even)', { svc: 0.25, amount: '4.250', currency: 'BHD' }, '1.062'],
    [
      'Kuwaiti dinars half-way between two fils',
      { svc: 0.5, amount: '1.005', currency: 'KWD', config: halfKg() },
      '0.502',
    ],
    [
      "a cart in another currency than the metafield's: the preset's own price does not apply",
      { svc: 1, config: BAGS, amount: '20.00', currency: 'EUR' },
      'no operation',
    ],
    [
      '0.5 kg in a cart in another currency: in proportion',
      { svc: 0.5, config: BAGS, amount: '20.00', currency: 'EUR' },
      '10.00',
    ],
    ["exactly one unit measurement: Shopify's own price already", { svc: 1, amount: '24.0' }, 'no operation'],
    [
      "a metafield price that differs: Shopify's own price is the variant's price",
      { svc: 1.25, amount: '25.00' },
      '31.25',
    ],
  ])('when it is %s, then one unit is charged %s', (_name, spec, expected) => {
    expect(priceOf(spec)).toBe(expected);
  });
});

describe('cartTransformRun on a line it must leave at the variant price', () => {
  it.each<[string, LineSpec]>([
    ['no _svc_data', { svc: null }],
    ['_svc_data that is not JSON', { svc: '{"measurement":' }],
    ['_svc_data without a measurement', { svc: '{"unitMeasurement":{"unit":"kg","value":1}}' }],
    ['a measure in another unit than the variant (g on a per-kg variant)', { svc: 1250, unit: 'g' }],
    ['a unit of another type than the measurement (kg stated as a length)', { svc: 1.25, type: 'length' }],
    ['a measurement type other than the variant (a volume variant in kg)', { config: { ...PER_KG, type: 'volume' } }],
    ['a measure below the minimum', { svc: 0.1 }],
    ['a measure above the maximum', { svc: 5.25 }],
    ['a measure off the increment', { svc: 1.3 }],
    ['a measure that is not a preset', { svc: 0.75, config: BAGS }],
    ['a measure of 0', { svc: 0 }],
    ['a negative measure', { svc: -1.25 }],
    ['more than 9 decimal places', { svc: 0.1234567891, config: rules({ min: 0, increment: 1e-10, max: null }) }],
    ['more whole units than a level holds', { svc: 2e9, config: rules({ min: 1, increment: 1, max: null }) }],
    ['no metafield on the variant', { config: null }],
    ['a metafield that is not JSON', { config: '{"version":1' }],
    ['a metafield of another version', { config: JSON.stringify({ ...PER_KG, version: 2 }) }],
    ['a number-style metafield without rules (anything would pass)', { config: { ...PER_KG, rules: undefined } }],
    [
      'a metafield whose rules cannot be offered (max below min)',
      { config: rules({ min: 2, max: 1, defaultValue: 2 }) },
    ],
    ['presets with no values', { config: { ...BAGS, presets: [] } }],
    [
      'a preset price in the metafield that is no number',
      { svc: 1, config: { ...BAGS, presets: [{ value: 1, price: 'cheap' }] } },
    ],
  ])('when it has %s, then it gets no operation', (_name, spec) => {
    expect(priceOf(spec)).toBe('no operation');
  });

  it('when a line is no product variant (a custom product), then it gets no operation', () => {
    const line = cartLine({});
    line.merchandise = { __typename: 'CustomProduct' };
    expect(run([line]).operations).toEqual([]);
  });
});

describe('cartTransformRun in base-unit mode', () => {
  // Priced per 10 g; the picker adds 125 × one unit measurement for 1.25 kg.
  const PER_10_G: VariantMeasurementConfig = {
    ...PER_KG,
    unitMeasurement: { unit: 'g', value: 10 },
    rules: { min: 10, increment: 10, defaultValue: 250, max: null },
    price: '0.24',
  };
  const base = (spec: LineSpec) => ({ config: PER_10_G, unit: 'g', amount: '0.24', ...spec });

  it('when lines state one unit measurement with quantity measure ÷ unit value, then they get no operation', () => {
    expect(priceOf(base({ svc: 10, quantity: 125 }), 'base_units')).toBe('no operation');
  });

  it("when a preset of one unit measurement has its own price, then base-unit mode leaves it at Shopify's price", () => {
    const config = {
      ...PER_10_G,
      displayStyle: 'pills' as const,
      rules: undefined,
      presets: [{ value: 10, price: '0.20' }],
    };
    expect(priceOf(base({ svc: 10, quantity: 125, config }), 'base_units')).toBe('no operation');
    expect(priceOf(base({ svc: 10, quantity: 125, config }), 'function')).toBe('0.20');
  });

  it('when a forged line states 1 kg at quantity 1, then it is still charged for 1 kg, never one base unit', () => {
    expect(priceOf(base({ svc: 1000, quantity: 1 }), 'base_units')).toBe('24.00');
  });

  it('when the shop metafield is missing or unreadable, then lines are priced as in the function mode', () => {
    const input = runInput([cartLine({ svc: 1.25 })]);
    for (const shop of [null, { metafield: null }, { metafield: { value: 'not json' } }]) {
      expect(cartTransformRun({ ...input, shop }).operations).toEqual([priced('30.00')]);
    }
  });
});

describe('cartTransformRun on a whole cart', () => {
  it('when measured, forged and plain lines are mixed, then exactly the allowed ones are priced, by their own ids', () => {
    const lines = [
      cartLine({ svc: 1.25 }, 1),
      cartLine({ svc: 0.1 }, 2), // below the minimum
      cartLine({ svc: 1, config: BAGS }, 3),
      cartLine({ svc: null, config: null, amount: '3.50' }, 4), // an unmeasured product
      cartLine({ svc: 2.5, quantity: 2 }, 5),
    ];
    expect(run(lines).operations).toEqual([priced('30.00', 1), priced('16.00', 3), priced('60.00', 5)]);
  });

  it('when the cart is empty, then there are no operations', () => {
    expect(run([])).toEqual({ operations: [] });
  });
});

function forged(extra: Record<string, unknown>): string {
  return JSON.stringify({ ...JSON.parse(svcData(1.25)), ...extra });
}

function halfKg(): VariantMeasurementConfig {
  return rules({ min: 0.5, increment: 0.5, defaultValue: 0.5 });
}
