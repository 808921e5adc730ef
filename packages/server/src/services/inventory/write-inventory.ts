import type { ValidationIssue } from '@tare/contracts';
import type { Actor } from '../../domain/actor.js';
import { Dec, decimalFromJson, toJsonNumber, toPlainString } from '../../domain/decimal.js';
import { type InventoryOperation, planLevel } from '../../domain/inventory.js';
import { exactQuantity } from '../../domain/quantity.js';
import { convertForStorage, isUnitOfType, unitsOf } from '../../domain/units.js';
import { AppError, errors } from '../../errors.js';
import { type LevelProjection, type PlatformGateway, PlatformUnavailableError } from '../../platform/gateway.js';
import { retryConflicts } from '../../store/conflict-retry.js';
import type { Db, Queryable } from '../../store/db.js';
import {
  type LedgerEntry,
  type LedgerReference,
  lockLevelsForWrite,
  writeLevelsWithLedger,
} from '../../store/repositories/inventory.js';
import { type IdempotencyRequest, runIdempotent, type WriteResponse } from '../idempotent.js';
import { writeItemLevels } from '../../store/repositories/stock-items.js';
import { type ItemEntry, itemResult, planItemWrite } from '../stock-items/plan-item-write.js';
import { entryIssues } from './entry-issues.js';
import { followMovedLevels } from './moved-levels.js';

export interface InventoryEntry {
  variantId: string;
  /**
   * The delta of an adjustment or the absolute level of a set: a finite JSON number from a
   * request, or an exact decimal computed by Tare (order edits).
   */
  value: number | Dec;
  unit: string;
  /** JSON pointer of the entry in the request, for error messages (e.g. `/adjustments/3`). */
  path: string;
  /** Name of the entry's quantity field in the request; none when Tare computed the value. */
  field?: 'delta' | 'quantity';
  /**
   * The entry is on this stock item itself (the admin's item page), reached through its linked
   * variant `variantId`: its ledger row names no variant, and a variant no longer linked to the
   * item is refused (409) rather than have its own level written.
   */
  onStockItem?: string;
}

export interface InventoryWrite {
  shopId: string;
  operation: InventoryOperation;
  locationId: string;
  entries: InventoryEntry[];
  requestId: string;
  idempotency?: IdempotencyRequest;
  /** Ledger reason; `order_edit` when an order edit books its consumption. */
  ledgerOperation?: LedgerEntry['operation'];
  /** What caused the write; the idempotency key when not given. */
  reference?: LedgerReference;
  /** Who asked for it (an API key, a staff member, the platform), kept on each ledger row. */
  actor: Actor;
  /**
   * Whole units the platform moved by itself for this cause (a checkout took 2, a restock gave
   * 1 back), by variant: Tare's expectation of the platform follows them before projecting.
   */
  platformMoves?: ReadonlyMap<string, number>;
}

export interface InventoryResult {
  variantId: string;
  status: 'updated';
  previousQuantity: { value: number; unit: string };
  quantity: { value: number; unit: string };
}

/**
 * Adjusts or sets fractional inventory, all or nothing, in one transaction: idempotency, row
 * locks in a fixed order, exact totals, one ledger row per entry, the platform's integer level
 * through the gateway, and the stored response. `render` turns the result into the response
 * body (done inside the transaction, because that exact text is what a retry replays).
 */
export function createInventoryWriter(deps: { db: Db; gateway: PlatformGateway }) {
  return async function writeInventory(
    write: InventoryWrite,
    render: (data: { operation: InventoryOperation; locationId: string; results: InventoryResult[] }) => string,
  ): Promise<WriteResponse> {
    try {
      // The whole write is this one transaction (a remote platform's share is queued in it), so
      // one that a deadlock aborted runs again rather than answer 500, and a retry of its key may
      // run it again and roll it back: its stored answer is looked for after the write.
      return await retryConflicts(() =>
        runIdempotent(
          deps.db,
          write.idempotency,
          async (tx) => {
            const results = await applyInventoryWrite(tx, deps.gateway, write);
            const body = render({ operation: write.operation, locationId: write.locationId, results });
            return { status: 200, body, requestId: write.requestId };
          },
          // One shop's rows (the levels, their ledger, its queues): on Citus with shard routing,
          // run on the worker that holds them.
          { effectsInTransaction: true, shopId: write.shopId },
        ),
      );
    } catch (error) {
      if (error instanceof PlatformUnavailableError) {
        throw new AppError(
          'platform_unavailable',
          'The platform did not accept the inventory change; nothing was changed. Retry with the same Idempotency-Key.',
          null,
        );
      }
      throw error;
    }
  };
}
export type InventoryWriter = ReturnType<typeof createInventoryWriter>;

/**
 * The write itself, in the caller's transaction (order edits reuse it). Every caller's entries
 * are checked here (`entryIssues`), before anything is locked or written.
 */
export async function applyInventoryWrite(
  tx: Queryable,
  gateway: PlatformGateway,
  write: InventoryWrite,
): Promise<InventoryResult[]> {
  const { shopId, locationId } = write;
  const refused = entryIssues(write.operation, write.entries);
  if (refused.length) throw errors.validation(refused, 'body');
  const ids = write.entries.map((e) => e.variantId);
  const { locationFound, platform, levels, items } = await lockLevelsForWrite(tx, shopId, locationId, ids);
  if (!locationFound) throw errors.notFound('location', locationId);
  const unknown = ids.filter((id) => !levels.has(id));
  if (unknown.length) {
    throw new AppError(
      'not_found',
      `No variant ${unknown.map((id) => `'${id}'`).join(', ')} is configured for this shop.`,
      {
        resource: 'variant',
        ids: unknown,
      },
    );
  }
  // The item page read the link before this write locked it: a variant unlinked since is refused.
  const unlinked = write.entries.filter((e) => e.onStockItem && levels.get(e.variantId)!.stockItemId !== e.onStockItem);
  if (unlinked.length) {
    throw errors.validation(
      unlinked.map((e) => ({
        path: e.field ? `${e.path}/${e.field}/value` : e.path,
        message: `variant ${e.variantId} no longer sells from stock item ${e.onStockItem}; nothing was changed, reload the page`,
      })),
      'body',
    );
  }
  const issues: ValidationIssue[] = [];
  // Each entry's value in its variant's unit (or its stock item's): as sent, or converted and
  // rounded half-even to 9 decimal places (PRODUCT.md §6); what would be booked as something else
  // is refused (decision 34).
  const values: Dec[] = [];
  const setItems = new Map<string, string>();
  for (const entry of write.entries) {
    const level = levels.get(entry.variantId)!;
    const at = (field: 'unit' | 'value') => (entry.field ? `${entry.path}/${entry.field}/${field}` : entry.path);
    if (level.stockItemId && write.operation === 'set') {
      // PRODUCT.md §20: two absolute levels for one stock cannot both stand.
      const first = setItems.get(level.stockItemId);
      if (first === undefined) setItems.set(level.stockItemId, entry.path);
      else {
        issues.push({
          path: `${entry.path}/variantId`,
          message: `variant '${entry.variantId}' sells from stock item ${level.stockItemId}, whose level ${first} already sets; one stock takes one level per request`,
        });
      }
    }
    if (!isUnitOfType(entry.unit, level.measurementType)) {
      issues.push({
        path: at('unit'),
        message: `unit '${entry.unit}' is not valid for variant ${level.variantId} (${level.measurementType}); use one of ${unitsOf(level.measurementType).join(', ')}`,
      });
      continue;
    }
    const sent = typeof entry.value === 'number' ? decimalFromJson(entry.value) : entry.value;
    const keptIn = level.stockItemId ? items.get(level.stockItemId)!.unit : level.unit;
    const exact = exactQuantity(sent, entry.unit, keptIn);
    if (exact.ok) values.push(exact.value);
    else issues.push({ path: at('value'), message: exact.message });
  }
  if (issues.length) throw errors.validation(issues, 'body');

  const ledger: LedgerEntry[] = [];
  const projections: LevelProjection[] = [];
  const reference =
    write.reference ?? (write.idempotency ? { type: 'idempotency_key' as const, id: write.idempotency.key } : null);
  const itemEntries: ItemEntry[] = [];
  write.entries.forEach((entry, i) => {
    const level = levels.get(entry.variantId)!;
    if (!level.stockItemId) return;
    const valuePath = entry.field ? `${entry.path}/${entry.field}/value` : entry.path;
    itemEntries.push({
      index: i,
      level,
      item: items.get(level.stockItemId)!,
      value: values[i]!,
      valuePath,
      onItem: entry.onStockItem !== undefined,
    });
  });
  const itemPlan = planItemWrite(
    {
      shopId,
      locationId,
      operation: write.operation,
      ledgerOperation: write.ledgerOperation ?? write.operation,
      idempotencyKey: write.idempotency?.key ?? null,
      requestId: write.requestId,
      reference,
      actor: write.actor,
      platformMoves: write.platformMoves,
    },
    itemEntries,
  );
  issues.push(...itemPlan.issues);
  const results = write.entries.map((entry, i): InventoryResult => {
    const level = levels.get(entry.variantId)!;
    const ofItem = itemPlan.results.get(i);
    if (ofItem) return { variantId: level.variantId, status: 'updated', ...itemResult(ofItem) };
    const before = convertForStorage(new Dec(level.total), level.levelUnit, level.unit);
    const unitValue = new Dec(level.unitValue);
    const plan = planLevel(write.operation, before, values[i]!, unitValue);
    // The platform's level is a whole number it stores as a 64-bit integer and the gateway
    // passes as a JS number: a total beyond that is bad input (400), not a database error (500).
    if (plan.platformInteger.abs().gt(Number.MAX_SAFE_INTEGER)) {
      issues.push({
        path: entry.field ? `${entry.path}/${entry.field}/value` : entry.path,
        message: `the resulting level of variant ${level.variantId} is out of range; its whole-unit part must stay within ±${Number.MAX_SAFE_INTEGER}`,
      });
    }
    ledger.push({
      shopId,
      locationId,
      variantId: level.variantId,
      operation: write.ledgerOperation ?? write.operation,
      before: toPlainString(plan.before),
      after: toPlainString(plan.after),
      delta: toPlainString(plan.delta),
      unit: level.unit,
      idempotencyKey: write.idempotency?.key ?? null,
      requestId: write.requestId,
      reference,
      actor: write.actor,
    });
    const moved = write.platformMoves?.get(level.variantId) ?? 0;
    projections.push({
      locationId,
      variantId: level.variantId,
      available: plan.platformInteger.toNumber(),
      expected: level.platformAvailable === null ? null : level.platformAvailable + moved,
    });
    return {
      variantId: level.variantId,
      status: 'updated',
      previousQuantity: { value: toJsonNumber(plan.before), unit: level.unit },
      quantity: { value: toJsonNumber(plan.after), unit: level.unit },
    };
  });
  if (issues.length) throw errors.validation(issues, 'body');
  // One call for the variants' own levels and every sibling whose units move: on Shopify one
  // inventorySetQuantities, each level with its own compare-and-set.
  const { projected, moved } = await gateway.projectLevels(
    tx,
    shopId,
    [...projections, ...itemPlan.projections],
    causeUri(write, reference),
    { platform },
  );
  // A level the platform moved unseen keeps its old expectation (plus the moves accounted
  // here): following it is the inbox's work (§14), never an overwrite.
  const shown = new Map(projected.map((p) => [p.variantId, p.available]));
  await writeLevelsWithLedger(
    tx,
    ledger.map((entry, i) => ({ ...entry, platformAvailable: shown.get(entry.variantId) ?? projections[i]!.expected })),
  );
  if (itemPlan.items.length) {
    await writeItemLevels(tx, shopId, locationId, {
      items: itemPlan.items,
      ledger: itemPlan.ledger,
      siblings: itemPlan.siblings.map(({ expected, ...sibling }) => ({
        ...sibling,
        platformAvailable: shown.get(sibling.variantId) ?? expected,
      })),
    });
  }
  await followMovedLevels(tx, shopId, moved);
  return results;
}

/** The change's cause as a reference document (`gid://tare/Order/5001`), for the platform's own history. */
function causeUri(write: InventoryWrite, reference: LedgerReference | null): string {
  if (!reference) return `gid://tare/Request/${encodeURIComponent(write.requestId)}`;
  const kind = {
    order: 'Order',
    refund: 'Refund',
    idempotency_key: 'InventoryWrite',
    import: 'Import',
    platform: 'PlatformEvent',
  }[reference.type];
  return `gid://tare/${kind}/${encodeURIComponent(reference.id ?? write.requestId)}`;
}
