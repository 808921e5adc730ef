import { dimensionsFromFactors, variantMeasurementConfig, type VariantMeasurementConfig } from '@tare/contracts';
import { describe, expect, it } from 'vitest';
import { cartTransformRun } from '../../../../extensions/cart-transform/src/cart_transform_run.js';
import { DEMO_CATALOG } from '../../src/cli/demo-catalog.js';
import { cartLine, outputErrors, priced, runInput } from './support.js';

// PRODUCT.md §19 on Shopify: the checkout function prices a line made from dimensions from its
// dimensions[0], and only when the factors make it (the demo carpet's metafield, as Tare writes it).
const carpetProduct = DEMO_CATALOG.shops[0]!.products!.find((p) => p.id === '1006')!;
const carpetVariant = carpetProduct.variants[0]!;
const CARPET: VariantMeasurementConfig = variantMeasurementConfig(
  {
    measurementType: 'area',
    unitMeasurement: carpetVariant.unitMeasurement,
    settings: carpetVariant.settings as never,
    price: carpetVariant.price,
  },
  'USD',
);

const carpetLine = (dimensions: unknown[], id = 1) =>
  cartLine({ config: CARPET, svc: JSON.stringify({ measurement: { type: 'area', dimensions } }) }, id);

function run(lines: ReturnType<typeof cartLine>[]) {
  const output = cartTransformRun(runInput(lines));
  expect(outputErrors(output)).toEqual([]);
  return output.operations;
}

describe('cartTransformRun on lines made from dimensions', () => {
  it('when the metafield is written, then it carries the dimensions and the overage', () => {
    expect(CARPET).toMatchObject({
      dimensions: [
        { name: 'length', unit: 'm', rules: { min: 0.5, increment: 0.01, defaultValue: 1, max: 50 } },
        { name: 'width', unit: 'm', fixed: 4 },
      ],
      overagePercent: 10,
    });
  });

  it('when 2.35 m of carpet is in the cart, then it is charged 10.34 m² × 29.00 = 299.86', () => {
    const dimensions = dimensionsFromFactors([2.35], 'm2', CARPET);
    expect(run([carpetLine(dimensions)])).toEqual([priced('299.86')]);
  });

  it.each([
    [
      'a measure the factors do not make',
      [
        { value: 1, unit: 'm2' },
        { value: 2.35, unit: 'm' },
        { value: 4, unit: 'm' },
      ],
    ],
    ['no factors', [{ value: 10.34, unit: 'm2' }]],
    [
      'a changed fixed width',
      [
        { value: 2.59, unit: 'm2' },
        { value: 2.35, unit: 'm' },
        { value: 1, unit: 'm' },
      ],
    ],
    [
      'a length outside its rules',
      [
        { value: 0.44, unit: 'm2' },
        { value: 0.1, unit: 'm' },
        { value: 4, unit: 'm' },
      ],
    ],
  ])('when a line has %s, then it is left at the variant’s own price (no operation)', (_, dimensions) => {
    expect(run([carpetLine(dimensions)])).toEqual([]);
  });
});
