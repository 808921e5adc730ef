/**
 * A small per-shop cache with a time limit. Everything Tare caches belongs to one shop, so an
 * import or admin change drops the whole shop at once (see change-channels.ts).
 *
 * It keeps the loading promise itself: concurrent misses share one load (no stampede on the
 * store after an invalidation), and a hit hands back an already settled promise. A failed load
 * is forgotten at once, so errors (a 404) are never cached.
 */
export function createShopCache<V>(deps: { ttlMs: number; maxEntriesPerShop?: number; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const max = deps.maxEntriesPerShop ?? 5_000;
  type Entry = { promise: Promise<V>; value?: V; loaded?: true; until: number };
  const shops = new Map<string, Map<string, Entry>>();

  function get(shopId: string, key: string, load: () => Promise<V>): Promise<V> {
    if (deps.ttlMs <= 0) return load();
    let entries = shops.get(shopId);
    const hit = entries?.get(key);
    if (hit && hit.until > now()) return hit.promise;
    if (!entries) {
      entries = new Map();
      shops.set(shopId, entries);
    }
    if (entries.size >= max) entries.clear();
    const entry: Entry = {
      promise: load(),
      until: now() + deps.ttlMs,
    };
    const owner = entries;
    entries.set(key, entry);
    entry.promise.then(
      (value) => {
        entry.value = value;
        entry.loaded = true;
      },
      () => {
        if (owner.get(key) === entry) owner.delete(key);
      },
    );
    return entry.promise;
  }

  return {
    get,
    /**
     * As `get`, but a loaded and fresh value comes back as itself: a warm read then awaits
     * nothing (each await is a turn of the microtask queue on the request's path).
     */
    read(shopId: string, key: string, load: () => Promise<V>): V | Promise<V> {
      const hit = shops.get(shopId)?.get(key);
      if (hit?.loaded && hit.until > now()) return hit.value as V;
      return get(shopId, key, load);
    },
    /** The cached value if loaded and fresh, without waiting: lets hot paths skip a promise. */
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
