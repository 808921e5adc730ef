// PGlite under mixed load (`BENCH_ONLY=pglite`, and part of the full run): reads alone against
// reads while 8 writers run through the API, the server's event-loop lag in each phase, and the
// peak RSS of a first start on an empty data dir: from the seed cluster the build made, against
// TARE_PGLITE_SEED=off (initdb, as before the seed) in the same run. See bench/README.md.
// Env: BENCH_PGLITE_SECONDS (per phase, default 5).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEMO_CATALOG } from '../packages/server/src/cli/demo-catalog.js';
import { type Load, measure } from './load.js';
import { type Child, freePort, runNode, spawnNode, stop, waitFor200 } from './procs.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TARE = path.join(ROOT, 'packages/server/bin/tare.js');
const DOMAIN = 'bench-mixed.example';
const LOCATION = '70001';
const SECONDS = Number(process.env.BENCH_PGLITE_SECONDS ?? 5);
export const MIXED_WRITERS = 8;
const VARIANTS = Array.from({ length: 400 }, (_, i) => String(300000 + i));
/** A read served from the server's caches, and one that reads PGlite every time. */
export const MIXED_READS = [
  { name: 'GET /api/v1/products/1001', path: '/api/v1/products/1001' },
  {
    name: 'GET /api/v1/inventory/levels (1 variant)',
    path: `/api/v1/inventory/levels?locationId=${LOCATION}&variantId=${VARIANTS[7]}`,
  },
];

const log = (line: string) => console.error(`[bench] ${line}`);

export interface Lag {
  p99: number;
  max: number;
}
export interface MixedRead {
  name: string;
  alone: Load & { lag: Lag };
  mixed: Load & { lag: Lag; writesPerSecond: number };
}
export interface FirstStart {
  ms: number;
  /** VmHWM once ready. */
  peakRssMb: number;
  /** VmRSS once ready: what the start left held. */
  rssMb: number;
}
export interface PgliteResults {
  /** From the seed (the larger peak of two starts), and with TARE_PGLITE_SEED=off (initdb). */
  firstStart: FirstStart;
  initdbStart: FirstStart;
  reads: MixedRead[];
  seconds: number;
}

function document() {
  const doc = structuredClone(DEMO_CATALOG);
  const shop = doc.shops[0]!;
  shop.domain = DOMAIN;
  shop.settings = { ...shop.settings, rateLimit: { enabled: false } };
  shop.products = [
    ...(shop.products ?? []),
    {
      id: '1900',
      title: 'Bulk flour',
      measurementType: 'weight',
      variants: VARIANTS.map((id) => ({
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
        inventory: [{ locationId: LOCATION, quantity: { value: 100000, unit: 'kg' } }],
      })),
    },
  ];
  return doc;
}

/** Peak resident set of the process so far (VmHWM): exact, however brief the peak; and now (VmRSS). */
function rssMb(pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** `tare serve` started on an empty data dir until it answers, then stopped. */
async function firstStart(env: Record<string, string>, label: string): Promise<FirstStart> {
  rmSync(env.TARE_DATA_DIR!, { recursive: true, force: true });
  const first = await serve(env);
  const result = { ms: first.ms, peakRssMb: rssMb(first.child.pid), rssMb: rssMb(first.child.pid, 'VmRSS') };
  await stop(first.child);
  log(
    `  ${label}: ready in ${result.ms.toFixed(0)} ms, peak RSS ${result.peakRssMb.toFixed(0)} MB, ${result.rssMb.toFixed(0)} MB held`,
  );
  return result;
}

async function serve(env: Record<string, string>): Promise<{ child: Child; url: string; ms: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawnNode([TARE, 'serve'], { ...env, PORT: String(port) });
  await waitFor200(`${url}/readyz`, child);
  return { child, url, ms: performance.now() - started };
}

/** Event-loop lag since the last scrape: prom-client's default metrics reset their histogram on each. */
async function scrapeLag(url: string): Promise<Lag> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: gauge('nodejs_eventloop_lag_p99_seconds'), max: gauge('nodejs_eventloop_lag_max_seconds') };
}

/** `count` keep-alive writers of single-entry adjustments until stopped; each answer must be 200. */
function startWriters(url: string, apiKey: string, count: number, phase: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const { hostname, port } = new URL(url);
  let running = true;
  let done = 0;
  let next = 0;
  const post = (i: number, w: number) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({
        locationId: LOCATION,
        adjustments: [{ variantId: VARIANTS[next++ % VARIANTS.length], delta: { value: 0.25, unit: 'kg' } }],
      });
      const req = http.request(
        {
          agent,
          hostname,
          port,
          path: '/api/v1/inventory/adjustments',
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'idempotency-key': `${phase}-${w}-${i}`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`write answered ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const started = performance.now();
  const loops = Promise.all(
    Array.from({ length: count }, async (_, w) => {
      for (let i = 0; running; i++) {
        await post(i, w);
        done++;
      }
    }),
  );
  return {
    async stop(): Promise<number> {
      running = false;
      await loops;
      agent.destroy();
      return done / ((performance.now() - started) / 1000);
    },
  };
}

export async function benchPglite(tmp: string, baseEnv: Record<string, string>): Promise<PgliteResults> {
  const env = { ...baseEnv, TARE_DATA_DIR: path.join(tmp, 'pglite-mixed') };
  log('PGlite first start on an empty data dir (peak RSS = VmHWM of the server once ready): seed, initdb, seed');
  const seeded = [await firstStart(env, 'seed')];
  const initdbStart = await firstStart({ ...env, TARE_PGLITE_SEED: 'off' }, 'initdb (TARE_PGLITE_SEED=off)');
  seeded.push(await firstStart(env, 'seed'));
  const first = seeded.reduce((a, b) => (b.peakRssMb > a.peakRssMb ? b : a));

  const file = path.join(tmp, 'pglite-mixed.json');
  writeFileSync(file, JSON.stringify(document()));
  await runNode([TARE, 'import', file], env);
  const output = await runNode([TARE, 'keys', 'create', '--shop', DOMAIN], env);
  const apiKey = /apik_[a-z2-7]{16}_[0-9A-Za-z]+/.exec(output)?.[0];
  if (!apiKey) throw new Error(`tare keys create printed no key:\n${output}`);
  const auth = { authorization: `Bearer ${apiKey}` };

  const tare = await serve(env);
  const pid = tare.child.pid;
  const reads: MixedRead[] = [];
  try {
    const warm = startWriters(tare.url, apiKey, MIXED_WRITERS, 'warm');
    await measure(tare.url + MIXED_READS[0]!.path, auth, 1, pid);
    await warm.stop();
    for (const read of MIXED_READS) {
      log(`PGlite ${read.name}: alone, with ${MIXED_WRITERS} writers, alone, with writers × ${SECONDS} s`);
      const alone: MixedRead['alone'][] = [];
      const mixed: MixedRead['mixed'][] = [];
      for (let round = 0; round < 2; round++) {
        await scrapeLag(tare.url);
        const a = await measure(tare.url + read.path, auth, SECONDS, pid);
        alone.push({ ...a, lag: await scrapeLag(tare.url) });
        const writers = startWriters(tare.url, apiKey, MIXED_WRITERS, `${read.path}-${round}`);
        const m = await measure(tare.url + read.path, auth, SECONDS, pid);
        const writesPerSecond = await writers.stop();
        mixed.push({ ...m, lag: await scrapeLag(tare.url), writesPerSecond });
        for (const [name, r] of [
          ['alone', alone.at(-1)!],
          ['mixed', mixed.at(-1)!],
        ] as const)
          log(
            `  ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} / p99 ${r.p99} ms, lag p99 ${r.lag.p99.toFixed(1)} / max ${r.lag.max.toFixed(1)} ms` +
              ('writesPerSecond' in r ? `, writes ${r.writesPerSecond.toFixed(0)}/s` : ''),
          );
      }
      reads.push({ name: read.name, alone: combine(alone), mixed: combine(mixed) });
    }
  } finally {
    await stop(tare.child);
  }
  return { firstStart: first, initdbStart, reads, seconds: SECONDS };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Mean rate and p50, worst p99 and lag. */
function combine<R extends Load & { lag: Lag }>(runs: R[]): R {
  const out = { ...runs[0]! };
  out.rps = mean(runs.map((r) => r.rps));
  out.p50 = mean(runs.map((r) => r.p50));
  out.cpuUs = mean(runs.map((r) => r.cpuUs));
  out.p99 = Math.max(...runs.map((r) => r.p99));
  out.lag = { p99: Math.max(...runs.map((r) => r.lag.p99)), max: Math.max(...runs.map((r) => r.lag.max)) };
  if ('writesPerSecond' in out)
    (out as { writesPerSecond: number }).writesPerSecond = mean(
      runs.map((r) => (r as unknown as { writesPerSecond: number }).writesPerSecond),
    );
  return out;
}

const f0 = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const f1 = (n: number) => n.toFixed(1);

export const PGLITE_HEADING = '### PGlite under mixed load';

/** The README table and the targets missed. */
export function pgliteTable(r: PgliteResults): { markdown: string; missed: string[] } {
  const missed: string[] = [];
  const rows = ['| Measurement | Result | Target | Met |', '|---|---|---|---|'];
  const rssMet = r.firstStart.peakRssMb < 400;
  if (!rssMet) missed.push(`PGlite first start peak RSS ${f0(r.firstStart.peakRssMb)} MB (target < 400 MB)`);
  const start = (s: FirstStart) => `ready in ${(s.ms / 1000).toFixed(2)} s, ${f0(s.rssMb)} MB held once ready`;
  rows.push(
    `| PGlite: first start on an empty data dir, peak RSS of the server (VmHWM), from the seed cluster | **${f0(r.firstStart.peakRssMb)} MB** (${start(r.firstStart)}) | < 400 MB | ${rssMet ? 'yes' : '**no**'} |`,
    `| PGlite: the same with \`TARE_PGLITE_SEED=off\` (initdb, as before the seed), same run | ${f0(r.initdbStart.peakRssMb)} MB (${start(r.initdbStart)}); seed ÷ initdb **${(r.firstStart.peakRssMb / r.initdbStart.peakRssMb).toFixed(2)}** | | |`,
  );
  for (const read of r.reads) {
    const ratio = read.mixed.rps / read.alone.rps;
    const ratioMet = ratio >= 0.5;
    const lagMet = read.mixed.lag.p99 < 20;
    if (!ratioMet) missed.push(`PGlite ${read.name}: reads with writers ÷ alone ${ratio.toFixed(2)} (target ≥ 0.5)`);
    if (!lagMet)
      missed.push(`PGlite ${read.name}: event-loop lag p99 ${f1(read.mixed.lag.p99)} ms with writers (target < 20 ms)`);
    rows.push(
      `| PGlite: ${read.name} req/s with ${MIXED_WRITERS} writers ÷ alone | ${f0(read.mixed.rps)} / ${f0(read.alone.rps)} = **${ratio.toFixed(2)}** (p50 ${f1(read.mixed.p50)} / p99 ${read.mixed.p99} ms, alone ${f1(read.alone.p50)} / ${read.alone.p99} ms; writes ${f0(read.mixed.writesPerSecond)}/s; server CPU ${f0(read.mixed.cpuUs)} / ${f0(read.alone.cpuUs)} µs per read) | ≥ 0.5 | ${ratioMet ? 'yes' : '**no**'} |`,
      `| PGlite: event-loop lag of the server, p99 / max, with writers (alone) | **${f1(read.mixed.lag.p99)}** / ${f1(read.mixed.lag.max)} ms (${f1(read.alone.lag.p99)} / ${f1(read.alone.lag.max)}) | p99 < 20 ms | ${lagMet ? 'yes' : '**no**'} |`,
    );
  }
  return { markdown: rows.join('\n'), missed };
}
