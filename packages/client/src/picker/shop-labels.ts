/**
 * The label set a storefront shows, picked from the shop metafield's labels of every locale with
 * the lookup order app-settings uses (PRODUCT.md §8): the requested locale and its parents
 * (`fr-CA` → `fr`), then the shop's default locale and its parents, then `en`.
 */
import { localeChain as sharedLocaleChain, normalizeLocale } from '@tare/contracts';

/**
 * Lookup order, without duplicates; a malformed tag is skipped (never an error): the contracts'
 * `localeChain`, the order the server's app settings follow.
 * @example localeChain('fr-CA', 'de') // ['fr-CA', 'fr', 'de', 'en']
 */
export function localeChain(requested: string | undefined, shopDefault: string): string[] {
  return sharedLocaleChain(requested, shopDefault);
}

/**
 * The first locale of the chain the shop has labels for, and those labels (an empty set when it
 * has none: the picker then shows no visible label properties, as the cart helpers do).
 * @example shopLabels({ defaultLocale: 'en', labels: { fr: { netWeight: 'Poids net' } } }, 'fr-CA') // { locale: 'fr', labels: { netWeight: 'Poids net' } }
 */
export function shopLabels(
  shop: { defaultLocale: string; labels: Record<string, Record<string, string>> },
  requested: string | undefined,
): { locale: string; labels: Record<string, string> } {
  const byLocale = new Map(Object.entries(shop.labels).map(([tag, set]) => [normalizeLocale(tag) ?? tag, set]));
  for (const locale of localeChain(requested, shop.defaultLocale)) {
    const labels = byLocale.get(locale);
    if (labels) return { locale, labels };
  }
  return { locale: normalizeLocale(requested) ?? 'en', labels: {} };
}
