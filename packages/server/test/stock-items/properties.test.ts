import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec } from '../../src/domain/decimal.js';
import { createLogger } from '../../src/logger.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker } from '../../src/services/events/inbox-worker.js';
import { reconcile } from '../../src/services/events/reconcile.js';
import { createInventoryWriter } from '../../src/services/inventory/write-inventory.js';
import type { Db } from '../../src/store/db.js';
import { cheeseShop, KILO, LOOSE, PACK, WHEEL } from '../support/cheese-shop.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { createPlatformSimulator } from '../support/platform-simulator.js';

// PRODUCT.md §20, property-based: random sales, refunds, cancels, API writes and typed stock on
// random siblings of one wheel, their events delivered late, out of order and twice. Afterwards
// the wheel's total equals the exact model, its ledger sums to it, and every sibling shows
// floor(total ÷ its unit) once reconciled.

const LOC = '70001';
const gateway = createLocalGateway();
const logger = createLogger('silent');

/** Each sibling: its unit, its unit value in kg, and the measures a line of it may carry. */
const SIBLING = {
  [LOOSE]: { unit: 'g', kg: new Dec('0.1'), measures: [100, 150, 300] },
  [PACK]: { unit: 'g', kg: new Dec('0.25'), measures: [250] },
  [KILO]: { unit: 'kg', kg: new Dec(1), measures: [0.5, 1, 2] },
} as const;
type Sibling = keyof typeof SIBLING;
const siblingArb = fc.constantFrom<Sibling>(LOOSE, PACK, KILO);
const inKg = (sibling: Sibling, value: number) => new Dec(value).times(SIBLING[sibling].unit === 'g' ? '0.001' : 1);

type Action =
  | { kind: 'buy'; sibling: Sibling; quantity: number; measure: number }
  | { kind: 'refund'; order: number; quantity: number; restock: boolean }
  | { kind: 'cancel'; order: number }
  | { kind: 'adjust'; sibling: Sibling; delta: number }
  | { kind: 'type'; sibling: Sibling; available: number }
  | { kind: 'deliver'; how: number };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        kind: fc.constant('buy' as const),
        sibling: siblingArb,
        quantity: fc.integer({ min: 1, max: 3 }),
        measure: fc.nat(2),
      })
      .map((a) => ({ ...a, measure: SIBLING[a.sibling].measures[a.measure % SIBLING[a.sibling].measures.length]! })),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      order: fc.nat(20),
      quantity: fc.integer({ min: 1, max: 3 }),
      restock: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), order: fc.nat(20) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      sibling: siblingArb,
      delta: fc.constantFrom(-150, 250, 1, -0.5),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('type' as const),
      sibling: siblingArb,
      available: fc.integer({ min: 0, max: 40 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deliver' as const), how: fc.nat(1000) }) },
);

interface Order {
  id: string;
  lineId: string;
  sibling: Sibling;
  quantity: number;
  perUnitKg: Dec;
  refunded: number;
  cancelled: boolean;
}

describe.each(testDrivers({ citus: true }))('Stock items, property-based, on %s', (driver) => {
  let db: Db;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it('when sales, refunds, cancels, API writes and typed stock on random siblings arrive late and twice, then the wheel is exact and every sibling shows its floor', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { minLength: 4, maxLength: 16 }), fc.nat(), async (actions, seed) => {
        run++;
        const { shopId, keyId } = await seedShop(db, cheeseShop(5));
        const platform = createPlatformSimulator(db, shopId);
        const worker = createInboxWorker({ db, gateway, logger });
        const writer = createInventoryWriter({ db, gateway });
        let model = new Dec(5);
        const orders: Order[] = [];
        let pending: (typeof platform.events)[number][] = [];
        let random = seed;
        const next = (n: number) => (random = (random * 1103515245 + 12345) % 2 ** 31) % n;
        const settle = async () => {
          for (let i = 0; i < 20; i++) {
            await worker.drainNow();
            const due = await db.query(`UPDATE platform_events SET next_attempt_at = now() WHERE status = 'pending'`);
            if (due.rowCount === 0) return;
          }
          throw new Error('the inbox did not settle');
        };
        /** Delivers some pending events, shuffled and some twice, then maybe processes them. */
        const deliverSome = async (all: boolean) => {
          const chosen = all ? pending : pending.filter(() => next(2) === 0);
          pending = pending.filter((e) => !chosen.includes(e));
          const shuffled = [...chosen, ...chosen.filter(() => next(3) === 0)].sort(() => next(3) - 1);
          for (const event of shuffled) await platform.deliver(event);
          if (all || next(2) === 0) await settle();
        };

        for (const action of actions) {
          if (action.kind === 'buy') {
            const id = `${run}0${orders.length}`;
            const { unit } = SIBLING[action.sibling];
            pending.push(
              await platform.placeOrder({
                id,
                locationId: LOC,
                lines: [
                  {
                    id: `${id}1`,
                    variantId: action.sibling,
                    quantity: action.quantity,
                    measure: { value: action.measure, unit },
                  },
                ],
              }),
            );
            const perUnitKg = inKg(action.sibling, action.measure);
            orders.push({
              id,
              lineId: `${id}1`,
              sibling: action.sibling,
              quantity: action.quantity,
              perUnitKg,
              refunded: 0,
              cancelled: false,
            });
            model = model.minus(perUnitKg.times(action.quantity));
          } else if (action.kind === 'refund' || action.kind === 'cancel') {
            const order = orders[action.order % Math.max(1, orders.length)];
            if (!order || order.cancelled) continue;
            const left = order.quantity - order.refunded;
            const quantity = action.kind === 'cancel' ? left : Math.min(action.quantity, left);
            if (quantity <= 0) continue;
            const restockType = action.kind === 'cancel' ? 'cancel' : action.restock ? 'return' : 'no_restock';
            pending.push(
              await platform.refund(
                order.id,
                LOC,
                [{ lineItemId: order.lineId, variantId: order.sibling, quantity, restockType }],
                { cancel: action.kind === 'cancel' },
              ),
            );
            order.refunded += quantity;
            if (action.kind === 'cancel') order.cancelled = true;
            if (restockType !== 'no_restock') model = model.plus(order.perUnitKg.times(quantity));
          } else if (action.kind === 'adjust') {
            const { unit } = SIBLING[action.sibling];
            await writer(
              {
                shopId,
                operation: 'adjustment',
                locationId: LOC,
                requestId: `adjust-${run}`,
                actor: { type: 'api_key', id: keyId },
                entries: [
                  { variantId: action.sibling, value: action.delta, unit, path: '/adjustments/0', field: 'delta' },
                ],
              },
              JSON.stringify,
            );
            model = model.plus(inKg(action.sibling, action.delta));
          } else if (action.kind === 'type') {
            // The merchant types over a settled platform: every earlier event has been followed.
            await deliverSome(true);
            const { kg } = SIBLING[action.sibling];
            const whole = model.div(kg).floor();
            pending.push(await platform.typeStock(LOC, action.sibling, action.available));
            model = model.plus(new Dec(action.available).minus(whole).times(kg));
            await deliverSome(true);
          } else {
            await deliverSome(action.how % 4 === 0);
          }
        }
        await deliverSome(true);
        await reconcile({ db, gateway }, { fix: true, shopDomain: undefined });

        const { rows } = await db.query<{ total: string; ledger: string }>(
          `SELECT l.total::text, (SELECT sum(delta) FROM inventory_ledger g WHERE g.shop_id = l.shop_id
             AND g.location_id = l.location_id AND g.stock_item_id = l.stock_item_id)::text AS ledger
           FROM stock_item_levels l WHERE l.shop_id = $1 AND l.location_id = $2 AND l.stock_item_id = $3`,
          [shopId, LOC, WHEEL],
        );
        const total = new Dec(rows[0]!.total);
        expect(total.toString(), 'the wheel against the model').toBe(model.toString());
        expect(new Dec(rows[0]!.ledger).eq(total), 'Σ ledger = total').toBe(true);
        const shown = await db.query<{ variant_id: Sibling; available: string }>(
          `SELECT variant_id, available::text FROM local_platform_levels WHERE shop_id = $1 AND location_id = $2`,
          [shopId, LOC],
        );
        for (const sibling of [LOOSE, PACK, KILO] as Sibling[]) {
          const available = shown.rows.find((r) => r.variant_id === sibling)?.available;
          expect(Number(available), `sibling ${sibling}`).toBe(total.div(SIBLING[sibling].kg).floor().toNumber());
        }
        const parked = await db.query(`SELECT 1 FROM platform_events WHERE shop_id = $1 AND status <> 'processed'`, [
          shopId,
        ]);
        expect(parked.rows).toEqual([]);
      }),
      { numRuns: driver.name === 'pglite' ? 10 : 6, endOnFailure: true },
    );
  }, 240_000);
});
