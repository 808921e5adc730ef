/**
 * Shopify's global ids: `gid://shopify/{Type}/{number}`, the numeric part being the id Tare and the
 * REST webhook payloads use (https://shopify.dev/docs/api/usage/gids).
 */
export function gid(type: string, id: string): string {
  return `gid://shopify/${type}/${id}`;
}

/** The numeric id of a gid of the given type, or undefined for anything else (query parameters dropped). */
export function parseGid(value: unknown, type: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(\?.*)?$/.exec(value);
  return match && match[1] === type ? match[2] : undefined;
}

/** The type named by a gid (`Order` for `gid://shopify/Order/1`), or undefined when it is not one. */
export function gidType(value: string): string | undefined {
  return /^gid:\/\/shopify\/([A-Za-z]+)\/\d+/.exec(value)?.[1];
}

/**
 * An inventory level's gid names its location and, as a query parameter, its item, as Shopify's
 * do (https://shopify.dev/docs/api/admin-graphql/2026-04/objects/InventoryLevel).
 */
export function inventoryLevelGid(locationId: string, inventoryItemId: string): string {
  return `gid://shopify/InventoryLevel/${locationId}?inventory_item_id=${inventoryItemId}`;
}
