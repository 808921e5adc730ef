import { localeChain, normalizeLocale, TEMPLATE_TOKENS } from '@tare/contracts';
import { MEASUREMENT_TYPES, type MeasurementType, unitsOf } from './units.js';

export const SUPPORTED_LOCALES = ['en', 'fr', 'es', 'de'] as const;
type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

interface Words {
  unitPrice: string;
  /** The legal unit price's name (PRODUCT.md §21): per kg, per L, … whatever the unit measurement. */
  referenceUnitPrice: string;
  netQuantity: string;
  net: Record<MeasurementType, string>;
  /** PRODUCT.md §19: the factors' property name, and the overage's name and text. */
  dimensions: string;
  overage: string;
  overageValue: string;
}

const WORDS: Record<SupportedLocale, Words> = {
  en: {
    unitPrice: 'Unit price',
    referenceUnitPrice: 'Price per measure',
    netQuantity: 'Net quantity',
    net: { weight: 'Net weight', length: 'Length', area: 'Area', volume: 'Volume', time: 'Duration' },
    dimensions: 'Dimensions',
    overage: 'Overage',
    overageValue: 'Includes {Percent}% extra',
  },
  fr: {
    unitPrice: 'Prix unitaire',
    referenceUnitPrice: 'Prix à l’unité de mesure',
    netQuantity: 'Quantité nette',
    net: { weight: 'Poids net', length: 'Longueur', area: 'Surface', volume: 'Volume', time: 'Durée' },
    dimensions: 'Dimensions',
    overage: 'Marge de coupe',
    overageValue: 'Comprend {Percent} % en plus',
  },
  es: {
    unitPrice: 'Precio unitario',
    referenceUnitPrice: 'Precio por unidad de medida',
    netQuantity: 'Cantidad neta',
    net: { weight: 'Peso neto', length: 'Longitud', area: 'Superficie', volume: 'Volumen', time: 'Duración' },
    dimensions: 'Dimensiones',
    overage: 'Margen de corte',
    overageValue: 'Incluye un {Percent} % adicional',
  },
  de: {
    unitPrice: 'Grundpreis',
    referenceUnitPrice: 'Grundpreis',
    netQuantity: 'Nettomenge',
    net: { weight: 'Nettogewicht', length: 'Länge', area: 'Fläche', volume: 'Volumen', time: 'Dauer' },
    dimensions: 'Maße',
    overage: 'Verschnitt',
    overageValue: 'Inklusive {Percent} % Verschnitt',
  },
};

const UNIT_PRICE_TEMPLATE = '{Price}/{Quantity}';
// {Value}, not {Quantity_With_Space}: a net weight of 1 kg must read "1 kg", never "kg".
const NET_TEMPLATE = '{Value} {Unit}';

const netKey = (type: MeasurementType) => `net${type[0]?.toUpperCase()}${type.slice(1)}`;
const unitPriceValueKey = (type: MeasurementType, unit: string) => `unitPrice_${type}_value_${unit}`;
const netValueKey = (type: MeasurementType, unit: string) => `${netKey(type)}_value_${unit}`;
// The legal unit price (PRODUCT.md §21), in a shop's label set only while it has unit pricing on.
const UNIT_PRICING_KEYS = ['referenceUnitPrice', 'referenceUnitPriceValue'];
// Area and volume made from dimensions (PRODUCT.md §19): in the label set of a shop selling either.
const DIMENSION_KEYS = ['dimensions', 'dimensions_value', 'overage', 'overage_value'];
const SUMMARY_KEYS = [
  'unitPrice',
  'unitPricePropertyName',
  'unitPricePropertyValue',
  'netMeasurementLabel',
  'netMeasurementValue',
];

function keysFor(type: MeasurementType, units: readonly string[]): string[] {
  return [netKey(type), ...units.flatMap((u) => [unitPriceValueKey(type, u), netValueKey(type, u)])];
}

function builtInSet(w: Words): Record<string, string> {
  const set: Record<string, string> = {
    unitPrice: w.unitPrice,
    unitPricePropertyName: w.unitPrice,
    unitPricePropertyValue: UNIT_PRICE_TEMPLATE,
    netMeasurementLabel: w.netQuantity,
    netMeasurementValue: NET_TEMPLATE,
    referenceUnitPrice: w.referenceUnitPrice,
    referenceUnitPriceValue: '{UnitPrice}',
    dimensions: w.dimensions,
    dimensions_value: '{Dimensions}',
    overage: w.overage,
    overage_value: w.overageValue,
  };
  for (const type of MEASUREMENT_TYPES) {
    set[netKey(type)] = w.net[type];
    for (const u of unitsOf(type)) {
      set[unitPriceValueKey(type, u)] = UNIT_PRICE_TEMPLATE;
      set[netValueKey(type, u)] = NET_TEMPLATE;
    }
  }
  return set;
}

/** A built-in label key, the tokens its renderer fills (none: shown as written) and what it is for. */
export interface LabelKey {
  key: string;
  tokens: readonly string[];
  /** The type and unit of a per-type or per-unit key. */
  type?: MeasurementType;
  unit?: string;
}

// The cart helpers fill a unit price value with the price; a net value has no price to fill;
// {UnitPrice} (price per the shop's reference) only in the label made for it.
// {Dimensions} and {Percent} only in the labels of PRODUCT.md §19.
const PRICE_TOKENS: readonly string[] = TEMPLATE_TOKENS.filter(
  (token) => token !== 'UnitPrice' && token !== 'Dimensions' && token !== 'Percent',
);
const NET_TOKENS: readonly string[] = PRICE_TOKENS.filter((token) => token !== 'Price');

/** Every built-in key, summary keys first, then per type its name and each unit's two templates. */
export const LABEL_KEYS: readonly LabelKey[] = Object.freeze([
  { key: 'unitPrice', tokens: [] },
  { key: 'unitPricePropertyName', tokens: [] },
  { key: 'unitPricePropertyValue', tokens: PRICE_TOKENS },
  { key: 'netMeasurementLabel', tokens: [] },
  { key: 'netMeasurementValue', tokens: NET_TOKENS },
  { key: 'referenceUnitPrice', tokens: [] },
  { key: 'referenceUnitPriceValue', tokens: ['UnitPrice'] },
  { key: 'dimensions', tokens: [] },
  { key: 'dimensions_value', tokens: ['Dimensions'] },
  { key: 'overage', tokens: [] },
  { key: 'overage_value', tokens: ['Percent'] },
  ...MEASUREMENT_TYPES.flatMap((type) => [
    { key: netKey(type), tokens: [], type },
    ...unitsOf(type).flatMap((unit) => [
      { key: unitPriceValueKey(type, unit), tokens: PRICE_TOKENS, type, unit },
      { key: netValueKey(type, unit), tokens: NET_TOKENS, type, unit },
    ]),
  ]),
]);
const TOKENS_BY_KEY = new Map(LABEL_KEYS.map((k) => [k.key, k.tokens]));

/**
 * The tokens a label key's text may hold: none for a name shown as written, undefined for a key
 * of the shop's own (not built in), whose use Tare does not know and whose text it does not check.
 * @example labelTokens('netWeight_value_kg') // ['Quantity', 'Quantity_With_Space', 'Unit', 'Value']
 */
export function labelTokens(key: string): readonly string[] | undefined {
  return TOKENS_BY_KEY.get(key);
}

const BUILT_IN = new Map<string, Readonly<Record<string, string>>>(
  SUPPORTED_LOCALES.map((l) => [l, Object.freeze(builtInSet(WORDS[l]))]),
);

export interface ResolveLabelsInput {
  requestedLocale?: string;
  shopDefaultLocale: string;
  enabled: { type: MeasurementType; units: string[] }[];
  /** Shop overrides by locale tag (any casing / `_` separator) then label key. */
  overrides: Record<string, Record<string, string>>;
  /** Whether the shop shows unit prices (`settings.unitPricing.enabled`): their two labels come with it. */
  unitPricing?: boolean;
}

/**
 * Label set for the shop's enabled types and units. Per key, the first locale in
 * `localeChain` with a value wins, the shop override before the built-in default at
 * the same locale; shop-only custom keys in the chain are kept. `locale` is the first
 * chain locale with shop overrides or a built-in set. Keys are sorted (stable ETag).
 * @example resolveLabels({ requestedLocale: 'fr-CA', shopDefaultLocale: 'en', enabled: [{ type: 'weight', units: ['kg'] }], overrides: {} })
 *   // { locale: 'fr', labels: { netWeight: 'Poids net', ... } }
 */
export function resolveLabels(input: ResolveLabelsInput): { locale: string; labels: Record<string, string> } {
  const chain = localeChain(input.requestedLocale, input.shopDefaultLocale);
  const shop = new Map<string, Record<string, string>>();
  for (const [tag, set] of Object.entries(input.overrides)) {
    const locale = normalizeLocale(tag);
    if (locale && set && Object.keys(set).length > 0) shop.set(locale, { ...shop.get(locale), ...set });
  }
  const sources = chain.flatMap((l) => [shop.get(l), BUILT_IN.get(l)]).filter((s) => s !== undefined);
  const keys = new Set([
    ...SUMMARY_KEYS,
    ...(input.unitPricing ? UNIT_PRICING_KEYS : []),
    ...(input.enabled.some((e) => e.type === 'area' || e.type === 'volume') ? DIMENSION_KEYS : []),
    ...input.enabled.flatMap((e) => keysFor(e.type, e.units)),
    ...chain.flatMap((l) => Object.keys(shop.get(l) ?? {})),
  ]);
  const labels: [string, string][] = [];
  for (const key of [...keys].sort()) {
    const value = sources.find((s) => Object.hasOwn(s, key) && typeof s[key] === 'string')?.[key];
    if (value !== undefined) labels.push([key, value]);
  }
  const locale = chain.find((l) => shop.has(l) || BUILT_IN.has(l)) ?? 'en';
  return { locale, labels: Object.fromEntries(labels) };
}

/** Template rendering is shared with the client's cart helpers. */
// The locale rules are the storefront picker's too: one copy, in the contracts.
export { localeChain, normalizeLocale, renderTemplate } from '@tare/contracts';
