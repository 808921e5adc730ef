import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/store/db.js';
import { moveLocalLevels } from '../../src/platform/local/levels-repository.js';
import { touchOrder, upsertLineItem, upsertOrder } from '../../src/platform/local/orders-repository.js';
import { lockOrderBookings, shareShopOrders } from '../../src/store/repositories/order-bookings.js';
import { type PlatformEventTopic, storeEvent } from '../../src/store/repositories/platform-events.js';
import { shopFixture, variantFixture } from './harness.js';

/**
 * What happens on the embedded platform without Tare's involvement, written straight into its
 * tables the way a platform does it (its own whole units move), each with the event a platform
 * would send. Event delivery is left to the caller: `deliver: false` keeps the event back.
 */
export interface SimulatedLine {
  id: string;
  variantId: string;
  quantity: number;
  /**
   * `_svc_data` measurement; none for an ordinary line, 'invalid' for a broken one, `raw` for the
   * property's text exactly as a customer could type it.
   */
  measure?: { value: number; unit: string; type?: string } | { raw: string } | 'invalid';
}

export function createPlatformSimulator(db: Db, shopId: string) {
  const events: { topic: PlatformEventTopic; payload: object; eventId: string }[] = [];
  function emit(topic: PlatformEventTopic, payload: object) {
    const event = { eventId: `sim:${randomUUID()}`, topic, payload };
    events.push(event);
    return event;
  }
  return {
    /** Every event the platform emitted, in order; `deliver` stores them in Tare's inbox. */
    events,
    async deliver(event: (typeof events)[number]) {
      await storeEvent(db, { shopId, eventId: event.eventId, topic: event.topic, payload: event.payload as never });
    },
    /**
     * `beforeCommit` holds the platform's transaction open (a race test's gate); `remote` places
     * it as a remote platform (Shopify) would, without waiting for Tare's locks.
     */
    async placeOrder(
      order: { id: string; locationId: string; lines: SimulatedLine[] },
      options: { beforeCommit?: () => Promise<void>; remote?: boolean } = {},
    ) {
      return db.transaction(async (tx) => {
        // The embedded platform's order changes wait for a stock notice in progress (§14).
        if (!options.remote) await shareShopOrders(tx, shopId);
        await upsertOrder(tx, shopId, { id: order.id, status: 'open', locationId: order.locationId });
        for (const [position, line] of order.lines.entries()) {
          await upsertLineItem(tx, shopId, {
            id: line.id,
            orderId: order.id,
            position,
            productId: '1001',
            variantId: line.variantId,
            quantity: line.quantity,
            price: '10.00',
            fulfilled: false,
            properties: line.measure ? [{ name: '_svc_data', value: svcData(line.measure) }] : [],
          });
        }
        await moveLocalLevels(
          tx,
          shopId,
          order.lines.map((l) => ({ locationId: order.locationId, variantId: l.variantId, by: -l.quantity })),
        );
        await options.beforeCommit?.();
        return emit('order_placed', { orderId: order.id });
      });
    },
    /** A refund (a cancellation's restock is one with restock type `cancel`), units back on the shelf. */
    async refund(
      orderId: string,
      locationId: string,
      lines: {
        lineItemId: string;
        variantId: string;
        quantity: number;
        restockType: 'no_restock' | 'cancel' | 'return';
      }[],
      options: { cancel?: boolean } = {},
    ) {
      return db.transaction(async (tx) => {
        await lockOrderBookings(tx, shopId, orderId); // as the sandbox's refunds and cancellations
        const refundId = String(Math.floor(Math.random() * 1e12));
        await tx.query('INSERT INTO local_platform_refunds (shop_id, order_id, id, lines) VALUES ($1, $2, $3, $4)', [
          shopId,
          orderId,
          refundId,
          JSON.stringify(lines.map(({ lineItemId, quantity, restockType }) => ({ lineItemId, quantity, restockType }))),
        ]);
        if (options.cancel) {
          await tx.query(`UPDATE local_platform_orders SET status = 'cancelled' WHERE shop_id = $1 AND id = $2`, [
            shopId,
            orderId,
          ]);
        }
        await moveLocalLevels(
          tx,
          shopId,
          lines
            .filter((l) => l.restockType !== 'no_restock')
            .map((l) => ({ locationId, variantId: l.variantId, by: l.quantity })),
        );
        await touchOrder(tx, shopId, orderId);
        return emit(options.cancel ? 'order_cancelled' : 'refund_created', { orderId });
      });
    },
    /** The merchant types a whole number into the platform's admin. */
    async typeStock(locationId: string, variantId: string, available: number) {
      return db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO local_platform_levels (shop_id, location_id, variant_id, available) VALUES ($1, $2, $3, $4)
           ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET available = EXCLUDED.available`,
          [shopId, locationId, variantId, available],
        );
        return emit('stock_changed', { locationId, variantId, available });
      });
    },
  };
}

function svcData(measure: NonNullable<SimulatedLine['measure']>): string {
  if (measure === 'invalid') return '{"measurement":{"type":"weight","dimensions":[]}}';
  if ('raw' in measure) return measure.raw;
  return JSON.stringify({
    measurement: { type: measure.type ?? 'weight', dimensions: [{ unit: measure.unit, value: measure.value }] },
  });
}

/**
 * A shop selling coffee by the kg (variant 2001) and by 100 g (variant 2002) at location 70001,
 * with the stock given (kg and g); what the event tests start from.
 */
export function coffeeShop(
  stock: { kg: number; g?: number },
  settings: { platformStockChanges?: 'adopt' | 'override' } = {},
) {
  const stocked = (id: string, unit: string, unitValue: number, value: number) => ({
    ...variantFixture(id, unit, unitValue),
    inventory: [{ locationId: '70001', quantity: { value, unit } }],
  });
  return shopFixture({
    settings: { mergeMatchingLineItems: true, ...settings },
    products: [
      {
        id: '1001',
        title: 'Coffee',
        measurementType: 'weight',
        variants: [
          stocked('2001', 'kg', 1, stock.kg),
          ...(stock.g === undefined ? [] : [stocked('2002', 'g', 100, stock.g)]),
        ],
      },
    ],
  });
}
