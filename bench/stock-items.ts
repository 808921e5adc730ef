// Stock items (issue 28, PRODUCT.md §20): a sale on a variant linked to a stock item of 1, 5 and
// 20 variants against a sale on a variant with its own stock, in process, on PGlite and (with
// BENCH_PG_URL) PostgreSQL. A sale is what a shop's order costs Tare: a sandbox checkout of one
// measured line, then its `order_placed` event drained by one inbox worker (re-read order, `sale`
// booking with the ordinary inventory write, projection of every sibling whose whole units moved,
// bookings saved, event marked), as in bench/events.ts. See bench/README.md ("Stock items").
// Env: BENCH_ITEMS_SECONDS (time drained per kind of sale and store, default 1).
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { Dec } from '../packages/server/src/domain/decimal.js';
import { wholeUnitsOf } from '../packages/server/src/domain/sibling-units.js';
import { createLocalGateway } from '../packages/server/src/platform/local/local-gateway.js';
import { addToCart, createCart } from '../packages/server/src/platform/local/sandbox/carts.js';
import { createEventDelivery } from '../packages/server/src/platform/local/sandbox/event-delivery.js';
import { checkout } from '../packages/server/src/platform/local/sandbox/shop-actions.js';
import { importCatalog } from '../packages/server/src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../packages/server/src/services/catalog-import/import-document.js';
import { validateImport } from '../packages/server/src/services/catalog-import/validate-import.js';
import { createInboxWorker } from '../packages/server/src/services/events/inbox-worker.js';
import type { Db } from '../packages/server/src/store/db.js';
import { migrate } from '../packages/server/src/store/migrate.js';
import { findShopById, type Shop } from '../packages/server/src/store/repositories/shops.js';
import { variantFixture } from '../packages/server/test/support/harness.js';
import { itemWithSiblings, siblingUnit } from '../packages/server/test/support/sibling-item.js';
import { cpuMeter, serverGateway, type Trace, tracing } from './events.js';
import { median } from './report.js';
import { onEachStore, type StoreName } from './stores.js';

const SECONDS = Number(process.env.BENCH_ITEMS_SECONDS ?? 1);
const LOCATION = '70001';
/** Orders placed (untimed) before each timed drain; each on its own variant or item (see events.ts's CHUNK). */
export const ITEMS_CHUNK = 10;
/** Variants linked to the item sold from; 0 is the baseline, a variant with its own stock. */
export const SIBLING_COUNTS = [0, 1, 5, 20] as const;
const STOCK_KG = 1_000_000;
const TABLES = ['inventory_levels', 'stock_item_levels', 'local_platform_levels'] as const;

/** Kind k (an index into SIBLING_COUNTS), slot s: the variants of its item (the first is the one sold). */
const variantsOf = (k: number, s: number) =>
  Array.from({ length: Math.max(1, SIBLING_COUNTS[k]!) }, (_, i) => String(600000 + k * 10000 + s * 100 + i));
const itemOf = (k: number, s: number) => String(5000 + k * 100 + s);

export interface SaleKind {
  /** Variants of the item (0: the variant has its own stock). */
  siblings: number;
  sales: number;
  msEach: number;
  /** CPU per sale, µs: this process (PGlite included) plus, on PostgreSQL, its backends. */
  cpuUsEach: number;
  backendCpuUsEach: number;
  /** Time and CPU per sale ÷ the baseline's, and the time ratio per round (median, range). */
  ratio: number;
  cpuRatio: number;
  perRound: { median: number; min: number; max: number };
  /** A traced drain: statements per sale, and row versions written per sale to each level table. */
  trace: Trace & { rowWrites: Record<(typeof TABLES)[number], number> };
}

export interface ItemsStoreResults {
  store: StoreName;
  kinds: SaleKind[];
}

export interface ItemsResults {
  seconds: number;
  stores: ItemsStoreResults[];
}

const log = (line: string) => console.error(`[bench] ${line}`);
const silent = pino({ level: 'silent' });

function benchShop(): ImportShop {
  const items = SIBLING_COUNTS.flatMap((n, k) =>
    n === 0
      ? []
      : Array.from({ length: ITEMS_CHUNK }, (_, s) =>
          itemWithSiblings({
            itemId: itemOf(k, s),
            productId: String(1100 + k * 100 + s),
            variantIds: variantsOf(k, s),
            locationId: LOCATION,
            kg: STOCK_KG,
          }),
        ),
  );
  const { unit, value } = siblingUnit(0);
  return {
    domain: 'items-bench.example',
    currency: 'USD',
    defaultLocale: 'en',
    addonActive: true,
    settings: { mergeMatchingLineItems: true },
    locations: [{ id: LOCATION, name: 'Main store' }],
    stockItems: items.map((i) => i.stockItem),
    products: [
      {
        id: '1001',
        title: 'Coffee beans (own stock)',
        measurementType: 'weight',
        variants: Array.from({ length: ITEMS_CHUNK }, (_, s) => ({
          ...variantFixture(variantsOf(0, s)[0]!, unit, value),
          inventory: [{ locationId: LOCATION, quantity: { value: STOCK_KG, unit: 'kg' } }],
        })),
      },
      ...items.map((i) => i.product),
    ],
  };
}

async function seed(db: Db): Promise<Shop> {
  await migrate(db);
  const checked = validateImport({ shops: [benchShop()] });
  if (!checked.ok) throw new Error(`items bench shop does not import: ${JSON.stringify(checked.issues)}`);
  const summary = await importCatalog({ db, gateway: createLocalGateway() }, checked.value);
  const shop = await findShopById(db, summary.shops[0]!.id);
  if (!shop) throw new Error('items bench shop not found after import');
  return shop;
}

/** Counts row versions written to each level table while `run` runs (row triggers, for the traced pass only). */
async function countRowWrites(db: Db, run: () => Promise<void>): Promise<Record<(typeof TABLES)[number], number>> {
  await db.query(`CREATE TABLE IF NOT EXISTS bench_item_writes (tbl text PRIMARY KEY, n bigint NOT NULL);
    DELETE FROM bench_item_writes;
    INSERT INTO bench_item_writes SELECT unnest(ARRAY['${TABLES.join("','")}']), 0;
    CREATE OR REPLACE FUNCTION bench_count_item_write() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN UPDATE bench_item_writes SET n = n + 1 WHERE tbl = TG_TABLE_NAME; RETURN NULL; END $$;
    ${TABLES.map((t) => `CREATE TRIGGER bench_item_writes AFTER INSERT OR UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION bench_count_item_write();`).join('\n')}`);
  try {
    await run();
  } finally {
    await db.query(TABLES.map((t) => `DROP TRIGGER bench_item_writes ON ${t}`).join(';'));
  }
  const { rows } = await db.query<{ tbl: (typeof TABLES)[number]; n: string }>('SELECT tbl, n FROM bench_item_writes');
  return Object.fromEntries(rows.map((r) => [r.tbl, Number(r.n)])) as Record<(typeof TABLES)[number], number>;
}

async function measureStore(store: StoreName, db: Db): Promise<ItemsStoreResults> {
  const shop = await seed(db);
  const gateway = serverGateway(db);
  const worker = createInboxWorker({ db, gateway, logger: silent });
  const delivery = createEventDelivery({ db, mode: 'orderly', logger: silent });
  const measure = JSON.stringify({ measurement: { type: 'weight', dimensions: [{ value: 1, unit: 'kg' }] } });
  const placed = SIBLING_COUNTS.map(() => 0);
  /** One order of 1 kg of each slot's sold variant of kind k, each checkout in its own transaction. */
  const placeChunk = async (k: number) => {
    for (let s = 0; s < ITEMS_CHUNK; s++) {
      const token = await db.transaction(async (tx) => {
        const cart = await createCart(tx, shop.id);
        await addToCart(tx, shop, cart.token, {
          items: [{ id: variantsOf(k, s)[0]!, quantity: 1, properties: { _svc_data: measure } }],
        });
        return cart.token;
      });
      await delivery.transaction((tx, emit) => checkout(tx, emit, shop.id, token, {}));
    }
    placed[k]! += ITEMS_CHUNK;
  };

  try {
    log(`${store}: warm-up (${ITEMS_CHUNK * 2} sales of each kind)`);
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < SIBLING_COUNTS.length; k++) {
        await placeChunk(k);
        await worker.drainNow();
      }
    }
    if (db.driver === 'postgres' && !process.env.BENCH_NO_ANALYZE) await db.query('ANALYZE');

    log(
      `${store}: sales on a variant of its own and on items of ${SIBLING_COUNTS.slice(1).join(', ')} variants, ${SECONDS} s each`,
    );
    const cpu = cpuMeter(db);
    const spent = SIBLING_COUNTS.map(() => ({ sales: 0, ms: 0, cpuUs: 0, backendUs: 0 }));
    const rounds: number[][] = SIBLING_COUNTS.map(() => []);
    for (let round = 0; spent.some((t) => t.ms < SECONDS * 1000); round++) {
      // Each round drains every kind once, starting one further each round, so drift hits all alike.
      const perSale: number[] = [];
      for (let j = 0; j < SIBLING_COUNTS.length; j++) {
        const k = (round + j) % SIBLING_COUNTS.length;
        await placeChunk(k);
        const cpu0 = await cpu.snapshot();
        const t0 = performance.now();
        await worker.drainNow();
        const ms = performance.now() - t0;
        const used = cpu.since(cpu0, await cpu.snapshot());
        Object.assign(spent[k]!, {
          sales: spent[k]!.sales + ITEMS_CHUNK,
          ms: spent[k]!.ms + ms,
          cpuUs: spent[k]!.cpuUs + used.own + used.backends,
          backendUs: spent[k]!.backendUs + used.backends,
        });
        perSale[k] = ms / ITEMS_CHUNK;
      }
      for (let k = 0; k < SIBLING_COUNTS.length; k++) rounds[k]!.push(perSale[k]! / perSale[0]!);
    }

    // Where the time goes: one more chunk of each kind through a Db that counts statements.
    const traces: SaleKind['trace'][] = [];
    for (let k = 0; k < SIBLING_COUNTS.length; k++) {
      await placeChunk(k);
      const tracer = tracing(db);
      const traced = createInboxWorker({ db: tracer.db, gateway, logger: silent });
      let trace!: Trace;
      const writes = await countRowWrites(db, async () => {
        const t0 = performance.now();
        await traced.drainNow();
        trace = tracer.result(ITEMS_CHUNK, performance.now() - t0);
      });
      const rowWrites = Object.fromEntries(
        TABLES.map((t) => [t, writes[t] / ITEMS_CHUNK]),
      ) as SaleKind['trace']['rowWrites'];
      traces.push({ ...trace, rowWrites });
    }

    const base = spent[0]!;
    const kinds = SIBLING_COUNTS.map((siblings, k): SaleKind => {
      const t = spent[k]!;
      const sorted = [...rounds[k]!].sort((a, b) => a - b);
      return {
        siblings,
        sales: t.sales,
        msEach: t.ms / t.sales,
        cpuUsEach: t.cpuUs / t.sales,
        backendCpuUsEach: t.backendUs / t.sales,
        ratio: t.ms / t.sales / (base.ms / base.sales),
        cpuRatio: t.cpuUs / t.sales / (base.cpuUs / base.sales),
        perRound: { median: median(sorted), min: sorted[0]!, max: sorted.at(-1)! },
        trace: traces[k]!,
      };
    });
    for (const kind of kinds) {
      const { trace } = kind;
      log(
        `  ${kind.siblings === 0 ? 'own stock' : `item of ${kind.siblings}`}: ${kind.msEach.toFixed(2)} ms a sale (${kind.sales} sales), ` +
          `×${kind.ratio.toFixed(2)} (rounds ${kind.perRound.median.toFixed(2)}, ${kind.perRound.min.toFixed(2)}–${kind.perRound.max.toFixed(2)}), ` +
          `CPU ${kind.cpuUsEach.toFixed(0)} µs ×${kind.cpuRatio.toFixed(2)}; traced ${trace.statements.toFixed(1)} statements, ` +
          `rows ${TABLES.map((t) => `${t} ${trace.rowWrites[t].toFixed(1)}`).join(', ')}`,
      );
      for (const s of trace.by)
        log(`    ${s.ms.toFixed(3).padStart(7)} ms  ${s.calls.toFixed(2).padStart(5)} ×  ${s.sql}`);
    }
    await check(db, shop.id, placed, store);
    return { store, kinds };
  } finally {
    await delivery.stop();
  }
}

/**
 * Every order booked once, no event failed or left, no stock change detected (which would mean a
 * sibling's platform level drifted from Tare's), each item down by exactly the kilograms sold from
 * it, and every sibling shown the whole units of its item's total.
 */
async function check(db: Db, shopId: string, placed: number[], store: string): Promise<void> {
  const orders = placed.reduce((a, b) => a + b, 0);
  const { rows } = await db.query<{ sales: number; events: number; pending: number; detected: number }>(
    `SELECT (SELECT count(*)::int FROM inventory_ledger WHERE shop_id = $1 AND operation = 'sale') AS sales,
       (SELECT count(*)::int FROM platform_events WHERE shop_id = $1 AND topic = 'order_placed') AS events,
       (SELECT count(*)::int FROM platform_events WHERE shop_id = $1 AND (status <> 'processed' OR last_error IS NOT NULL)) AS pending,
       (SELECT count(*)::int FROM platform_events WHERE shop_id = $1 AND topic <> 'order_placed') AS detected`,
    [shopId],
  );
  const r = rows[0]!;
  if (r.sales !== orders || r.events !== orders || r.pending !== 0 || r.detected !== 0) {
    throw new Error(`${store}: expected ${orders} orders each booked once, got ${JSON.stringify(r)}`);
  }
  const levels = await db.query<{ item: string; total: string; variant_id: string; available: string }>(
    `SELECT i.stock_item_id AS item, i.total::text AS total, v.id AS variant_id, p.available::text AS available
     FROM stock_item_levels i JOIN variants v ON v.shop_id = i.shop_id AND v.stock_item_id = i.stock_item_id
     JOIN local_platform_levels p ON p.shop_id = v.shop_id AND p.location_id = i.location_id AND p.variant_id = v.id
     WHERE i.shop_id = $1 AND i.location_id = $2`,
    [shopId, LOCATION],
  );
  const wrong: string[] = [];
  for (const row of levels.rows) {
    const [k, s] = [Math.floor((Number(row.item) - 5000) / 100), (Number(row.item) - 5000) % 100];
    const sold = placed[k]! / ITEMS_CHUNK;
    if (!new Dec(row.total).eq(STOCK_KG - sold)) wrong.push(`${row.item} holds ${row.total} kg, sold ${sold}`);
    const i = variantsOf(k, s).indexOf(row.variant_id);
    const { unit, value } = siblingUnit(i);
    const whole = wholeUnitsOf(new Dec(row.total), 'kg', unit, new Dec(value));
    if (!whole.eq(row.available)) wrong.push(`${row.variant_id} shows ${row.available}, not ${whole.toString()}`);
  }
  const expectedRows = SIBLING_COUNTS.reduce((n: number, c) => n + c * ITEMS_CHUNK, 0);
  if (wrong.length || levels.rows.length !== expectedRows) {
    throw new Error(
      `${store}: items out of step (${levels.rows.length}/${expectedRows} siblings): ${wrong.slice(0, 5).join('; ')}`,
    );
  }
  log(`  ${store}: ${orders} sales booked once, every item down by what it sold, every sibling shows its whole units`);
}

/** The stock-item sales on PGlite (a data dir in `tmp`), then on PostgreSQL when BENCH_PG_URL is set. */
export async function benchItems(tmp: string): Promise<ItemsResults> {
  const stores = await onEachStore(tmp, 'items-pglite', measureStore, log);
  return { seconds: SECONDS, stores };
}
