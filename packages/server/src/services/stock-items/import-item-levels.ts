import { IMPORT } from '../../domain/actor.js';
import { Dec, decimalFromJson, toPlainString } from '../../domain/decimal.js';
import { wholeUnitsOf } from '../../domain/sibling-units.js';
import { convertForStorage } from '../../domain/units.js';
import type { LevelProjection, PlatformGateway } from '../../platform/gateway.js';
import type { Queryable } from '../../store/db.js';
import { type LockedItem, lockLevelsForWrite } from '../../store/repositories/inventory.js';
import {
  type ItemLedgerEntry,
  itemLevelLocations,
  listLinkedVariants,
  lockItemLevels,
  writeItemLevels,
} from '../../store/repositories/stock-items.js';
import type { ImportStockItem } from '../catalog-import/import-document.js';

/**
 * The file's stock items' levels (PRODUCT.md §20: stated once per location, on the item): each
 * stated level is set (a ledger row `import` naming no variant when it differs), and at every
 * location the item has a level, every linked variant's row follows the item and the platform
 * shows its whole units (a variant the file just linked included). Unchanged levels whose
 * siblings already show their units write nothing. Returns how many levels changed.
 */
export async function importItemLevels(
  tx: Queryable,
  gateway: PlatformGateway,
  shopId: string,
  stockItems: ImportStockItem[],
): Promise<number> {
  if (stockItems.length === 0) return 0;
  const stored = await itemLevelLocations(
    tx,
    shopId,
    stockItems.map((item) => item.id),
  );
  const byLocation = new Map<string, Map<string, Dec | undefined>>();
  const at = (locationId: string) =>
    byLocation.get(locationId) ?? byLocation.set(locationId, new Map()).get(locationId)!;
  for (const item of stockItems) {
    for (const locationId of stored.get(item.id) ?? []) at(locationId).set(item.id, undefined);
    for (const entry of item.inventory ?? []) {
      at(entry.locationId).set(
        item.id,
        convertForStorage(decimalFromJson(entry.quantity.value), entry.quantity.unit, item.unit),
      );
    }
  }
  let changed = 0;
  for (const [locationId, targets] of [...byLocation].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    changed += await importAtLocation(tx, gateway, shopId, locationId, targets);
  }
  return changed;
}

async function importAtLocation(
  tx: Queryable,
  gateway: PlatformGateway,
  shopId: string,
  locationId: string,
  targets: Map<string, Dec | undefined>,
): Promise<number> {
  const itemIds = [...targets.keys()];
  // Items first (every one, linked or not), then their variants' levels: the writes' lock order.
  const bare = await lockItemLevels(tx, shopId, locationId, itemIds);
  const linked = await listLinkedVariants(tx, shopId, itemIds);
  const { items } = await lockLevelsForWrite(tx, shopId, locationId, [...linked.values()].flat());
  const ledger: ItemLedgerEntry[] = [];
  const writes: { stockItemId: string; total: string; unit: string }[] = [];
  const projections: LevelProjection[] = [];
  const siblings: { variantId: string; total: string; unit: string; platformAvailable: number | null }[] = [];
  const changed = new Set<string>();
  for (const [itemId, target] of targets) {
    const item: LockedItem | undefined =
      items.get(itemId) ?? (bare.has(itemId) ? { ...bare.get(itemId)!, siblings: [] } : undefined);
    if (!item) continue;
    const before = convertForStorage(new Dec(item.total), item.levelUnit, item.unit);
    const total = target ?? before;
    if (!total.eq(before) || item.levelUnit !== item.unit) {
      changed.add(itemId);
      ledger.push({
        shopId,
        locationId,
        variantId: null,
        stockItemId: itemId,
        operation: 'import',
        before: toPlainString(before),
        after: toPlainString(total),
        delta: toPlainString(total.minus(before)),
        unit: item.unit,
        idempotencyKey: null,
        requestId: null,
        reference: { type: 'import', id: null },
        actor: IMPORT,
      });
    }
    writes.push({ stockItemId: itemId, total: toPlainString(total), unit: item.unit });
    for (const sibling of item.siblings) {
      const available = wholeUnitsOf(total, item.unit, sibling.unit, new Dec(sibling.unitValue)).toNumber();
      // The file states the stock: the platform shows its whole units, whatever it showed before.
      if (available !== sibling.platformAvailable) {
        projections.push({ locationId, variantId: sibling.variantId, available, expected: null });
        changed.add(itemId);
      }
      const copied = sibling.copied;
      if (!copied || copied.unit !== item.unit || !new Dec(copied.total).eq(total)) changed.add(itemId);
      siblings.push({
        variantId: sibling.variantId,
        total: toPlainString(total),
        unit: item.unit,
        platformAvailable: available,
      });
    }
  }
  if (changed.size === 0) return 0;
  const { projected } = projections.length ? await gateway.projectLevels(tx, shopId, projections) : { projected: [] };
  const shown = new Map(projected.map((p) => [p.variantId, p.available]));
  await writeItemLevels(tx, shopId, locationId, {
    items: writes,
    ledger,
    siblings: siblings.map((s) => ({ ...s, platformAvailable: shown.get(s.variantId) ?? s.platformAvailable })),
  });
  return changed.size;
}
