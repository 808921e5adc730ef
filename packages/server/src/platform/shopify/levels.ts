import type { PlatformLevel } from '../gateway.js';
import type { Queryable } from '../../store/db.js';
import { type ShopifyAdmin, ShopifyRequestError, ShopifyUnavailableError } from './admin-client.js';
import { chunks, toGid } from './ids.js';
import { inventoryItemIds } from './inventory-items.js';
import { INVENTORY_LEVELS_AT_LOCATION, SET_INVENTORY_QUANTITIES } from './operations.js';

/** One level's whole units to write, only while Shopify shows `expected` (null: whatever it shows). */
export interface LevelPush {
  locationId: string;
  variantId: string;
  available: number;
  expected: number | null;
  /** The same for every retry of one write (the outbox derives it from the row's generation). */
  idempotencyKey: string;
  /** `gid://tare/…`, shown in the merchant's inventory history. */
  referenceDocumentUri: string;
}

export type PushOutcome = { status: 'applied' } | { status: 'stale' };

/**
 * Tare makes Shopify's figure agree with its exact stock: "Used to correct an inventory error".
 * https://shopify.dev/docs/apps/build/orders-fulfillment/inventory-management-apps/manage-quantities-states#set-inventory-quantities-on-hand
 */
const REASON = 'correction';
const NODES_PER_QUERY = 250;

interface LevelNodes {
  nodes: ({ id: string; inventoryLevel: { quantities: { name: string; quantity: number }[] } | null } | null)[];
}

/** Shopify's `available` units for these levels; a level Shopify does not stock (or know) reads 0. */
export async function readShopifyLevels(
  db: Queryable,
  admin: ShopifyAdmin,
  shopId: string,
  levels: Omit<PlatformLevel, 'available'>[],
): Promise<PlatformLevel[]> {
  const items = await inventoryItemIds(
    db,
    admin,
    shopId,
    levels.map((l) => l.variantId),
  );
  const shown = new Map<string, number>(); // `${locationId}/${inventoryItemId}` → available
  const byLocation = groupBy(levels, (l) => l.locationId);
  for (const [locationId, atLocation] of byLocation) {
    const itemIds = [...new Set(atLocation.flatMap((l) => items.get(l.variantId) ?? []))];
    for (const run of chunks(itemIds, NODES_PER_QUERY)) {
      const { data } = await admin.request<LevelNodes>(INVENTORY_LEVELS_AT_LOCATION, {
        inventoryItemIds: run,
        locationId: toGid('Location', locationId),
      });
      for (const node of data.nodes) {
        const available = node?.inventoryLevel?.quantities.find((q) => q.name === 'available')?.quantity;
        if (node && available !== undefined) shown.set(`${locationId}/${node.id}`, available);
      }
    }
  }
  return levels.map((l) => ({
    locationId: l.locationId,
    variantId: l.variantId,
    available: shown.get(`${l.locationId}/${items.get(l.variantId)}`) ?? 0,
  }));
}

/**
 * Writes the pushes with `inventorySetQuantities` (name `available`, `changeFromQuantity` =
 * `expected`) and tells, in the same order, which were applied and which found Shopify showing
 * another figure (`CHANGE_FROM_QUANTITY_STALE`). Pushes sharing a key go in one call.
 *
 * One stale quantity fails the whole mutation ("the mutation fails with a
 * CHANGE_FROM_QUANTITY_STALE error",
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/InventoryQuantityInput), and
 * the error's `field` names its index. The answer still decides, so a change of that rule cannot
 * lose a write: with an adjustment group the quantities without an error were applied; without
 * one nothing was, and the pushes that were not stale are sent again in a call of their own. A stale error whose `field` names no quantity makes each push go alone.
 * Every further call has a key derived from the first and the pushes it carries, so a retry of
 * the batch after a lost answer replays each call instead of applying it twice. Throws the admin
 * client's errors (throttled, unavailable, unauthorized) and ShopifyRequestError for any other
 * refusal.
 */
export async function pushShopifyLevels(
  db: Queryable,
  admin: ShopifyAdmin,
  shopId: string,
  pushes: LevelPush[],
): Promise<PushOutcome[]> {
  const items = await inventoryItemIds(
    db,
    admin,
    shopId,
    pushes.map((p) => p.variantId),
  );
  const unknown = pushes.find((p) => !items.has(p.variantId));
  if (unknown) throw new ShopifyRequestError(`Shopify has no inventory item for variant ${unknown.variantId}.`);
  const outcomes = new Array<PushOutcome>(pushes.length);
  const indexed = pushes.map((push, index) => ({ ...push, index, inventoryItemId: items.get(push.variantId)! }));
  for (const group of groupBy(indexed, (p) => p.idempotencyKey).values()) {
    const baseKey = group[0]!.idempotencyKey;
    const keyFor = (run: IndexedPush[]) =>
      run === group ? baseKey : `${baseKey}.${run.map((p) => p.index).join('-')}`;
    let pending = group;
    while (pending.length > 0) {
      const answer = await setQuantities(admin, keyFor(pending), pending);
      if (answer.unplacedStale && pending.length > 1) {
        for (const push of pending) {
          const alone = await setQuantities(admin, keyFor([push]), [push]);
          outcomes[push.index] = { status: alone.stale.size || alone.unplacedStale ? 'stale' : 'applied' };
        }
        break;
      }
      if (answer.unplacedStale) answer.stale.add(0);
      for (const i of answer.stale) outcomes[pending[i]!.index] = { status: 'stale' };
      const rest = pending.filter((_, i) => !answer.stale.has(i));
      if (answer.applied) {
        for (const push of rest) outcomes[push.index] = { status: 'applied' };
        break;
      }
      pending = rest;
    }
  }
  return outcomes;
}

type IndexedPush = LevelPush & { index: number; inventoryItemId: string };

interface SetAnswer {
  inventorySetQuantities: {
    inventoryAdjustmentGroup: { id: string } | null;
    userErrors: { code: string | null; field: string[] | null; message: string }[];
  };
}

/**
 * One `inventorySetQuantities` call: whether the quantities without an error were applied, which
 * quantities (by index) were stale, and whether a stale error named none.
 */
async function setQuantities(
  admin: ShopifyAdmin,
  idempotencyKey: string,
  pushes: IndexedPush[],
): Promise<{ applied: boolean; stale: Set<number>; unplacedStale: boolean }> {
  const { data } = await admin.request<SetAnswer>(SET_INVENTORY_QUANTITIES, {
    idempotencyKey,
    input: {
      name: 'available',
      reason: REASON,
      // One document per call: the pushes of one key share the cause of the first.
      referenceDocumentUri: pushes[0]!.referenceDocumentUri,
      quantities: pushes.map((p) => ({
        inventoryItemId: p.inventoryItemId,
        locationId: toGid('Location', p.locationId),
        quantity: p.available,
        // Explicit null opts a quantity out of the check; omitting it is an error since 2026-04.
        changeFromQuantity: p.expected,
      })),
    },
  });
  const { inventoryAdjustmentGroup, userErrors } = data.inventorySetQuantities;
  const stale = new Set<number>();
  let unplacedStale = false;
  for (const error of userErrors) {
    if (error.code === 'IDEMPOTENCY_CONCURRENT_REQUEST') {
      throw new ShopifyUnavailableError(`Shopify is still applying an earlier try of this write: ${error.message}`);
    }
    if (error.code !== 'CHANGE_FROM_QUANTITY_STALE') {
      throw new ShopifyRequestError(`Shopify refused the inventory write: ${error.code ?? ''} ${error.message}`, {
        errors: userErrors,
      });
    }
    const index = quantityIndex(error.field);
    if (index === undefined || index >= pushes.length) unplacedStale = true;
    else stale.add(index);
  }
  // Without errors the call applied (setting figures already shown may come back without a group).
  return { applied: userErrors.length === 0 || inventoryAdjustmentGroup !== null, stale, unplacedStale };
}

/** The index a user error's `field` points at: ["input", "quantities", "2", "changeFromQuantity"] → 2. */
function quantityIndex(field: string[] | null): number | undefined {
  const at = field?.indexOf('quantities') ?? -1;
  const index = at >= 0 ? Number(field![at + 1]) : NaN;
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(keyOf(item));
    if (group) group.push(item);
    else groups.set(keyOf(item), [item]);
  }
  return groups;
}
