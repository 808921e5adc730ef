// Inventory writes: POST /api/v1/inventory/adjustments on PostgreSQL and on PGlite — single-entry
// transactions/s against a raw node-postgres baseline, 100-entry batches (entries/s), and 32
// writers on one hot variant whose final total must be exact. See bench/README.md.
// Env: BENCH_INVENTORY_SECONDS (per measurement, default 8), BENCH_PG_URL (an admin connection
// used to create and drop the temporary database, default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_CPU_PROF=DIR (also profile the Tare server on PostgreSQL), BENCH_KEEP_DB=1 (keep the database
// for inspection instead of dropping it), BENCH_NO_ANALYZE=1 (skip ANALYZE after the import).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { DEMO_CATALOG } from '../packages/server/src/cli/demo-catalog.js';
import { openPglite } from '../packages/server/src/store/pglite-driver.js';
import { cpuSeconds } from './load.js';
import { rawAdjustment, rawResponseBody } from './raw-adjustment.js';
import { type Child, freePort, runNode, spawnNode, stop, waitFor200 } from './procs.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TARE = path.join(ROOT, 'packages/server/bin/tare.js');
const BARE_WRITE = path.join(ROOT, 'bench/bare-write-server.ts');
const DOMAIN = 'bench-shop.example';
const LOCATION = '70001';
const SECONDS = Number(process.env.BENCH_INVENTORY_SECONDS ?? 8);
const WARMUP_SECONDS = 1;
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const SINGLE_CLIENTS = 8;
/** a and b again at this many clients: more than the server's pool of connections. */
export const WIDE_CLIENTS = 32;
export const BATCH_CLIENTS = 8;
export const BATCH_SIZE = 100;
export const HOT_CLIENTS = 32;
export const HOT_REQUESTS_PER_CLIENT = 20;
/** Every client of the batch test owns its own 100 variants, so batches measure work, not lock waits. */
const VARIANTS = Array.from({ length: BATCH_CLIENTS * BATCH_SIZE }, (_, i) => String(300000 + i));
const HOT_VARIANT = '399999';
const HOT_INITIAL = '12.345'; // kg
/** The hot writers alternate these deltas: exact decimals that binary floats cannot hold (µg for the exact sum). */
const HOT_DELTAS = [
  { value: 0.001, unit: 'kg', micrograms: 1_000_000n },
  { value: 0.1, unit: 'g', micrograms: 100_000n },
];

/** Throughput and latency of one measurement. */
export interface Rate {
  /** Transactions (requests) per second. */
  tps: number;
  p50: number;
  p99: number;
  requests: number;
  /**
   * CPU µs per transaction of the HTTP server (Tare's, or the bare write route's; absent for the
   * in-process baseline) and of all PostgreSQL processes.
   */
  tareCpuUs?: number;
  pgCpuUs?: number;
}

export interface HotResult extends Rate {
  expected: string;
  actual: string;
  ledgerRows: number;
  expectedLedgerRows: number;
}

export interface StoreResults {
  single: Rate;
  /** a at WIDE_CLIENTS clients. */
  wide: Rate;
  batch: Rate;
  hot: HotResult;
}

/** The two baselines of a, each alternating with Tare at as many clients. */
export interface Baselines {
  /** The raw transaction from node-postgres clients in the bench process. */
  raw: Rate;
  /** The same transaction behind a bare HTTP route (bench/bare-write-server.ts). */
  http: Rate;
}

export interface InventoryResults {
  postgres: StoreResults & { baselines: Baselines; wideBaselines: Baselines };
  pglite: StoreResults;
}

const log = (line: string) => console.error(`[bench] ${line}`);

// ---------------------------------------------------------------------------------------------
// Setup

/** The bench shop: the demo catalog without rate limit, plus a weight product with 801 variants. */
function benchDocument() {
  const document = structuredClone(DEMO_CATALOG);
  const shop = document.shops[0]!;
  shop.domain = DOMAIN;
  shop.settings = { ...shop.settings, rateLimit: { enabled: false } };
  const variant = (id: string, quantity: number) => ({
    id,
    title: `Flour ${id}`,
    price: '2.00',
    unitMeasurement: { unit: 'kg', value: 1 },
    settings: {
      onlineStore: {
        displayStyle: 'number' as const,
        rules: { min: 0.1, increment: 0.1, defaultValue: 1, max: null },
      },
    },
    inventory: [{ locationId: LOCATION, quantity: { value: quantity, unit: 'kg' } }],
  });
  shop.products = [
    ...(shop.products ?? []),
    {
      id: '1900',
      title: 'Bulk flour',
      measurementType: 'weight',
      variants: [...VARIANTS.map((id) => variant(id, 1000)), variant(HOT_VARIANT, Number(HOT_INITIAL))],
    },
  ];
  return document;
}

export async function prepareStore(tmp: string, env: Record<string, string>): Promise<string> {
  const file = path.join(tmp, 'inventory-shop.json');
  writeFileSync(file, JSON.stringify(benchDocument()));
  await runNode([TARE, 'import', file], env);
  const output = await runNode([TARE, 'keys', 'create', '--shop', DOMAIN], env);
  const key = /apik_[a-z2-7]{16}_[0-9A-Za-z]+/.exec(output)?.[0];
  if (!key) throw new Error(`tare keys create printed no key:\n${output}`);
  return key;
}

let database: string | undefined;

/** A fresh database `tare_bench_<random>` through BENCH_PG_URL; its URL. Dropped by `dropBenchDatabase`. */
export async function createDatabase(): Promise<string> {
  const name = `tare_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  database = name;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the temporary database, if one was created; safe to call more than once. */
export async function dropBenchDatabase(): Promise<void> {
  if (!database) return;
  if (process.env.BENCH_KEEP_DB) {
    log(`BENCH_KEEP_DB: keeping database ${database}; drop it with: psql -c 'DROP DATABASE ${database}'`);
    database = undefined;
    return;
  }
  const name = database;
  database = undefined;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } catch (error) {
    log(`could not drop database ${name}: ${error instanceof Error ? error.message : error}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Load

/** CPU seconds per backend process of the bench database (Tare's pool, the baseline's clients). */
export type Backends = () => Promise<Map<number, number>>;

/**
 * The backends of the monitors' databases (one monitor per server: a Citus coordinator's and its
 * workers', all on this machine, so their process ids are this machine's).
 */
export function backendsOf(...monitors: pg.Client[]): Backends {
  return async () => {
    const cpu = new Map<number, number>();
    for (const monitor of monitors) {
      const { rows } = await monitor.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      for (const { pid } of rows) {
        try {
          cpu.set(pid, cpuSeconds(pid));
        } catch {
          // exited meanwhile
        }
      }
    }
    return cpu;
  };
}

/** CPU the backends used between two snapshots (a backend that exited in between is not counted). */
function backendCpuSeconds(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, cpu] of after) total += Math.max(0, cpu - (before.get(pid) ?? 0));
  return total;
}

type Op = (worker: number, i: number) => Promise<void>;

/** Runs `workers` loops of `op` for `seconds` (or `count` ops each); returns the rate and latency. */
export async function drive(
  workers: number,
  op: Op,
  limit: { seconds: number } | { count: number },
  pids: { tare?: number; backends?: Backends } = {},
): Promise<Rate> {
  const latencies: number[] = [];
  const tareBefore = pids.tare ? cpuSeconds(pids.tare) : 0;
  const pgBefore = pids.backends ? await pids.backends() : undefined;
  const started = performance.now();
  const deadline = 'seconds' in limit ? started + limit.seconds * 1000 : Infinity;
  const count = 'count' in limit ? limit.count : Infinity;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = 0; i < count && performance.now() < deadline; i++) {
        const t0 = performance.now();
        await op(worker, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const pgAfter = pids.backends ? await pids.backends() : undefined;
  const n = latencies.length;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(n - 1, Math.floor(n * p))] ?? NaN;
  return {
    tps: n / elapsed,
    p50: pct(0.5),
    p99: pct(0.99),
    requests: n,
    tareCpuUs: pids.tare ? ((cpuSeconds(pids.tare) - tareBefore) * 1e6) / n : undefined,
    pgCpuUs: pgBefore && pgAfter ? (backendCpuSeconds(pgBefore, pgAfter) * 1e6) / n : undefined,
  };
}

/** Combines alternating runs of one measurement: mean rate, mean p50, worst p99. */
export function combine(runs: Rate[]): Rate {
  const mean = (f: (r: Rate) => number | undefined) => {
    const xs = runs.map(f).filter((x): x is number => x !== undefined);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
  };
  return {
    tps: mean((r) => r.tps)!,
    p50: mean((r) => r.p50)!,
    p99: Math.max(...runs.map((r) => r.p99)),
    requests: runs.reduce((a, r) => a + r.requests, 0),
    tareCpuUs: mean((r) => r.tareCpuUs),
    pgCpuUs: mean((r) => r.pgCpuUs),
  };
}

const describe = (name: string, r: Rate, entries = 1) =>
  log(
    `  ${name}: ${r.tps.toFixed(0)} tx/s${entries > 1 ? ` (${(r.tps * entries).toFixed(0)} entries/s)` : ''}, ` +
      `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms` +
      (r.tareCpuUs !== undefined ? `, Tare CPU ${r.tareCpuUs.toFixed(0)} µs/tx` : '') +
      (r.pgCpuUs !== undefined ? `, PostgreSQL CPU ${r.pgCpuUs.toFixed(0)} µs/tx` : ''),
  );

/** A keep-alive HTTP client for one Tare server: `post` throws on anything but 200. */
function client(url: string, apiKey: string, connections: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(url);
  return {
    post(pathname: string, idempotencyKey: string, body: unknown): Promise<string> {
      const payload = JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            agent,
            hostname,
            port,
            path: pathname,
            method: 'POST',
            headers: {
              authorization: `Bearer ${apiKey}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
              'idempotency-key': idempotencyKey,
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () =>
              res.statusCode === 200
                ? resolve(text)
                : reject(new Error(`POST ${pathname} answered ${res.statusCode}: ${text.slice(0, 500)}`)),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

// ---------------------------------------------------------------------------------------------
// Measurements

const ADJUSTMENTS = '/api/v1/inventory/adjustments';
const runId = randomBytes(4).toString('hex');

export interface Tare {
  child: Child;
  url: string;
  post: ReturnType<typeof client>['post'];
  close(): void;
}

/** a. One adjustment per request, spread over all variants (round robin, so 8 clients rarely meet). */
export function singleOp(tare: Tare, phase: string): Op {
  let next = 0;
  return async (worker, i) => {
    const variantId = VARIANTS[next++ % VARIANTS.length]!;
    await tare.post(ADJUSTMENTS, `${runId}-${phase}-${worker}-${i}`, {
      locationId: LOCATION,
      adjustments: [{ variantId, delta: { value: i % 2 ? 0.25 : -0.125, unit: 'kg' } }],
    });
  };
}

/** c. 100 distinct variants per request: each client adjusts its own 100. */
function batchOp(tare: Tare, phase: string): Op {
  return async (worker, i) => {
    const adjustments = VARIANTS.slice(worker * BATCH_SIZE, (worker + 1) * BATCH_SIZE).map((variantId) => ({
      variantId,
      delta: { value: 0.001, unit: 'kg' },
    }));
    await tare.post(ADJUSTMENTS, `${runId}-${phase}-${worker}-${i}`, { locationId: LOCATION, adjustments });
  };
}

/** d. 32 writers on one variant, alternating +0.001 kg and +0.1 g. */
function hotOp(tare: Tare): Op {
  return async (worker, i) => {
    const { value, unit } = HOT_DELTAS[(worker + i) % HOT_DELTAS.length]!;
    await tare.post(ADJUSTMENTS, `${runId}-hot-${worker}-${i}`, {
      locationId: LOCATION,
      adjustments: [{ variantId: HOT_VARIANT, delta: { value, unit } }],
    });
  };
}

/** Exact decimal text of `micrograms` in kg: no exponent, no trailing zeros. */
function kgText(micrograms: bigint): string {
  const sign = micrograms < 0n ? '-' : '';
  const abs = micrograms < 0n ? -micrograms : micrograms;
  const fraction = (abs % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${sign}${abs / 1_000_000_000n}${fraction ? `.${fraction}` : ''}`;
}

/** A NUMERIC's text without trailing fractional zeros (PostgreSQL keeps the scale: `12.9850`). */
const canonical = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

/** Whether the hot variant ended at exactly the expected total with one ledger row per write. */
export const isExact = (hot: HotResult) =>
  canonical(hot.actual) === hot.expected && hot.ledgerRows === hot.expectedLedgerRows;

function expectedHotTotal(): string {
  const [whole, fraction = ''] = HOT_INITIAL.split('.');
  let micrograms = BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
  for (let worker = 0; worker < HOT_CLIENTS; worker++) {
    for (let i = 0; i < HOT_REQUESTS_PER_CLIENT; i++)
      micrograms += HOT_DELTAS[(worker + i) % HOT_DELTAS.length]!.micrograms;
  }
  return kgText(micrograms);
}

type Query = (sql: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** The hot variant's total and ledger against the exact expectation, plus the ledger invariant for every level. */
async function checkStore(query: Query, hot: Rate, store: string): Promise<HotResult> {
  const { rows } = await query(
    `SELECT l.total::text AS total,
       (SELECT count(*) FROM inventory_ledger g WHERE g.shop_id = l.shop_id AND g.location_id = l.location_id
          AND g.variant_id = l.variant_id AND g.idempotency_key LIKE $3)::int AS writes
     FROM inventory_levels l JOIN shops s ON s.id = l.shop_id
     WHERE s.domain = $1 AND l.location_id = $2 AND l.variant_id = $4`,
    [DOMAIN, LOCATION, `${runId}-hot-%`, HOT_VARIANT],
  );
  const row = rows[0];
  const result: HotResult = {
    ...hot,
    expected: expectedHotTotal(),
    actual: String(row?.total),
    ledgerRows: Number(row?.writes),
    expectedLedgerRows: HOT_CLIENTS * HOT_REQUESTS_PER_CLIENT,
  };
  if (!isExact(result)) {
    // Where it went wrong: ledger rows whose "before" is not the previous row's "after" are lost updates.
    const chain = await query(
      `SELECT count(*) FILTER (WHERE quantity_before <> previous)::int AS stale, sum(delta)::text AS deltas,
         count(DISTINCT quantity_before)::int AS distinct_befores
       FROM (SELECT quantity_before, delta, lag(quantity_after) OVER (ORDER BY id) AS previous
             FROM inventory_ledger g JOIN shops s ON s.id = g.shop_id
             WHERE s.domain = $1 AND g.location_id = $2 AND g.variant_id = $3) AS t`,
      [DOMAIN, LOCATION, HOT_VARIANT],
    );
    throw new Error(
      `${store}: hot variant ${HOT_VARIANT} is NOT exact: total ${result.actual} kg (expected ${result.expected}), ` +
        `${result.ledgerRows} ledger rows (expected ${result.expectedLedgerRows}); ledger: ${JSON.stringify(chain.rows[0])} ` +
        `(stale = rows whose quantity_before is not the previous row's quantity_after: lost updates)`,
    );
  }
  // A variant with its own stock sums its own rows; a linked variant's level row holds a copy of
  // its stock item's total, which sums the item's rows (decision 97).
  const drift = await query(
    `SELECT 'variant ' || l.variant_id AS level, l.total::text AS total, coalesce(sum(g.delta), 0)::text AS ledger
     FROM inventory_levels l JOIN variants v ON v.shop_id = l.shop_id AND v.id = l.variant_id AND v.stock_item_id IS NULL
     LEFT JOIN inventory_ledger g
       ON g.shop_id = l.shop_id AND g.location_id = l.location_id AND g.variant_id = l.variant_id AND g.stock_item_id IS NULL
     GROUP BY l.shop_id, l.location_id, l.variant_id, l.total HAVING l.total <> coalesce(sum(g.delta), 0)
     UNION ALL
     SELECT 'stock item ' || i.stock_item_id, i.total::text, coalesce(sum(g.delta), 0)::text
     FROM stock_item_levels i LEFT JOIN inventory_ledger g
       ON g.shop_id = i.shop_id AND g.location_id = i.location_id AND g.stock_item_id = i.stock_item_id
     GROUP BY i.shop_id, i.location_id, i.stock_item_id, i.total HAVING i.total <> coalesce(sum(g.delta), 0)
     LIMIT 5`,
  );
  if (drift.rows.length) {
    throw new Error(
      `${store}: levels whose total is not the sum of their ledger deltas: ${JSON.stringify(drift.rows)}`,
    );
  }
  log(
    `  ${store}: hot total ${result.actual} kg = expected ${result.expected}; ${result.ledgerRows} ledger rows; ledger sums match every level`,
  );
  return result;
}

export async function startTare(
  env: Record<string, string>,
  nodeFlags: string[],
  apiKey: string,
  connections: number,
): Promise<Tare> {
  return startHttpServer([...nodeFlags, TARE, 'serve'], env, apiKey, connections);
}

/** A server spawned on a free port, ready once `/readyz` answers, with a keep-alive client. */
async function startHttpServer(
  args: string[],
  env: Record<string, string>,
  apiKey: string,
  connections: number,
): Promise<Tare> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnNode(args, { ...env, PORT: String(port) });
  await waitFor200(`${url}/readyz`, child);
  const http = client(url, apiKey, connections);
  return { child, url, post: http.post, close: http.close };
}

/** The baselines' half-rounds at `clients` clients, run alternately with Tare's. */
type Between = (clients: number) => Promise<Baselines>;

/** The bare HTTP route in front of the raw transaction, with a client like Tare's. */
async function startBareWrite(databaseUrl: string, shopId: string, apiKey: string): Promise<Tare> {
  const env = { DATABASE_URL: databaseUrl, SHOP_ID: shopId, HOST: '127.0.0.1' };
  return startHttpServer(['--import', 'tsx', BARE_WRITE], env, apiKey, WIDE_CLIENTS);
}

/** a at `clients` clients, alternating with `between` when given. */
async function measureSingles(
  tare: Tare,
  store: string,
  clients: number,
  pids: { tare?: number; backends?: Backends },
  between?: Between,
): Promise<{ single: Rate; baselines?: Baselines }> {
  log(
    `${store} a. single-entry adjustments, ${clients} clients: warm-up ${WARMUP_SECONDS} s, then 2 × ${SECONDS / 2} s${between ? ' alternating with the baseline' : ''}`,
  );
  await drive(clients, singleOp(tare, `warm${clients}`), { seconds: WARMUP_SECONDS });
  const singles: Rate[] = [];
  const baselines: Baselines[] = [];
  for (let round = 0; round < 2; round++) {
    if (between) baselines.push(await between(clients));
    const s = await drive(clients, singleOp(tare, `single${clients}-${round}`), { seconds: SECONDS / 2 }, pids);
    describe('Tare', s);
    singles.push(s);
  }
  return {
    single: combine(singles),
    baselines: between && {
      raw: combine(baselines.map((b) => b.raw)),
      http: combine(baselines.map((b) => b.http)),
    },
  };
}

/** a (at 8 and 32 clients), c and d against one running Tare; `between` runs the baseline's half-rounds alternately with a. */
async function measureStore(
  tare: Tare,
  store: string,
  backends: Backends | undefined,
  between?: Between,
): Promise<{ single: Rate; wide: Rate; batch: Rate; hot: Rate; baselines?: Baselines; wideBaselines?: Baselines }> {
  const pids = { tare: tare.child.pid, backends };
  const narrow = await measureSingles(tare, store, SINGLE_CLIENTS, pids, between);
  const wide = await measureSingles(tare, store, WIDE_CLIENTS, pids, between);
  log(
    `${store} c. ${BATCH_SIZE}-entry batches, ${BATCH_CLIENTS} clients: warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s`,
  );
  await drive(BATCH_CLIENTS, batchOp(tare, 'batchwarm'), { seconds: WARMUP_SECONDS });
  const batch = await drive(BATCH_CLIENTS, batchOp(tare, 'batch'), { seconds: SECONDS }, pids);
  describe('Tare', batch, BATCH_SIZE);
  log(`${store} d. ${HOT_CLIENTS} clients × ${HOT_REQUESTS_PER_CLIENT} adjustments of variant ${HOT_VARIANT}`);
  const hot = await drive(HOT_CLIENTS, hotOp(tare), { count: HOT_REQUESTS_PER_CLIENT }, pids);
  describe('Tare', hot);
  return {
    single: narrow.single,
    wide: wide.single,
    batch,
    hot,
    baselines: narrow.baselines,
    wideBaselines: wide.baselines,
  };
}

/**
 * b. The same essential statements as one Tare adjustment, straight through node-postgres: lock
 * the level row, update the total, append a ledger row, store an idempotency row — one transaction.
 */
async function rawSqlBaseline(databaseUrl: string) {
  const clients = await Promise.all(
    Array.from({ length: WIDE_CLIENTS }, async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      return c;
    }),
  );
  const monitor = new pg.Client({ connectionString: databaseUrl });
  await monitor.connect();
  const shop = await clients[0]!.query<{ id: string }>('SELECT id::text FROM shops WHERE domain = $1', [DOMAIN]);
  const shopId = shop.rows[0]!.id;
  const body = rawResponseBody(LOCATION, VARIANTS[0]!);
  const fingerprint = randomBytes(32);
  let next = 0;
  let round = 0;
  const op =
    (phase: string): Op =>
    async (worker, i) => {
      const key = `${runId}-raw${phase}-${worker}-${i}`;
      await rawAdjustment(clients[worker]!, {
        shopId,
        locationId: LOCATION,
        variantId: VARIANTS[next++ % VARIANTS.length]!,
        delta: i % 2 ? '0.25' : '-0.125',
        key,
        requestId: `raw-${worker}-${i}`,
        fingerprint,
        body,
      });
    };
  return {
    shopId,
    warm: () => drive(SINGLE_CLIENTS, op('warm'), { seconds: WARMUP_SECONDS }),
    run: (clients: number) =>
      drive(clients, op(String(round++)), { seconds: SECONDS / 2 }, { backends: backendsOf(monitor) }),
    query: (sql: string, params?: unknown[]) => clients[0]!.query(sql, params),
    backends: backendsOf(monitor),
    close: () => Promise.all([monitor, ...clients].map((c) => c.end())),
  };
}

/** The whole inventory benchmark; `tmp` is the run's temp dir (removed by the caller). */
export async function benchInventory(tmp: string, baseEnv: Record<string, string>): Promise<InventoryResults> {
  const profDir = process.env.BENCH_CPU_PROF;
  const profFlags = profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] : [];

  // PostgreSQL
  const databaseUrl = await createDatabase();
  log(`PostgreSQL: database ${database} (tare import + tare keys create, ${VARIANTS.length + 1} weight variants)`);
  const pgEnv = { ...baseEnv, DATABASE_URL: databaseUrl, TARE_DATA_DIR: path.join(tmp, 'unused') };
  const pgKey = await prepareStore(tmp, pgEnv);
  if (!process.env.BENCH_NO_ANALYZE) {
    // Fresh tables have no planner statistics until autovacuum analyzes them (up to a minute
    // later, or never where autovacuum is off, as on the shared bench server): without them the
    // level statements scan every level of the location (see README). Measure the steady state.
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query('ANALYZE').finally(() => c.end());
  }
  const pgTare = await startTare(pgEnv, profFlags, pgKey, HOT_CLIENTS);
  const baseline = await rawSqlBaseline(databaseUrl);
  const bare = await startBareWrite(databaseUrl, baseline.shopId, pgKey);
  await baseline.warm();
  await drive(SINGLE_CLIENTS, singleOp(bare, 'warm'), { seconds: WARMUP_SECONDS });
  let bareRound = 0;
  const between: Between = async (clients) => {
    const raw = await baseline.run(clients);
    describe('baseline (raw SQL)', raw);
    const pids = { tare: bare.child.pid, backends: baseline.backends };
    const http = await drive(clients, singleOp(bare, `bare${clients}-${bareRound++}`), { seconds: SECONDS / 2 }, pids);
    describe('baseline (bare HTTP route + raw SQL)', http);
    return { raw, http };
  };
  let postgres: InventoryResults['postgres'];
  try {
    const measured = await measureStore(pgTare, 'PostgreSQL', baseline.backends, between);
    const hot = await checkStore(baseline.query, measured.hot, 'PostgreSQL');
    postgres = {
      single: measured.single,
      wide: measured.wide,
      batch: measured.batch,
      hot,
      baselines: measured.baselines!,
      wideBaselines: measured.wideBaselines!,
    };
  } finally {
    bare.close();
    await stop(bare.child);
    await baseline.close();
    pgTare.close();
    await stop(pgTare.child);
  }
  if (profDir) log(`CPU profile of the Tare server on PostgreSQL written to ${profDir}`);
  await dropBenchDatabase();

  // PGlite
  const dataDir = path.join(tmp, 'inventory-pglite');
  const liteEnv = { ...baseEnv, DATABASE_URL: '', TARE_DATA_DIR: dataDir };
  log(`PGlite: data dir ${dataDir}`);
  const liteKey = await prepareStore(tmp, liteEnv);
  const liteTare = await startTare(liteEnv, [], liteKey, HOT_CLIENTS);
  let measured;
  try {
    measured = await measureStore(liteTare, 'PGlite', undefined);
  } finally {
    liteTare.close();
    await stop(liteTare.child);
  }
  // The server has the data dir to itself while it runs; read it once it has stopped.
  const db = await openPglite({ dataDir });
  try {
    const hot = await checkStore((sql, params) => db.query(sql, params), measured.hot, 'PGlite');
    return { postgres, pglite: { single: measured.single, wide: measured.wide, batch: measured.batch, hot } };
  } finally {
    await db.close();
  }
}
