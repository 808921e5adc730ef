import { createHash } from 'node:crypto';
import { normalizeLocale, resolveLabels } from '../domain/labels.js';
import type { Db } from '../store/db.js';
import { listEnabledUnits } from '../store/repositories/catalog.js';
import { listLabelOverrides } from '../store/repositories/labels.js';
import { type Answer, answer } from './answer.js';
import { createShopCache } from './shop-cache.js';
import type { ShopDirectory } from './shop-directory.js';

export interface AppSettings {
  localizedLabels: Record<string, string>;
  mergeMatchingLineItems?: boolean;
}

export interface AppSettingsResult extends Answer<{ settings: AppSettings }, { locale: string }> {
  /** Strong validator of the representation, for ETag / If-None-Match. */
  etag: string;
}

/**
 * Public app settings of a shop for a locale: labels resolved through the locale chain
 * (fr-CA → fr → shop default → en; an unknown locale is never an error).
 */
export function createAppSettingsService(deps: { db: Db; shops: ShopDirectory; cacheTtlMs: number }) {
  const cache = createShopCache<AppSettingsResult>({ ttlMs: deps.cacheTtlMs });

  async function load(shopId: string, locale: string | undefined): Promise<AppSettingsResult> {
    const shop = await deps.shops.get(shopId);
    const [enabled, overrides] = await Promise.all([
      listEnabledUnits(deps.db, shopId),
      listLabelOverrides(deps.db, shopId),
    ]);
    const resolved = resolveLabels({
      requestedLocale: locale,
      shopDefaultLocale: shop.defaultLocale,
      enabled,
      overrides,
      unitPricing: shop.unitPricing?.enabled === true,
    });
    const settings: AppSettings = { localizedLabels: resolved.labels };
    if (shop.mergeMatchingLineItems !== null) settings.mergeMatchingLineItems = shop.mergeMatchingLineItems;
    const result = answer({ settings }, { locale: resolved.locale });
    const digest = createHash('sha256').update(result.json.data).update(result.json.meta).digest('base64url');
    return { ...result, etag: `"${digest.slice(0, 27)}"` };
  }

  return {
    /** The settings themselves when cached (see ShopCache.read), else a promise of them. */
    get(shopId: string, requestedLocale: string | undefined): AppSettingsResult | Promise<AppSettingsResult> {
      // The spec: "when omitted, the default locale `en` is used" (an empty `?locale=` counts as
      // omitted). A given but unknown or malformed locale falls back along the chain instead.
      const omitted = requestedLocale === undefined || requestedLocale.trim() === '';
      const locale = omitted ? 'en' : normalizeLocale(requestedLocale);
      return cache.read(shopId, locale ?? '', () => load(shopId, locale));
    },
    invalidate: cache.invalidate,
  };
}
export type AppSettingsService = ReturnType<typeof createAppSettingsService>;
