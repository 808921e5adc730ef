import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';
import { buy, platformShows, send, settle, svcData, tareTotal, typeStock } from './support.js';

// TARE_SANDBOX_DELIVERY=chaos stores every event late (0–1.5 s, so they overtake each other) and
// delivers it a second time after commit. The same sequence of shop actions must leave Tare with
// the same stock as an orderly delivery does (PRODUCT.md §14: the order of delivery never matters).

/** 20 kg of 2001 (per kg) and 3,000 g of 2002 (per 100 g) at 70001. */
function stockedShop() {
  return shopFixture({
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: [
          {
            ...variantFixture('2001', 'kg', 1),
            inventory: [{ locationId: '70001', quantity: { value: 20, unit: 'kg' } }],
          },
          {
            ...variantFixture('2002', 'g', 100),
            inventory: [{ locationId: '70001', quantity: { value: 3000, unit: 'g' } }],
          },
        ],
      },
    ],
  });
}

/** A small deterministic generator (mulberry32), so that a failing sequence can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Action =
  | { kind: 'buy'; variantId: number; quantity: number; measure: number }
  | { kind: 'cancel'; order: number; restock: boolean }
  | { kind: 'refund'; order: number; line: number; restockType: 'no_restock' | 'cancel' | 'return' }
  | { kind: 'fulfil'; order: number };

function sequence(seed: number, length: number): Action[] {
  const next = random(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
  const actions: Action[] = [];
  let orders = 0;
  for (let i = 0; i < length; i++) {
    const r = next();
    if (orders === 0 || r < 0.45) {
      const variantId = pick([2001, 2002]);
      const measure = variantId === 2001 ? pick([0.5, 1.25, 2.5]) : pick([150, 250, 400]);
      actions.push({ kind: 'buy', variantId, quantity: pick([1, 2, 3]), measure });
      orders++;
    } else if (r < 0.6) actions.push({ kind: 'cancel', order: Math.floor(next() * orders), restock: next() < 0.7 });
    else if (r < 0.9) {
      actions.push({
        kind: 'refund',
        order: Math.floor(next() * orders),
        line: pick([0, 1]),
        restockType: pick(['no_restock', 'cancel', 'return'] as const),
      });
    } else actions.push({ kind: 'fulfil', order: Math.floor(next() * orders) });
  }
  return actions;
}

/** One sandbox shop on its own store, its events delivered orderly or in chaos. */
async function shop(db: Db, delivery: 'orderly' | 'chaos') {
  const server = await startTestServer(db, { TARE_SANDBOX_DELIVERY: delivery });
  const { key, shopId } = await seedShop(db, stockedShop());
  const orders: any[] = [];
  return {
    server,
    shopId,
    /** Applies the action; returns the answer's status, which must not depend on delivery. */
    async apply(action: Action): Promise<number> {
      if (action.kind === 'buy') {
        const unit = action.variantId === 2001 ? 'kg' : 'g';
        // Each order has a measured line and an ordinary line of the same variant.
        const order = await buy(server, key, [
          {
            id: action.variantId,
            quantity: action.quantity,
            properties: { _svc_data: svcData('weight', action.measure, unit) },
          },
          { id: action.variantId, quantity: 1 },
        ]);
        orders.push(order);
        return 201;
      }
      const order = orders[action.order];
      const path = `/sandbox/orders/${order.id}`;
      if (action.kind === 'cancel')
        return (await send(server, key, 'POST', `${path}/cancel`, { restock: action.restock })).status;
      if (action.kind === 'fulfil') return (await send(server, key, 'POST', `${path}/fulfill`)).status;
      const lines = [{ lineItemId: order.line_items[action.line].id, quantity: 1, restockType: action.restockType }];
      return (await send(server, key, 'POST', `${path}/refunds`, { lines })).status;
    },
    typeStock: (variantId: string, available: number) => typeStock(server, key, variantId, available),
    async state() {
      return {
        tare: [await tareTotal(db, shopId, '2001'), await tareTotal(db, shopId, '2002')],
        platform: [await platformShows(server, key, '2001'), await platformShows(server, key, '2002')],
      };
    },
  };
}

/** What a failure needs to be understood: the seed, the actions, and both ledgers. */
async function explain(seed: number, actions: Action[], orderlyDb: Db, chaosDb: Db): Promise<string> {
  const ledger = async (db: Db) =>
    (
      await db.query<Record<string, string>>(
        `SELECT variant_id, operation, delta::text AS delta, quantity_after::text AS after, reference_id, request_id
         FROM inventory_ledger WHERE operation <> 'import' ORDER BY variant_id, id`,
      )
    ).rows
      .map((r) => `  ${r.variant_id} ${r.operation} ${r.delta} → ${r.after} (${r.reference_id}; ${r.request_id})`)
      .join('\n');
  return [
    `seed ${seed} (TARE_TEST_CHAOS_SEED=${seed} replays the actions; delivery timing differs)`,
    ...actions.map((a, i) => `  ${i}: ${JSON.stringify(a)}`),
    'orderly ledger:',
    await ledger(orderlyDb),
    'chaos ledger:',
    await ledger(chaosDb),
  ].join('\n');
}

describe.each(testDrivers())('chaos delivery of sandbox events on $name', ({ create }) => {
  const dbs: Db[] = [];
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    dbs.push(await create(), await create());
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const db of dbs) await db.close();
  });

  it('when a random sequence of sales, cancellations, refunds and fulfilments is delivered in chaos, then the totals are those of an orderly delivery', async () => {
    const [orderlyDb, chaosDb] = dbs as [Db, Db];
    const orderly = await shop(orderlyDb, 'orderly');
    const chaos = await shop(chaosDb, 'chaos');
    servers.push(orderly.server, chaos.server);
    // A failing run names its seed; TARE_TEST_CHAOS_SEED replays it.
    const seed = Number(process.env.TARE_TEST_CHAOS_SEED ?? Date.now() % 100_000);
    const actions = sequence(seed, 16);

    for (const [i, action] of actions.entries()) {
      const statuses = [await orderly.apply(action), await chaos.apply(action)];
      expect(statuses[1], `seed ${seed}, action ${i}: ${JSON.stringify(action)}`).toBe(statuses[0]);
    }
    await settle(orderly.server, orderlyDb);
    await settle(chaos.server, chaosDb);
    expect(await chaos.state(), await explain(seed, actions, orderlyDb, chaosDb)).toEqual(await orderly.state());

    // With every sale booked, a merchant's figure is adopted the same way in both.
    await orderly.typeStock('2001', 25);
    await chaos.typeStock('2001', 25);
    await settle(orderly.server, orderlyDb);
    await settle(chaos.server, chaosDb);
    expect(await chaos.state(), await explain(seed, actions, orderlyDb, chaosDb)).toEqual(await orderly.state());
    expect((await chaos.state()).platform[0]).toBe(25);

    // Events came late, and each is in the inbox once however often it was delivered (Tare's own
    // `tare:` events, for moves it detects while projecting, differ with timing and are left out).
    const events = async (db: Db) =>
      (
        await db.query<{ n: string; late: string }>(
          `SELECT count(*) AS n, count(*) FILTER (WHERE next_attempt_at > received_at) AS late FROM platform_events
           WHERE event_id LIKE 'sandbox:%'`,
        )
      ).rows[0]!;
    const [plain, late] = [await events(orderlyDb), await events(chaosDb)];
    expect(late.n).toBe(plain.n);
    expect(Number(late.late)).toBeGreaterThan(0);
  });
});
