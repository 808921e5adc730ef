import type { DimensionSetting, FactorsConfig, MeasurementRules } from '@tare/contracts';

/**
 * What PRODUCT.md §19's rule needs of a stored variant (contracts' `FactorsConfig`): its factors
 * (none: a variant sold by its quantity directly, whose lines carry no entry after
 * `dimensions[0]`), its overage and its own rules.
 */
export function factorsOf(variant: {
  dimensions: DimensionSetting[] | null;
  overagePercent: string | null;
  rules: MeasurementRules | null;
}): FactorsConfig {
  return {
    dimensions: variant.dimensions,
    overagePercent: variant.overagePercent === null ? null : Number(variant.overagePercent),
    rules: variant.rules,
  };
}
