import type { UnitPricingSettings } from '@tare/contracts';
import type { Queryable } from '../db.js';

/** The platforms a shop can sell on (PRODUCT.md §1): the embedded one (§15) or Shopify (§16). */
export type PlatformKind = 'local' | 'shopify';

export interface Shop {
  id: string;
  domain: string;
  currency: string;
  defaultLocale: string;
  addonActive: boolean;
  mergeMatchingLineItems: boolean | null;
  rateLimit: { enabled: boolean; requestsPerMinute: number };
  /** How a stock figure typed on the platform is taken (PRODUCT.md §14). */
  platformStockChanges: PlatformStockChanges;
  /** Where the shop sells: `shopify` once it is connected to a store (§16), `local` until then. */
  platform: PlatformKind;
  /** Whether the sandbox storefront is served for the shop (PRODUCT.md §18; a sandbox shop only). */
  storefrontEnabled: boolean;
  /** The shop's `settings.unitPricing` (PRODUCT.md §21); undefined until an import states it (off). */
  unitPricing?: UnitPricingSettings;
}

export type PlatformStockChanges = 'adopt' | 'override';

interface ShopRow {
  id: string;
  domain: string;
  currency: string;
  default_locale: string;
  addon_active: boolean;
  merge_matching_line_items: boolean | null;
  rate_limit_enabled: boolean;
  rate_limit_per_minute: number;
  platform_stock_changes: PlatformStockChanges;
  platform: PlatformKind;
  storefront_enabled: boolean;
  unit_pricing: UnitPricingSettings | null;
}

const COLUMNS = `id, domain, currency, default_locale, addon_active, merge_matching_line_items,
  rate_limit_enabled, rate_limit_per_minute, platform_stock_changes, platform, storefront_enabled, unit_pricing`;

function toShop(row: ShopRow): Shop {
  return {
    id: row.id,
    domain: row.domain,
    currency: row.currency,
    defaultLocale: row.default_locale,
    addonActive: row.addon_active,
    mergeMatchingLineItems: row.merge_matching_line_items,
    rateLimit: { enabled: row.rate_limit_enabled, requestsPerMinute: row.rate_limit_per_minute },
    platformStockChanges: row.platform_stock_changes,
    platform: row.platform,
    storefrontEnabled: row.storefront_enabled,
    ...(row.unit_pricing ? { unitPricing: row.unit_pricing } : {}),
  };
}

export async function findShopById(db: Queryable, id: string): Promise<Shop | undefined> {
  const { rows } = await db.query<ShopRow>(`SELECT ${COLUMNS} FROM shops WHERE id = $1`, [id]);
  return rows[0] && toShop(rows[0]);
}

export async function findShopByDomain(db: Queryable, domain: string): Promise<Shop | undefined> {
  const { rows } = await db.query<ShopRow>(`SELECT ${COLUMNS} FROM shops WHERE domain = $1`, [domain]);
  return rows[0] && toShop(rows[0]);
}

/** A shop to import: a setting left undefined keeps its stored value, or its default on a new shop. */
export interface ShopInput {
  domain: string;
  currency: string;
  defaultLocale?: string;
  addonActive?: boolean;
  mergeMatchingLineItems?: boolean;
  rateLimit?: { enabled?: boolean; requestsPerMinute?: number };
  platformStockChanges?: PlatformStockChanges;
  storefrontEnabled?: boolean;
}

/**
 * Inserts the shop or updates the fields given when one differs (import merges: PRODUCT.md §11).
 * Returns the id and whether anything changed, so an identical re-import writes nothing.
 */
export async function upsertShop(db: Queryable, shop: ShopInput): Promise<{ id: string; changed: boolean }> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO shops (domain, currency, default_locale, addon_active, merge_matching_line_items,
       rate_limit_enabled, rate_limit_per_minute, platform_stock_changes, storefront_enabled)
     VALUES ($1, $2, COALESCE($3::text, 'en'), COALESCE($4::boolean, false), $5::boolean,
       COALESCE($6::boolean, true), COALESCE($7::integer, 600), COALESCE($8::text, 'adopt'),
       COALESCE($9::boolean, false))
     ON CONFLICT (domain) DO UPDATE SET
       currency = EXCLUDED.currency,
       default_locale = COALESCE($3::text, shops.default_locale),
       addon_active = COALESCE($4::boolean, shops.addon_active),
       merge_matching_line_items = COALESCE($5::boolean, shops.merge_matching_line_items),
       rate_limit_enabled = COALESCE($6::boolean, shops.rate_limit_enabled),
       rate_limit_per_minute = COALESCE($7::integer, shops.rate_limit_per_minute),
       platform_stock_changes = COALESCE($8::text, shops.platform_stock_changes),
       storefront_enabled = COALESCE($9::boolean, shops.storefront_enabled),
       updated_at = EXCLUDED.updated_at
     WHERE (shops.currency, shops.default_locale, shops.addon_active, shops.merge_matching_line_items,
            shops.rate_limit_enabled, shops.rate_limit_per_minute, shops.platform_stock_changes,
            shops.storefront_enabled)
       IS DISTINCT FROM (EXCLUDED.currency, COALESCE($3::text, shops.default_locale),
            COALESCE($4::boolean, shops.addon_active), COALESCE($5::boolean, shops.merge_matching_line_items),
            COALESCE($6::boolean, shops.rate_limit_enabled), COALESCE($7::integer, shops.rate_limit_per_minute),
            COALESCE($8::text, shops.platform_stock_changes), COALESCE($9::boolean, shops.storefront_enabled))
     RETURNING id`,
    [
      shop.domain,
      shop.currency,
      shop.defaultLocale ?? null,
      shop.addonActive ?? null,
      shop.mergeMatchingLineItems ?? null,
      shop.rateLimit?.enabled ?? null,
      shop.rateLimit?.requestsPerMinute ?? null,
      shop.platformStockChanges ?? null,
      shop.storefrontEnabled ?? null,
    ],
  );
  if (rows[0]) return { id: rows[0].id, changed: true };
  const existing = await findShopByDomain(db, shop.domain);
  if (!existing) throw new Error(`shop ${shop.domain} vanished during upsert`);
  return { id: existing.id, changed: false };
}

/** Whether the store holds any shop (a first start loads the demo shop into an empty one). */
export async function hasShops(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM shops) AS any');
  return rows[0]!.any;
}

export async function listShops(db: Queryable): Promise<Shop[]> {
  const { rows } = await db.query<ShopRow>(`SELECT ${COLUMNS} FROM shops ORDER BY domain`);
  return rows.map(toShop);
}

/**
 * Deletes the shop and everything Tare holds for it (Shopify's `shop/redact`). Most tables go
 * with the shop row (ON DELETE CASCADE); the ledger and the embedded platform's levels are keyed
 * by shop without a foreign key, so they are deleted by name first.
 */
export async function deleteShop(db: Queryable, shopId: string): Promise<void> {
  await db.query('DELETE FROM inventory_ledger WHERE shop_id = $1', [shopId]);
  await db.query('DELETE FROM local_platform_levels WHERE shop_id = $1', [shopId]);
  await db.query('DELETE FROM shops WHERE id = $1', [shopId]);
}

/** The platform the shop sells on, read in the caller's transaction (an import may have just changed it). */
export async function shopPlatform(db: Queryable, shopId: string): Promise<PlatformKind | undefined> {
  const { rows } = await db.query<{ platform: PlatformKind }>('SELECT platform FROM shops WHERE id = $1', [shopId]);
  return rows[0]?.platform;
}
