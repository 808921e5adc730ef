// Platform events: order_placed events processed by the inbox worker, in process, against
// single-entry inventory adjustments through the same service on the same store, and the delay
// from a sandbox checkout's commit to its booked stock. PGlite always; PostgreSQL too when
// BENCH_PG_URL is set. See bench/README.md ("Platform events").
// Env: BENCH_EVENTS_SECONDS (measured time of each of the two throughput figures per store,
// default 3), BENCH_EVENTS_LATENCY_ORDERS (checkouts timed one at a time, default 100),
// BENCH_PG_URL (admin connection to create and drop a temporary database, as bench/inventory.ts).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { requestFingerprint } from '../packages/server/src/domain/idempotency-key.js';
import { createLocalGateway } from '../packages/server/src/platform/local/local-gateway.js';
import { createPlatforms } from '../packages/server/src/platform/platforms.js';
import { addToCart, createCart } from '../packages/server/src/platform/local/sandbox/carts.js';
import { createEventDelivery } from '../packages/server/src/platform/local/sandbox/event-delivery.js';
import { checkout } from '../packages/server/src/platform/local/sandbox/shop-actions.js';
import { importCatalog } from '../packages/server/src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../packages/server/src/services/catalog-import/import-document.js';
import { validateImport } from '../packages/server/src/services/catalog-import/validate-import.js';
import { createInboxWorker } from '../packages/server/src/services/events/inbox-worker.js';
import { createInventoryWriter } from '../packages/server/src/services/inventory/write-inventory.js';
import { createKeyring } from '../packages/server/src/secrets/keyring.js';
import type { PlatformGateway } from '../packages/server/src/platform/gateway.js';
import type { Db, Queryable } from '../packages/server/src/store/db.js';
import { migrate } from '../packages/server/src/store/migrate.js';
import { findShopById, type Shop } from '../packages/server/src/store/repositories/shops.js';
import { cpuSeconds } from './load.js';
import { onEachStore } from './stores.js';

const SECONDS = Number(process.env.BENCH_EVENTS_SECONDS ?? 3);
const LATENCY_ORDERS = Number(process.env.BENCH_EVENTS_LATENCY_ORDERS ?? 100);
const DOMAIN = 'events-bench.example';
export const LOCATION = '70001';
const ADJUSTMENTS_PATH = '/api/v1/inventory/adjustments';

/** Lines per order (one measured line of each of three variants). */
export const ORDER_LINES = 3;
/**
 * Orders placed before each timed drain. Every order of a chunk has its own three variants: an
 * order placed while another order of the same variant is still unprocessed makes the platform
 * show a level Tare does not expect yet, which the projection reports as a detected stock
 * change (an extra event), so shared variants would measure a backlog's side work, not an order.
 */
export const CHUNK = 20;
const WARMUP_ORDERS = CHUNK * 2;
const WARMUP_ADJUSTMENTS = 50;
/** Operations traced statement by statement (separately from the timed runs). */
const TRACED = CHUNK;

/** The three measured lines of an order: unit of the variant, unit value, what one line measures. */
const KINDS = [
  { unit: 'kg', unitValue: 1, measure: { value: 0.5, unit: 'kg' } },
  { unit: 'g', unitValue: 100, measure: { value: 250, unit: 'g' } },
  { unit: 'lb', unitValue: 1, measure: { value: 0.75, unit: 'lb' } },
] as const;
/** Variant ids: slot s (0 … CHUNK-1) owns `variantId(s, 0..2)`, one of each kind. */
const variantId = (slot: number, kind: number) => String(500000 + slot * ORDER_LINES + kind);
export const VARIANTS = Array.from({ length: CHUNK * ORDER_LINES }, (_, i) => ({
  id: variantId(Math.floor(i / ORDER_LINES), i % ORDER_LINES),
  kind: KINDS[i % ORDER_LINES]!,
}));

export interface Throughput {
  /** Operations timed. */
  count: number;
  /** Time spent in them, s (orders: in `drainNow()` only; placing them is not timed). */
  seconds: number;
  perSecond: number;
  msEach: number;
  /** CPU per operation, µs: this process (with PGlite: everything) plus, on PostgreSQL, its backends. */
  cpuUsEach: number;
  /** Of which the PostgreSQL backends (0 on PGlite). */
  backendCpuUsEach: number;
}

/** Where one operation's time goes, from a traced run: statements sent, and time per statement. */
export interface Trace {
  /** Database statements per operation, BEGIN and COMMIT included. */
  statements: number;
  transactions: number;
  /** Mean wall time per operation in the traced run, ms. */
  ms: number;
  /** Per statement (collapsed SQL text): calls and ms per operation, slowest first. */
  by: { sql: string; calls: number; ms: number }[];
  /** Row versions written to `inventory_levels` per operation (inserts and updates, by a trigger). */
  levelWrites?: number;
}

/**
 * Counts the row versions written to `inventory_levels` while `run` runs (a row trigger, installed
 * for the traced pass only): an update that rewrites a row to itself counts like any other.
 */
async function countLevelWrites(db: Db, run: () => Promise<void>): Promise<number> {
  await db.query(`CREATE TABLE IF NOT EXISTS bench_level_writes (n bigint NOT NULL);
    DELETE FROM bench_level_writes; INSERT INTO bench_level_writes VALUES (0);
    CREATE OR REPLACE FUNCTION bench_count_level_write() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN UPDATE bench_level_writes SET n = n + 1; RETURN NULL; END $$;
    DROP TRIGGER IF EXISTS bench_level_writes ON inventory_levels;
    CREATE TRIGGER bench_level_writes AFTER INSERT OR UPDATE ON inventory_levels
      FOR EACH ROW EXECUTE FUNCTION bench_count_level_write()`);
  try {
    await run();
  } finally {
    await db.query('DROP TRIGGER bench_level_writes ON inventory_levels');
  }
  const { rows } = await db.query<{ n: string }>('SELECT n FROM bench_level_writes');
  return Number(rows[0]!.n);
}

export interface EventsStoreResults {
  store: 'PGlite' | 'PostgreSQL';
  /** a. Sequential single-entry adjustments through `createInventoryWriter`, each with an idempotency key. */
  adjustments: Throughput;
  /** b. order_placed events (three measured lines each) processed by `worker.drainNow()`. */
  orders: Throughput;
  /** Time per order event ÷ time per adjustment. */
  ratio: number;
  /** The same ratio per round (one drained chunk, then adjustments for as long): a noisy machine's spread. */
  perRound: { median: number; min: number; max: number };
  /** CPU per order event ÷ CPU per adjustment: steadier than wall time on a busy machine. */
  cpuRatio: number;
  /** c. Sandbox checkout commit → the order's `sale` rows committed, worker started, one order at a time. */
  latency: { p50: number; p99: number; max: number; samples: number };
  trace: { adjustment: Trace; orderEvent: Trace };
}

export interface EventsResults {
  seconds: number;
  latencyOrders: number;
  stores: EventsStoreResults[];
}

const log = (line: string) => console.error(`[bench] ${line}`);
const silent = pino({ level: 'silent' });
const runId = randomBytes(4).toString('hex');

// ---------------------------------------------------------------------------------------------
// Setup

function benchShop(): ImportShop {
  return {
    domain: DOMAIN,
    currency: 'USD',
    defaultLocale: 'en',
    addonActive: true,
    settings: { mergeMatchingLineItems: true },
    locations: [{ id: LOCATION, name: 'Main store' }],
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: VARIANTS.map(({ id, kind }) => ({
          id,
          title: `Beans ${id} (${kind.unitValue} ${kind.unit})`,
          price: '24.00',
          unitMeasurement: { unit: kind.unit, value: kind.unitValue },
          settings: {
            onlineStore: {
              displayStyle: 'number' as const,
              rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
            },
          },
          // Plenty: a million units' worth each (the platform shows 1,000,000).
          inventory: [{ locationId: LOCATION, quantity: { value: 1_000_000 * kind.unitValue, unit: kind.unit } }],
        })),
      },
    ],
  };
}

export async function seed(db: Db): Promise<Shop> {
  await migrate(db);
  const checked = validateImport({ shops: [benchShop()] });
  if (!checked.ok) throw new Error(`events bench shop does not import: ${JSON.stringify(checked.issues)}`);
  const summary = await importCatalog({ db, gateway: createLocalGateway() }, checked.value);
  const shop = await findShopById(db, summary.shops[0]!.id);
  if (!shop) throw new Error('events bench shop not found after import');
  return shop;
}

// ---------------------------------------------------------------------------------------------
// Tracing: a Db that counts and times every statement (and BEGIN/COMMIT) sent through it

const collapse = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 110);

export function tracing(db: Db) {
  const by = new Map<string, { calls: number; ms: number }>();
  let statements = 0;
  let transactions = 0;
  const note = (sql: string, ms: number) => {
    const entry = by.get(sql) ?? { calls: 0, ms: 0 };
    entry.calls++;
    entry.ms += ms;
    by.set(sql, entry);
  };
  const timed = async <T>(q: Queryable, sql: string, params?: readonly unknown[]) => {
    statements++;
    const t0 = performance.now();
    try {
      return await q.query<T>(sql, params);
    } finally {
      note(collapse(sql), performance.now() - t0);
    }
  };
  const traced: Db = {
    driver: db.driver,
    query: (sql, params) => timed(db, sql, params),
    async transaction(fn) {
      transactions++;
      statements += 2; // BEGIN, COMMIT: round trips of their own on both drivers
      const t0 = performance.now();
      let inside = 0;
      try {
        return await db.transaction((tx) =>
          fn({
            async query(sql, params) {
              const s0 = performance.now();
              try {
                return await timed(tx, sql, params);
              } finally {
                inside += performance.now() - s0;
              }
            },
          }),
        );
      } finally {
        note('BEGIN … COMMIT, and the JS between statements', performance.now() - t0 - inside);
      }
    },
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    close: () => db.close(),
  };
  return {
    db: traced,
    reset() {
      by.clear();
      statements = 0;
      transactions = 0;
    },
    result(operations: number, ms: number): Trace {
      return {
        statements: statements / operations,
        transactions: transactions / operations,
        ms: ms / operations,
        by: [...by]
          .map(([sql, e]) => ({ sql, calls: e.calls / operations, ms: e.ms / operations }))
          .sort((a, b) => b.ms - a.ms),
      };
    },
  };
}

/**
 * CPU used so far, µs: this process (the service, and PGlite when that is the store) and, on
 * PostgreSQL, every backend of the bench database (read from /proc: the server is local).
 */
export function cpuMeter(db: Db) {
  const own = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  return {
    async snapshot(): Promise<{ own: number; backends: Map<number, number> }> {
      const backends = new Map<number, number>();
      if (db.driver === 'postgres') {
        const { rows } = await db.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
        );
        for (const { pid } of rows) {
          try {
            backends.set(pid, cpuSeconds(pid) * 1e6);
          } catch {
            // exited meanwhile
          }
        }
      }
      return { own: own(), backends };
    },
    /** µs between two snapshots (a backend that appeared in between counts from zero). */
    since(
      before: { own: number; backends: Map<number, number> },
      after: typeof before,
    ): { own: number; backends: number } {
      let backends = 0;
      for (const [pid, us] of after.backends) backends += Math.max(0, us - (before.backends.get(pid) ?? 0));
      return { own: after.own - before.own, backends };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The operations

/** The gateway the server wires: every call routed to the shop's platform (here the embedded one). */
export const serverGateway = (db: Db) => createPlatforms(db, createKeyring({})).gateway;

function adjuster(db: Db, shopId: string) {
  const write = createInventoryWriter({ db, gateway: serverGateway(db) });
  let n = 0;
  /** One single-entry adjustment as the API makes it: idempotency key, fingerprint, rendered body. */
  return async (phase: string) => {
    const i = n++;
    const { id, kind } = VARIANTS[i % VARIANTS.length]!;
    const value = i % 2 ? 0.25 : -0.125;
    const key = `${runId}-${phase}-${i}`;
    const body = { locationId: LOCATION, adjustments: [{ variantId: id, delta: { value, unit: kind.unit } }] };
    const requestId = `bench-${i}`;
    const response = await write(
      {
        shopId,
        operation: 'adjustment',
        locationId: LOCATION,
        entries: [{ variantId: id, value, unit: kind.unit, path: '/adjustments/0', field: 'delta' }],
        requestId,
        actor: { type: 'api_key', id: 'bench' },
        idempotency: {
          shopId,
          key,
          fingerprint: requestFingerprint('POST', ADJUSTMENTS_PATH, body),
          retentionHours: 24,
        },
      },
      (data) => JSON.stringify({ success: true, data, error: null, meta: {}, requestId }),
    );
    if (response.status !== 200 || response.replayed) throw new Error(`adjustment ${key}: ${response.body}`);
  };
}

const svcData = (measure: { value: number; unit: string }) =>
  JSON.stringify({ measurement: { type: 'weight', dimensions: [measure] } });

/** The sandbox shop: a cart of three measured lines (slot's variants), checked out in its own transaction. */
export function shopper(db: Db, shop: Shop) {
  const delivery = createEventDelivery({ db, mode: 'orderly', logger: silent });
  return {
    /** Cart filled in one transaction, checkout (order, lines, platform levels, event) in the next; the order id. */
    async buy(slot: number, afterCommit?: (orderId: string) => void): Promise<string> {
      const token = await db.transaction(async (tx) => {
        const cart = await createCart(tx, shop.id);
        await addToCart(tx, shop, cart.token, {
          items: KINDS.map((kind, k) => ({
            id: variantId(slot, k),
            quantity: 1,
            properties: { _svc_data: svcData(kind.measure) },
          })),
        });
        return cart.token;
      });
      const order = await delivery.transaction((tx, emit) => checkout(tx, emit, shop.id, token, {}));
      afterCommit?.(order.id);
      return order.id;
    },
    stop: () => delivery.stop(),
  };
}

async function saleRows(q: Queryable, shopId: string, orderId: string): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM inventory_ledger WHERE shop_id = $1 AND location_id = $2
       AND variant_id = ANY($3::text[]) AND operation = 'sale' AND reference_type = 'order' AND reference_id = $4`,
    [shopId, LOCATION, VARIANTS.map((v) => v.id), orderId],
  );
  return rows[0]!.n;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

// ---------------------------------------------------------------------------------------------
// One store

async function measureStore(store: EventsStoreResults['store'], db: Db, analyze: boolean): Promise<EventsStoreResults> {
  const shop = await seed(db);
  const gateway = serverGateway(db);
  const adjust = adjuster(db, shop.id);
  const buyer = shopper(db, shop);
  const worker = createInboxWorker({ db, gateway, logger: silent });
  let placed = 0;
  const placeChunk = async () => {
    for (let slot = 0; slot < CHUNK; slot++) await buyer.buy(slot);
    placed += CHUNK;
  };

  try {
    log(`${store}: warm-up (${WARMUP_ADJUSTMENTS} adjustments, ${WARMUP_ORDERS} orders)`);
    for (let i = 0; i < WARMUP_ADJUSTMENTS; i++) await adjust('warm');
    for (let i = 0; i < WARMUP_ORDERS / CHUNK; i++) {
      await placeChunk();
      await worker.drainNow();
    }
    // As bench/inventory.ts: fresh tables have no planner statistics until autovacuum runs.
    if (analyze) await db.query('ANALYZE');

    log(
      `${store}: a. single-entry adjustments and b. order events (${CHUNK} placed, then drained), alternating until ${SECONDS} s each`,
    );
    const cpu = cpuMeter(db);
    const a = { count: 0, ms: 0, cpuUs: 0, backendUs: 0 };
    const b = { count: 0, ms: 0, cpuUs: 0, backendUs: 0 };
    const add = (to: typeof a, used: { own: number; backends: number }) => {
      to.cpuUs += used.own + used.backends;
      to.backendUs += used.backends;
    };
    const rounds: number[] = [];
    while (a.ms < SECONDS * 1000 || b.ms < SECONDS * 1000) {
      await placeChunk();
      let cpu0 = await cpu.snapshot();
      const t0 = performance.now();
      await worker.drainNow();
      const drained = performance.now() - t0;
      add(b, cpu.since(cpu0, await cpu.snapshot()));
      b.ms += drained;
      b.count += CHUNK;
      // Then adjustments for as long as the drain took, so both see the same stretch of machine.
      cpu0 = await cpu.snapshot();
      const start = performance.now();
      const until = start + drained;
      let n = 0;
      do {
        await adjust('a');
        n++;
      } while (performance.now() < until);
      const adjusted = performance.now() - start;
      add(a, cpu.since(cpu0, await cpu.snapshot()));
      a.ms += adjusted;
      a.count += n;
      rounds.push(drained / CHUNK / (adjusted / n));
    }
    const throughput = (t: typeof a): Throughput => ({
      count: t.count,
      seconds: t.ms / 1000,
      perSecond: t.count / (t.ms / 1000),
      msEach: t.ms / t.count,
      cpuUsEach: t.cpuUs / t.count,
      backendCpuUsEach: t.backendUs / t.count,
    });
    const adjustments = throughput(a);
    const orders = throughput(b);
    const ratio = orders.msEach / adjustments.msEach;
    const sortedRounds = [...rounds].sort((x, y) => x - y);
    const perRound = { median: percentile(sortedRounds, 0.5), min: sortedRounds[0]!, max: sortedRounds.at(-1)! };
    const cpuRatio = orders.cpuUsEach / adjustments.cpuUsEach;
    log(
      `  a. ${adjustments.perSecond.toFixed(0)} adjustments/s (${adjustments.msEach.toFixed(2)} ms each, ${a.count} in ${adjustments.seconds.toFixed(1)} s), CPU ${adjustments.cpuUsEach.toFixed(0)} µs each (PostgreSQL ${adjustments.backendCpuUsEach.toFixed(0)})`,
    );
    log(
      `  b. ${orders.perSecond.toFixed(0)} order events/s (${orders.msEach.toFixed(2)} ms each, ${b.count} in ${orders.seconds.toFixed(1)} s), CPU ${orders.cpuUsEach.toFixed(0)} µs each (PostgreSQL ${orders.backendCpuUsEach.toFixed(0)})`,
    );
    log(
      `  ratio ${ratio.toFixed(2)}× (${rounds.length} rounds: median ${perRound.median.toFixed(2)}, ${perRound.min.toFixed(2)}–${perRound.max.toFixed(2)}); CPU ratio ${cpuRatio.toFixed(2)}×`,
    );

    // Where the time goes: the same two operations through a Db that counts and times statements.
    const tracer = tracing(db);
    const tracedAdjust = adjuster(tracer.db, shop.id);
    let t0 = 0;
    let adjustmentTrace!: Trace;
    const adjustmentLevelWrites = await countLevelWrites(db, async () => {
      t0 = performance.now();
      for (let i = 0; i < TRACED; i++) await tracedAdjust('trace');
      adjustmentTrace = tracer.result(TRACED, performance.now() - t0);
    });
    adjustmentTrace.levelWrites = adjustmentLevelWrites / TRACED;
    await placeChunk();
    tracer.reset();
    const tracedWorker = createInboxWorker({ db: tracer.db, gateway, logger: silent });
    let orderTrace!: Trace;
    const orderLevelWrites = await countLevelWrites(db, async () => {
      t0 = performance.now();
      await tracedWorker.drainNow();
      orderTrace = tracer.result(CHUNK, performance.now() - t0);
    });
    orderTrace.levelWrites = orderLevelWrites / CHUNK;
    for (const [name, trace] of [
      ['adjustment', adjustmentTrace],
      ['order event', orderTrace],
    ] as const) {
      log(
        `  traced ${name}: ${trace.statements.toFixed(1)} statements in ${trace.transactions.toFixed(2)} transaction(s), ${trace.ms.toFixed(2)} ms, ${trace.levelWrites?.toFixed(2)} inventory_levels row writes`,
      );
      for (const s of trace.by)
        log(`    ${s.ms.toFixed(3).padStart(7)} ms  ${s.calls.toFixed(2).padStart(5)} ×  ${s.sql}`);
    }

    log(`${store}: c. ${LATENCY_ORDERS} checkouts one at a time, worker started (NOTIFY), checkout commit → sale rows`);
    const latencies = await measureLatency(db, shop, gateway, LATENCY_ORDERS);
    placed += LATENCY_ORDERS;
    const sorted = [...latencies].sort((x, y) => x - y);
    const latency = {
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1)!,
      samples: sorted.length,
    };
    log(`  p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms`);

    await check(db, shop.id, placed, store);
    return {
      store,
      adjustments,
      orders,
      ratio,
      perRound,
      cpuRatio,
      latency,
      trace: { adjustment: adjustmentTrace, orderEvent: orderTrace },
    };
  } finally {
    await buyer.stop();
  }
}

/**
 * c. The worker runs as in the server (NOTIFY wakes it, polling every second as a fallback).
 * Its Db reports each transaction it commits: after each, the awaited order's `sale` rows are
 * looked up, so the time is the worker's commit, not a poll's, and nothing polls in between.
 */
async function measureLatency(db: Db, shop: Shop, gateway: PlatformGateway, orders: number) {
  let awaited: { orderId: string; resolve: (at: number) => void } | undefined;
  const watched: Db = {
    driver: db.driver,
    query: (sql, params) => db.query(sql, params),
    async transaction(fn) {
      const result = await db.transaction(fn);
      const at = performance.now();
      const current = awaited;
      if (current && (await saleRows(db, shop.id, current.orderId)) === ORDER_LINES) current.resolve(at);
      return result;
    },
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    close: () => db.close(),
  };
  const worker = createInboxWorker({ db: watched, gateway, logger: silent });
  const stop = await worker.start();
  const buyer = shopper(db, shop);
  const latencies: number[] = [];
  try {
    await worker.drainNow();
    for (let i = 0; i < orders; i++) {
      let done!: (at: number) => void;
      const booked = new Promise<number>((resolve) => (done = resolve));
      let committedAt = 0;
      const orderId = await buyer.buy(i % CHUNK, (id) => {
        // Runs in the checkout's continuation, before the worker can have committed the booking.
        committedAt = performance.now();
        awaited = { orderId: id, resolve: done };
      });
      // Should the worker ever have been faster than this continuation, the rows are there
      // already: count the time until this look found them (an upper bound).
      if ((await saleRows(db, shop.id, orderId)) === ORDER_LINES) done(performance.now());
      const timeout = setTimeout(() => done(NaN), 10_000);
      const at = await booked;
      clearTimeout(timeout);
      awaited = undefined;
      if (Number.isNaN(at)) throw new Error(`order ${orderId} was not booked within 10 s of its checkout`);
      latencies.push(Math.max(0, at - committedAt));
    }
  } finally {
    await stop();
    await buyer.stop();
  }
  return latencies;
}

/** Every order booked once (three sale rows each), nothing failed or left in the inbox, no detected stock change. */
async function check(db: Db, shopId: string, orders: number, store: string): Promise<void> {
  const { rows } = await db.query<{ sales: number; events: number; pending: number; failed: number; detected: number }>(
    `SELECT (SELECT count(*)::int FROM inventory_ledger WHERE shop_id = $1 AND operation = 'sale') AS sales,
       (SELECT count(*)::int FROM platform_events WHERE shop_id = $1 AND topic = 'order_placed') AS events,
       (SELECT count(*)::int FROM platform_events WHERE shop_id = $1 AND status <> 'processed') AS pending,
       (SELECT count(*)::int FROM platform_events WHERE shop_id = $1 AND last_error IS NOT NULL) AS failed,
       (SELECT count(*)::int FROM platform_events WHERE shop_id = $1 AND topic <> 'order_placed') AS detected`,
    [shopId],
  );
  const r = rows[0]!;
  const ok =
    r.sales === orders * ORDER_LINES && r.events === orders && r.pending === 0 && r.failed === 0 && r.detected === 0;
  if (!ok) {
    throw new Error(
      `${store}: expected ${orders} order_placed events processed and ${orders * ORDER_LINES} sale rows, ` +
        `got ${JSON.stringify(r)} (pending/failed: not processed; detected: stock changes the projection found)`,
    );
  }
  log(`  ${store}: ${orders} orders, ${r.sales} sale rows, every event processed once, no detected stock change`);
}

// ---------------------------------------------------------------------------------------------

/** The events benchmark on PGlite (a data dir in `tmp`), then on PostgreSQL when BENCH_PG_URL is set. */
export async function benchEvents(tmp: string): Promise<EventsResults> {
  // As bench/inventory.ts, PostgreSQL is analyzed after the warm-up; PGlite is measured as it ships.
  const stores = await onEachStore(
    tmp,
    'events-pglite',
    (store, db) => measureStore(store, db, store === 'PostgreSQL' && !process.env.BENCH_NO_ANALYZE),
    log,
  );
  return { seconds: SECONDS, latencyOrders: LATENCY_ORDERS, stores };
}
