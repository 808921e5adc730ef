// Shopify outbox: whole units pushed from the projection outbox to the fake Shopify at Shopify's
// standard rate limit (100 points/s, 2,000-point bucket, real time), against the best that rate
// allows, and the drain after a long outage. In process, PGlite always, PostgreSQL too when
// BENCH_PG_URL is set. See bench/README.md ("Shopify outbox").
// Env: BENCH_SHOPIFY_VARIANTS (levels of a–c, default 2000), BENCH_SHOPIFY_OUTAGE_WRITES (default
// 1000), BENCH_SHOPIFY_OUTAGE_MINUTES (the outage modelled in d, default 10).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { requestFingerprint } from '../packages/server/src/domain/idempotency-key.js';
import { createPlatforms } from '../packages/server/src/platform/platforms.js';
import { createKeyring } from '../packages/server/src/secrets/keyring.js';
import { SecretKey } from '../packages/server/src/secrets/secret-key.js';
import { importCatalog } from '../packages/server/src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../packages/server/src/services/catalog-import/import-document.js';
import { validateImport } from '../packages/server/src/services/catalog-import/validate-import.js';
import { createInventoryWriter } from '../packages/server/src/services/inventory/write-inventory.js';
import { createPushWorker } from '../packages/server/src/services/projection/push-worker.js';
import type { Db } from '../packages/server/src/store/db.js';
import { migrate } from '../packages/server/src/store/migrate.js';
import { type FakeShopify, startFakeShopify } from '../packages/server/test/support/fake-shopify/index.js';
import { takeShopifyDown } from '../packages/server/test/support/fake-shopify/outage.js';
import { modelOutage } from './shopify-outage-model.js';
import { onEachStore } from './stores.js';

const VARIANTS = Number(process.env.BENCH_SHOPIFY_VARIANTS ?? 2000);
const OUTAGE_WRITES = Number(process.env.BENCH_SHOPIFY_OUTAGE_WRITES ?? 1000);
const OUTAGE_MINUTES = Number(process.env.BENCH_SHOPIFY_OUTAGE_MINUTES ?? 10);
/** Shopify's standard plan (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits). */
const RESTORE_RATE = 100;
const BUCKET = 2000;
/** Levels per inventorySetQuantities call: the push worker's batch (push-worker.ts). */
const BATCH = 100;
/** Concurrent writers in the live part (as API clients would be). */
const LIVE_WRITERS = 4;
const LOCATION = '70001';
const VARIANTS_PER_PRODUCT = 100;
const STOCK = 1_000_000;
const ADJUSTMENTS_PATH = '/api/v1/inventory/adjustments';
export const SHOPIFY_HEADING = '### Shopify outbox';

const log = (line: string) => console.error(`[bench] ${line}`);
const silent = pino({ level: process.env.BENCH_SHOPIFY_LOG ?? 'silent' });
const runId = randomBytes(4).toString('hex');
const variantId = (i: number) => String(300000 + i);

/** What the fake's call log says about a stretch of pushing. */
export interface Spent {
  /** inventorySetQuantities calls Shopify applied, and the levels they carried. */
  setCalls: number;
  levels: number;
  /** Query points Shopify charged (every applied call, reads included). */
  points: number;
  throttled: number;
  serverErrors: number;
  /** Applied calls other than inventorySetQuantities (reads after a stale push, mapping). */
  otherCalls: number;
  /** Points of the cheapest level in a full batch: actual cost ÷ levels of a BATCH-level call. */
  bestPointsPerLevel: number | null;
}

export interface Drain {
  levels: number;
  seconds: number;
  levelsPerSecond: number;
  spent: Spent;
}

export interface ShopifyStoreResults {
  store: 'PGlite' | 'PostgreSQL';
  /** a. A backlog pushed with a full bucket (the burst Shopify allows). */
  burst: Drain;
  /** b. A backlog pushed from an empty bucket: every point paid at the restore rate. */
  restoreRate: Drain;
  /** c. Single-entry writes with the worker running, from an empty bucket. */
  live: Drain & { writesPerSecond: number; lagAfterLastWriteMs: number };
  /** d. After the modelled outage: the model's backoff state, then real time until everything landed. */
  outage: Drain & { waitSeconds: number; dueAtReturn: number; modelFailedCalls: number; medianDueSeconds: number };
  /** e. The same backlog with every row due when Shopify returns. */
  outageAllDue: Drain;
}

export interface ShopifyResults {
  variants: number;
  outageWrites: number;
  outageMinutes: number;
  stores: ShopifyStoreResults[];
}

// ---------------------------------------------------------------------------------------------
// Set-up: the same catalog on the fake Shopify and in Tare

function benchShop(fake: FakeShopify): ImportShop {
  const products = Array.from({ length: Math.ceil(VARIANTS / VARIANTS_PER_PRODUCT) }, (_, p) => ({
    id: String(2000 + p),
    title: `Flour ${p}`,
    measurementType: 'weight' as const,
    variants: Array.from({ length: Math.min(VARIANTS_PER_PRODUCT, VARIANTS - p * VARIANTS_PER_PRODUCT) }, (_, k) => {
      const id = variantId(p * VARIANTS_PER_PRODUCT + k);
      return {
        id,
        title: `Flour ${id} (1 kg)`,
        price: '3.00',
        unitMeasurement: { unit: 'kg', value: 1 },
        settings: {
          onlineStore: {
            displayStyle: 'number' as const,
            rules: { min: 0.5, increment: 0.5, defaultValue: 1, max: null },
          },
        },
        inventory: [{ locationId: LOCATION, quantity: { value: STOCK, unit: 'kg' } }],
      };
    }),
  }));
  fake.addLocation({ id: LOCATION, name: 'Warehouse' });
  for (const product of products) {
    fake.addProduct({
      id: product.id,
      title: product.title,
      variants: product.variants.map((v) => ({ id: v.id, title: v.title, price: v.price })),
    });
    for (const v of product.variants) fake.setAvailable(LOCATION, v.id, STOCK);
  }
  return {
    domain: 'shopify-bench.example',
    currency: 'USD',
    defaultLocale: 'en',
    addonActive: true,
    platform: {
      kind: 'shopify',
      store: fake.store,
      accessToken: fake.accessToken,
      clientSecret: fake.clientSecret,
      adminApiUrl: fake.adminApiUrl,
    },
    settings: { mergeMatchingLineItems: true },
    locations: [{ id: LOCATION, name: 'Warehouse' }],
    products,
  };
}

/**
 * The fake's clock is real time plus an offset. While `fast`, every reading moves it a minute
 * on, so the import (two reads per level) never waits for the bucket; measurements run with
 * the offset fixed, on real time. `skip(ms)` moves it once (the outage's minutes refill the bucket).
 */
function benchClock() {
  let offset = 0;
  let fast = true;
  return {
    now: () => {
      if (fast) offset += 60_000;
      return Date.now() + offset;
    },
    realTime: () => void (fast = false),
    skip: (ms: number) => void (offset += ms),
  };
}

async function setUp(db: Db) {
  await migrate(db);
  const clock = benchClock();
  const fake = await startFakeShopify({
    store: `bench-${runId}.myshopify.com`,
    restoreRate: RESTORE_RATE,
    maximumAvailable: BUCKET,
    now: clock.now,
    // Tare does not listen here: Shopify's echo of Tare's own writes would go nowhere.
    inventoryLevelWebhooks: 'merchant-only',
  });
  const keyring = createKeyring({ current: SecretKey.generate() });
  const platforms = createPlatforms(db, keyring);
  const checked = validateImport({ shops: [benchShop(fake)] });
  if (!checked.ok) throw new Error(`shopify bench shop does not import: ${JSON.stringify(checked.issues)}`);
  const summary = await importCatalog({ db, gateway: platforms.gateway, keyring }, checked.value);
  const shopId = summary.shops[0]!.id;
  const worker = () =>
    createPushWorker({
      db,
      push: platforms.shopify.pushQueued,
      readLevel: platforms.shopify.readLevel,
      logger: silent,
    });
  // The import queued every level (the file states the stock): pushed before anything is timed.
  const setupWorker = worker();
  while (await pending(db)) {
    await setupWorker.drainNow();
    await db.query('UPDATE projection_outbox SET next_attempt_at = now()');
  }
  if (db.driver === 'postgres' && !process.env.BENCH_NO_ANALYZE) await db.query('ANALYZE');
  clock.realTime();
  return { fake, clock, shopId, writer: createInventoryWriter({ db, gateway: platforms.gateway }), worker };
}
type Bench = Awaited<ReturnType<typeof setUp>>;

async function pending(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM projection_outbox');
  return rows[0]!.n;
}

/** −1 kg on each variant, in one adjustment, as the API sends it (idempotency key and fingerprint). */
async function adjust(bench: Bench, variants: string[]): Promise<void> {
  const key = `${runId}-${randomBytes(6).toString('hex')}`;
  const adjustments = variants.map((id) => ({ variantId: id, delta: { value: -1, unit: 'kg' } }));
  const requestId = `bench-${key}`;
  const response = await bench.writer(
    {
      shopId: bench.shopId,
      operation: 'adjustment',
      locationId: LOCATION,
      entries: variants.map((id, i) => ({
        variantId: id,
        value: -1,
        unit: 'kg',
        path: `/adjustments/${i}`,
        field: 'delta' as const,
      })),
      requestId,
      actor: { type: 'api_key', id: 'bench' },
      idempotency: {
        shopId: bench.shopId,
        key,
        fingerprint: requestFingerprint('POST', ADJUSTMENTS_PATH, { locationId: LOCATION, adjustments }),
        retentionHours: 24,
      },
    },
    (data) => JSON.stringify({ success: true, data, error: null, meta: {}, requestId }),
  );
  if (response.status !== 200) throw new Error(`adjustment ${key}: ${response.body}`);
  // A request reaches the server as I/O. PGlite answers without any (it runs in this process),
  // so a loop of writes would otherwise hold off the timers, the fake's sockets and the worker.
  await new Promise(setImmediate);
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => variantId(from + i));

async function adjustInBatches(bench: Bench, variants: string[], size = 50): Promise<void> {
  for (let i = 0; i < variants.length; i += size) await adjust(bench, variants.slice(i, i + size));
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** Waits until the outbox is empty (looked at every 10 ms); the time it was found so, ms. */
async function drained(db: Db, timeoutMs: number): Promise<number> {
  const until = performance.now() + timeoutMs;
  while ((await pending(db)) > 0) {
    if (performance.now() > until)
      throw new Error(`the outbox still held ${await pending(db)} pushes after ${timeoutMs} ms`);
    await sleep(10);
  }
  return performance.now();
}

/** Shopify shows the whole units of Tare's exact total for every level, or the run fails. */
async function checkShopify(bench: Bench, db: Db, what: string): Promise<void> {
  const { rows } = await db.query<{ variant_id: string; total: string }>(
    'SELECT variant_id, total::text AS total FROM inventory_levels WHERE shop_id = $1 AND location_id = $2',
    [bench.shopId, LOCATION],
  );
  const wrong = rows.filter((r) => bench.fake.available(LOCATION, r.variant_id) !== Math.floor(Number(r.total)));
  if (rows.length !== VARIANTS || wrong.length > 0) {
    const sample = wrong
      .slice(0, 3)
      .map((r) => `${r.variant_id}: Tare ${r.total}, Shopify ${bench.fake.available(LOCATION, r.variant_id)}`);
    throw new Error(`${what}: ${wrong.length} of ${rows.length} levels wrong on Shopify (${sample.join('; ')})`);
  }
}

function spentSince(fake: FakeShopify, from: number): Spent {
  const spent: Spent = {
    setCalls: 0,
    levels: 0,
    points: 0,
    throttled: 0,
    serverErrors: 0,
    otherCalls: 0,
    bestPointsPerLevel: null,
  };
  for (const call of fake.calls.slice(from)) {
    if (call.status === 'throttled') spent.throttled++;
    else if (call.status === 'server_error') spent.serverErrors++;
    else if (call.status !== 'ok') throw new Error(`Shopify answered a push ${call.status}`);
    if (call.status !== 'ok') continue;
    spent.points += call.actualCost ?? 0;
    if (!call.rootFields.includes('inventorySetQuantities')) {
      spent.otherCalls++;
      continue;
    }
    const levels = (call.variables.input as { quantities: unknown[] }).quantities.length;
    spent.setCalls++;
    spent.levels += levels;
    if (levels === BATCH)
      spent.bestPointsPerLevel = Math.min(spent.bestPointsPerLevel ?? Infinity, call.actualCost! / levels);
  }
  return spent;
}

/** Starts the worker as the server does (NOTIFY, polling every second), times `run` until the outbox is empty. */
async function timedDrain(
  bench: Bench,
  db: Db,
  levels: number,
  options: { timeoutMs: number; during?: () => Promise<void> },
): Promise<Drain & { startedAt: number; endedAt: number }> {
  const from = bench.fake.calls.length;
  const stop = await bench.worker().start();
  const startedAt = performance.now();
  try {
    await options.during?.();
    const endedAt = await drained(db, options.timeoutMs);
    const seconds = (endedAt - startedAt) / 1000;
    return {
      levels,
      seconds,
      levelsPerSecond: levels / seconds,
      spent: spentSince(bench.fake, from),
      startedAt,
      endedAt,
    };
  } finally {
    await stop();
  }
}

function describe(drain: Drain): string {
  const s = drain.spent;
  return (
    `${drain.levels} levels in ${drain.seconds.toFixed(2)} s = ${drain.levelsPerSecond.toFixed(0)} levels/s; ` +
    `${s.setCalls} calls, ${s.points} points (${(s.points / drain.levels).toFixed(3)}/level), ` +
    `${s.throttled} throttled, ${s.serverErrors} 5xx, ${s.otherCalls} other calls`
  );
}

async function measureStore(store: ShopifyStoreResults['store'], db: Db): Promise<ShopifyStoreResults> {
  log(`${store}: set-up (${VARIANTS} variants on the fake Shopify and in Tare, imported and pushed once)`);
  const bench = await setUp(db);
  const all = range(0, VARIANTS);
  try {
    log(`${store}: a. ${VARIANTS} levels queued (50-entry writes, worker stopped), pushed with a full bucket`);
    await adjustInBatches(bench, all);
    const burst = await timedDrain(bench, db, VARIANTS, { timeoutMs: 120_000 });
    await checkShopify(bench, db, 'a');
    log(`  ${describe(burst)}`);

    log(`${store}: b. the same from an empty bucket (every point at ${RESTORE_RATE} points/s)`);
    await adjustInBatches(bench, all);
    bench.fake.faults.emptyBucket();
    const restoreRate = await timedDrain(bench, db, VARIANTS, { timeoutMs: 120_000 });
    await checkShopify(bench, db, 'b');
    log(`  ${describe(restoreRate)}`);

    log(
      `${store}: c. ${VARIANTS} single-entry writes by ${LIVE_WRITERS} writers, worker running, from an empty bucket`,
    );
    bench.fake.faults.emptyBucket();
    let lastWriteAt = 0;
    const live = await timedDrain(bench, db, VARIANTS, {
      timeoutMs: 300_000,
      async during() {
        let next = 0;
        await Promise.all(
          Array.from({ length: LIVE_WRITERS }, async () => {
            while (next < VARIANTS) await adjust(bench, [all[next++]!]);
          }),
        );
        lastWriteAt = performance.now();
      },
    });
    await checkShopify(bench, db, 'c');
    const liveResult = {
      ...live,
      writesPerSecond: VARIANTS / ((lastWriteAt - live.startedAt) / 1000),
      lagAfterLastWriteMs: live.endedAt - lastWriteAt,
    };
    log(
      `  ${describe(live)}; writes ${liveResult.writesPerSecond.toFixed(0)}/s, lag after the last ${liveResult.lagAfterLastWriteMs.toFixed(0)} ms`,
    );

    const outage = await measureOutage(bench, db, store);
    log(`${store}: e. the same outage, every row due when Shopify returns`);
    const outageAllDue = await measureOutage(bench, db, store, { allDue: true });
    return { store, burst, restoreRate, live: liveResult, outage, outageAllDue };
  } finally {
    await bench.fake.close();
  }
}

/**
 * d. The outage: OUTAGE_WRITES single-entry writes queued while Shopify answers 503 and the
 * worker runs (real failures), then the rows' `attempts`, `next_attempt_at` and `enqueued_at`
 * set to what the modelled outage leaves (shopify-outage-model.ts), the fake's clock moved on by
 * the outage (its bucket refilled, as Shopify's would be), and Shopify back: real time until
 * every level landed. With `allDue`, every row is due at once instead.
 */
async function measureOutage(bench: Bench, db: Db, store: string, options: { allDue?: boolean } = {}) {
  const outageMs = OUTAGE_MINUTES * 60_000;
  const model = modelOutage({ writes: OUTAGE_WRITES, outageMs, batchSize: BATCH });
  const variants = range(0, OUTAGE_WRITES);
  if (!options.allDue) {
    log(
      `${store}: d. ${OUTAGE_WRITES} writes queued while Shopify answers 503, backoff of a ${OUTAGE_MINUTES}-minute outage, Shopify back`,
    );
  }
  const up = takeShopifyDown(bench.fake);
  try {
    const stop = await bench.worker().start();
    try {
      for (const id of variants) await adjust(bench, [id]);
    } finally {
      await stop();
    }
  } catch (error) {
    up();
    throw error;
  }
  const failed = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM projection_outbox WHERE attempts > 0 AND last_error IS NOT NULL',
  );
  log(
    `  ${OUTAGE_WRITES} queued; ${failed.rows[0]!.n} rows already failed for real (503) before the model's state is set`,
  );
  const rows = model.rows;
  await db.query(
    `UPDATE projection_outbox o SET attempts = m.attempts,
       next_attempt_at = now() + make_interval(secs => m.due_ms / 1000),
       enqueued_at = now() - make_interval(secs => m.age_ms / 1000)
       FROM unnest($2::text[], $3::int[], $4::double precision[], $5::double precision[]) AS m(variant_id, attempts, due_ms, age_ms)
      WHERE o.shop_id = $1 AND o.location_id = '${LOCATION}' AND o.variant_id = m.variant_id`,
    [
      bench.shopId,
      variants,
      rows.map((r) => r.attempts),
      rows.map((r) => (options.allDue ? 0 : r.dueInMs)),
      rows.map((r) => r.ageMs),
    ],
  );
  bench.clock.skip(outageMs);
  up();
  const dues = rows.map((r) => (options.allDue ? 0 : Math.max(0, r.dueInMs))).sort((a, b) => a - b);
  const waitMs = dues.at(-1)!;
  const drain = await timedDrain(bench, db, OUTAGE_WRITES, { timeoutMs: waitMs + 120_000 });
  await checkShopify(bench, db, options.allDue ? 'e' : 'd');
  const result = {
    ...drain,
    waitSeconds: waitMs / 1000,
    dueAtReturn: dues.filter((d) => d === 0).length,
    modelFailedCalls: model.failedCalls,
    medianDueSeconds: dues[Math.floor(dues.length / 2)]! / 1000,
  };
  log(
    `  ${describe(drain)}; last row due ${result.waitSeconds.toFixed(1)} s after the return ` +
      `(median ${result.medianDueSeconds.toFixed(1)} s, ${result.dueAtReturn} due at once), pushing after it ${(drain.seconds - result.waitSeconds).toFixed(2)} s`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------

/** The Shopify outbox benchmark on PGlite (a data dir in `tmp`), then on PostgreSQL when BENCH_PG_URL is set. */
export async function benchShopify(tmp: string): Promise<ShopifyResults> {
  const stores = await onEachStore(tmp, 'shopify-pglite', measureStore, log);
  return { variants: VARIANTS, outageWrites: OUTAGE_WRITES, outageMinutes: OUTAGE_MINUTES, stores };
}

// ---------------------------------------------------------------------------------------------
// Report

/** The best a restore rate allows: a full batch's points per level, and the levels/s that pays for. */
function best(s: ShopifyStoreResults): { pointsPerLevel: number; levelsPerSecond: number } {
  const pointsPerLevel = s.burst.spent.bestPointsPerLevel ?? s.restoreRate.spent.bestPointsPerLevel ?? Number.NaN;
  return { pointsPerLevel, levelsPerSecond: RESTORE_RATE / pointsPerLevel };
}

const pts = (d: Drain) => `${d.spent.points} points, ${(d.spent.points / d.levels).toFixed(3)}/level`;
const calls = (d: Drain) =>
  `${d.spent.setCalls} calls` +
  (d.spent.throttled ? `, ${d.spent.throttled} throttled` : '') +
  (d.spent.otherCalls ? `, ${d.spent.otherCalls} other` : '');

export function shopifyTable(r: ShopifyResults): { markdown: string; missed: string[] } {
  const rows: string[][] = [];
  for (const s of r.stores) {
    const b = best(s);
    const bestText = `best ${b.pointsPerLevel.toFixed(2)} points/level (one ${BATCH}-level call) → ${b.levelsPerSecond.toFixed(0)} levels/s`;
    rows.push([
      `${s.store}: a. backlog of ${s.burst.levels} levels, bucket full (${BUCKET} points: the burst)`,
      `**${s.burst.levelsPerSecond.toFixed(0)}** levels/s (${s.burst.seconds.toFixed(2)} s; ${calls(s.burst)}; ${pts(s.burst)})`,
    ]);
    rows.push([
      `${s.store}: b. backlog of ${s.restoreRate.levels} levels from an empty bucket (${RESTORE_RATE} points/s), achieved ÷ best`,
      `${s.restoreRate.levelsPerSecond.toFixed(0)} / ${b.levelsPerSecond.toFixed(0)} levels/s = **${(s.restoreRate.levelsPerSecond / b.levelsPerSecond).toFixed(2)}** ` +
        `(${s.restoreRate.seconds.toFixed(2)} s; ${calls(s.restoreRate)}; ${pts(s.restoreRate)}; ${bestText})`,
    ]);
    rows.push([
      `${s.store}: c. ${s.live.levels} single-entry writes by ${LIVE_WRITERS} writers, worker running, from an empty bucket`,
      `**${s.live.levelsPerSecond.toFixed(0)}** levels/s to Shopify, ${(s.live.spent.points / s.live.levels / b.pointsPerLevel).toFixed(1)}× the best points/level ` +
        `(writes ${s.live.writesPerSecond.toFixed(0)}/s; last level on Shopify ${(s.live.lagAfterLastWriteMs / 1000).toFixed(2)} s after the last write; ` +
        `${calls(s.live)}; ${pts(s.live)})`,
    ]);
    rows.push([
      `${s.store}: d. drain after a ${r.outageMinutes}-minute outage, ${s.outage.levels} writes queued (modelled backoff), Shopify back`,
      `**${s.outage.seconds.toFixed(1)} s** = ${s.outage.waitSeconds.toFixed(1)} s waiting for the last row's backoff + ` +
        `${(s.outage.seconds - s.outage.waitSeconds).toFixed(2)} s pushing after it (median row due ${s.outage.medianDueSeconds.toFixed(0)} s after the return, ` +
        `${s.outage.dueAtReturn} due at once; ${calls(s.outage)}; ${pts(s.outage)})`,
    ]);
    rows.push([
      `${s.store}: e. the same backlog with every row due when Shopify returns`,
      `**${s.outageAllDue.seconds.toFixed(2)} s** (${s.outageAllDue.levelsPerSecond.toFixed(0)} levels/s; ${calls(s.outageAllDue)}; ${pts(s.outageAllDue)})`,
    ]);
  }
  const markdown = [
    '| Measurement | Result |',
    '|---|---|',
    ...rows.map(([what, result]) => `| ${what} | ${result} |`),
  ].join('\n');
  return { markdown, missed: [] };
}

/**
 * The figures of the last `BENCH_ONLY=shopify` run in README's results (without the heading), so
 * that a full run, which rewrites the results section, can put them back.
 */
export function lastShopifyBlock(file: string): string | undefined {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = text.indexOf(`\n${SHOPIFY_HEADING}\n`);
  if (start < 0) return undefined;
  const body = text.slice(start + SHOPIFY_HEADING.length + 2);
  const end = body.search(/\n##+ /);
  return (end < 0 ? body : body.slice(0, end)).trim();
}
