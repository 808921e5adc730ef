import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec } from '../../src/domain/decimal.js';
import { createLogger } from '../../src/logger.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker } from '../../src/services/events/inbox-worker.js';
import { reconcile } from '../../src/services/events/reconcile.js';
import { createInventoryWriter } from '../../src/services/inventory/write-inventory.js';
import { createOrderEditor } from '../../src/services/orders/edit-order.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { actionArb, type PlacedOrder, UNBOOKABLE, VARIANTS, type VariantId } from '../support/event-model.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';

const LOC = '70001';
const gateway = createLocalGateway();
const logger = createLogger('silent');

describe.each(testDrivers())('Platform events, property-based, on %s', (driver) => {
  let db: Db;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it('when purchases (with lines Tare cannot book), cancels, refunds, edits, adjustments and typed stock arrive duplicated and in any order, then every total is exact, reconciles, and every unbookable line is reported skipped', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { minLength: 4, maxLength: 18 }), fc.nat(), async (actions, seed) => {
        run++;
        const { shopId, keyId } = await seedShop(db, coffeeShop({ kg: 20, g: 2050 }));
        const platform = createPlatformSimulator(db, shopId);
        const worker = createInboxWorker({ db, gateway, logger });
        const writer = createInventoryWriter({ db, gateway });
        const editor = createOrderEditor({ db, gateway });
        const model: Record<VariantId, Dec> = { '2001': new Dec(20), '2002': new Dec(2050) };
        const orders: PlacedOrder[] = [];
        const unbookable = new Set<string>();
        let pending: (typeof platform.events)[number][] = [];
        let random = seed;
        const next = (n: number) => (random = (random * 1103515245 + 12345) % 2 ** 31) % n;

        /** Delivers some pending events, shuffled and some twice, then maybe processes them. */
        const deliverSome = async (all: boolean) => {
          const chosen = all ? pending : pending.filter(() => next(2) === 0);
          pending = pending.filter((e) => !chosen.includes(e));
          const shuffled = [...chosen, ...chosen.filter(() => next(3) === 0)].sort(() => next(3) - 1);
          for (const event of shuffled) await platform.deliver(event);
          if (all || next(2) === 0) await settle();
        };
        const settle = async () => {
          for (let i = 0; i < 20; i++) {
            await worker.drainNow();
            const due = await db.query(`UPDATE platform_events SET next_attempt_at = now() WHERE status = 'pending'`);
            if (due.rowCount === 0) return;
          }
          throw new Error('the inbox did not settle');
        };
        const track = (event: (typeof platform.events)[number]) => {
          pending.push(event);
        };

        for (const action of actions) {
          if (action.kind === 'buy') {
            const id = `${run}0${orders.length}`;
            const { unit } = VARIANTS[action.variant];
            const perUnit = new Dec(action.measure);
            if (action.bad !== null) unbookable.add(`${id}2`);
            track(
              await platform.placeOrder({
                id,
                locationId: LOC,
                lines: [
                  {
                    id: `${id}1`,
                    variantId: action.variant,
                    quantity: action.quantity,
                    measure: action.ordinary ? undefined : { value: action.measure, unit },
                  },
                  // A line Tare cannot book rides along: the platform takes its unit, Tare books nothing.
                  ...(action.bad === null
                    ? []
                    : [
                        {
                          id: `${id}2`,
                          variantId: action.variant,
                          quantity: 1,
                          measure: { raw: UNBOOKABLE[action.bad]!.svcData(unit) },
                        },
                      ]),
                ],
              }),
            );
            orders.push({
              id,
              lineId: `${id}1`,
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
            const order = orders[action.order % Math.max(1, orders.length)];
            if (!order || order.cancelled) continue;
            const left = order.quantity - order.refunded;
            const quantity = action.kind === 'cancel' ? left : Math.min(action.quantity, left);
            if (quantity <= 0) continue;
            const restockType = action.kind === 'cancel' ? 'cancel' : action.restock ? 'return' : 'no_restock';
            track(
              await platform.refund(
                order.id,
                LOC,
                [{ lineItemId: order.lineId, variantId: order.variant, quantity, restockType }],
                {
                  cancel: action.kind === 'cancel',
                },
              ),
            );
            order.refunded += quantity;
            if (action.kind === 'cancel') order.cancelled = true;
            if (restockType !== 'no_restock' && order.measured) {
              model[order.variant] = model[order.variant].plus(order.perUnit.times(quantity));
            }
          } else if (action.kind === 'edit') {
            // Through PATCH /orders: an open, measured order without refunds, whose line is still there.
            const order = orders[action.order % Math.max(1, orders.length)];
            if (
              !order ||
              order.cancelled ||
              !order.measured ||
              order.refunded > 0 ||
              order.quantity === action.quantity
            )
              continue;
            await editor(
              {
                shopId,
                actor: { type: 'api_key', id: keyId },
                orderId: order.id,
                requestId: `edit-${run}`,
                body: { edits: [{ lineItemId: order.lineId, quantity: action.quantity }] },
              },
              JSON.stringify,
            );
            model[order.variant] = model[order.variant].minus(order.perUnit.times(action.quantity - order.quantity));
            order.quantity = action.quantity;
            if (action.quantity === 0) order.refunded = order.quantity = 0;
            if (action.quantity === 0) order.cancelled = true; // the line is gone
          } else if (action.kind === 'adjust') {
            const { unit } = VARIANTS[action.variant];
            await writer(
              {
                shopId,
                operation: 'adjustment',
                locationId: LOC,
                requestId: `adjust-${run}`,
                actor: { type: 'api_key', id: keyId },
                entries: [
                  { variantId: action.variant, value: action.delta, unit, path: '/adjustments/0', field: 'delta' },
                ],
              },
              JSON.stringify,
            );
            model[action.variant] = model[action.variant].plus(action.delta);
          } else if (action.kind === 'type') {
            // The merchant types over a settled platform: every earlier event has been followed.
            await deliverSome(true);
            const { unitValue } = VARIANTS[action.variant];
            const whole = model[action.variant].div(unitValue).floor();
            track(await platform.typeStock(LOC, action.variant, action.available));
            model[action.variant] = model[action.variant].plus(new Dec(action.available).minus(whole).times(unitValue));
            await deliverSome(true);
          } else {
            await deliverSome(action.how % 4 === 0);
          }
        }
        await deliverSome(true);
        await reconcile({ db, gateway }, { fix: true, shopDomain: undefined });

        const { rows } = await db.query<{ variant_id: VariantId; total: string; ledger: string; platform: string }>(
          `SELECT l.variant_id, l.total::text, (SELECT sum(delta) FROM inventory_ledger g WHERE g.shop_id = l.shop_id
             AND g.location_id = l.location_id AND g.variant_id = l.variant_id)::text AS ledger, p.available::text AS platform
           FROM inventory_levels l JOIN local_platform_levels p USING (shop_id, location_id, variant_id)
           WHERE l.shop_id = $1 ORDER BY l.variant_id`,
          [shopId],
        );
        for (const row of rows) {
          const total = new Dec(row.total);
          expect(new Dec(row.ledger).eq(total), `Σ ledger = total for ${row.variant_id}`).toBe(true);
          expect(total.toString(), `model for ${row.variant_id}`).toBe(model[row.variant_id].toString());
          expect(Number(row.platform)).toBe(total.div(VARIANTS[row.variant_id].unitValue).floor().toNumber());
        }
        // Every line Tare could not book is reported skipped, and nothing else is.
        const skipped = await db.query<{ line_item_id: string }>(
          `SELECT s->>'lineItemId' AS line_item_id FROM tracked_orders, jsonb_array_elements(skipped) s WHERE shop_id = $1`,
          [shopId],
        );
        expect(skipped.rows.map((r) => r.line_item_id).sort()).toEqual([...unbookable].sort());
        const parked = await db.query(`SELECT 1 FROM platform_events WHERE shop_id = $1 AND status <> 'processed'`, [
          shopId,
        ]);
        expect(parked.rows).toEqual([]);
      }),
      { numRuns: driver.name === 'pglite' ? 12 : 8, endOnFailure: true },
    );
    // Each run seeds a shop and settles its inbox: 10–40 s on a loaded 2-core machine.
  }, 240_000);
});
