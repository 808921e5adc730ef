import type { Queryable } from '../../store/db.js';
import type { ShopifyAdmin } from './admin-client.js';
import { chunks, numericId, toGid } from './ids.js';
import { VARIANT_INVENTORY_ITEMS } from './operations.js';

/** `nodes(ids:)` takes at most 250 ids. https://shopify.dev/docs/api/admin-graphql/2026-04/queries/nodes */
const NODES_PER_QUERY = 250;

interface VariantNodes {
  nodes: ({ id: string; inventoryItem: { id: string } | null } | null)[];
}

/**
 * The Shopify inventory item (gid) of each variant, from the cache where known; the others are
 * read in one query per 250 and remembered. A variant Shopify does not know is left out.
 */
export async function inventoryItemIds(
  db: Queryable,
  admin: ShopifyAdmin,
  shopId: string,
  variantIds: string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(variantIds)];
  const found = await cachedInventoryItems(db, shopId, wanted);
  const missing = wanted.filter((id) => !found.has(id));
  for (const run of chunks(missing, NODES_PER_QUERY)) {
    const { data } = await admin.request<VariantNodes>(VARIANT_INVENTORY_ITEMS, {
      ids: run.map((id) => toGid('ProductVariant', id)),
    });
    const read = data.nodes.flatMap((node) =>
      node?.inventoryItem ? [{ variantId: numericId(node.id), inventoryItemId: node.inventoryItem.id }] : [],
    );
    await rememberInventoryItems(db, shopId, read);
    for (const item of read) found.set(item.variantId, item.inventoryItemId);
  }
  return found;
}

/** The variant whose inventory item this is (a gid, or the numeric id a webhook carries), if cached. */
export async function variantOfInventoryItem(
  db: Queryable,
  shopId: string,
  inventoryItemId: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ variant_id: string }>(
    'SELECT variant_id FROM shopify_inventory_items WHERE shop_id = $1 AND inventory_item_id = $2 LIMIT 1',
    [shopId, toGid('InventoryItem', inventoryItemId)],
  );
  return rows[0]?.variant_id;
}

/** Stores (or replaces, after `products/update`) which inventory item each variant has. */
export async function rememberInventoryItems(
  db: Queryable,
  shopId: string,
  items: { variantId: string; inventoryItemId: string }[],
): Promise<void> {
  // One row per variant (the last statement wins): ON CONFLICT cannot touch a row twice.
  const byVariant = new Map(items.map((i) => [numericId(i.variantId), toGid('InventoryItem', i.inventoryItemId)]));
  if (byVariant.size === 0) return;
  await db.query(
    `INSERT INTO shopify_inventory_items (shop_id, variant_id, inventory_item_id)
     SELECT $1, v, i FROM unnest($2::text[], $3::text[]) AS t(v, i)
     ON CONFLICT (shop_id, variant_id) DO UPDATE SET inventory_item_id = EXCLUDED.inventory_item_id
     WHERE shopify_inventory_items.inventory_item_id IS DISTINCT FROM EXCLUDED.inventory_item_id`,
    [shopId, [...byVariant.keys()], [...byVariant.values()]],
  );
}

async function cachedInventoryItems(db: Queryable, shopId: string, variantIds: string[]): Promise<Map<string, string>> {
  if (variantIds.length === 0) return new Map();
  const { rows } = await db.query<{ variant_id: string; inventory_item_id: string }>(
    'SELECT variant_id, inventory_item_id FROM shopify_inventory_items WHERE shop_id = $1 AND variant_id = ANY($2::text[])',
    [shopId, variantIds],
  );
  return new Map(rows.map((r) => [r.variant_id, r.inventory_item_id]));
}
