import type { ValidationIssue } from '@tare/contracts';
import type { Actor } from '../../domain/actor.js';
import { Dec, toJsonNumber, toPlainString } from '../../domain/decimal.js';
import type { InventoryOperation } from '../../domain/inventory.js';
import { wholeUnitsOf } from '../../domain/sibling-units.js';
import { convertForStorage } from '../../domain/units.js';
import type { LevelProjection } from '../../platform/gateway.js';
import type { LedgerOperation, LedgerReference, LockedItem, LockedLevel } from '../../store/repositories/inventory.js';
import type { ItemLedgerEntry } from '../../store/repositories/stock-items.js';

/** One entry of a write on a linked variant, its value already in the item's unit. */
export interface ItemEntry {
  index: number;
  level: LockedLevel;
  item: LockedItem;
  value: Dec;
  /** Where the entry's value is in the request, for an out-of-range refusal. */
  valuePath: string;
  /** On the item itself (the admin's item page): its ledger row names no variant. */
  onItem?: boolean;
}

export interface ItemWritePlan {
  /** Each entry's previous and new total, in its variant's unit (the API's answer), by entry index. */
  results: Map<number, { previous: Dec; after: Dec; unit: string }>;
  ledger: ItemLedgerEntry[];
  items: { stockItemId: string; total: string; unit: string }[];
  /** Every sibling whose whole units the platform should be shown, and what it is believed to show. */
  projections: LevelProjection[];
  /** Every sibling's row: the item's new total and what the platform shows when its projection is not written. */
  siblings: { variantId: string; total: string; unit: string; expected: number | null }[];
  issues: ValidationIssue[];
}

/**
 * The entries on linked variants applied to their items' totals in request order (PRODUCT.md
 * §20): an adjustment adds to the item, a set replaces it (the caller refuses two sets of one
 * item). Afterwards every sibling's whole units are `floor(total ÷ its unit)`: those it names
 * are projected always (as a variant of its own is), the others only when their whole units
 * changed, so the platform is written once per sibling whose units moved.
 */
export function planItemWrite(
  write: {
    shopId: string;
    locationId: string;
    operation: InventoryOperation;
    ledgerOperation: LedgerOperation;
    idempotencyKey: string | null;
    requestId: string;
    reference: LedgerReference | null;
    actor: Actor;
    platformMoves?: ReadonlyMap<string, number>;
  },
  entries: ItemEntry[],
): ItemWritePlan {
  const totals = new Map<string, Dec>();
  const totalOf = (item: LockedItem) =>
    totals.get(item.stockItemId) ?? convertForStorage(new Dec(item.total), item.levelUnit, item.unit);
  const results: ItemWritePlan['results'] = new Map();
  const ledger: ItemLedgerEntry[] = [];
  const named = new Set<string>();
  const touched = new Map<string, LockedItem>();
  for (const entry of entries) {
    const { item, level } = entry;
    const before = totalOf(item);
    const after = write.operation === 'adjustment' ? before.plus(entry.value) : entry.value;
    totals.set(item.stockItemId, after);
    touched.set(item.stockItemId, item);
    named.add(level.variantId);
    results.set(entry.index, {
      previous: convertForStorage(before, item.unit, level.unit),
      after: convertForStorage(after, item.unit, level.unit),
      unit: level.unit,
    });
    ledger.push({
      shopId: write.shopId,
      locationId: write.locationId,
      variantId: entry.onItem ? null : level.variantId,
      stockItemId: item.stockItemId,
      operation: write.ledgerOperation,
      before: toPlainString(before),
      after: toPlainString(after),
      delta: toPlainString(after.minus(before)),
      unit: item.unit,
      idempotencyKey: write.idempotencyKey,
      requestId: write.requestId,
      reference: write.reference,
      actor: write.actor,
    });
  }
  const projections: LevelProjection[] = [];
  const siblings: ItemWritePlan['siblings'] = [];
  const issues: ValidationIssue[] = [];
  for (const [itemId, item] of touched) {
    const total = totals.get(itemId)!;
    for (const sibling of item.siblings) {
      const available = wholeUnitsOf(total, item.unit, sibling.unit, new Dec(sibling.unitValue));
      if (available.abs().gt(Number.MAX_SAFE_INTEGER)) {
        const entry = entries.find((e) => e.item.stockItemId === itemId)!;
        issues.push({
          path: entry.valuePath,
          message: `the resulting level of stock item ${itemId} is out of range for variant ${sibling.variantId}; its whole-unit part must stay within ±${Number.MAX_SAFE_INTEGER}`,
        });
        continue;
      }
      const moved = write.platformMoves?.get(sibling.variantId) ?? 0;
      const expected = sibling.platformAvailable === null ? null : sibling.platformAvailable + moved;
      const units = available.toNumber();
      if (named.has(sibling.variantId) || expected === null || units !== expected) {
        projections.push({ locationId: write.locationId, variantId: sibling.variantId, available: units, expected });
      }
      siblings.push({ variantId: sibling.variantId, total: toPlainString(total), unit: item.unit, expected });
    }
  }
  const items = [...touched.values()].map((item) => ({
    stockItemId: item.stockItemId,
    total: toPlainString(totals.get(item.stockItemId)!),
    unit: item.unit,
  }));
  return { results, ledger, items, projections, siblings, issues };
}

/** An entry's answer (`previousQuantity`, `quantity`) as JSON numbers. */
export function itemResult(result: { previous: Dec; after: Dec; unit: string }) {
  return {
    previousQuantity: { value: toJsonNumber(result.previous), unit: result.unit },
    quantity: { value: toJsonNumber(result.after), unit: result.unit },
  };
}
