import {
  checkMeasurementRules as sharedCheckMeasurementRules,
  onlineStoreIssues as sharedOnlineStoreIssues,
} from '@tare/contracts';

/*
 * The measurement rules of `@tare/contracts`, the very checks the server's import, admin saves
 * and cart preview run, so a value or a setting the storefront accepts is one Tare accepts. The
 * types are the package's own (it carries no types from the workspace); the code is shared.
 */

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

/** A problem of a variant's settings, at its JSON pointer below `settings.onlineStore`. */
export interface SettingsIssue {
  path: string;
  message: string;
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
  return sharedCheckMeasurementRules(value, variant);
}

/**
 * Why a variant's online-store settings cannot be offered (empty when they can): rules with
 * `min` >= 0, `increment`, `defaultValue` and `max` > 0, `max` at least `min` and a default
 * `checkMeasurementRules` allows; or at least one preset, each > 0 and none twice. Tare refuses
 * to store such settings; a storefront reading them from elsewhere can check them here.
 * @example onlineStoreIssues({ displayStyle: 'number', rules: { min: 100, increment: 50, defaultValue: 225, max: null } })
 *   // [{ path: '/rules/defaultValue', message: '225 is not a multiple of the increment 50 from 100' }]
 */
export function onlineStoreIssues(store: OnlineStoreSettings): SettingsIssue[] {
  return sharedOnlineStoreIssues(store);
}
