/**
 * The order in which Tare looks a locale's labels up (PRODUCT.md §8), one rule for the server's
 * app settings and the storefront picker: the requested locale and its parents (`fr-CA` → `fr`),
 * then the shop's default locale and its parents, then `en`. Plain TypeScript over `Intl`.
 */

const CANONICAL = new Map<string, string | undefined>();

/**
 * Canonical BCP-47 casing of a locale tag; `_` is accepted as a separator.
 * Never throws: empty, malformed or over-35-character input gives undefined.
 * @example normalizeLocale('fr_ca') // 'fr-CA'
 */
export function normalizeLocale(raw: string | undefined): string | undefined {
  if (typeof raw !== 'string' || raw.length > 35) return undefined;
  // Intl.getCanonicalLocales costs microseconds and app settings ask on every request.
  if (CANONICAL.has(raw)) return CANONICAL.get(raw);
  const tag = raw.trim().replaceAll('_', '-');
  let canonical: string | undefined;
  try {
    canonical = tag === '' ? undefined : Intl.getCanonicalLocales(tag)[0];
  } catch {
    canonical = undefined;
  }
  if (CANONICAL.size >= 1000) CANONICAL.clear();
  CANONICAL.set(raw, canonical);
  return canonical;
}

function withParents(tag: string): string[] {
  // baseName drops -u-/-t- extensions, which would otherwise truncate into meaningless tags.
  const parts = new Intl.Locale(tag).baseName.split('-');
  return [tag, ...parts.map((_, i) => parts.slice(0, parts.length - i).join('-'))];
}

/**
 * Lookup order for labels, without duplicates: the requested locale and its
 * parents, then the shop default and its parents, then `en`. Invalid tags are skipped.
 * @example localeChain('zh-Hant-TW', 'de') // ['zh-Hant-TW', 'zh-Hant', 'zh', 'de', 'en']
 */
export function localeChain(requested: string | undefined, shopDefault: string): string[] {
  const tags = [normalizeLocale(requested), normalizeLocale(shopDefault), 'en'];
  return [...new Set(tags.flatMap((t) => (t ? withParents(t) : [])))];
}
