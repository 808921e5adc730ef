import { type Actor, PLATFORM } from '../../domain/actor.js';
import { Dec } from '../../domain/decimal.js';
import {
  type Booking,
  type BookingCause,
  bookingKey,
  type MeasuredLine,
  stockSign,
  targetBookings,
} from '../../domain/order-bookings.js';
import { lineMeasure } from '../../domain/bookable-line.js';
import type { PlatformGateway, PlatformOrder } from '../../platform/gateway.js';
import type { Queryable } from '../../store/db.js';
import type { LedgerOperation, LedgerReference } from '../../store/repositories/inventory.js';
import type { PlatformKind } from '../../store/repositories/shops.js';
import {
  lockOrderBookings,
  type OrderContext,
  readOrderContext,
  saveBookings,
  type SkippedLine,
  type StoredBooking,
} from '../../store/repositories/order-bookings.js';
import type { IdempotencyRequest } from '../idempotent.js';
import { applyInventoryWrite, type InventoryEntry } from '../inventory/write-inventory.js';
import { managedLines, svcDataProblems } from '../orders/managed-lines.js';

export interface OrderSync {
  shopId: string;
  orderId: string;
  requestId: string;
  /** An order edit's key, kept on its ledger rows. */
  idempotency?: IdempotencyRequest;
  /** Who changed the order: the platform (its events, the default) or whoever edited it through Tare. */
  actor?: Actor;
  /** Names a variant's booking in errors (an order edit points at its edit); the order by default. */
  pathOf?: (variantId: string) => string;
  /** An import states the stock with its orders already taken off: record, never book. */
  baseline?: boolean;
  /** The shop's platform, when the caller read it in this transaction (routes without a query). */
  platform?: PlatformKind | null;
}

export interface OrderSyncResult {
  found: boolean;
  /** Ledger rows written. */
  booked: number;
  skipped: SkippedLine[];
}

/**
 * Brings what Tare has booked for an order in line with the order as the platform shows it now
 * (PRODUCT.md §14): the difference per line, variant and cause is booked through the ordinary
 * inventory write — `sale` for an order met for the first time, `order_edit` for later changes
 * to its lines, `order_cancel` and `refund` for restocks — and the platform's own whole-unit
 * moves are accounted before projecting. Running it again changes nothing, so events may
 * arrive twice, late or in any order. Lines of unknown variants or locations are recorded as
 * skipped, never an error.
 */
export async function syncOrder(tx: Queryable, gateway: PlatformGateway, sync: OrderSync): Promise<OrderSyncResult> {
  const { shopId, orderId } = sync;
  await lockOrderBookings(tx, shopId, orderId);
  // Who placed it is kept for the admin's list of orders, which reads no platform per row.
  const order = await gateway.readOrder(tx, shopId, orderId, {
    forUpdate: true,
    customer: true,
    platform: sync.platform,
  });
  if (!order) return { found: false, booked: 0, skipped: [] };
  const context = await readOrderContext(tx, shopId, {
    id: orderId,
    reference: { name: order.name, customer: order.customer ?? null },
    locationId: order.locationId,
    variantIds: [...new Set(order.lineItems.flatMap((l) => (l.variantId ? [l.variantId] : [])))],
  });
  const { isNew, bookings: existing } = context;
  const { lines, skipped, units } = measuredLines(order, context);
  const target = targetBookings(
    lines,
    order.refunds.flatMap((r) => r.lines.map((l) => ({ refundId: r.id, ...l }))),
  );
  // Orders placed before Tare followed the shop are already in the stock it was given.
  const alreadyInStock = sync.baseline || (isNew && order.createdAt < context.followsOrdersSince);
  let booked = 0;
  if (!alreadyInStock) {
    // A variant no line names any more (a removed line) keeps the unit it was booked in.
    for (const booking of existing.values())
      if (!units.has(booking.variantId)) units.set(booking.variantId, booking.unit);
    for (const group of changes(target, existing, { isNew, orderId })) {
      const entries: InventoryEntry[] = [...group.byVariant].map(([variantId, value]) => ({
        variantId,
        value,
        unit: units.get(variantId)!,
        path: sync.pathOf?.(variantId) ?? `/orders/${orderId}`,
      }));
      await applyInventoryWrite(tx, gateway, {
        shopId,
        operation: 'adjustment',
        locationId: order.locationId,
        entries,
        requestId: sync.requestId,
        idempotency: sync.idempotency,
        ledgerOperation: group.operation,
        reference: group.reference,
        actor: sync.actor ?? PLATFORM,
        platformMoves: group.platformMoves,
      });
      booked += entries.length;
    }
  }
  const now = target.map((b) => ({ ...b, unit: units.get(b.variantId)! }));
  // A duplicate or an echo (the common case) finds everything booked and writes nothing.
  if (isNew || !sameBookings(now, existing)) await saveBookings(tx, shopId, orderId, now, skipped);
  return { found: true, booked, skipped };
}

/**
 * The order's lines of configured variants, each measure in its variant's unit. A line without
 * a valid measurement (an ordinary line, a broken `_svc_data`) books nothing (§15) but is kept
 * with a zero measure: the whole units the platform took for it are then expected, so they are
 * never mistaken for a merchant's change, and Tare's own level is projected back over them. A
 * line that carries `_svc_data` Tare cannot book (not valid, or a measure it would have to round)
 * is also reported skipped with its reason: one customer's line never fails the order's booking.
 */
function measuredLines(order: PlatformOrder, context: OrderContext) {
  const { variants, locationKnown: knownLocation } = context;
  const measured = new Map(managedLines(order.lineItems, variants).map((m) => [m.line.id, m.measurement]));
  const lines: MeasuredLine[] = [];
  const skipped: SkippedLine[] = [];
  const units = new Map<string, string>();
  for (const line of order.lineItems) {
    if (line.variantId === null) continue; // a custom line has no stock anywhere
    const variant = variants.get(line.variantId);
    const measurement = measured.get(line.id);
    const skip = (reason: SkippedLine['reason'], detail?: string) =>
      skipped.push({ lineItemId: line.id, variantId: line.variantId, reason, ...(detail ? { detail } : {}) });
    if (!variant || !knownLocation) {
      if (measurement) skip(variant ? 'unknown_location' : 'unknown_variant');
      continue;
    }
    units.set(line.variantId, variant.unit);
    let perUnit = new Dec(0);
    if (measurement) {
      const measure = lineMeasure(measurement, line.quantity, variant);
      if (measure.ok) perUnit = measure.perUnit;
      else skip('unbookable_measurement', measure.detail);
    } else {
      const invalid = svcDataProblems(line, variant);
      if (invalid) skip('invalid_svc_data', invalid);
    }
    lines.push({ lineItemId: line.id, variantId: line.variantId, quantity: line.quantity, perUnit });
  }
  return { lines, skipped, units };
}

interface BookingGroup {
  operation: LedgerOperation;
  reference: LedgerReference;
  /** Stock change per variant (negative takes off). */
  byVariant: Map<string, Dec>;
  /** The platform's own whole-unit move per variant for the same cause. */
  platformMoves: Map<string, number>;
}

/** The differences between target and booked, one group per ledger operation and reference. */
function sameBookings(now: StoredBooking[], existing: Map<string, StoredBooking>): boolean {
  return (
    now.length === existing.size &&
    now.every((b) => {
      const have = existing.get(bookingKey(b));
      return have !== undefined && have.amount.eq(b.amount) && have.units === b.units && have.unit === b.unit;
    })
  );
}

function changes(
  target: Booking[],
  existing: Map<string, Booking>,
  order: { isNew: boolean; orderId: string },
): BookingGroup[] {
  const groups = new Map<string, BookingGroup>();
  const targetByKey = new Map(target.map((b) => [bookingKey(b), b]));
  for (const key of new Set([...targetByKey.keys(), ...existing.keys()])) {
    const want = targetByKey.get(key);
    const have = existing.get(key);
    const { cause, variantId } = (want ?? have)!;
    const amount = (want?.amount ?? new Dec(0)).minus(have?.amount ?? 0);
    const units = (want?.units ?? 0) - (have?.units ?? 0);
    if (amount.isZero() && units === 0) continue;
    const { operation, reference } = describe(cause, order);
    const groupKey = `${operation}\u0000${reference.id}`;
    const group = groups.get(groupKey) ?? { operation, reference, byVariant: new Map(), platformMoves: new Map() };
    groups.set(groupKey, group);
    const sign = stockSign(cause);
    group.byVariant.set(variantId, (group.byVariant.get(variantId) ?? new Dec(0)).plus(amount.times(sign)));
    group.platformMoves.set(variantId, (group.platformMoves.get(variantId) ?? 0) + units * sign);
  }
  // Sales before restocks, so a ledger reads in the order things happen to an order.
  const rank = (g: BookingGroup) => ['sale', 'order_edit', 'order_cancel', 'refund'].indexOf(g.operation);
  return [...groups.values()].sort(
    (a, b) => rank(a) - rank(b) || String(a.reference.id).localeCompare(String(b.reference.id)),
  );
}

/** The ledger's words for a cause: a first booking is the sale, later changes to it are edits. */
function describe(
  cause: BookingCause,
  order: { isNew: boolean; orderId: string },
): { operation: LedgerOperation; reference: LedgerReference } {
  const ofOrder = { type: 'order' as const, id: order.orderId };
  if (cause === 'sale') return { operation: order.isNew ? 'sale' : 'order_edit', reference: ofOrder };
  if (cause === 'cancel') return { operation: 'order_cancel', reference: ofOrder };
  return { operation: 'refund', reference: { type: 'refund', id: cause.slice('refund:'.length) } };
}
