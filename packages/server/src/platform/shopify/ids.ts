/**
 * Tare's ids for Shopify's products, variants, locations, orders and line items are the numeric
 * part of Shopify's global ids (`gid://shopify/ProductVariant/2001` is variant "2001").
 * https://shopify.dev/docs/api/usage/gids
 */
export function toGid(type: string, id: string): string {
  return id.startsWith('gid://') ? id : `gid://shopify/${type}/${id}`;
}

/** The numeric id of a global id (`gid://shopify/Order/7?x=1` → "7"); a bare id is returned as is. */
export function numericId(gid: string): string {
  if (!gid.startsWith('gid://')) return gid;
  const last = gid.slice(gid.lastIndexOf('/') + 1);
  const query = last.indexOf('?');
  return query === -1 ? last : last.slice(0, query);
}

/** Splits `items` into runs of at most `size` (Shopify's `nodes(ids:)` takes 250 ids). */
export function chunks<T>(items: T[], size: number): T[][] {
  const runs: T[][] = [];
  for (let i = 0; i < items.length; i += size) runs.push(items.slice(i, i + size));
  return runs;
}
