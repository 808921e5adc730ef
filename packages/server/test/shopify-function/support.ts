import { readFileSync } from 'node:fs';
import type { VariantMeasurementConfig } from '@tare/contracts';
import { buildSchema, coerceInputValue, GraphQLNonNull, type GraphQLInputType } from 'graphql';
import type {
  CartTransformLine,
  CartTransformRunInput,
} from '../../../../extensions/cart-transform/src/cart_transform_run.js';

export const EXTENSION = new URL('../../../../extensions/cart-transform/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, EXTENSION), 'utf8');

/** The Cart Transform API schema of the pinned version, as Shopify publishes it. */
export const SCHEMA = buildSchema(read('schema.graphql'));
export const INPUT_QUERY = read('src/cart_transform_run.graphql');

/**
 * Why `output` is not a value of the schema's `CartTransformRunResult` (what Shopify accepts back
 * from the function: every field, type and `@oneOf`), as `path: message` lines; empty when it is.
 */
export function outputErrors(output: unknown): string[] {
  const type = new GraphQLNonNull(SCHEMA.getType('CartTransformRunResult') as GraphQLInputType);
  const errors: string[] = [];
  coerceInputValue(output, type, (path, _value, error) => errors.push(`${path.join('.')}: ${error.message}`));
  return errors;
}

/** 24.00 per kg, sold from 0.25 kg in steps of 0.25 kg up to 5 kg, in USD. */
export const PER_KG: VariantMeasurementConfig = {
  version: 1,
  type: 'weight',
  unitMeasurement: { unit: 'kg', value: 1 },
  displayStyle: 'number',
  rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: 5 },
  price: '24.00',
  currency: 'USD',
};

/** Coffee bags as pills: 0.25 kg, 0.5 kg, and 1 kg at its own 16.00 (instead of 18.00). */
export const BAGS: VariantMeasurementConfig = {
  ...PER_KG,
  displayStyle: 'pills',
  rules: undefined,
  presets: [{ value: 0.25 }, { value: 0.5, label: 'Half' }, { value: 1, price: '16.00' }],
  price: '18.00',
};

export interface LineSpec {
  /** The `_svc_data` text, or a measure in kg to state; null: no attribute. */
  svc?: string | number | null;
  /** The variant's metafield: a document, raw text, or null for none. */
  config?: VariantMeasurementConfig | string | null;
  amount?: string;
  currency?: string;
  quantity?: number;
  unit?: string;
  type?: string;
}

export const svcData = (value: number, unit = 'kg', type = 'weight') =>
  JSON.stringify({ measurement: { type, dimensions: [{ value, unit }] } });

/** One cart line as the input query returns it. */
export function cartLine(spec: LineSpec, id = 1): CartTransformLine {
  const config = spec.config === undefined ? PER_KG : spec.config;
  const svc = spec.svc === undefined ? 1.25 : spec.svc;
  const value = typeof svc === 'number' ? svcData(svc, spec.unit, spec.type) : svc;
  return {
    id: `gid://shopify/CartLine/${id}`,
    quantity: spec.quantity ?? 1,
    attribute: value === null ? null : { value },
    cost: {
      amountPerQuantity: {
        amount: spec.amount ?? (typeof config === 'object' && config ? config.price : '24.00'),
        currencyCode: spec.currency ?? 'USD',
      },
    },
    merchandise: {
      __typename: 'ProductVariant',
      id: `gid://shopify/ProductVariant/${id}`,
      metafield: config === null ? null : { value: typeof config === 'string' ? config : JSON.stringify(config) },
    },
  };
}

/** The function's input for `lines`, in a shop whose metafield states `mode`. */
export function runInput(
  lines: CartTransformLine[],
  mode: 'function' | 'base_units' = 'function',
): CartTransformRunInput {
  const shop = { version: 1, defaultLocale: 'en', currency: 'USD', pricingMode: mode, labels: { en: {} } };
  return { shop: { metafield: { value: JSON.stringify(shop) } }, cart: { lines } };
}

export const priced = (amount: string, id = 1) => ({
  lineUpdate: { cartLineId: `gid://shopify/CartLine/${id}`, price: { adjustment: { fixedPricePerUnit: { amount } } } },
});
