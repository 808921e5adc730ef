import { describe, expect, it } from 'vitest';
import { shopifyUnitPriceEntries, shopifyUnitPriceOf } from './shopify-unit-price.js';

const on = (reference?: Record<string, { value: number; unit: string }>) => ({ enabled: true, reference });
const variant = (
  unit: string,
  unitValue: string,
  measurementType: 'weight' | 'volume' | 'area' | 'time' = 'weight',
) => ({
  id: '1',
  productId: '10',
  measurementType,
  unit,
  unitValue,
});

describe('shopifyUnitPriceOf', () => {
  it('states the quantity the price buys per the shop reference, in Shopify’s enum', () => {
    expect(shopifyUnitPriceOf(variant('g', '250.000000000'), on())).toEqual({
      measurement: { quantityValue: 250, quantityUnit: 'G', referenceValue: 1, referenceUnit: 'KG' },
    });
    expect(shopifyUnitPriceOf(variant('floz', '12', 'volume'), on({ volume: { value: 100, unit: 'ml' } }))).toEqual({
      measurement: { quantityValue: 12, quantityUnit: 'FLOZ', referenceValue: 100, referenceUnit: 'ML' },
    });
  });

  it('refuses, in words, what Shopify cannot state exactly instead of approximating it', () => {
    expect(shopifyUnitPriceOf(variant('t', '1'), on())).toEqual({ problem: 'Shopify has no unit price unit for t' });
    expect(shopifyUnitPriceOf(variant('ha', '1', 'area'), on())).toEqual({
      problem: 'Shopify has no unit price unit for ha',
    });
    expect(shopifyUnitPriceOf(variant('g', '250'), on({ weight: { value: 1, unit: 'st' } }))).toEqual({
      problem: "Shopify has no unit price unit for the shop's weight reference st",
    });
    expect(shopifyUnitPriceOf(variant('g', '250'), on({ weight: { value: 0.5, unit: 'kg' } }))).toEqual({
      problem: 'Shopify states a reference in whole numbers: 0.5 kg is not one',
    });
    expect(shopifyUnitPriceOf(variant('g', '123456789.123456789'), on())).toEqual({
      problem: 'Shopify cannot hold the measurement 123456789.123456789 g exactly',
    });
  });

  it('states nothing for time or with unit pricing off', () => {
    expect(shopifyUnitPriceOf(variant('h', '1', 'time'), on())).toBeUndefined();
    expect(shopifyUnitPriceOf(variant('g', '250'), { enabled: false })).toBeUndefined();
  });
});

describe('shopifyUnitPriceEntries', () => {
  it('hides (and reports) a variant Shopify cannot state, skips time, and hides all when off', () => {
    const variants = [
      variant('g', '250'),
      { ...variant('st', '1'), id: '2' },
      { ...variant('h', '1', 'time'), id: '3' },
    ];
    expect(shopifyUnitPriceEntries(variants, on())).toEqual({
      entries: [
        {
          id: '1',
          showUnitPrice: true,
          unitPriceMeasurement: { quantityValue: 250, quantityUnit: 'G', referenceValue: 1, referenceUnit: 'KG' },
        },
        { id: '2', showUnitPrice: false },
      ],
      issues: [{ variantId: '2', productId: '10', unit: 'st', problem: 'Shopify has no unit price unit for st' }],
    });
    expect(shopifyUnitPriceEntries(variants, { enabled: false })).toEqual({
      entries: [
        { id: '1', showUnitPrice: false },
        { id: '2', showUnitPrice: false },
      ],
      issues: [],
    });
  });
});
