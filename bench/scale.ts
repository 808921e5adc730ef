// Scale (`npm run bench -- --scale`, or BENCH_ONLY=scale): costs that grow with the catalog.
// A file of 100k variants with stock is imported by `tare import` on PostgreSQL and PGlite (time,
// peak RSS of the import process, a file of a fifth of the size for linearity, a re-import of the
// unchanged file); a million ledger rows are added; then reads and writes of that shop are
// measured against a 10-variant shop on the same server, alternating, with the server's caches off;
// and two Tare instances on one PostgreSQL against one. See bench/README.md.
// Env: BENCH_SCALE_VARIANTS (default 100000), BENCH_SCALE_LEDGER (ledger rows added, default
// 1000000), BENCH_SCALE_SECONDS (per measured run, default 5), BENCH_SCALE_TARE (the `tare` to
// measure, default packages/server/bin/tare.js: another checkout's bin measures a baseline),
// BENCH_SCALE_IMPORT_LIMIT_S (an import still running after this is stopped and reported as
// such, default 900), BENCH_SCALE_STORES (postgres,pglite), BENCH_PG_URL as in bench/inventory.ts.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { cpuSeconds, type Load, measure, sampleRss } from './load.js';
import { type Child, freePort, runNode, spawnNode, stop, waitFor200 } from './procs.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TARE = path.resolve(process.env.BENCH_SCALE_TARE ?? path.join(ROOT, 'packages/server/bin/tare.js'));
const VARIANTS = Number(process.env.BENCH_SCALE_VARIANTS ?? 100_000);
const LEDGER_ROWS = Number(process.env.BENCH_SCALE_LEDGER ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 5);
const IMPORT_LIMIT_S = Number(process.env.BENCH_SCALE_IMPORT_LIMIT_S ?? 900);
const STORES = (process.env.BENCH_SCALE_STORES ?? 'postgres,pglite').split(',') as ('postgres' | 'pglite')[];
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const BIG_SHOP = 'bench-big.example';
export const SMALL_SHOP = 'bench-small.example';
const LOCATION = '70001';
const PER_PRODUCT = 10;
const log = (line: string) => console.error(`[bench] ${line}`);

// ---------------------------------------------------------------------------------------------
// The catalog

/**
 * A shop of `variants` variants with stock, 10 per product (so a product page reads alike in
 * both shops), units kg, g and lb in turn. Variant ids are 1_000_000 + n, product ids 100 + n.
 */
export function scaleDocument(domain: string, variants: number, edit = 0) {
  const units = [
    { unit: 'kg', value: 1 },
    { unit: 'g', value: 100 },
    { unit: 'lb', value: 1 },
  ];
  const products = [];
  for (let p = 0; p * PER_PRODUCT < variants; p++) {
    const list = [];
    for (let n = p * PER_PRODUCT; n < Math.min(variants, (p + 1) * PER_PRODUCT); n++) {
      const unitMeasurement = units[n % units.length]!;
      list.push({
        id: String(1_000_000 + n),
        title: `Variant ${n}`,
        price: `${(n % 97) + 1}.50`,
        unitMeasurement,
        settings: {
          onlineStore: {
            displayStyle: 'number',
            rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
          },
        },
        inventory: [
          {
            locationId: LOCATION,
            quantity: { value: 1000 + (n % 1000) + (n < edit ? 0.5 : 0), unit: unitMeasurement.unit },
          },
        ],
      });
    }
    products.push({ id: String(100 + p), title: `Product ${p}`, measurementType: 'weight', variants: list });
  }
  return {
    shops: [
      {
        domain,
        currency: 'USD',
        defaultLocale: 'en',
        addonActive: true,
        settings: { mergeMatchingLineItems: true, rateLimit: { enabled: false } },
        locations: [{ id: LOCATION, name: 'Main store' }],
        products,
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Stores

const databases: string[] = [];

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function createDatabase(): Promise<string> {
  const name = `tare_bench_scale_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  databases.push(name);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the databases this part created (BENCH_KEEP_DB keeps them). */
export async function dropScaleDatabases(): Promise<void> {
  for (const name of databases.splice(0)) {
    if (process.env.BENCH_KEEP_DB) {
      log(`BENCH_KEEP_DB: keeping database ${name}`);
      continue;
    }
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: unknown) =>
      log(`could not drop database ${name}: ${error instanceof Error ? error.message : error}`),
    );
  }
}

interface Store {
  name: 'postgres' | 'pglite';
  env: Record<string, string>;
}

/** An empty store, migrated (so an import's memory is its own, not a first start's). */
async function openStore(name: Store['name'], tmp: string): Promise<Store> {
  const base = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '', TARE_PRODUCT_CACHE_SECONDS: '0' };
  const env =
    name === 'postgres'
      ? { ...base, DATABASE_URL: await createDatabase(), TARE_DATA_DIR: '' }
      : { ...base, DATABASE_URL: '', TARE_DATA_DIR: path.join(tmp, `scale-${randomBytes(4).toString('hex')}`) };
  await runNode([TARE, 'migrate'], env);
  return { name, env };
}

// ---------------------------------------------------------------------------------------------
// Import

export interface ImportRun {
  variants: number;
  /** Wall seconds; undefined when stopped at the limit. */
  seconds?: number;
  cpuSeconds: number;
  peakRssMb: number;
  output: string;
}

/** `tare import FILE` as a child process: wall time, its CPU and its peak RSS (PGlite runs inside it). */
async function timedImport(store: Store, file: string, variants: number): Promise<ImportRun> {
  const started = performance.now();
  const child = spawnNode([TARE, 'import', file], store.env);
  const rss = sampleRss(child.pid);
  let cpu = 0;
  const cpuTimer = setInterval(() => {
    try {
      cpu = cpuSeconds(child.pid);
    } catch {
      // exited
    }
  }, 200);
  const limit = setTimeout(() => child.proc.kill('SIGKILL'), IMPORT_LIMIT_S * 1000);
  const [code, signal] = (await once(child.proc, 'exit')) as [number | null, string | null];
  clearTimeout(limit);
  clearInterval(cpuTimer);
  const seconds = (performance.now() - started) / 1000;
  const peakRssMb = rss.stop();
  if (signal === 'SIGKILL') {
    log(`  ${variants} variants: stopped after ${seconds.toFixed(0)} s (peak RSS ${peakRssMb.toFixed(0)} MB)`);
    return { variants, cpuSeconds: cpu, peakRssMb, output: child.output() };
  }
  if (code !== 0) throw new Error(`tare import ${file} exited with ${code}:\n${child.output()}`);
  log(
    `  ${variants} variants: ${seconds.toFixed(1)} s (CPU ${cpu.toFixed(1)} s, peak RSS ${peakRssMb.toFixed(0)} MB): ` +
      child.output().trim().replace(/\n/g, '; '),
  );
  return { variants, seconds, cpuSeconds: cpu, peakRssMb, output: child.output() };
}

export interface StoreImports {
  store: Store['name'];
  /** A fifth of the file, into its own empty store: with `full`, shows whether the cost is linear. */
  fifth: ImportRun;
  full: ImportRun;
  /** The same file again: nothing changes. */
  again?: ImportRun;
  /** The same file with 1% of the levels changed. */
  edited?: ImportRun;
}

async function benchImports(tmp: string, store: Store): Promise<StoreImports> {
  const write = (name: string, doc: unknown) => {
    const file = path.join(tmp, name);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };
  const fifthFile = write(`scale-fifth.json`, scaleDocument(BIG_SHOP, VARIANTS / 5));
  const fullFile = write(`scale-full.json`, scaleDocument(BIG_SHOP, VARIANTS));
  log(`${store.name}: import of ${VARIANTS / 5} variants into an empty store`);
  const fifthStore = await openStore(store.name, tmp);
  const fifth = await timedImport(fifthStore, fifthFile, VARIANTS / 5);
  log(`${store.name}: import of ${VARIANTS} variants into an empty store`);
  const full = await timedImport(store, fullFile, VARIANTS);
  if (full.seconds === undefined) return { store: store.name, fifth, full };
  log(`${store.name}: the same file again, then with 1% of the levels changed`);
  const again = await timedImport(store, fullFile, VARIANTS);
  if (!/unchanged/.test(again.output))
    throw new Error(`re-import of an unchanged file changed something: ${again.output}`);
  const edited = await timedImport(
    store,
    write('scale-edited.json', scaleDocument(BIG_SHOP, VARIANTS, VARIANTS / 100)),
    VARIANTS,
  );
  return { store: store.name, fifth, full, again, edited };
}

export async function benchScaleImports(tmp: string): Promise<{ imports: StoreImports[]; stores: Store[] }> {
  const imports: StoreImports[] = [];
  const stores: Store[] = [];
  for (const name of STORES) {
    const store = await openStore(name, tmp);
    imports.push(await benchImports(tmp, store));
    stores.push(store);
  }
  return { imports, stores };
}

// ---------------------------------------------------------------------------------------------
// Reads and writes at scale, against the small shop

/** The small shop (10 variants, same shapes), a million ledger rows for the big one, a key for each. */
async function prepareServing(tmp: string, store: Store): Promise<{ big: string; small: string }> {
  const file = path.join(tmp, 'scale-small.json');
  writeFileSync(file, JSON.stringify(scaleDocument(SMALL_SHOP, 10)));
  await runNode([TARE, 'import', file], store.env);
  log(`${store.name}: adding ${LEDGER_ROWS.toLocaleString('en-US')} ledger rows to ${BIG_SHOP}`);
  const started = performance.now();
  // Rows of delta 0 spread over every level: the ledger grows, every total stays the sum of its deltas.
  const sql = `INSERT INTO inventory_ledger (shop_id, location_id, variant_id, operation, quantity_before,
      quantity_after, delta, unit, reference_type)
    SELECT s.id, '${LOCATION}', (1000000 + g % ${VARIANTS})::text, 'adjustment', 0, 0, 0, 'kg', 'idempotency_key'
    FROM shops s, generate_series(0, ${LEDGER_ROWS - 1}) g WHERE s.domain = '${BIG_SHOP}'`;
  if (store.name === 'postgres') {
    const client = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
      await client.query('ANALYZE');
    } finally {
      await client.end();
    }
  } else {
    const { openPglite } = await import('../packages/server/src/store/pglite-driver.js');
    const db = await openPglite({ dataDir: store.env.TARE_DATA_DIR });
    try {
      await db.query(sql);
      await db.query('ANALYZE');
    } finally {
      await db.close();
    }
  }
  log(`  in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const key = async (domain: string) => {
    const output = await runNode([TARE, 'keys', 'create', '--shop', domain], store.env);
    const found = /apik_[a-z2-7]{16}_[0-9A-Za-z]+/.exec(output)?.[0];
    if (!found) throw new Error(`tare keys create printed no key:\n${output}`);
    return found;
  };
  return { big: await key(BIG_SHOP), small: await key(SMALL_SHOP) };
}

async function startTare(store: Store): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnNode([TARE, 'serve'], { ...store.env, PORT: String(port), TARE_RECONCILE_MINUTES: '0' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}/readyz`, child);
  return { child, url };
}

export interface Pair {
  what: string;
  small: Load;
  big: Load;
}

/** One shop's request of an endpoint: the first product, its first variant, its level and ledger. */
function reads(shopSize: number): { what: string; path: string }[] {
  const last = String(1_000_000 + Math.min(shopSize, 10) - 1);
  return [
    { what: '`GET /api/v1/app-settings`', path: '/api/v1/app-settings' },
    { what: '`GET /api/v1/products/{id}`', path: '/api/v1/products/100' },
    {
      what: '`GET /api/v1/inventory/ledger` (one level)',
      path: `/api/v1/inventory/ledger?locationId=${LOCATION}&variantId=${last}`,
    },
  ];
}

const meanLoad = (runs: Load[]): Load => ({
  rps: runs.reduce((a, r) => a + r.rps, 0) / runs.length,
  p50: runs.reduce((a, r) => a + r.p50, 0) / runs.length,
  p99: Math.max(...runs.map((r) => r.p99)),
  cpuUs: runs.reduce((a, r) => a + r.cpuUs, 0) / runs.length,
});

/** Small shop and big shop on one server, alternating: small, big, small, big. */
async function comparePair(
  what: string,
  run: (shop: 'small' | 'big', seconds: number) => Promise<Load>,
): Promise<Pair> {
  await run('small', 1);
  await run('big', 1);
  const runs: Record<'small' | 'big', Load[]> = { small: [], big: [] };
  for (let round = 0; round < 2; round++) {
    for (const shop of ['small', 'big'] as const) {
      const load = await run(shop, SECONDS);
      runs[shop].push(load);
      log(
        `  ${what} ${shop}: ${load.rps.toFixed(0)}/s, p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms, ${load.cpuUs.toFixed(0)} µs CPU`,
      );
    }
  }
  return { what, small: meanLoad(runs.small), big: meanLoad(runs.big) };
}

const runId = randomBytes(4).toString('hex');

/** `clients` loops of 1-entry adjustments, each on its own variants, for `seconds`. */
async function adjustments(
  targets: { url: string; key: string; pid: number }[],
  clients: number,
  variants: number,
  seconds: number,
  label: string,
): Promise<Load> {
  const agents = targets.map(() => new http.Agent({ keepAlive: true, maxSockets: clients }));
  const latencies: number[] = [];
  const cpuBefore = targets.map((t) => cpuSeconds(t.pid));
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, worker) => {
      const target = targets[worker % targets.length]!;
      const agent = agents[worker % targets.length]!;
      for (let i = 0; performance.now() < deadline; i++) {
        const n = (worker + i * clients) % variants;
        const body = JSON.stringify({
          locationId: LOCATION,
          adjustments: [
            {
              variantId: String(1_000_000 + n),
              delta: { value: i % 2 ? 0.25 : -0.25, unit: ['kg', 'g', 'lb'][n % 3] },
            },
          ],
        });
        const t0 = performance.now();
        await post(agent, target, body, `${runId}-${label}-${worker}-${i}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  for (const agent of agents) agent.destroy();
  latencies.sort((a, b) => a - b);
  const cpu = targets.reduce((a, t, i) => a + cpuSeconds(t.pid) - cpuBefore[i]!, 0);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { rps: latencies.length / elapsed, p50: pct(0.5), p99: pct(0.99), cpuUs: (cpu * 1e6) / latencies.length };
}

function post(
  agent: http.Agent,
  target: { url: string; key: string },
  body: string,
  idempotencyKey: string,
): Promise<void> {
  const { hostname, port } = new URL(target.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        hostname,
        port,
        path: '/api/v1/inventory/adjustments',
        method: 'POST',
        headers: {
          authorization: `Bearer ${target.key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': idempotencyKey,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`adjustment answered ${res.statusCode}: ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** autocannon from two processes' worth of connections at once: 32 on each server. */
async function readsOn(
  targets: { url: string; pid: number }[],
  pathname: string,
  key: string,
  seconds: number,
): Promise<Load> {
  const loads = await Promise.all(
    targets.map((t) =>
      measure(t.url + pathname, { authorization: `Bearer ${key}` }, seconds, t.pid, 64 / targets.length),
    ),
  );
  return {
    rps: loads.reduce((a, l) => a + l.rps, 0),
    p50: loads.reduce((a, l) => a + l.p50, 0) / loads.length,
    p99: Math.max(...loads.map((l) => l.p99)),
    cpuUs: loads.reduce((a, l) => a + l.cpuUs * l.rps, 0) / loads.reduce((a, l) => a + l.rps, 0),
  };
}

export interface StoreServing {
  store: Store['name'];
  pairs: Pair[];
  /** PostgreSQL only: one instance against two on the same database (big shop). */
  instances?: Pair[];
}

async function benchServing(tmp: string, store: Store): Promise<StoreServing> {
  const keys = await prepareServing(tmp, store);
  const one = await startTare(store);
  const targetOf = (shop: 'small' | 'big') => ({ url: one.url, key: keys[shop], pid: one.child.pid });
  const pairs: Pair[] = [];
  log(`${store.name}: ${BIG_SHOP} (${VARIANTS} variants) against ${SMALL_SHOP} (10), caches off, ${SECONDS} s per run`);
  for (const { what, path: pathname } of reads(10)) {
    pairs.push(
      await comparePair(what, (shop, seconds) =>
        measure(one.url + pathname, { authorization: `Bearer ${keys[shop]}` }, seconds, one.child.pid),
      ),
    );
  }
  pairs.push(
    await comparePair('`POST /api/v1/inventory/adjustments`, 1 entry, 8 clients', (shop, seconds) =>
      adjustments([targetOf(shop)], 8, 10, seconds, `${store.name}-${shop}-${seconds}`),
    ),
  );
  let instances: Pair[] | undefined;
  if (store.name === 'postgres') {
    const two = await startTare(store);
    const both = [one, two].map((t) => ({ url: t.url, key: keys.big, pid: t.child.pid }));
    log(`${store.name}: one Tare instance against two on the same database (${BIG_SHOP})`);
    // "small" is one instance, "big" two: the pair's ratio is what a second instance adds.
    instances = [
      await comparePair('`GET /api/v1/products/{id}`, 64 connections', (n, seconds) =>
        readsOn(n === 'small' ? both.slice(0, 1) : both, '/api/v1/products/100', keys.big, seconds),
      ),
      await comparePair('1-entry adjustments, 8 clients over 800 variants', (n, seconds) =>
        adjustments(
          n === 'small' ? both.slice(0, 1) : both,
          8,
          800,
          seconds,
          `two-${n}-${seconds}-${performance.now()}`,
        ),
      ),
    ];
    await stop(two.child);
  }
  await stop(one.child);
  return { store: store.name, pairs, instances };
}

export interface ScaleResults {
  variants: number;
  ledgerRows: number;
  imports: StoreImports[];
  serving: StoreServing[];
}

export async function benchScale(tmp: string): Promise<ScaleResults> {
  const { imports, stores } = await benchScaleImports(tmp);
  const serving: StoreServing[] = [];
  for (const store of stores) {
    if (imports.find((i) => i.store === store.name)?.full.seconds === undefined) continue;
    serving.push(await benchServing(tmp, store));
  }
  return { variants: VARIANTS, ledgerRows: LEDGER_ROWS, imports, serving };
}

// ---------------------------------------------------------------------------------------------
// Report

export const SCALE_TARGETS = {
  importPostgresS: 120,
  importPgliteS: 300,
  importRssMb: 400,
  /** Re-import of the unchanged file: seconds, not a minute. */
  reimportS: 10,
  /** Rate at 100k variants ÷ rate of the 10-variant shop, app settings with the caches off. */
  appSettingsRatio: 0.8,
};

const storeName = (s: Store['name']) => (s === 'postgres' ? 'PostgreSQL' : 'PGlite');
const secs = (run: ImportRun) =>
  run.seconds === undefined ? `stopped at ${IMPORT_LIMIT_S} s` : `${run.seconds.toFixed(1)} s`;

/** The results as Markdown table rows, with whether each target is met. */
export function scaleTable(r: ScaleResults): { markdown: string; missed: string[] } {
  type Row = [string, string, string, boolean | null];
  const rows: Row[] = [];
  const n = r.variants.toLocaleString('en-US');
  for (const i of r.imports) {
    const name = storeName(i.store);
    const limit = i.store === 'postgres' ? SCALE_TARGETS.importPostgresS : SCALE_TARGETS.importPgliteS;
    const linear = i.full.seconds && i.fifth.seconds ? i.full.seconds / i.fifth.seconds : undefined;
    rows.push([
      `${name}: \`tare import\` of ${n} variants with stock, empty store`,
      `**${secs(i.full)}** (CPU ${i.full.cpuSeconds.toFixed(1)} s; a fifth of the file: ${secs(i.fifth)}, ` +
        `so 5× the rows took ${linear ? `${linear.toFixed(1)}×` : '—'})`,
      `< ${limit / 60} min, linear`,
      i.full.seconds !== undefined && i.full.seconds < limit && linear !== undefined && linear < 6.5,
    ]);
    rows.push([
      `${name}: peak RSS of the import process`,
      `**${Math.max(i.full.peakRssMb, i.again?.peakRssMb ?? 0).toFixed(0)} MB** (a fifth: ${i.fifth.peakRssMb.toFixed(0)} MB)`,
      `< ${SCALE_TARGETS.importRssMb} MB`,
      Math.max(i.full.peakRssMb, i.again?.peakRssMb ?? 0) < SCALE_TARGETS.importRssMb,
    ]);
    if (i.again && i.edited) {
      rows.push([
        `${name}: the same file again (unchanged) / with 1% of the levels changed`,
        `**${secs(i.again)}** / ${secs(i.edited)}`,
        `seconds (< ${SCALE_TARGETS.reimportS} s)`,
        i.again.seconds !== undefined && i.again.seconds < SCALE_TARGETS.reimportS,
      ]);
    }
  }
  for (const s of r.serving) {
    const name = storeName(s.store);
    for (const p of s.pairs) {
      const ratio = p.big.rps / p.small.rps;
      const appSettings = p.what.includes('app-settings');
      rows.push([
        `${name}: ${p.what}, ${n}-variant shop ÷ 10-variant shop, caches off`,
        `${Math.round(p.big.rps).toLocaleString('en-US')} / ${Math.round(p.small.rps).toLocaleString('en-US')} = ` +
          `**${ratio.toFixed(2)}** (server CPU ${p.big.cpuUs.toFixed(0)} / ${p.small.cpuUs.toFixed(0)} µs per request; ` +
          `p99 ${p.big.p99.toFixed(1)} / ${p.small.p99.toFixed(1)} ms)`,
        appSettings ? `≥ ${SCALE_TARGETS.appSettingsRatio}` : '—',
        appSettings ? ratio >= SCALE_TARGETS.appSettingsRatio : null,
      ]);
    }
    for (const p of s.instances ?? []) {
      rows.push([
        `${name}: ${p.what}, two Tare instances ÷ one, same database`,
        `${Math.round(p.big.rps).toLocaleString('en-US')} / ${Math.round(p.small.rps).toLocaleString('en-US')} = ` +
          `**${(p.big.rps / p.small.rps).toFixed(2)}** (server CPU ${p.big.cpuUs.toFixed(0)} / ${p.small.cpuUs.toFixed(0)} µs per request)`,
        '—',
        null,
      ]);
    }
  }
  const markdown = [
    '| Measurement | Result | Target | Met |',
    '|---|---|---|---|',
    ...rows.map(
      ([what, result, target, ok]) =>
        `| ${what} | ${result} | ${target} | ${ok === null ? '—' : ok ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
  return { markdown, missed: rows.filter(([, , , ok]) => ok === false).map(([what]) => what) };
}

// ---------------------------------------------------------------------------------------------
// Entry point for a standalone run: `node --import tsx bench/scale.ts imports`

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'imports') {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const os = await import('node:os');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tare-scale-'));
  try {
    const { imports } = await benchScaleImports(tmp);
    console.log(
      JSON.stringify(
        imports.map(({ store, fifth, full, again, edited }) => ({
          store,
          fifth: { s: fifth.seconds, cpu: fifth.cpuSeconds, rss: fifth.peakRssMb },
          full: { s: full.seconds, cpu: full.cpuSeconds, rss: full.peakRssMb },
          again: again && { s: again.seconds, rss: again.peakRssMb },
          edited: edited && { s: edited.seconds, rss: edited.peakRssMb },
        })),
        null,
        1,
      ),
    );
  } finally {
    await dropScaleDatabases();
    rmSync(tmp, { recursive: true, force: true });
  }
}
