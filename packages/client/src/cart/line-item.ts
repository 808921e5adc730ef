/**
 * "Adding a measured line item to the cart" (public-api.md) as pure functions: the hidden
 * `_svc_data` property plus the customer-visible properties built from the shop's labels.
 */
import {
  dimensionsFromFactors,
  factorIssues,
  formatFactors,
  formatMoney,
  formatUnitPrice,
  isMeasurementType,
  plainNumber,
  typeOfUnit,
  unitsOf,
  validateSvcData,
} from '@tare/contracts';
import type { MeasurementType, UnitPrice } from '../types.js';
import { CartInputError } from './errors.js';
import { renderTemplate } from './template.js';

export interface LineItemProperty {
  name: string;
  value: string;
}

export interface BuildLineItemInput {
  product: { id: string; measurementType: MeasurementType | string };
  /** `unitPrice` as the API answers it: present when the shop shows unit prices (PRODUCT.md §21). */
  variant: {
    id: string;
    unitMeasurement: { unit: string; value: number };
    unitPrice?: UnitPrice;
    /**
     * A preset with its own price has its own `unitPrice`, shown for a line of exactly its value.
     * A variant made from dimensions (PRODUCT.md §19) has `dimensions`, maybe `overagePercent`, and
     * its `rules` round the measure.
     */
    settings?: { onlineStore: LineOnlineStore };
  };
  /** `data.settings.localizedLabels` of the app settings for the locale. */
  labels: Record<string, string>;
  /** What the customer chose, in the variant's unit; for a variant made from dimensions, computed from `factors`. */
  measurement?: { value: number; unit: string };
  /**
   * For a variant made from dimensions: the customer's value of each, in its setting's unit and
   * order (a fixed one's entry is ignored: its fixed value is used). `dimensions[0]` is computed.
   */
  factors?: readonly (number | undefined)[];
  /** Price per unit measurement, as decimal text (e.g. `'24'`, `'2.50'`). */
  price: string;
  /** ISO 4217 code, e.g. `'USD'`. */
  currency: string;
  /** BCP-47 tag used to format the price. */
  locale: string;
}

/** What the cart helper reads of a variant's online-store settings. */
export interface LineOnlineStore {
  presets?: readonly { value: number; unitPrice?: UnitPrice }[];
  rules?: { min: number; increment: number; defaultValue: number; max: number | null };
  dimensions?: readonly {
    name: string;
    unit: string;
    rules?: { min: number; increment: number; defaultValue: number; max: number | null };
    fixed?: number;
  }[];
  overagePercent?: number;
}

export const SVC_DATA_PROPERTY = '_svc_data';

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** The label key naming a type's net measurement (`netWeight`); `{key}_value_{unit}` renders its value. */
export const netKey = (type: MeasurementType): string => `net${type.charAt(0).toUpperCase()}${type.slice(1)}`;

function isPositiveFinite(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0;
}

type Dimensions = ReturnType<typeof dimensionsFromFactors>;

/** The line's `measurement.dimensions` from the customer's factors, or the reasons they are refused. */
function factorDimensions(input: BuildLineItemInput): { dimensions: Dimensions } | { reasons: string[] } {
  const store = input.variant.settings?.onlineStore;
  if (!store?.dimensions?.length)
    return { reasons: ['factors were given, but the variant is not made from dimensions'] };
  const unit = input.variant.unitMeasurement.unit;
  const missing = store.dimensions.flatMap((d, i) =>
    d.fixed === undefined && typeof input.factors?.[i] !== 'number' ? [`the ${d.name} is missing`] : [],
  );
  if (missing.length) return { reasons: missing };
  const config = { dimensions: store.dimensions, overagePercent: store.overagePercent, rules: store.rules };
  const dimensions = dimensionsFromFactors(input.factors as number[], unit, config);
  const issues = factorIssues(dimensions, config);
  if (issues.length) return { reasons: issues.map((issue) => `${issue.path}: ${issue.message}`) };
  return { dimensions };
}

function inputReasons(input: BuildLineItemInput & { measurement: { value: number; unit: string } }): string[] {
  const reasons: string[] = [];
  const type = input.product.measurementType;
  const typeOk = isMeasurementType(type);
  if (!typeOk) reasons.push(`product.measurementType '${String(type)}' is not a measurement type`);
  const { value, unit } = input.measurement;
  if (!isPositiveFinite(value)) reasons.push(`measurement.value must be a finite number greater than 0 (got ${value})`);
  if (typeOk && typeOfUnit(unit) !== type) {
    reasons.push(`measurement.unit '${unit}' is not a ${type} unit (one of ${unitsOf(type).join(', ')})`);
  }
  const variantUnit = input.variant.unitMeasurement.unit;
  if (unit !== variantUnit) reasons.push(`measurement.unit '${unit}' must equal the variant's unit '${variantUnit}'`);
  if (!isPositiveFinite(input.variant.unitMeasurement.value)) {
    reasons.push('variant.unitMeasurement.value must be a finite number greater than 0');
  }
  if (typeof input.price !== 'string' || !DECIMAL_TEXT.test(input.price)) {
    reasons.push(`price must be decimal text (got ${JSON.stringify(input.price)})`);
  }
  return reasons;
}

/**
 * The cart line properties for a measured variant: `_svc_data` first, then the unit price
 * property (only when `unitPrice` and `unitPrice_{type}_value_{unit}` exist), the price per the
 * shop's reference quantity (only when the variant has a `unitPrice` and the labels
 * `referenceUnitPrice` and `referenceUnitPriceValue` exist, which they do while the shop has unit
 * pricing on, and it does not read as the unit price property already does) and the net
 * measurement property (only when `net{Type}` and `net{Type}_value_{unit}` exist). Label texts
 * come only from `labels`; the visible properties are also copied into `_svc_data.properties`.
 * @throws CartInputError when the measurement is not > 0, not of the product's type, or not in the variant's unit.
 * @example buildLineItemProperties({ ..., measurement: { value: 2.5, unit: 'kg' }, price: '24', currency: 'USD', locale: 'en-US' })
 *   // [{ name: '_svc_data', value: '{...}' }, { name: 'Unit price', value: '$24.00/kg' }, { name: 'Net weight', value: '2.5 kg' }]
 */
export function buildLineItemProperties(input: BuildLineItemInput): LineItemProperty[] {
  let dimensions: Dimensions | undefined;
  if (input.factors !== undefined) {
    const made = factorDimensions(input);
    if ('reasons' in made) throw new CartInputError(made.reasons);
    dimensions = made.dimensions;
  }
  const measurement = dimensions ? dimensions[0] : input.measurement;
  if (measurement === undefined)
    throw new CartInputError(['give measurement, or factors for a variant made from dimensions']);
  const reasons = inputReasons({ ...input, measurement });
  if (reasons.length > 0) throw new CartInputError(reasons);
  const type = input.product.measurementType as MeasurementType;
  const { labels } = input;
  const unitMeasurement = input.variant.unitMeasurement;
  const unit = unitMeasurement.unit;
  const label = (key: string): string | undefined =>
    Object.hasOwn(labels, key) && typeof labels[key] === 'string' ? labels[key] : undefined;

  const visible: LineItemProperty[] = [];
  const unitPriceName = label('unitPrice');
  const unitPriceTemplate = label(`unitPrice_${type}_value_${unit}`);
  if (unitPriceName !== undefined && unitPriceTemplate !== undefined) {
    const price = formatMoney(input.price, input.currency, input.locale);
    visible.push({
      name: unitPriceName,
      value: renderTemplate(unitPriceTemplate, { price, quantity: unitMeasurement.value, unit }),
    });
  }
  const referenceName = label('referenceUnitPrice');
  const referenceTemplate = label('referenceUnitPriceValue');
  const preset = input.variant.settings?.onlineStore.presets?.find((p) => p.value === measurement.value);
  const lineUnitPrice = preset?.unitPrice ?? input.variant.unitPrice;
  if (lineUnitPrice && referenceName !== undefined && referenceTemplate !== undefined) {
    const unitPrice = formatUnitPrice(lineUnitPrice, input.locale);
    const value = renderTemplate(referenceTemplate, { unitPrice, quantity: 1, unit });
    // A variant sold per its reference (1 kg at $24.00/kg) would say the same price twice.
    if (!visible.some((p) => p.value === value)) visible.push({ name: referenceName, value });
  }
  const netName = label(netKey(type));
  const netTemplate = label(`${netKey(type)}_value_${unit}`);
  if (netName !== undefined && netTemplate !== undefined) {
    visible.push({
      name: netName,
      value: renderTemplate(netTemplate, { quantity: measurement.value, unit: measurement.unit }),
    });
  }
  if (dimensions) visible.push(...dimensionProperties(dimensions, input.variant.settings?.onlineStore, label));

  const svcData = {
    measurement: { type, dimensions: dimensions ?? [{ unit: measurement.unit, value: measurement.value }] },
    unitMeasurement: { unit, value: unitMeasurement.value },
    properties: Object.fromEntries(visible.map((p) => [p.name, p.value])),
  };
  return [{ name: SVC_DATA_PROPERTY, value: JSON.stringify(svcData) }, ...visible];
}

/**
 * The visible properties of a line made from dimensions (PRODUCT.md §19): the factors as the
 * customer gave them (`dimensions` / `dimensions_value`, `2.35 m × 4 m`) and, with an overage,
 * `overage` / `overage_value` (`Includes 10% extra`), each when the shop's labels have both keys.
 */
function dimensionProperties(
  dimensions: Dimensions,
  store: LineOnlineStore | undefined,
  label: (key: string) => string | undefined,
): LineItemProperty[] {
  const [first, ...factors] = dimensions;
  const tokens = { quantity: first.value, unit: first.unit };
  const properties: LineItemProperty[] = [];
  const name = label('dimensions');
  const template = label('dimensions_value');
  if (name !== undefined && template !== undefined) {
    properties.push({ name, value: renderTemplate(template, { ...tokens, dimensions: formatFactors(factors) }) });
  }
  const overage = store?.overagePercent;
  const overageName = label('overage');
  const overageTemplate = label('overage_value');
  if (overage && overageName !== undefined && overageTemplate !== undefined) {
    properties.push({
      name: overageName,
      value: renderTemplate(overageTemplate, { ...tokens, percent: plainNumber(overage) }),
    });
  }
  return properties;
}

/**
 * Why a cart line would not be processed as measurement-based (empty when it would be):
 * `_svc_data` missing, or the reasons of `validateSvcData` against the variant's unit (and, given
 * its online-store settings, its dimensions: PRODUCT.md §19).
 */
export function validateLineItemProperties(
  properties: readonly LineItemProperty[],
  variant: { unitMeasurement: { unit: string }; settings?: { onlineStore: LineOnlineStore } },
): string[] {
  const svc = properties.find((p) => p.name === SVC_DATA_PROPERTY);
  if (svc === undefined) return ['_svc_data is missing'];
  const store = variant.settings?.onlineStore;
  const factors = store && {
    dimensions: store.dimensions ?? null,
    overagePercent: store.overagePercent ?? null,
    rules: store.rules ?? null,
  };
  const result = validateSvcData(svc.value, { unit: variant.unitMeasurement.unit, ...(factors ? { factors } : {}) });
  return result.ok ? [] : result.reasons;
}
