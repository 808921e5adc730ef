import { align, plainNumber } from './decimal.js';

export interface MeasurementRulesVariant {
  settings: {
    onlineStore: {
      displayStyle: 'number' | 'pills' | 'dropdown' | string;
      rules?: { min: number; increment: number; defaultValue: number; max: number | null };
      presets?: readonly { value: number; label?: string; price?: string }[];
    };
  };
}

/**
 * Why `value` is not allowed by the variant's online-store settings (empty when it is).
 * `number`: below `min`, above `max` (null = unbounded), or off the `increment` grid counted from
 * `min` — checked exactly on the numbers' shortest decimal forms, never rounded.
 * `pills` / `dropdown`: not one of the preset values.
 * @example checkMeasurementRules(0.35, { settings: { onlineStore: { displayStyle: 'number', rules: { min: 0, increment: 0.1, defaultValue: 1, max: null } } } })
 *   // ['0.35 is not a multiple of the increment 0.1 from 0']
 */
export function checkMeasurementRules(value: number, variant: MeasurementRulesVariant): string[] {
  if (typeof value !== 'number' || !Number.isFinite(value)) return [`${String(value)} is not a finite number`];
  const store = variant.settings.onlineStore;
  const reasons: string[] = [];
  const v = plainNumber(value);

  if (store.displayStyle === 'number') {
    const rules = store.rules;
    if (rules === undefined) return reasons;
    const { min, increment, max } = rules;
    if (Number.isFinite(min) && value < min) reasons.push(`${v} is below the minimum ${plainNumber(min)}`);
    if (max !== null && Number.isFinite(max) && value > max)
      reasons.push(`${v} is above the maximum ${plainNumber(max)}`);
    if (Number.isFinite(min) && Number.isFinite(increment) && increment > 0) {
      const [x = 0n, from = 0n, step = 1n] = align(value, min, increment);
      if ((x - from) % step !== 0n) {
        reasons.push(`${v} is not a multiple of the increment ${plainNumber(increment)} from ${plainNumber(min)}`);
      }
    }
    return reasons;
  }

  const presets = (store.presets ?? []).filter((p) => Number.isFinite(p.value));
  const matches = presets.some((p) => {
    const [a, b] = align(value, p.value);
    return a === b;
  });
  if (!matches) {
    const list = presets.map((p) => plainNumber(p.value)).join(', ');
    reasons.push(`${v} is not one of the presets (${list})`);
  }
  return reasons;
}
