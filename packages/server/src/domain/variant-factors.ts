import type { DimensionSetting, FactorsConfig, MeasurementRules, SvcDataVariant } from '@tare/contracts';

/**
 * What a stored variant holds of PRODUCT.md §19's configuration (a `VariantRecord` has it; absent
 * reads as null: a variant sold by its quantity directly).
 */
export interface VariantFactorFields {
  dimensions?: DimensionSetting[] | null;
  /** Exact decimal text, or null for no overage. */
  overagePercent?: string | null;
  rules?: MeasurementRules | null;
}

/**
 * What PRODUCT.md §19's rule needs of a stored variant (contracts' `FactorsConfig`): its factors
 * (none: a variant sold by its quantity directly, whose lines carry no entry after
 * `dimensions[0]`), its overage and its own rules.
 */
export function factorsOf(variant: VariantFactorFields): FactorsConfig {
  return {
    dimensions: variant.dimensions ?? null,
    overagePercent: variant.overagePercent == null ? null : Number(variant.overagePercent),
    rules: variant.rules ?? null,
  };
}

/** What `validateSvcData` checks a line of the variant against: its unit and its factors. */
export function svcDataVariant(variant: VariantFactorFields & { unit: string }): SvcDataVariant {
  return { unit: variant.unit, factors: factorsOf(variant) };
}
