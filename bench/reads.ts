// Reads on both stores: `GET /api/v1/app-settings`, a product page and a variant, served by
// `tare serve` on PostgreSQL (a temporary database through BENCH_PG_URL) and on PGlite, each
// against the bare Fastify route replaying Tare's bytes (bench/bare-server.ts), alternating in the
// same run. Reported per store and endpoint: req/s, p99 and CPU per request (the server's; on
// PostgreSQL also its backends'), each as Tare ÷ bare, and on PostgreSQL the lookups of
// `api_keys` per request (from pg_stat_user_tables). See bench/README.md.
// The machine drifts by a third within minutes (the bare route alone), so each endpoint runs
// BENCH_READS_ROUNDS rounds of bare then Tare and every figure is the median of the rounds' ratios.
// Env: BENCH_READS_SECONDS (per measured run, default 4), BENCH_READS_ROUNDS (default 5),
// BENCH_READS_STORES (postgres,pglite),
// BENCH_READS_TARE (the `tare` to measure, default packages/server/bin/tare.js: another checkout's
// bin measures a baseline in the same way), BENCH_CPU_PROF=DIR (profile each Tare server under
// load), BENCH_PG_URL and BENCH_KEEP_DB as in bench/inventory.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { DEMO_CATALOG } from '../packages/server/src/cli/demo-catalog.js';
import type { Fixture } from './bare-server.js';
import { createDatabase, dropBenchDatabase } from './inventory.js';
import { cpuSeconds, type Load, measure } from './load.js';
import { freePort, runNode, spawnNode, stop, waitFor200 } from './procs.js';
import { median } from './report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TARE = path.resolve(process.env.BENCH_READS_TARE ?? path.join(ROOT, 'packages/server/bin/tare.js'));
const BARE = path.join(ROOT, 'bench/bare-server.ts');
const DOMAIN = 'bench-shop.example';
export const READ_ENDPOINTS = ['/api/v1/app-settings', '/api/v1/products/1001', '/api/v1/products/1001/variants/2001'];
const SECONDS = Number(process.env.BENCH_READS_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_READS_ROUNDS ?? 5);
const WARMUP_SECONDS = 2;
const STORES = (process.env.BENCH_READS_STORES ?? 'postgres,pglite').split(',') as ('postgres' | 'pglite')[];
export const READS_HEADING = '### Reads on both stores';
export const READ_TARGETS = { rps: 0.7, cpu: 1.5, p99: 1.5 };
const log = (line: string) => console.error(`[bench] ${line}`);

export interface ReadLoad extends Load {
  /** PostgreSQL backends' CPU per request, µs (PostgreSQL only). */
  pgCpuUs?: number;
  /** Lookups of `api_keys` (index and sequential scans) per request (PostgreSQL only). */
  keyLookups?: number;
}
/** Tare ÷ bare in one round (a bare run, then a Tare run). */
export interface RoundRatios {
  rps: number;
  cpu: number;
  p99: number;
}
export interface ReadsResults {
  seconds: number;
  rounds: number;
  stores: { store: string; endpoints: { path: string; tare: ReadLoad; bare: Load; ratios: RoundRatios[] }[] }[];
}

/** The demo catalog as one bench shop without rate limit, imported by the CLI, and a key for it. */
async function prepare(tmp: string, env: Record<string, string>): Promise<string> {
  const document = structuredClone(DEMO_CATALOG);
  const shop = document.shops[0]!;
  shop.domain = DOMAIN;
  shop.settings = { ...shop.settings, rateLimit: { enabled: false } };
  const file = path.join(tmp, 'reads-shop.json');
  writeFileSync(file, JSON.stringify(document));
  await runNode([TARE, 'import', file], env);
  const output = await runNode([TARE, 'keys', 'create', '--shop', DOMAIN], env);
  const key = /apik_[a-z2-7]{16}_[0-9A-Za-z]+/.exec(output)?.[0];
  if (!key) throw new Error(`tare keys create printed no key:\n${output}`);
  return key;
}

/** The real responses, captured once, for the baseline to replay byte for byte. */
async function captureFixtures(url: string, headers: Record<string, string>): Promise<Fixture[]> {
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  return Promise.all(
    READ_ENDPOINTS.map(async (endpoint) => {
      const res = await fetch(url + endpoint, { headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`GET ${endpoint} answered ${res.status}: ${body}`);
      const kept = Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)));
      return { path: endpoint, headers: kept, body };
    }),
  );
}

/** What PostgreSQL did for one run: its backends' CPU and the lookups of api_keys. */
function pgProbe(monitor: pg.Client) {
  const snapshot = async () => {
    // Statistics reach the shared counters when a backend goes idle, at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { rows } = await monitor.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        cpu.set(pid, cpuSeconds(pid));
      } catch {
        // exited meanwhile
      }
    }
    await monitor.query('SELECT pg_stat_clear_snapshot()');
    const scans = await monitor.query<{ n: string }>(
      `SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE relname = 'api_keys'`,
    );
    return { cpu, lookups: Number(scans.rows[0]?.n ?? 0) };
  };
  return async <T>(run: () => Promise<T & { requests: number }>) => {
    const before = await snapshot();
    const result = await run();
    const after = await snapshot();
    let cpu = 0;
    for (const [pid, s] of after.cpu) cpu += Math.max(0, s - (before.cpu.get(pid) ?? 0));
    return {
      ...result,
      pgCpuUs: (cpu * 1e6) / result.requests,
      keyLookups: (after.lookups - before.lookups) / result.requests,
    };
  };
}

/** One run, with its request count (autocannon's mean per second over the run). */
async function measureCounted(url: string, headers: Record<string, string>, seconds: number, pid: number) {
  const load = await measure(url, headers, seconds, pid);
  return { ...load, requests: Math.max(1, Math.round(load.rps * seconds)) };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
function combine<L extends ReadLoad>(runs: L[]): ReadLoad {
  const optional = (f: (r: L) => number | undefined) => {
    const xs = runs.map(f).filter((x): x is number => x !== undefined);
    return xs.length ? mean(xs) : undefined;
  };
  return {
    rps: mean(runs.map((r) => r.rps)),
    p50: mean(runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    cpuUs: mean(runs.map((r) => r.cpuUs)),
    pgCpuUs: optional((r) => r.pgCpuUs),
    keyLookups: optional((r) => r.keyLookups),
  };
}

async function benchStore(
  tmp: string,
  baseEnv: Record<string, string>,
  store: 'postgres' | 'pglite',
): Promise<ReadsResults['stores'][number]> {
  const databaseUrl = store === 'postgres' ? await createDatabase() : '';
  const env = {
    ...baseEnv,
    DATABASE_URL: databaseUrl,
    TARE_DATA_DIR: path.join(tmp, store === 'postgres' ? 'reads-unused' : 'reads-pglite'),
  };
  const name = store === 'postgres' ? 'PostgreSQL' : 'PGlite';
  log(`reads on ${name}: tare import + tare keys create (${TARE})`);
  const key = await prepare(tmp, env);
  const auth = { authorization: `Bearer ${key}` };
  const profDir = process.env.BENCH_CPU_PROF;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const tare = spawnNode(
    [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] : []), TARE, 'serve'],
    { ...env, PORT: String(port) },
  );
  const monitor = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  try {
    await waitFor200(`${url}/readyz`, tare);
    const fixtures = path.join(tmp, `reads-fixtures-${store}.json`);
    writeFileSync(fixtures, JSON.stringify(await captureFixtures(url, auth)));
    const barePort = await freePort();
    const bareUrl = `http://127.0.0.1:${barePort}`;
    const bare = spawnNode(['--import', 'tsx', BARE, fixtures], { PORT: String(barePort), HOST: '127.0.0.1' });
    try {
      await waitFor200(bareUrl + READ_ENDPOINTS[0], bare);
      await monitor?.connect();
      const probe = monitor && pgProbe(monitor);
      const endpoints: ReadsResults['stores'][number]['endpoints'] = [];
      for (const endpoint of READ_ENDPOINTS) {
        log(
          `${name} GET ${endpoint}: warm-up ${WARMUP_SECONDS} s each, then ${ROUNDS} rounds of bare, tare × ${SECONDS} s`,
        );
        await measure(bareUrl + endpoint, auth, WARMUP_SECONDS, bare.pid);
        await measure(url + endpoint, auth, WARMUP_SECONDS, tare.pid);
        const runs: { bare: Load[]; tare: ReadLoad[] } = { bare: [], tare: [] };
        const ratios: RoundRatios[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const b = await measure(bareUrl + endpoint, auth, SECONDS, bare.pid);
          runs.bare.push(b);
          const t: ReadLoad = probe
            ? await probe(() => measureCounted(url + endpoint, auth, SECONDS, tare.pid))
            : await measure(url + endpoint, auth, SECONDS, tare.pid);
          runs.tare.push(t);
          ratios.push({ rps: t.rps / b.rps, cpu: t.cpuUs / b.cpuUs, p99: t.p99 / Math.max(b.p99, 1) });
          log(
            `  bare ${b.rps.toFixed(0)} req/s p99 ${b.p99} ms ${b.cpuUs.toFixed(0)} µs/req · ` +
              `tare ${t.rps.toFixed(0)} req/s p99 ${t.p99} ms ${t.cpuUs.toFixed(0)} µs/req` +
              (t.pgCpuUs === undefined ? '' : ` + PostgreSQL ${t.pgCpuUs.toFixed(0)} µs/req`) +
              (t.keyLookups === undefined ? '' : `, ${t.keyLookups.toFixed(3)} key lookups/req`) +
              ` → ${(t.rps / b.rps).toFixed(2)}× req/s, ${(t.cpuUs / b.cpuUs).toFixed(2)}× CPU`,
          );
        }
        endpoints.push({ path: endpoint, tare: combine(runs.tare), bare: combine(runs.bare), ratios });
      }
      return { store: name, endpoints };
    } finally {
      await stop(bare);
    }
  } finally {
    await monitor?.end().catch(() => undefined);
    await stop(tare);
    if (databaseUrl) await dropBenchDatabase();
  }
}

/** Every store of BENCH_READS_STORES in turn; `tmp` is the run's temp dir (removed by the caller). */
export async function benchReadStores(tmp: string, baseEnv: Record<string, string>): Promise<ReadsResults> {
  const stores: ReadsResults['stores'] = [];
  for (const store of STORES) stores.push(await benchStore(tmp, baseEnv, store));
  return { seconds: SECONDS, rounds: ROUNDS, stores };
}

/** The README table and the targets missed. */
export function readsTable(r: ReadsResults): { markdown: string; missed: string[] } {
  const rows: string[] = [];
  const missed: string[] = [];
  const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
  for (const { store, endpoints } of r.stores) {
    for (const { path: endpoint, tare, bare, ratios } of endpoints) {
      const of = (pick: (r: RoundRatios) => number) => {
        const xs = ratios.map(pick);
        return { median: median(xs), low: Math.min(...xs), high: Math.max(...xs) };
      };
      const [rps, cpu, p99] = [of((r) => r.rps), of((r) => r.cpu), of((r) => r.p99)];
      const range = (x: { low: number; high: number }) => `${x.low.toFixed(2)}–${x.high.toFixed(2)}`;
      const ok = rps.median >= READ_TARGETS.rps && cpu.median <= READ_TARGETS.cpu && p99.median <= READ_TARGETS.p99;
      if (!ok)
        missed.push(
          `${store} GET ${endpoint}: ${rps.median.toFixed(2)}× req/s, ${cpu.median.toFixed(2)}× CPU, ${p99.median.toFixed(2)}× p99`,
        );
      const pgPart =
        tare.pgCpuUs === undefined
          ? ''
          : `; PostgreSQL ${tare.pgCpuUs.toFixed(0)} µs/req, ${(tare.keyLookups ?? 0).toFixed(3)} key lookups/req`;
      rows.push(
        `| ${store}: \`GET ${endpoint}\` Tare ÷ bare, median of ${ratios.length} rounds (range) | ` +
          `req/s **${rps.median.toFixed(2)}** (${range(rps)}; mean ${Math.round(tare.rps).toLocaleString('en-US')} / ${Math.round(bare.rps).toLocaleString('en-US')}); ` +
          `CPU **${cpu.median.toFixed(2)}** (${range(cpu)}; mean ${tare.cpuUs.toFixed(0)} / ${bare.cpuUs.toFixed(0)} µs/req); ` +
          `p99 **${p99.median.toFixed(2)}** (${range(p99)})${pgPart} | ` +
          `≥ 0.7 req/s, ≤ 1.5 CPU, ≤ 1.5 p99 | ${yes(ok)} |`,
      );
    }
  }
  const markdown = ['| Measurement | Result | Target | Met |', '|---|---|---|---|', ...rows].join('\n');
  return { markdown, missed };
}
