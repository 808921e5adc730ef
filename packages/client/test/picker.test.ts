import { validateSvcData } from '@tare/contracts';
import { describe, expect, it } from 'vitest';
import {
  localeChain,
  pickerFields,
  pickLine,
  readShopConfig,
  readVariantConfig,
  shopLabels,
  type PickerVariantConfig,
} from '../src/picker/index.js';

/** The demo coffee's variant metafield: 24.00 per kg, from 0.25 kg in steps of 0.25. */
const ARABICA: PickerVariantConfig = {
  version: 1,
  type: 'weight',
  unitMeasurement: { unit: 'kg', value: 1 },
  displayStyle: 'number',
  rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
  price: '24.00',
  currency: 'USD',
};
/** Sold per 100 g at 1.80, with a 1 kg bag at its own 16.00. */
const ROBUSTA: PickerVariantConfig = {
  version: 1,
  type: 'weight',
  unitMeasurement: { unit: 'g', value: 100 },
  displayStyle: 'pills',
  presets: [{ value: 250 }, { value: 500, label: 'Half a kilo' }, { value: 1000, price: '16.00' }],
  price: '1.80',
  currency: 'USD',
};
const EN = {
  netWeight: 'Net weight',
  netWeight_value_g: '{Value} {Unit}',
  netWeight_value_kg: '{Value} {Unit}',
  unitPrice: 'Unit price',
  unitPrice_weight_value_kg: '{Price}/{Quantity}',
  unitPrice_weight_value_g: '{Price}/{Quantity}',
};
const FR = { ...EN, netWeight: 'Poids net', unitPrice: 'Prix unitaire' };
const SHOP = { version: 1, defaultLocale: 'de', currency: 'USD', pricingMode: 'function', labels: { en: EN, fr: FR } };

const pick = (
  variant: PickerVariantConfig,
  value: number | undefined,
  pricingMode: 'function' | 'base_units' = 'function',
) => pickLine({ variantId: '2001', variant, pricingMode, labels: EN, locale: 'en', value });

describe('pickLine in function mode', () => {
  it('when 1.25 kg of coffee at 24.00/kg is picked, then the cart gets quantity 1 of a 1.25 kg line costing 30.00', () => {
    const line = pick(ARABICA, 1.25);
    expect(line.ok).toBe(true);
    if (!line.ok) return;
    expect(line.linePrice).toBe('30.00');
    expect(line.item).toMatchObject({ id: 2001, quantity: 1 });
    const svc = validateSvcData(line.item.properties['_svc_data'], { unit: 'kg' });
    expect(svc.ok && svc.data.measurement.dimensions[0]).toEqual({ unit: 'kg', value: 1.25 });
    expect(line.visible).toEqual([
      { name: 'Unit price', value: '$24.00/kg' },
      { name: 'Net weight', value: '1.25 kg' },
    ]);
    expect(line.item.properties).toMatchObject({ 'Unit price': '$24.00/kg', 'Net weight': '1.25 kg' });
  });

  it('when a preset with its own price is picked, then the line costs that price (the one pricing rule)', () => {
    const line = pick(ROBUSTA, 1000);
    expect(line.ok && line.linePrice).toBe('16.00');
    expect(pick(ROBUSTA, 250).ok && (pick(ROBUSTA, 250) as { linePrice: string }).linePrice).toBe('4.50');
  });

  it('when the shop shows unit prices, then the line states the price per its reference (the variant’s, or a priced preset’s)', () => {
    const labels = { ...EN, referenceUnitPrice: 'Price per measure', referenceUnitPriceValue: '{UnitPrice}' };
    const perKg = (amount: string) => ({ amount, currency: 'USD', reference: { value: 1, unit: 'kg' } });
    const robusta: PickerVariantConfig = {
      ...ROBUSTA,
      unitPrice: perKg('18.00'),
      presets: [{ value: 250 }, { value: 1000, price: '16.00', unitPrice: perKg('16.00') }],
    };
    const picked = (variant: PickerVariantConfig, value: number) =>
      pickLine({ variantId: '2002', variant, pricingMode: 'function', labels, locale: 'en', value });
    const quarter = picked(robusta, 250);
    expect(quarter.ok && quarter.visible).toEqual([
      { name: 'Unit price', value: '$1.80/100g' },
      { name: 'Price per measure', value: '$18.00/kg' },
      { name: 'Net weight', value: '250 g' },
    ]);
    const bag = picked(robusta, 1000);
    expect(bag.ok && bag.visible[1]).toEqual({ name: 'Price per measure', value: '$16.00/kg' });
    // Unit pricing off: the document carries no unitPrice, and nothing is stated.
    const off = picked(ROBUSTA, 250);
    expect(off.ok && off.visible.map((p) => p.name)).toEqual(['Unit price', 'Net weight']);
  });

  it.each([
    [0, '0 is below the minimum 0.25'],
    [1.3, '1.3 is not a multiple of the increment 0.25 from 0.25'],
    [undefined, 'Enter a quantity in kg'],
    [Number.NaN, 'Enter a quantity in kg'],
  ])('when %s kg is picked, then it is refused before the cart: %s', (value, reason) => {
    expect(pick(ARABICA, value)).toEqual({ ok: false, reasons: [reason] });
  });

  it('when a value is not one of the presets, then it is refused', () => {
    expect(pick(ROBUSTA, 300)).toEqual({ ok: false, reasons: ['300 is not one of the presets (250, 500, 1000)'] });
  });

  it('when more is picked than Tare can book (past 1e9 whole units), then it is refused, not shown at a price the checkout would not charge', () => {
    // The checkout function leaves such a line at the variant's own price (bookableMeasureIssue),
    // so the picker must not offer it at measure × price.
    expect(pick(ARABICA, 1_000_000_000.25)).toEqual({
      ok: false,
      reasons: [
        '1 × 1000000000.25 kg is more than 1000000000 whole units of the variant, past what a platform level holds',
      ],
    });
    expect(pick(ARABICA, 1_000_000_000).ok).toBe(true);
  });

  it('when the variant is in a currency without minor digits, then the line price has none', () => {
    const line = pick({ ...ARABICA, price: '2400', currency: 'JPY' }, 1.25);
    expect(line.ok && line.linePrice).toBe('3000');
  });
});

describe('pickLine in base-units mode', () => {
  it('when 1500 g is picked of a variant sold per 100 g, then the cart gets 15 units each stating 100 g, costing 15 × 1.80', () => {
    const line = pick(
      { ...ROBUSTA, displayStyle: 'number', rules: { min: 100, increment: 100, defaultValue: 500, max: null } },
      1500,
      'base_units',
    );
    expect(line.ok).toBe(true);
    if (!line.ok) return;
    expect(line.item.quantity).toBe(15);
    const svc = validateSvcData(line.item.properties['_svc_data'], { unit: 'g' });
    expect(svc.ok && svc.data.measurement.dimensions[0]).toEqual({ unit: 'g', value: 100 });
    expect(line.linePrice).toBe('27.00');
  });

  it('when the value is not a whole number of unit measurements, then it is refused', () => {
    const line = pick(
      { ...ARABICA, rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null } },
      1.25,
      'base_units',
    );
    expect(line).toEqual({ ok: false, reasons: ['1.25 kg is not a whole number of 1 kg units'] });
  });

  it('when the value makes more whole units than a level holds, then it is refused', () => {
    const perTenGrams = { ...ROBUSTA, unitMeasurement: { unit: 'g', value: 10 } } as const;
    const rules = { min: 10, increment: 10, defaultValue: 10, max: null };
    const line = pick(
      { ...perTenGrams, displayStyle: 'number', presets: undefined, rules },
      10_000_000_010,
      'base_units',
    );
    expect(line).toEqual({
      ok: false,
      reasons: [
        '1000000001 × 10 g is more than 1000000000 whole units of the variant, past what a platform level holds',
      ],
    });
  });

  it("when a preset has its own price, then base units charge the variant's price per unit (Shopify has no function to apply it)", () => {
    const line = pick(ROBUSTA, 1000, 'base_units');
    expect(line.ok && [line.item.quantity, line.linePrice]).toEqual([10, '18.00']);
  });
});

describe('shopLabels', () => {
  it.each([
    ['fr-CA', 'fr', 'Poids net'],
    ['fr', 'fr', 'Poids net'],
    ['es', 'en', 'Net weight'],
    [undefined, 'en', 'Net weight'],
    ['not a tag!', 'en', 'Net weight'],
  ])('when the page asks for %s, then the labels of %s are used', (requested, locale, netWeight) => {
    const picked = shopLabels({ defaultLocale: 'en', labels: { en: EN, fr: FR } }, requested);
    expect(picked.locale).toBe(locale);
    expect(picked.labels['netWeight']).toBe(netWeight);
  });

  it("when the requested locale is missing, then the shop's default comes before en", () => {
    expect(localeChain('fr-CA', 'de')).toEqual(['fr-CA', 'fr', 'de', 'en']);
    expect(shopLabels({ defaultLocale: 'fr', labels: { en: EN, fr: FR } }, 'es').locale).toBe('fr');
  });
});

describe('pickerFields', () => {
  it('when the variant is a number, then the input is named by the shop label and carries min, step and default', () => {
    expect(pickerFields(ARABICA, FR)).toEqual({
      label: 'Poids net (kg)',
      style: 'number',
      number: { min: '0.25', step: '0.25', value: '1' },
    });
    expect(
      pickerFields({ ...ARABICA, rules: { min: 1e-7, increment: 1e-7, defaultValue: 1, max: 50 } }, EN).number,
    ).toEqual({ min: '0.0000001', step: '0.0000001', max: '50', value: '1' });
  });

  it('when the variant has presets, then each shows its own label or its value in the shop label', () => {
    expect(pickerFields(ROBUSTA, EN).choices).toEqual([
      { value: 250, text: '250 g' },
      { value: 500, text: 'Half a kilo' },
      { value: 1000, text: '1000 g' },
    ]);
  });
});

describe('reading the documents', () => {
  it('when the documents have the shape of storefront-config, then they are read; otherwise nothing is', () => {
    expect(readVariantConfig(JSON.stringify(ARABICA))).toEqual(ARABICA);
    expect(readShopConfig(JSON.stringify(SHOP))).toEqual(SHOP);
    expect(readVariantConfig('{"version":2}')).toBeUndefined();
    expect(readShopConfig({ ...SHOP, pricingMode: 'free' })).toBeUndefined();
    expect(readShopConfig({ ...SHOP, labels: { en: { netWeight: 1 } } })).toBeUndefined();
    expect(readShopConfig('not json')).toBeUndefined();
  });
});
