import type { OrderEditBody } from '@tare/contracts';
import type { OrderCatalog } from '../../../store/repositories/booked-orders.js';
import type { StoredOrderEdit } from '../../../store/repositories/order-edits.js';
import { describeActor } from '../../render.js';

/** A booking of an order as the merchant reads it: which way the stock went, and why. */
export function describeBooking(
  booking: { lineItemId: string; variantId: string; cause: string; amount: string; unit: string },
  catalog: OrderCatalog,
) {
  const cause =
    booking.cause === 'sale'
      ? 'Taken off (sale and edits)'
      : booking.cause === 'cancel'
        ? 'Given back (cancellation)'
        : `Given back (refund ${booking.cause.slice('refund:'.length)})`;
  return {
    lineItemId: booking.lineItemId,
    variant: catalog.variants.get(booking.variantId)?.title ?? `Variant ${booking.variantId}`,
    variantId: booking.variantId,
    cause,
    amount: booking.amount,
    unit: booking.unit,
  };
}

/** One entry of the edit history: when, by whom, and each line's change in words. */
export function describeEdit(edit: StoredOrderEdit) {
  const changes = (edit.edits as OrderEditBody['edits']).map((e) => {
    if (e.quantity === 0) return `Line ${e.lineItemId}: removed`;
    const parts = [
      e.measurement && `measurement ${e.measurement.value} ${e.measurement.unit}`,
      e.quantity !== undefined && `quantity ${e.quantity}`,
      e.variantId && `variant ${e.variantId}`,
    ].filter(Boolean);
    return `Line ${e.lineItemId}: ${parts.join(', ')}`;
  });
  return {
    createdAt: edit.createdAt,
    by: describeActor(edit.actor),
    changes,
    notifyCustomer: edit.notifyCustomer,
    staffNote: edit.staffNote,
    requestId: edit.requestId,
  };
}
