import { getDirectiveValues, GraphQLError, type GraphQLResolveInfo } from 'graphql';
import { parseGid } from '../gid.js';
import type { FakeInventoryChange, FakeStore } from '../state.js';
import { adjustmentGroupView } from '../views.js';
import type { FakeContext } from './context.js';

/**
 * inventorySetQuantities as 2026-04 has it
 * (https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/inventorySetQuantities):
 * - every quantity must name `changeFromQuantity` (null opts out); a value that no longer matches
 *   Shopify's makes "the mutation fail" with CHANGE_FROM_QUANTITY_STALE
 *   (https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/InventoryQuantityInput), so
 *   nothing of the input is applied when any quantity is stale, nor when any other is invalid;
 * - `@idempotent(key:)` is required (https://shopify.dev/changelog/making-idempotency-mandatory-for-inventory-adjustments-and-refund-mutations);
 *   a repeat with the same key and the same input returns the first answer without applying again,
 *   the same key with another input is IDEMPOTENCY_KEY_PARAMETER_MISMATCH, and one arriving while
 *   the first is still running IDEMPOTENCY_CONCURRENT_REQUEST
 *   (https://shopify.dev/docs/api/usage/implementing-idempotency).
 */
interface QuantityInput {
  inventoryItemId: string;
  locationId: string;
  quantity: number;
  changeFromQuantity?: number | null;
}

interface SetQuantitiesInput {
  name: string;
  reason: string;
  referenceDocumentUri?: string | null;
  quantities: QuantityInput[];
}

interface UserError {
  code: string;
  field: string[];
  message: string;
}

// https://shopify.dev/docs/apps/build/orders-fulfillment/inventory-management-apps/quantities-states#set-inventory-quantities-on-hand
const REASONS = new Set([
  'correction',
  'cycle_count_available',
  'damaged',
  'movement_created',
  'movement_updated',
  'movement_received',
  'movement_canceled',
  'other',
  'promotion',
  'quality_control',
  'received',
  'reservation_created',
  'reservation_deleted',
  'reservation_updated',
  'restock',
  'safety_stock',
  'shrinkage',
]);
const LIMIT = 1_000_000_000;

/** JSON with object keys sorted, so two inputs that are the same compare equal as text. */
function fingerprint(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${fingerprint(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function failed(userErrors: UserError[]) {
  return { inventoryAdjustmentGroup: null, userErrors };
}

function validate(store: FakeStore, input: SetQuantitiesInput, context: FakeContext): UserError[] {
  const errors: UserError[] = [];
  if (input.name !== 'available' && input.name !== 'on_hand') {
    errors.push({
      code: 'INVALID_NAME',
      field: ['input', 'name'],
      message: "The quantity name must be either 'available' or 'on_hand'.",
    });
  }
  if (!REASONS.has(input.reason)) {
    errors.push({ code: 'INVALID_REASON', field: ['input', 'reason'], message: 'The specified reason is invalid.' });
  }
  if (input.referenceDocumentUri != null && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(input.referenceDocumentUri)) {
    errors.push({
      code: 'INVALID_REFERENCE_DOCUMENT',
      field: ['input', 'referenceDocumentUri'],
      message: 'The specified reference document is invalid.',
    });
  }
  const seen = new Set<string>();
  input.quantities.forEach((q, i) => {
    const field = (name: string) => ['input', 'quantities', String(i), name];
    const itemId = parseGid(q.inventoryItemId, 'InventoryItem');
    const locationId = parseGid(q.locationId, 'Location');
    if (!('changeFromQuantity' in q)) {
      context.reject('inventorySetQuantities: a quantity without changeFromQuantity (mandatory since 2026-04)');
      errors.push({
        code: 'COMPARE_QUANTITY_REQUIRED',
        field: field('changeFromQuantity'),
        message: 'changeFromQuantity must be given for each quantity (null opts out of the check).',
      });
    }
    if (!itemId || !store.variantOfItem(itemId)) {
      errors.push({
        code: 'INVALID_INVENTORY_ITEM',
        field: field('inventoryItemId'),
        message: 'The specified inventory item could not be found.',
      });
      return;
    }
    if (!locationId || !store.locations.has(locationId)) {
      errors.push({
        code: 'INVALID_LOCATION',
        field: field('locationId'),
        message: 'The specified location could not be found.',
      });
      return;
    }
    if (seen.has(`${itemId}@${locationId}`)) {
      errors.push({
        code: 'NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR',
        field: field('inventoryItemId'),
        message: 'The combination of inventoryItemId and locationId must be unique.',
      });
    }
    seen.add(`${itemId}@${locationId}`);
    const level = store.level(itemId, locationId);
    if (!level) {
      errors.push({
        code: 'ITEM_NOT_STOCKED_AT_LOCATION',
        field: field('locationId'),
        message: 'The specified inventory item is not stocked at the location.',
      });
      return;
    }
    if (q.quantity > LIMIT) {
      errors.push({
        code: 'INVALID_QUANTITY_TOO_HIGH',
        field: field('quantity'),
        message: "The total quantity can't be higher than 1,000,000,000.",
      });
    }
    if (q.quantity < -LIMIT) {
      errors.push({
        code: 'INVALID_QUANTITY_TOO_LOW',
        field: field('quantity'),
        message: "The total quantity can't be lower than -1,000,000,000.",
      });
    }
    if (input.name === 'on_hand' && q.quantity < 0) {
      errors.push({
        code: 'INVALID_QUANTITY_NEGATIVE',
        field: field('quantity'),
        message: "The quantity can't be negative.",
      });
    }
    const current = input.name === 'on_hand' ? level.available + level.committed : level.available;
    if (q.changeFromQuantity != null && q.changeFromQuantity !== current) {
      errors.push({
        code: 'CHANGE_FROM_QUANTITY_STALE',
        field: field('changeFromQuantity'),
        message: 'The changeFromQuantity value does not match persisted value.',
      });
    }
  });
  return errors;
}

function apply(store: FakeStore, input: SetQuantitiesInput) {
  const changes: FakeInventoryChange[] = [];
  for (const q of input.quantities) {
    const level = store.level(parseGid(q.inventoryItemId, 'InventoryItem')!, parseGid(q.locationId, 'Location')!)!;
    const current = input.name === 'on_hand' ? level.available + level.committed : level.available;
    const delta = q.quantity - current;
    if (delta !== 0) store.moveLevel(level, { available: delta });
    // Setting available moves on_hand by as much, and the reverse: Shopify lists both changes.
    changes.push(
      {
        name: 'available',
        delta,
        quantityAfterChange: level.available,
        inventoryItemId: level.inventoryItemId,
        locationId: level.locationId,
      },
      {
        name: 'on_hand',
        delta,
        quantityAfterChange: level.available + level.committed,
        inventoryItemId: level.inventoryItemId,
        locationId: level.locationId,
      },
    );
  }
  const group = {
    id: store.nextId(),
    createdAt: store.now(),
    reason: input.reason,
    referenceDocumentUri: input.referenceDocumentUri ?? null,
    changes,
  };
  store.adjustmentGroups.set(group.id, group);
  return { inventoryAdjustmentGroup: adjustmentGroupView(store, group), userErrors: [] };
}

function idempotencyKey(info: GraphQLResolveInfo): string | undefined {
  const directive = info.schema.getDirective('idempotent')!;
  return getDirectiveValues(directive, info.fieldNodes[0]!, info.variableValues)?.key as string | undefined;
}

export function inventoryMutations(context: FakeContext) {
  const { store } = context;
  return {
    inventorySetQuantities: async (
      { input }: { input: SetQuantitiesInput },
      _context: unknown,
      info: GraphQLResolveInfo,
    ) => {
      const key = idempotencyKey(info);
      if (key === undefined) {
        context.reject('inventorySetQuantities without @idempotent(key:) (required since 2026-04)');
        throw new GraphQLError('The @idempotent directive is required for this mutation.');
      }
      if (key.trim() === '') {
        context.reject('inventorySetQuantities with an empty idempotency key');
        throw new GraphQLError('Idempotency key cannot be an empty string.');
      }
      const print = fingerprint(input);
      const record = store.idempotency.get(key);
      if (record) {
        if (record.fingerprint === print) return record.payload;
        return failed([
          {
            code: 'IDEMPOTENCY_KEY_PARAMETER_MISMATCH',
            field: ['input'],
            message: 'The same idempotency key cannot be used with different operation parameters.',
          },
        ]);
      }
      if (context.keysInFlight.has(key)) {
        return failed([
          {
            code: 'IDEMPOTENCY_CONCURRENT_REQUEST',
            field: ['input'],
            message: 'This request is currently in progress, please try again.',
          },
        ]);
      }
      context.keysInFlight.add(key);
      try {
        await context.faults.takeInventoryWriteHook()?.();
        const errors = validate(store, input, context);
        const payload = errors.length > 0 ? failed(errors) : apply(store, input);
        store.idempotency.set(key, { fingerprint: print, payload });
        return payload;
      } finally {
        context.keysInFlight.delete(key);
      }
    },
  };
}
