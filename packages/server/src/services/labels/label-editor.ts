import { type LabelPreview, labelExamples, previewLabel } from '../../domain/label-preview.js';
import { LABEL_KEYS, labelTokens, normalizeLocale, resolveLabels, SUPPORTED_LOCALES } from '../../domain/labels.js';
import { MEASUREMENT_TYPES, type MeasurementType, unitsOf } from '../../domain/units.js';
import { errors } from '../../errors.js';
import type { Db } from '../../store/db.js';
import { listEnabledUnits } from '../../store/repositories/catalog.js';
import { type LabelOverrides, listLabelOverrides } from '../../store/repositories/labels.js';
import { findShopById } from '../../store/repositories/shops.js';

export interface LabelLocale {
  locale: string;
  /** Tare has built-in texts for it (en, fr, es, de). */
  builtIn: boolean;
  isDefault: boolean;
  overrides: number;
}

export interface LabelRow {
  key: string;
  /** Tokens its text may hold; undefined for a key of the shop's own, shown as written. */
  tokens?: readonly string[];
  type?: MeasurementType;
  unit?: string;
  /** The shop's text at this locale, if any. */
  override?: string;
  /** What customers read without the override: the next locale of the chain, or the built-in text. */
  fallback?: string;
  preview: LabelPreview;
}

export interface LabelGroup {
  /** Undefined for the summary keys and for keys of the shop's own (`custom`). */
  type?: MeasurementType;
  custom?: boolean;
  /** The units of this type the shop sells (its storefront is served their keys). */
  sold: string[];
  rows: LabelRow[];
}

async function shopOf(db: Db, shopId: string) {
  const shop = await findShopById(db, shopId);
  if (!shop) throw errors.notFound('shop', shopId);
  return shop;
}

/** Overrides by canonical locale tag (rows stored under another casing are merged in). */
function byLocale(stored: LabelOverrides): Map<string, Record<string, string>> {
  const merged = new Map<string, Record<string, string>>();
  for (const [tag, set] of Object.entries(stored)) {
    const locale = normalizeLocale(tag) ?? tag;
    merged.set(locale, { ...merged.get(locale), ...set });
  }
  return merged;
}

/** The locales a shop's labels can be edited in: its default, Tare's built-in ones, and any it has overrides for. */
export async function labelLocales(db: Db, shopId: string): Promise<{ defaultLocale: string; locales: LabelLocale[] }> {
  const [shop, stored] = await Promise.all([shopOf(db, shopId), listLabelOverrides(db, shopId)]);
  const overrides = byLocale(stored);
  const defaultLocale = normalizeLocale(shop.defaultLocale) ?? shop.defaultLocale;
  const builtIn: readonly string[] = SUPPORTED_LOCALES;
  const tags = [...new Set([defaultLocale, ...builtIn, ...[...overrides.keys()].sort()])];
  const locales = tags.map((locale) => ({
    locale,
    builtIn: builtIn.includes(locale),
    isDefault: locale === defaultLocale,
    overrides: Object.keys(overrides.get(locale) ?? {}).length,
  }));
  return { defaultLocale, locales };
}

/**
 * Every label key at `locale` (canonical tag): the shop's override, the text customers read
 * without it, and a preview of what they read, filled with example quantities and prices.
 */
export async function labelEditor(db: Db, shopId: string, locale: string) {
  const [shop, stored, enabled] = await Promise.all([
    shopOf(db, shopId),
    listLabelOverrides(db, shopId),
    listEnabledUnits(db, shopId),
  ]);
  const overrides = byLocale(stored);
  const own = overrides.get(locale) ?? {};
  // Resolved as app settings would with this locale's overrides gone, for every type and unit.
  const { labels: fallback } = resolveLabels({
    requestedLocale: locale,
    shopDefaultLocale: shop.defaultLocale,
    enabled: MEASUREMENT_TYPES.map((type) => ({ type, units: [...unitsOf(type)] })),
    overrides: Object.fromEntries([...overrides].filter(([tag]) => tag !== locale)),
  });
  const exampleUnit = enabled.find((e) => e.units.length > 0)?.units[0] ?? 'kg';
  const row = (key: string, entry: { type?: MeasurementType; unit?: string } = {}): LabelRow => {
    const tokens = labelTokens(key);
    const override = own[key];
    const examples = labelExamples(tokens, { unit: entry.unit ?? exampleUnit, currency: shop.currency, locale });
    const preview = previewLabel(override ?? fallback[key] ?? '', tokens, examples);
    return { key, tokens, ...entry, override, fallback: fallback[key], preview };
  };
  const groups: LabelGroup[] = [
    { sold: [], rows: LABEL_KEYS.filter((k) => !k.type).map((k) => row(k.key)) },
    ...MEASUREMENT_TYPES.map((type) => ({
      type,
      sold: enabled.find((e) => e.type === type)?.units ?? [],
      rows: LABEL_KEYS.filter((k) => k.type === type).map((k) => row(k.key, { type, unit: k.unit })),
    })),
  ];
  const custom = [...new Set([...Object.keys(own), ...Object.keys(fallback)])].filter((key) => !labelTokens(key));
  if (custom.length > 0) groups.push({ custom: true, sold: [], rows: custom.sort().map((key) => row(key)) });
  const samplePrice = labelExamples(['Price'], { unit: exampleUnit, currency: shop.currency, locale })[0]?.price;
  return { locale, samplePrice, exampleUnit, groups };
}
export type LabelEditor = Awaited<ReturnType<typeof labelEditor>>;
