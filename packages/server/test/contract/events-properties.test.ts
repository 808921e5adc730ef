/**
 * The property-based event test (test/events/properties.test.ts) run the same on every platform
 * adapter, on both stores: random histories of purchases (ordinary lines, and lines Tare cannot
 * book, too), refunds, cancels, PATCH edits of a quantity, API adjustments and typed stock, the
 * platform's notices held back, then delivered shuffled and some twice. Afterwards Σ ledger = total, total = the exact model,
 * the platform shows floor(total / unit value), and exactly the lines Tare cannot book are
 * reported skipped.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/domain/decimal.js';
import { reconcile } from '../../src/services/events/reconcile.js';
import { testDrivers } from '../support/databases.js';
import {
  actionArb,
  type Action,
  type PlacedOrder,
  START_STOCK,
  svcDataOf,
  UNBOOKABLE,
  VARIANTS,
  type VariantId,
} from '../support/event-model.js';
import { LOC, PLATFORM_KINDS, type PlatformDriver, startPlatformDriver } from '../support/platform-drivers.js';

/** The variants' price in the shop's catalog (test/support/harness.ts). */
const VARIANT_PRICE = new Dec('24.00');

describe.each(testDrivers({ citus: true }))('Platform events, property-based, on $name', (store) => {
  it.each(PLATFORM_KINDS)(
    'when on the %s platform purchases, cancels, refunds, edits, adjustments and typed stock arrive late, shuffled and twice, then every total is exact and the platform shows its whole units',
    async (kind) => {
      await fc.assert(
        fc.asyncProperty(fc.array(actionArb, { minLength: 4, maxLength: 14 }), async (actions) => {
          // A database of its own for each run: its Tare never sees an earlier run's shop.
          const db = await store.create();
          let platform: PlatformDriver | undefined;
          try {
            platform = await startPlatformDriver(kind, db, { stock: START_STOCK });
            await runHistory(platform, actions);
          } finally {
            await platform?.close();
            await db.close();
          }
        }),
        // Each run starts a Tare (and a fake Shopify) and settles its shop several times: about
        // 3–10 s a run on a loaded 2-core machine.
        { numRuns: store.name === 'pglite' ? 5 : 4, endOnFailure: true },
      );
    },
    300_000,
  );
});

/** Plays the history on the platform while keeping the exact model, then checks the shop. */
async function runHistory(platform: PlatformDriver, actions: Action[]): Promise<void> {
  const { db, shopId, server } = platform;
  const model: Record<VariantId, Dec> = { '2001': new Dec(START_STOCK.kg), '2002': new Dec(START_STOCK.g) };
  const orders: PlacedOrder[] = [];
  const unbookable = new Set<string>();
  const pick = (n: number) => orders[n % Math.max(1, orders.length)];
  await platform.hold();

  for (const action of actions) {
    if (action.kind === 'buy') {
      const { unitValue } = VARIANTS[action.variant];
      const perUnit = new Dec(action.measure);
      // What the storefront charges (the sandbox's rule, PRODUCT.md §15; Shopify is told it).
      const price = action.ordinary ? VARIANT_PRICE : perUnit.div(unitValue).times(VARIANT_PRICE);
      const { orderId, lineIds } = await platform.placeOrder([
        {
          variantId: action.variant,
          quantity: action.quantity,
          price: price.toFixed(2, Dec.ROUND_HALF_EVEN),
          properties: action.ordinary ? undefined : { _svc_data: svcDataOf(action.variant, action.measure) },
        },
        // A line Tare cannot book rides along: charged as one unit, booked as nothing.
        ...(action.bad === null
          ? []
          : [
              {
                variantId: action.variant,
                quantity: 1,
                price: VARIANT_PRICE.toFixed(2),
                properties: { _svc_data: unbookableOn(platform, action.bad).svcData(VARIANTS[action.variant].unit) },
              },
            ]),
      ]);
      if (action.bad !== null) unbookable.add(lineIds[1]!);
      orders.push({
        id: orderId,
        lineId: lineIds[0]!,
        variant: action.variant,
        quantity: action.quantity,
        perUnit,
        measured: !action.ordinary,
        restocked: 0,
        refunded: 0,
        cancelled: false,
      });
      if (!action.ordinary) model[action.variant] = model[action.variant].minus(perUnit.times(action.quantity));
    } else if (action.kind === 'refund' || action.kind === 'cancel') {
      const order = pick(action.order);
      if (!order || order.cancelled) continue;
      const left = order.quantity - order.refunded;
      const quantity = action.kind === 'cancel' ? left : Math.min(action.quantity, left);
      if (quantity <= 0) continue;
      if (action.kind === 'cancel') await platform.cancel(order.id, { restock: true });
      else {
        const restockType = action.restock ? 'return' : 'no_restock';
        await platform.refund(order.id, [{ lineItemId: order.lineId, quantity, restockType }]);
      }
      const restocked = action.kind === 'cancel' || action.restock;
      order.refunded += quantity;
      if (action.kind === 'cancel') order.cancelled = true;
      if (restocked && order.measured) model[order.variant] = model[order.variant].plus(order.perUnit.times(quantity));
    } else if (action.kind === 'edit') {
      // Through PATCH /orders: an open, measured order without refunds; only its quantity (all
      // that Shopify's order editing can change on a line).
      const order = pick(action.order);
      if (!order || !order.measured || order.cancelled || order.refunded > 0 || order.quantity === action.quantity) {
        continue;
      }
      const edited = await server.services.editOrder(
        {
          shopId,
          actor: { type: 'api_key', id: platform.keyId },
          orderId: order.id,
          requestId: `edit-${randomUUID()}`,
          body: { edits: [{ lineItemId: order.lineId, quantity: action.quantity }] },
        },
        JSON.stringify,
      );
      expect(edited.status, edited.body).toBe(200);
      model[order.variant] = model[order.variant].minus(order.perUnit.times(action.quantity - order.quantity));
      order.quantity = action.quantity;
      if (action.quantity === 0) order.cancelled = true; // the line is gone
    } else if (action.kind === 'adjust') {
      const { unit } = VARIANTS[action.variant];
      await server.services.writeInventory(
        {
          shopId,
          operation: 'adjustment',
          locationId: LOC,
          requestId: `adjust-${randomUUID()}`,
          actor: { type: 'api_key', id: platform.keyId },
          entries: [{ variantId: action.variant, value: action.delta, unit, path: '/adjustments/0', field: 'delta' }],
        },
        JSON.stringify,
      );
      model[action.variant] = model[action.variant].plus(action.delta);
    } else if (action.kind === 'type') {
      // The merchant types over a settled platform, and Tare follows the figure before anything
      // else happens: a sale in between would be counted in the figure (docs/decisions.md, 23).
      await platform.settle();
      const { unitValue } = VARIANTS[action.variant];
      const whole = model[action.variant].div(unitValue).floor();
      await platform.typeStock(action.variant, action.available);
      model[action.variant] = model[action.variant].plus(new Dec(action.available).minus(whole).times(unitValue));
      await platform.settle();
      await platform.hold();
    } else {
      await platform.release({ seed: action.how, duplicate: action.how % 3 === 0 ? 1 : 0 });
      if (action.how % 4 === 0) {
        await platform.settle();
        await platform.hold();
      }
    }
  }
  await platform.settle();
  await reconcile({ db, gateway: server.services.gateway }, { fix: true, shopDomain: platform.domain });
  await platform.settle();

  const { rows } = await db.query<{ variant_id: VariantId; total: string; ledger: string }>(
    `SELECT l.variant_id, l.total::text, (SELECT sum(delta) FROM inventory_ledger g WHERE g.shop_id = l.shop_id
       AND g.location_id = l.location_id AND g.variant_id = l.variant_id)::text AS ledger
     FROM inventory_levels l WHERE l.shop_id = $1 AND l.location_id = $2 ORDER BY l.variant_id`,
    [shopId, LOC],
  );
  expect(rows.map((r) => r.variant_id)).toEqual(['2001', '2002']);
  for (const row of rows) {
    const total = new Dec(row.total);
    expect(new Dec(row.ledger).eq(total), `Σ ledger = total for ${row.variant_id}`).toBe(true);
    expect(total.toString(), `model for ${row.variant_id}`).toBe(model[row.variant_id].toString());
    expect(await platform.shown(row.variant_id), `platform for ${row.variant_id}`).toBe(
      total.div(VARIANTS[row.variant_id].unitValue).floor().toNumber(),
    );
  }
  // Every line Tare could not book is reported skipped, and nothing else is.
  const skipped = await db.query<{ line_item_id: string }>(
    `SELECT s->>'lineItemId' AS line_item_id FROM tracked_orders, jsonb_array_elements(skipped) s WHERE shop_id = $1`,
    [shopId],
  );
  expect(skipped.rows.map((r) => r.line_item_id).sort()).toEqual([...unbookable].sort());
  const unprocessed = await db.query(`SELECT 1 FROM platform_events WHERE shop_id = $1 AND status <> 'processed'`, [
    shopId,
  ]);
  expect(unprocessed.rows).toEqual([]);
}

/** The `n`th line Tare cannot book that the platform's cart takes: the sandbox's refuses a measure Tare cannot book. */
function unbookableOn(platform: PlatformDriver, n: number) {
  const taken = UNBOOKABLE.filter((kind) => platform.kind !== 'local' || kind.cartTakes);
  return taken[n % taken.length]!;
}
