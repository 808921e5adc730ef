/**
 * A variant's measurement rules (PRODUCT.md §8: `rules { min, increment, defaultValue, max }` for
 * `number`, `presets [{ value, label?, price? }]` for `pills` and `dropdown`): the one check of a
 * chosen value and the one check of the settings themselves, shared by the import (and so the
 * admin's saves), the admin's cart preview and the client's cart helpers, so that what one of
 * them accepts none of the others refuses.
 */
import { align, plainNumber } from './exact-decimal.js';

export interface MeasurementRules {
  min: number;
  increment: number;
  defaultValue: number;
  /** null: no maximum. */
  max: number | null;
}

export interface OnlineStoreSettings {
  displayStyle: 'number' | 'pills' | 'dropdown' | string;
  rules?: MeasurementRules;
  presets?: readonly { value: number; label?: string; price?: string }[];
}

export interface MeasurementRulesVariant {
  settings: { onlineStore: OnlineStoreSettings };
}

/** A problem of the settings, at its JSON pointer below `settings.onlineStore` (`/rules/max`). */
export interface SettingsIssue {
  path: string;
  message: string;
}

const DISPLAY_STYLES = ['number', 'pills', 'dropdown'];
const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Why `value` is not allowed by the variant's online-store settings (empty when it is).
 * `number`: below `min`, above `max` (null = unbounded), or off the `increment` grid counted from
 * `min` — checked exactly on the numbers' shortest decimal forms, never rounded.
 * `pills` / `dropdown`: not one of the preset values.
 * @example checkMeasurementRules(0.35, { settings: { onlineStore: { displayStyle: 'number', rules: { min: 0, increment: 0.1, defaultValue: 1, max: null } } } })
 *   // ['0.35 is not a multiple of the increment 0.1 from 0']
 */
export function checkMeasurementRules(value: number, variant: MeasurementRulesVariant): string[] {
  if (!isFiniteNumber(value)) return [`${String(value)} is not a finite number`];
  const store = variant.settings.onlineStore;
  if (store.displayStyle === 'number') return store.rules ? ruleReasons(value, store.rules) : [];
  const presets = (store.presets ?? []).filter((p) => isFiniteNumber(p.value));
  if (presets.some((p) => sameNumber(p.value, value))) return [];
  const list = presets.map((p) => plainNumber(p.value)).join(', ');
  return [`${plainNumber(value)} is not one of the presets (${list})`];
}

function ruleReasons(value: number, { min, increment, max }: MeasurementRules): string[] {
  const reasons: string[] = [];
  const v = plainNumber(value);
  if (isFiniteNumber(min) && value < min) reasons.push(`${v} is below the minimum ${plainNumber(min)}`);
  if (isFiniteNumber(max) && value > max) reasons.push(`${v} is above the maximum ${plainNumber(max)}`);
  if (isFiniteNumber(min) && isFiniteNumber(increment) && increment > 0) {
    const [x = 0n, from = 0n, step = 1n] = align(value, min, increment);
    if ((x - from) % step !== 0n) {
      reasons.push(`${v} is not a multiple of the increment ${plainNumber(increment)} from ${plainNumber(min)}`);
    }
  }
  return reasons;
}

function sameNumber(a: number, b: number): boolean {
  const [x, y] = align(a, b);
  return x === y;
}

/**
 * Why the online-store settings themselves cannot be offered (empty when they can): `number`
 * needs rules whose numbers are finite, `min` >= 0, `increment`, `defaultValue` and `max` > 0,
 * `max` at least `min`, and a default that `checkMeasurementRules` allows (within
 * [min, max] and on the increment grid from min, in its words); `pills` and `dropdown` need at
 * least one preset, each value > 0 and none twice. Every problem is listed.
 * @example onlineStoreIssues({ displayStyle: 'number', rules: { min: 100, increment: 50, defaultValue: 225, max: null } })
 *   // [{ path: '/rules/defaultValue', message: '225 is not a multiple of the increment 50 from 100' }]
 */
export function onlineStoreIssues(store: OnlineStoreSettings): SettingsIssue[] {
  if (!DISPLAY_STYLES.includes(store.displayStyle)) {
    return [{ path: '/displayStyle', message: `must be one of ${DISPLAY_STYLES.join(', ')}` }];
  }
  if (store.displayStyle === 'number') {
    if (!store.rules) return [{ path: '/rules', message: "required when displayStyle is 'number'" }];
    return rulesIssues(store.rules);
  }
  if (!store.presets?.length) {
    return [{ path: '/presets', message: `required when displayStyle is '${store.displayStyle}'` }];
  }
  const issues: SettingsIssue[] = [];
  store.presets.forEach((preset, k) => {
    const at = `/presets/${k}/value`;
    if (!isFiniteNumber(preset.value) || preset.value <= 0) {
      issues.push({ path: at, message: 'must be a number > 0' });
      return;
    }
    const first = store.presets!.findIndex((p) => isFiniteNumber(p.value) && sameNumber(p.value, preset.value));
    if (first < k)
      issues.push({ path: at, message: `${plainNumber(preset.value)} is also preset ${first + 1}'s value` });
  });
  return issues;
}

function rulesIssues(rules: MeasurementRules): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  const report = (field: keyof MeasurementRules, message: string) => issues.push({ path: `/rules/${field}`, message });
  const { min, increment, defaultValue, max } = rules;
  if (!isFiniteNumber(min) || min < 0) report('min', 'must be a number >= 0');
  if (!isFiniteNumber(increment) || increment <= 0) report('increment', 'must be a number > 0');
  if (!isFiniteNumber(defaultValue) || defaultValue <= 0) report('defaultValue', 'must be a number > 0');
  if (max !== null && (!isFiniteNumber(max) || max <= 0)) report('max', 'must be a number > 0 or null');
  // The relations are only meaningful between numbers that are each valid.
  if (issues.length > 0) return issues;
  if (max !== null && max < min) report('max', `${plainNumber(max)} is below the minimum ${plainNumber(min)}`);
  for (const reason of ruleReasons(defaultValue, rules)) report('defaultValue', reason);
  return issues;
}
