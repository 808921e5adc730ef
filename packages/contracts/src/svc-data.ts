/**
 * The `_svc_data` hidden line-item property (public-api.md "Hidden property `_svc_data`",
 * PRODUCT.md §9): one pure validator shared by the server and the client SDK.
 *
 * A line is measurement-based only when its `_svc_data` passes `validateSvcData`. Unknown
 * fields anywhere in the JSON are kept as they are, so a round trip
 * validate → withMeasurement → serialize never loses data written by another client.
 */
import { type FactorsConfig, factorIssues } from './dimensions.js';
import { MEASUREMENT_TYPES, isMeasurementType, typeOfUnit, unitsOf, type MeasurementType } from './units.js';

/**
 * What a line is checked against: the variant's unit and, when `factors` is given, its
 * dimensions configuration (PRODUCT.md §19; `dimensions` null or absent there: a variant sold by
 * its quantity directly, whose lines carry no entry after `dimensions[0]`).
 */
export interface SvcDataVariant {
  unit: string;
  factors?: FactorsConfig;
}

export interface Dimension {
  value: number;
  unit: string;
  [extra: string]: unknown;
}

export interface ServiceData {
  measurement: {
    type: MeasurementType;
    dimensions: [Dimension, ...Dimension[]];
    [extra: string]: unknown;
  };
  unitMeasurement?: { unit: string; value: number; [extra: string]: unknown };
  properties?: Record<string, string>;
  [extra: string]: unknown;
}

export type SvcDataResult = { ok: true; data: ServiceData } | { ok: false; reasons: string[] };

const TYPE_LIST = MEASUREMENT_TYPES.join(', ');

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isPositiveNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0;
}

function isKnownUnit(x: unknown): x is string {
  return typeof x === 'string' && typeOfUnit(x) !== undefined;
}

function propertyPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `properties.${key}` : `properties[${JSON.stringify(key)}]`;
}

/**
 * Checks a raw `_svc_data` value. Every failing rule is reported (in document order), not
 * only the first; a structural failure (value missing, not JSON, not an object, `measurement`
 * or `dimensions[i]` not an object) stops the checks below that point.
 *
 * @param variant when given, `measurement.dimensions[0].unit` must equal `variant.unit`
 *   (the variant's `unitMeasurement.unit`); with `variant.factors`, the entries after it must be
 *   the factors of PRODUCT.md §19 (`factorIssues`), checked once the rest is valid.
 * @example validateSvcData('{"measurement":{"type":"weight","dimensions":[{"value":1.5,"unit":"kg"}]}}', { unit: 'kg' }).ok // true
 */
export function validateSvcData(raw: string | undefined, variant?: SvcDataVariant): SvcDataResult {
  if (raw === undefined || raw === null) return { ok: false, reasons: ['_svc_data is missing'] };
  if (typeof raw !== 'string') return { ok: false, reasons: ['_svc_data must be a string containing JSON'] };

  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, reasons: ['_svc_data is not valid JSON'] };
  }
  if (!isRecord(parsed)) return { ok: false, reasons: ['_svc_data must be a JSON object'] };

  const reasons: string[] = [];
  checkMeasurement(parsed['measurement'], variant, reasons);

  if ('unitMeasurement' in parsed) {
    const um = parsed['unitMeasurement'];
    if (!isRecord(um)) {
      reasons.push('unitMeasurement must be an object');
    } else {
      if (!isKnownUnit(um['unit'])) reasons.push('unitMeasurement.unit must be a known unit');
      if (!isPositiveNumber(um['value'])) reasons.push('unitMeasurement.value must be a number greater than 0');
    }
  }

  if ('properties' in parsed) {
    const props = parsed['properties'];
    if (!isRecord(props)) {
      reasons.push('properties must be an object mapping names to string values');
    } else {
      for (const [key, value] of Object.entries(props)) {
        if (typeof value !== 'string') reasons.push(`${propertyPath(key)} must be a string`);
      }
    }
  }

  if (reasons.length === 0 && variant?.factors) {
    const dimensions = (parsed as unknown as ServiceData).measurement.dimensions;
    for (const issue of factorIssues(dimensions, variant.factors)) reasons.push(`${issue.path}: ${issue.message}`);
  }
  return reasons.length === 0 ? { ok: true, data: parsed as ServiceData } : { ok: false, reasons };
}

function checkMeasurement(measurement: unknown, variant: { unit: string } | undefined, reasons: string[]): void {
  if (!isRecord(measurement)) {
    reasons.push('measurement must be an object');
    return;
  }
  const type = measurement['type'];
  const typeOk = isMeasurementType(type);
  if (!typeOk) reasons.push(`measurement.type must be one of ${TYPE_LIST}`);

  const dimensions = measurement['dimensions'];
  if (!Array.isArray(dimensions) || dimensions.length === 0) {
    reasons.push('measurement.dimensions must be a non-empty array');
    return;
  }

  dimensions.forEach((dim: unknown, i) => {
    const path = `measurement.dimensions[${i}]`;
    if (!isRecord(dim)) {
      reasons.push(`${path} must be an object with value and unit`);
      return;
    }
    if (!isPositiveNumber(dim['value'])) reasons.push(`${path}.value must be a number greater than 0`);
    const unit = dim['unit'];
    if (i === 0 && typeOk) {
      if (typeof unit !== 'string' || typeOfUnit(unit) !== type) {
        reasons.push(`${path}.unit must be a ${type} unit (one of ${unitsOf(type).join(', ')})`);
      }
    } else if (!isKnownUnit(unit)) {
      reasons.push(`${path}.unit must be a known unit`);
    }
    if (i === 0 && variant !== undefined && unit !== variant.unit) {
      reasons.push(`${path}.unit must equal the variant's unit '${variant.unit}'`);
    }
  });
}

/** The `_svc_data` property value for `data`; unknown fields are kept. */
export function serializeSvcData(data: ServiceData): string {
  return JSON.stringify(data);
}

/**
 * A copy of `data` whose `measurement.type` and `dimensions[0]` value/unit are replaced. Other
 * dimension entries and every unknown field (including those inside `dimensions[0]`) are kept;
 * `data` is not modified. Does not validate: run the result through `validateSvcData` if needed.
 * @example withMeasurement(data, { type: 'weight', value: 2, unit: 'lb' }).measurement.dimensions[0] // { ...old, value: 2, unit: 'lb' }
 */
export function withMeasurement(
  data: ServiceData,
  measurement: { type: MeasurementType; value: number; unit: string },
): ServiceData {
  const [first, ...rest] = data.measurement.dimensions;
  return {
    ...data,
    measurement: {
      ...data.measurement,
      type: measurement.type,
      dimensions: [{ ...first, value: measurement.value, unit: measurement.unit }, ...rest],
    },
  };
}
