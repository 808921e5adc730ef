// Stock items on Shopify (issue 28): one sale of 1 kg on a stock item of 20 linked variants whose
// whole units all move, placed on the fake Shopify of the tests and followed by a running Tare
// (webhook, inbox, booking, projection outbox, push): the GraphQL calls Tare made and the query
// points Shopify requested and charged for them. On PGlite and (with BENCH_PG_URL) PostgreSQL.
import type { CallRecord } from '../packages/server/test/support/fake-shopify/server.js';
import { migrate } from '../packages/server/src/store/migrate.js';
import { shopWithSiblings } from '../packages/server/test/support/sibling-sale-shopify.js';
import { onEachStore, type StoreName } from './stores.js';

export const SHOPIFY_SIBLINGS = 20;

/** Applied calls by operation: how many, points requested and charged, levels carried (pushes). */
export interface CallsOfSale {
  operations: { name: string; calls: number; requested: number; actual: number; levels: number }[];
  /** Calls Shopify throttled or failed (none expected: the bucket is full). */
  refused: number;
}

export interface SiblingPush {
  store: StoreName;
  /** The same order of a variant with its own stock (the baseline), then of the item's first sibling. */
  ownStock: CallsOfSale;
  item: CallsOfSale;
}

const log = (line: string) => console.error(`[bench] ${line}`);

function summarize(calls: CallRecord[]): CallsOfSale {
  const byName = new Map<string, CallsOfSale['operations'][number]>();
  for (const call of calls.filter((c) => c.status === 'ok')) {
    const name = call.operationName ?? call.rootFields.join('+');
    const op = byName.get(name) ?? { name, calls: 0, requested: 0, actual: 0, levels: 0 };
    op.calls++;
    op.requested += call.requestedCost ?? 0;
    op.actual += call.actualCost ?? 0;
    const input = call.variables.input as { quantities?: unknown[] } | undefined;
    op.levels += input?.quantities?.length ?? 0;
    byName.set(name, op);
  }
  return { operations: [...byName.values()], refused: calls.filter((c) => c.status !== 'ok').length };
}

/** One sale on an item of 20 siblings, on each store: what reached Shopify. */
export async function benchItemsShopify(tmp: string): Promise<SiblingPush[]> {
  return onEachStore(
    tmp,
    'items-shopify-pglite',
    async (store, db) => {
      await migrate(db);
      // Each sale in a shop of its own: a sale's level notice makes Tare ask Shopify for the orders
      // changed in the last minute, so a second sale in the same shop would read the first again.
      const sellIn = async (sell: 'sell' | 'sellOwnStock') => {
        const item = await shopWithSiblings(db, SHOPIFY_SIBLINGS);
        try {
          return summarize(await item[sell]());
        } finally {
          await item.close();
        }
      };
      const ownStock = await sellIn('sellOwnStock');
      const push = await sellIn('sell');
      const pushes = push.operations.find((op) => op.name === 'SetInventoryQuantities');
      if (pushes?.calls !== 1 || pushes.levels !== SHOPIFY_SIBLINGS - 1 || push.refused) {
        throw new Error(`${store}: expected one push of ${SHOPIFY_SIBLINGS - 1} levels, got ${JSON.stringify(push)}`);
      }
      for (const [sale, calls] of [
        ['own stock', ownStock],
        [`item of ${SHOPIFY_SIBLINGS}`, push],
      ] as const) {
        for (const op of calls.operations) {
          log(
            `  ${store}, ${sale}: ${op.name} × ${op.calls}: ${op.requested} points requested, ${op.actual} charged, ${op.levels} levels`,
          );
        }
      }
      return { store, ownStock, item: push };
    },
    log,
  );
}
