import { errors } from '../errors.js';
import type { Db } from '../store/db.js';
import { findShopById, type Shop } from '../store/repositories/shops.js';
import { createShopCache } from './shop-cache.js';

/** Shops by id, cached and dropped on change: the rate limiter reads one on every request. */
export function createShopDirectory(deps: { db: Db; cacheTtlMs: number }) {
  const cache = createShopCache<Shop>({ ttlMs: deps.cacheTtlMs });
  return {
    get(shopId: string): Promise<Shop> {
      return cache.get(shopId, 'shop', async () => {
        const shop = await findShopById(deps.db, shopId);
        // A key whose shop is gone authenticates nothing.
        if (!shop) throw errors.unauthorized();
        return shop;
      });
    },
    peek: (shopId: string): Shop | undefined => cache.peek(shopId, 'shop'),
    invalidate: cache.invalidate,
  };
}
export type ShopDirectory = ReturnType<typeof createShopDirectory>;
