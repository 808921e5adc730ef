// `npm run bench -- --citus` (issue 26): Tare on the local Citus cluster against plain PostgreSQL
// in the same run. A fresh database on each (PostgreSQL through BENCH_PG_URL as bench/inventory.ts
// makes it; Citus through `cluster.sh createdb`, 32 shards as in production), the inventory
// bench's shop imported into both by `tare import`, a `tare serve` per store. Measured,
// alternating PostgreSQL then Citus in every round to cancel the machine's drift:
// - single-entry adjustments over HTTP at 1 and 8 clients (tx/s, p50, p99, and the database CPU
//   per write: PostgreSQL's backends against the Citus coordinator's and workers');
// - cached reads (bench/reads.ts's endpoints) with 64 connections, and the uncached level read;
// - the idle inbox/outbox poll: statements and shard tasks (Citus's EXPLAIN) of each worker's
//   poll with nothing due, and the transactions the Citus workers ran while the server idled.
// Printed only (bench/README.md keeps the figures of a run by hand). Env: BENCH_CITUS_SECONDS
// (per run, default 4), BENCH_CITUS_ROUNDS (default 3), BENCH_CITUS_SHARD_ROUTING (`on`, the
// default: the Citus server runs with TARE_SHARD_ROUTING=on; `off`: every statement through the
// coordinator), BENCH_CITUS_DIR (the folder holding
// cluster.sh; else ../shared/citus or /work/shared/citus), BENCH_CITUS_ADMIN_URL (default
// postgres://postgres@127.0.0.1:5441/postgres), BENCH_PG_URL as in bench/inventory.ts.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createLogger } from '../packages/server/src/logger.js';
import { createLocalGateway } from '../packages/server/src/platform/local/local-gateway.js';
import { createInboxWorker } from '../packages/server/src/services/events/inbox-worker.js';
import { createPushWorker } from '../packages/server/src/services/projection/push-worker.js';
import { createMetafieldWorker } from '../packages/server/src/services/storefront/metafield-worker.js';
import { openPostgres } from '../packages/server/src/store/pg-driver.js';
import { citusTasks } from '../packages/server/test/support/citus-plan.js';
import { recording, type Sent } from '../packages/server/test/support/recording-db.js';
import {
  backendsOf,
  type Backends,
  combine,
  createDatabase,
  drive,
  dropBenchDatabase,
  prepareStore,
  type Rate,
  singleOp,
  startTare,
  type Tare,
} from './inventory.js';
import { type Load, measure } from './load.js';
import { stop } from './procs.js';
import { READ_ENDPOINTS } from './reads.js';
import { median } from './report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_CITUS_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_CITUS_ROUNDS ?? 3);
const ADMIN_URL = process.env.BENCH_CITUS_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5441/postgres';
const SHARD_ROUTING = process.env.BENCH_CITUS_SHARD_ROUTING ?? 'on';
const WRITE_CLIENTS = [1, 8];
const LEVEL_READ = '/api/v1/inventory/levels?locationId=70001&variantId=300000';
/** Citus ÷ PostgreSQL, issue 26: a write at most twice the time, a cached read at most 1.2 times. */
export const CITUS_TARGETS = { write: 2, cachedRead: 1.2 };
const log = (line: string) => console.error(`[bench] ${line}`);

type StoreName = 'PostgreSQL' | 'Citus';
const STORES: StoreName[] = ['PostgreSQL', 'Citus'];

interface Figures {
  tps: number;
  p50: number;
  p99: number;
  /** The database's CPU per request (PostgreSQL's backends; on Citus the coordinator's and workers'). */
  dbCpuUs?: number;
  /** The Tare server's own CPU per request (its process). */
  tareCpuUs?: number;
}

interface Compared {
  name: string;
  /** Per store: the runs' combined figures. */
  postgres: Figures;
  citus: Figures;
  /** Citus ÷ PostgreSQL of each round: time per request (PostgreSQL's rate ÷ Citus's) and p50. */
  ratios: { time: number; p50: number }[];
  target?: number;
}

export interface CitusResults {
  seconds: number;
  rounds: number;
  shards: number;
  /** TARE_SHARD_ROUTING of the Citus server. */
  shardRouting: string;
  writes: Compared[];
  reads: Compared[];
  idle: { queue: string; pollStatements: number; pollTasks: number; sweepTasks: number }[];
  /** Transactions per second the Citus worker nodes ran for the bench database while the server idled. */
  idleWorkerTps: number;
  /** The same before any Tare ran on it: Citus's own (its maintenance daemon's deadlock detection, …). */
  ownWorkerTps: number;
}

/** The folder with cluster.sh, or a clear error. */
function citusFolder(): string {
  const candidates = [process.env.BENCH_CITUS_DIR, path.resolve(ROOT, '../shared/citus'), '/work/shared/citus'];
  const found = candidates.find((dir) => dir && existsSync(path.join(dir, 'cluster.sh')));
  if (!found)
    throw new Error(
      `no Citus folder: none of ${candidates.filter(Boolean).join(', ')} holds cluster.sh ` +
        '(the citus folder beside the repository, see docs/operations.md "Running on Citus"; or set BENCH_CITUS_DIR)',
    );
  return found;
}

async function query<R extends object>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

let dropCitus: (() => void) | undefined;

/** Drops the Citus database of the run, if one was made; safe to call more than once. */
export function dropCitusBenchDatabase(): void {
  const drop = dropCitus;
  dropCitus = undefined;
  drop?.();
}

/** A fresh database on every node of the cluster (`cluster.sh createdb`); its URL. */
async function createCitusDatabase(folder: string): Promise<string> {
  try {
    await query(ADMIN_URL, 'SELECT 1');
  } catch (error) {
    throw new Error(
      `the Citus cluster does not answer at ${ADMIN_URL} (${error instanceof Error ? error.message : error}); ` +
        `start it with ${path.join(folder, 'cluster.sh')} start`,
      { cause: error },
    );
  }
  const name = `tare_bench_citus_${randomBytes(6).toString('hex')}`;
  const script = path.join(folder, 'cluster.sh');
  const output = execFileSync(script, ['createdb', name], { encoding: 'utf8' });
  const url = output.trim().split('\n').at(-1)!;
  if (!url.startsWith('postgres://')) throw new Error(`cluster.sh createdb printed no URL:\n${output}`);
  dropCitus = () => {
    try {
      execFileSync(script, ['dropdb', name], { stdio: 'ignore' });
    } catch {
      log(`could not drop the Citus database ${name}: drop it with ${script} dropdb ${name}`);
    }
  };
  return url;
}

/** Each queue's worker, in process on the Citus database: its sweep and then its poll with nothing due. */
async function idlePolls(url: string): Promise<CitusResults['idle']> {
  const db = await openPostgres({ connectionString: url });
  const logger = createLogger('silent');
  const unused = () => Promise.reject(new Error('nothing is due'));
  try {
    const sent: Sent[] = [];
    const rec = recording(db, sent);
    const workers = {
      inbox: createInboxWorker({ db: rec, gateway: createLocalGateway(), logger }),
      'stock outbox': createPushWorker({ db: rec, push: unused, readLevel: unused, logger }),
      'metafield outbox': createMetafieldWorker({ db: rec, write: unused, logger }),
    };
    const idle: CitusResults['idle'] = [];
    for (const [queue, worker] of Object.entries(workers)) {
      sent.length = 0;
      await worker.drainNow(); // the sweep: asks every shard
      let sweepTasks = 0;
      for (const s of sent) sweepTasks += await citusTasks(db, s.sql, s.params);
      sent.length = 0;
      await worker.poll(); // what runs every second
      let pollTasks = 0;
      const pollStatements = sent.length;
      for (const s of [...sent]) pollTasks += await citusTasks(db, s.sql, s.params);
      idle.push({ queue, pollStatements, pollTasks, sweepTasks });
      log(`  ${queue}: idle poll ${pollStatements} statements, ${pollTasks} shard tasks; sweep ${sweepTasks} tasks`);
    }
    return idle;
  } finally {
    await db.close();
  }
}

/** `coordinatorUrl` pointed at each worker of its cluster (`pg_dist_node`), `database` on it (else the same). */
async function workerUrls(coordinatorUrl: string, database?: string): Promise<string[]> {
  const nodes = await query<{ host: string; port: number }>(
    coordinatorUrl,
    `SELECT nodename AS host, nodeport AS port FROM pg_dist_node WHERE noderole = 'primary' AND groupid <> 0`,
  );
  return nodes.map((node) => {
    const url = new URL(coordinatorUrl);
    url.hostname = node.host;
    url.port = String(node.port);
    if (database) url.pathname = `/${database}`;
    return url.toString();
  });
}

/** Transactions/s the worker nodes ran for `database` while nothing happened (pg_stat_database). */
async function idleWorkerTps(coordinatorUrl: string, seconds: number): Promise<number> {
  const workers = await workerUrls(coordinatorUrl, 'postgres');
  const database = new URL(coordinatorUrl).pathname.slice(1);
  const count = async () => {
    let total = 0;
    for (const url of workers) {
      const rows = await query<{ n: string }>(
        url,
        'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
        [database],
      );
      total += Number(rows[0]?.n ?? 0);
    }
    return total;
  };
  // Backends report their counts when idle, within ~10 s: let the load's counts land first (the
  // same lag at the end cancels). The counting itself is on the postgres database, not counted.
  await sleep(11_000);
  const before = await count();
  await sleep(seconds * 1000);
  const after = await count();
  return (after - before) / seconds;
}

function compare(name: string, runs: Record<StoreName, Rate[]>, target?: number): Compared {
  const ratios = runs.PostgreSQL.map((p, i) => {
    const c = runs.Citus[i]!;
    return { time: p.tps / c.tps, p50: c.p50 / p.p50 };
  });
  const pick = (r: Rate): Figures => ({
    tps: r.tps,
    p50: r.p50,
    p99: r.p99,
    dbCpuUs: r.pgCpuUs,
    tareCpuUs: r.tareCpuUs,
  });
  return { name, postgres: pick(combine(runs.PostgreSQL)), citus: pick(combine(runs.Citus)), ratios, target };
}

const asRate = (load: Load, seconds: number): Rate => ({
  tps: load.rps,
  p50: load.p50,
  p99: load.p99,
  requests: Math.round(load.rps * seconds),
});

/**
 * A connection to each server of each store's database, to read its backends' CPU: PostgreSQL's
 * one, and on Citus the coordinator and every worker (`pg_dist_node`), whose backends do the work
 * the coordinator sends them.
 */
async function databaseMonitors(urls: Record<StoreName, string>): Promise<Record<StoreName, pg.Client[]>> {
  const connect = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return client;
  };
  return {
    PostgreSQL: [await connect(urls.PostgreSQL)],
    Citus: await Promise.all([urls.Citus, ...(await workerUrls(urls.Citus))].map(connect)),
  };
}

export async function benchCitus(tmp: string, baseEnv: Record<string, string>): Promise<CitusResults> {
  const folder = citusFolder();
  const citusUrl = await createCitusDatabase(folder);
  const servers: Partial<Record<StoreName, Tare & { key: string }>> = {};
  let monitors: Record<StoreName, pg.Client[]> | undefined;
  let ownWorkerTps = 0;
  try {
    const pgUrl = await createDatabase();
    const urls: Record<StoreName, string> = { PostgreSQL: pgUrl, Citus: citusUrl };
    for (const store of STORES) {
      const env = {
        ...baseEnv,
        DATABASE_URL: urls[store],
        TARE_DATA_DIR: path.join(tmp, 'citus-unused'),
        ...(store === 'Citus' ? { TARE_SHARD_ROUTING: SHARD_ROUTING } : {}),
      };
      log(`${store}: tare import + tare keys create (the inventory bench's shop)`);
      const key = await prepareStore(tmp, env);
      await query(urls[store], 'ANALYZE');
      if (store === 'Citus') {
        log('idle: the Citus workers’ transactions for the database with no Tare running (~30 s)');
        ownWorkerTps = await idleWorkerTps(citusUrl, 20);
        log(`  ${ownWorkerTps.toFixed(2)} transactions/s: Citus's own (deadlock detection, maintenance)`);
      }
      const tare = await startTare(env, [], key, Math.max(...WRITE_CLIENTS));
      servers[store] = { ...tare, key };
    }
    const shards = await query<{ n: number }>(
      citusUrl,
      `SELECT count(*)::int AS n FROM pg_dist_shard WHERE logicalrelid = 'inventory_levels'::regclass`,
    );
    const both = servers as Record<StoreName, Tare & { key: string }>;
    monitors = await databaseMonitors(urls);
    const backends: Record<StoreName, Backends> = {
      PostgreSQL: backendsOf(...monitors.PostgreSQL),
      Citus: backendsOf(...monitors.Citus),
    };

    const writes: Compared[] = [];
    for (const clients of WRITE_CLIENTS) {
      log(`single-entry adjustments, ${clients} client(s): warm-up 1 s each, then ${ROUNDS} rounds × ${SECONDS} s`);
      for (const store of STORES) await drive(clients, singleOp(both[store], `cwarm${clients}`), { seconds: 1 });
      const runs: Record<StoreName, Rate[]> = { PostgreSQL: [], Citus: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const store of STORES) {
          const op = singleOp(both[store], `c${clients}-${round}`);
          const rate = await drive(
            clients,
            op,
            { seconds: SECONDS },
            { backends: backends[store], tare: both[store].child.pid },
          );
          runs[store].push(rate);
          log(
            `  ${store}: ${rate.tps.toFixed(0)} tx/s, p50 ${rate.p50.toFixed(1)} ms, p99 ${rate.p99.toFixed(1)} ms, ` +
              `database CPU ${rate.pgCpuUs?.toFixed(0)} µs/tx, Tare CPU ${rate.tareCpuUs?.toFixed(0)} µs/tx`,
          );
        }
      }
      const name = `single-entry adjustment, ${clients} client${clients > 1 ? 's' : ''}`;
      writes.push(compare(name, runs, CITUS_TARGETS.write));
    }

    const reads: Compared[] = [];
    for (const endpoint of [...READ_ENDPOINTS, LEVEL_READ]) {
      const cached = endpoint !== LEVEL_READ;
      log(`GET ${endpoint}: warm-up 2 s each, then ${ROUNDS} rounds × ${SECONDS} s, 64 connections`);
      const auth = (store: StoreName) => ({ authorization: `Bearer ${both[store].key}` });
      for (const store of STORES) await measure(both[store].url + endpoint, auth(store), 2, both[store].child.pid);
      const runs: Record<StoreName, Rate[]> = { PostgreSQL: [], Citus: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const store of STORES) {
          const load = await measure(both[store].url + endpoint, auth(store), SECONDS, both[store].child.pid);
          runs[store].push(asRate(load, SECONDS));
          log(`  ${store}: ${load.rps.toFixed(0)} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms`);
        }
      }
      reads.push(
        compare(`GET ${endpoint}${cached ? ' (cached)' : ''}`, runs, cached ? CITUS_TARGETS.cachedRead : undefined),
      );
    }

    // A whole minute: the queues' sweep of every shard runs once a minute (SWEEP_MS), in bursts.
    log('idle: the Citus workers’ transactions while the servers idle (~70 s)');
    const workerTps = await idleWorkerTps(citusUrl, 60);
    log(`  ${workerTps.toFixed(2)} transactions/s on the worker nodes`);
    log('idle polls, in process on the Citus database');
    const idle = await idlePolls(citusUrl);
    return {
      seconds: SECONDS,
      rounds: ROUNDS,
      shards: shards[0]?.n ?? 0,
      shardRouting: SHARD_ROUTING,
      writes,
      reads,
      idle,
      idleWorkerTps: workerTps,
      ownWorkerTps,
    };
  } finally {
    for (const monitor of monitors ? [...monitors.PostgreSQL, ...monitors.Citus] : []) {
      await monitor.end().catch(() => undefined);
    }
    for (const store of STORES) {
      const server = servers[store];
      if (!server) continue;
      server.close();
      await stop(server.child);
    }
    await dropBenchDatabase();
    dropCitusBenchDatabase();
  }
}

/** The table printed, and the targets missed. */
export function citusTable(r: CitusResults): { markdown: string; missed: string[] } {
  const missed: string[] = [];
  const rows = [...r.writes, ...r.reads].map((c) => {
    const time = c.ratios.map((x) => x.time);
    const p50 = c.ratios.map((x) => x.p50);
    const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
    const ok = c.target === undefined ? undefined : median(time) <= c.target;
    if (ok === false)
      missed.push(`Citus ${c.name}: ${median(time).toFixed(2)}× PostgreSQL's time (target ≤ ${c.target}×)`);
    const fig = (s: Figures) =>
      `${s.tps.toFixed(0)}/s, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms` +
      (s.dbCpuUs === undefined ? '' : `, database CPU ${s.dbCpuUs.toFixed(0)} µs`);
    return (
      `| ${c.name} | ${fig(c.postgres)} | ${fig(c.citus)} | **${median(time).toFixed(2)}×** (${range(time)}); ` +
      `p50 ${median(p50).toFixed(2)}× | ${c.target === undefined ? '—' : `≤ ${c.target}×`} | ` +
      `${ok === undefined ? '—' : ok ? 'yes' : '**no**'} |`
    );
  });
  for (const c of r.writes) {
    const [pgCpu, citusCpu] = [c.postgres.dbCpuUs, c.citus.dbCpuUs];
    if (pgCpu === undefined || citusCpu === undefined) continue;
    rows.push(
      `| database CPU per request: ${c.name} | ${pgCpu.toFixed(0)} µs | ${citusCpu.toFixed(0)} µs (coordinator and workers) | ` +
        `${(citusCpu / pgCpu).toFixed(2)}× (mean of rounds) | — | — |`,
    );
  }
  for (const c of r.writes) {
    const [pgTare, citusTare] = [c.postgres.tareCpuUs, c.citus.tareCpuUs];
    if (pgTare === undefined || citusTare === undefined) continue;
    rows.push(
      `| Tare's own CPU per request: ${c.name} | ${pgTare.toFixed(0)} µs | ${citusTare.toFixed(0)} µs | ` +
        `${(citusTare / pgTare).toFixed(2)}× (mean of rounds) | — | — |`,
    );
  }
  const pollStatements = r.idle.reduce((a, q) => a + q.pollStatements, 0);
  const pollTasks = r.idle.reduce((a, q) => a + q.pollTasks, 0);
  if (pollTasks > 0) missed.push(`idle polls touched ${pollTasks} shards (target: none)`);
  rows.push(
    `| idle poll of the inbox and both outboxes (every second) | — | ${pollStatements} statements, ${pollTasks} shard tasks ` +
      `(the sweep, every minute: ${r.idle.map((q) => `${q.queue} ${q.sweepTasks}`).join(', ')} tasks) | — | no shard | ${pollTasks === 0 ? 'yes' : '**no**'} |`,
    `| Citus worker nodes while the server idles | — | ${r.idleWorkerTps.toFixed(2)} transactions/s ` +
      `(with no Tare running: ${r.ownWorkerTps.toFixed(2)}, Citus's own) | — | — | — |`,
  );
  const markdown = [
    '| Measurement | PostgreSQL | Citus | Citus ÷ PostgreSQL: time per request, median of rounds (range) | Target | Met |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  return { markdown, missed };
}
