/**
 * A small per-shop cache with a time limit. Everything Tare caches belongs to one shop, so an
 * import or admin change drops the whole shop at once (see change-channels.ts).
 */
export function createShopCache<V>(deps: { ttlMs: number; maxEntriesPerShop?: number; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const max = deps.maxEntriesPerShop ?? 5_000;
  const shops = new Map<string, Map<string, { value: V; until: number }>>();

  return {
    async get(shopId: string, key: string, load: () => Promise<V>): Promise<V> {
      if (deps.ttlMs <= 0) return load();
      const entries = shops.get(shopId);
      const hit = entries?.get(key);
      if (hit && hit.until > now()) return hit.value;
      const value = await load();
      const target = entries ?? new Map();
      if (target.size >= max) target.clear();
      target.set(key, { value, until: now() + deps.ttlMs });
      shops.set(shopId, target);
      return value;
    },
    /** The cached value if fresh, without loading: lets hot paths skip a promise. */
    peek(shopId: string, key: string): V | undefined {
      const hit = shops.get(shopId)?.get(key);
      return hit && hit.until > now() ? hit.value : undefined;
    },
    invalidate(shopId?: string) {
      if (shopId === undefined) shops.clear();
      else shops.delete(shopId);
    },
  };
}
export type ShopCache<V> = ReturnType<typeof createShopCache<V>>;
