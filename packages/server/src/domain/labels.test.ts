import { describe, expect, it } from 'vitest';
import { renderTemplate, resolveLabels, SUPPORTED_LOCALES } from './labels.js';
import { MEASUREMENT_TYPES, unitsOf } from './units.js';

const ALL_ENABLED = MEASUREMENT_TYPES.map((type) => ({ type, units: [...unitsOf(type)] }));
const WEIGHT_KG_G = [{ type: 'weight' as const, units: ['kg', 'g'] }];

// normalizeLocale and localeChain are the contracts' (labels.ts re-exports them): their cases
// are in packages/contracts/src/locales.test.ts.

describe('resolveLabels', () => {
  it('when the shop overrides a key at the served locale, then the override wins over the built-in', () => {
    const { labels } = resolveLabels({
      requestedLocale: 'fr',
      shopDefaultLocale: 'en',
      enabled: WEIGHT_KG_G,
      overrides: { fr: { netWeight: 'Poids égoutté' } },
    });
    expect(labels.netWeight).toBe('Poids égoutté');
    expect(labels.unitPrice).toBe('Prix unitaire');
  });

  it('when fr-CA overrides one key, then that key comes from fr-CA and the rest from fr', () => {
    const result = resolveLabels({
      requestedLocale: 'fr_ca',
      shopDefaultLocale: 'en',
      enabled: WEIGHT_KG_G,
      overrides: { 'FR-ca': { unitPrice: 'Prix à l’unité' } },
    });
    expect(result.locale).toBe('fr-CA');
    expect(result.labels.unitPrice).toBe('Prix à l’unité');
    expect(result.labels.netWeight).toBe('Poids net');
    expect(result.labels.netMeasurementLabel).toBe('Quantité nette');
  });

  it.each([
    ['fr-CA', 'en', {}, 'fr'],
    ['xx', 'de', {}, 'de'],
    ['xx', 'xx-YY', {}, 'en'],
    ['!!', '??', {}, 'en'],
    [undefined, 'es', {}, 'es'],
    ['it', 'en', { it: { unitPrice: 'Prezzo unitario' } }, 'it'],
    ['it', 'en', { it: {} }, 'en'],
  ])('when %j is requested with shop default %j and overrides %j, then %j is served', (req, def, overrides, served) => {
    const result = resolveLabels({ requestedLocale: req, shopDefaultLocale: def, enabled: WEIGHT_KG_G, overrides });
    expect(result.locale).toBe(served);
  });

  it('when a locale has only a partial override set, then missing keys fall back down the chain', () => {
    const { labels } = resolveLabels({
      requestedLocale: 'it',
      shopDefaultLocale: 'de',
      enabled: WEIGHT_KG_G,
      overrides: { it: { unitPrice: 'Prezzo unitario' } },
    });
    expect(labels.unitPrice).toBe('Prezzo unitario');
    expect(labels.netWeight).toBe('Nettogewicht');
  });

  it('when only some types and units are enabled, then only their keys plus summary and custom keys are served, sorted', () => {
    const { labels } = resolveLabels({
      requestedLocale: 'en',
      shopDefaultLocale: 'en',
      enabled: WEIGHT_KG_G,
      overrides: { en: { customBadge: 'Sold by weight' }, de: { otherCustom: 'not in chain' } },
    });
    expect(Object.keys(labels)).toEqual([
      'customBadge',
      'netMeasurementLabel',
      'netMeasurementValue',
      'netWeight',
      'netWeight_value_g',
      'netWeight_value_kg',
      'unitPrice',
      'unitPricePropertyName',
      'unitPricePropertyValue',
      'unitPrice_weight_value_g',
      'unitPrice_weight_value_kg',
    ]);
    expect(labels.unitPrice_weight_value_kg).toBe('{Price}/{Quantity}');
    expect(labels.netWeight_value_g).toBe('{Value} {Unit}');
  });

  it.each(SUPPORTED_LOCALES)(
    'when serving %s, then every key for every type and unit has a built-in value',
    (locale) => {
      const result = resolveLabels({
        requestedLocale: locale,
        shopDefaultLocale: 'en',
        enabled: ALL_ENABLED,
        overrides: {},
      });
      expect(result.locale).toBe(locale);
      for (const type of MEASUREMENT_TYPES) {
        const net = `net${type[0]?.toUpperCase()}${type.slice(1)}`;
        expect(result.labels[net]).toBeTruthy();
        for (const unit of unitsOf(type)) {
          expect(result.labels[`unitPrice_${type}_value_${unit}`]).toBe('{Price}/{Quantity}');
          expect(result.labels[`${net}_value_${unit}`]).toBe('{Value} {Unit}');
        }
      }
      expect(result.labels.unitPricePropertyName).toBe(result.labels.unitPrice);
      expect(result.labels.unitPricePropertyValue).toBe('{Price}/{Quantity}');
      expect(result.labels.netMeasurementValue).toBe('{Value} {Unit}');
      expect(result.labels.netMeasurementLabel).toBeTruthy();
    },
  );

  it.each([
    ['en', 'Unit price', 'Net weight', 'Duration', 'Net quantity'],
    ['fr', 'Prix unitaire', 'Poids net', 'Durée', 'Quantité nette'],
    ['es', 'Precio unitario', 'Peso neto', 'Duración', 'Cantidad neta'],
    ['de', 'Grundpreis', 'Nettogewicht', 'Dauer', 'Nettomenge'],
  ])('when serving %s, then the wording is native', (locale, unitPrice, netWeight, netTime, netQuantity) => {
    const { labels } = resolveLabels({
      requestedLocale: locale,
      shopDefaultLocale: 'en',
      enabled: ALL_ENABLED,
      overrides: {},
    });
    expect(labels).toMatchObject({ unitPrice, netWeight, netTime, netMeasurementLabel: netQuantity });
  });
});

describe('renderTemplate', () => {
  it.each([
    ['{Price}/{Quantity}', { price: '€2.50', quantity: '1', unit: 'kg' }, '€2.50/kg'],
    ['{Price}/{Quantity}', { price: '€2.50', quantity: '1.000', unit: 'kg' }, '€2.50/kg'],
    ['{Price}/{Quantity}', { price: '€2.50', quantity: '1.0', unit: 'kg' }, '€2.50/kg'],
    ['{Price}/{Quantity}', { price: '€0.89', quantity: '100', unit: 'g' }, '€0.89/100g'],
    ['{Price}/{Quantity}', { price: '€0.89', quantity: '100.000000000', unit: 'g' }, '€0.89/100g'],
    ['{Price} per {Quantity_With_Space}', { price: '$3', quantity: '2.5', unit: 'kg' }, '$3 per 2.5 kg'],
    ['{Price} per {Quantity_With_Space}', { price: '$3', quantity: '1', unit: 'kg' }, '$3 per kg'],
    ['{Value} {Unit}', { quantity: '1', unit: 'kg' }, '1 kg'],
    ['{Value} {Unit}', { quantity: '0.250', unit: 'kg' }, '0.25 kg'],
    ['{Value}{Unit}', { quantity: '1.000', unit: 'L' }, '1L'],
    ['{Price}/{Quantity}', { quantity: '1', unit: 'kg' }, '{Price}/kg'],
    ['{Price}/{Quantity} {Bogus} {price}', { price: '€1', quantity: '2', unit: 'm' }, '€1/2m {Bogus} {price}'],
    ['{Quantity}+{Quantity}', { quantity: '3', unit: 'h' }, '3h+3h'],
    ['{Price}', { price: '{Quantity}', quantity: '3', unit: 'h' }, '{Quantity}'],
  ])('when rendering %j with %j, then it reads %j', (template, tokens, expected) => {
    expect(renderTemplate(template, tokens)).toBe(expected);
  });

  it('when a net weight of 1 kg uses the default template, then it reads "1 kg"', () => {
    const { labels } = resolveLabels({
      requestedLocale: 'en',
      shopDefaultLocale: 'en',
      enabled: WEIGHT_KG_G,
      overrides: {},
    });
    expect(renderTemplate(labels.netWeight_value_kg ?? '', { quantity: '1', unit: 'kg' })).toBe('1 kg');
    expect(renderTemplate(labels.unitPrice_weight_value_kg ?? '', { price: '€4.20', quantity: '1', unit: 'kg' })).toBe(
      '€4.20/kg',
    );
  });
});

describe('resolveLabels with unit pricing (PRODUCT.md §21)', () => {
  const input = { shopDefaultLocale: 'en', enabled: [{ type: 'weight' as const, units: ['g'] }], overrides: {} };

  it.each([
    ['en', 'Price per measure'],
    ['fr', 'Prix à l’unité de mesure'],
    ['es', 'Precio por unidad de medida'],
    ['de', 'Grundpreis'],
  ])('when the shop has unit pricing on, then %s has its name and the {UnitPrice} template', (locale, name) => {
    const { labels } = resolveLabels({ ...input, requestedLocale: locale, unitPricing: true });
    expect(labels.referenceUnitPrice).toBe(name);
    expect(labels.referenceUnitPriceValue).toBe('{UnitPrice}');
    expect(
      renderTemplate(labels.referenceUnitPriceValue!, { quantity: '1', unit: 'kg', unitPrice: '€1.92/100g' }),
    ).toBe('€1.92/100g');
  });

  it('when the shop has unit pricing off, then neither label is in its set', () => {
    const { labels } = resolveLabels({ ...input, requestedLocale: 'de' });
    expect(labels).not.toHaveProperty('referenceUnitPrice');
    expect(labels).not.toHaveProperty('referenceUnitPriceValue');
  });
});
