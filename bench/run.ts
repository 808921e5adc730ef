// `npm run bench`: start-up time, throughput/latency against a bare Fastify baseline, peak RSS,
// inventory writes (bench/inventory.ts) and platform events (bench/events.ts). See
// bench/README.md. Env: BENCH_SECONDS (per read measurement, default 10), BENCH_CPU_PROF=DIR
// (write V8 CPU profiles of the Tare server under load into DIR), BENCH_ONLY=inventory or
// BENCH_ONLY=events (only the inventory writes, or only the platform events; keeps the other
// figures in the README), BENCH_INVENTORY_SECONDS and BENCH_PG_URL (see bench/inventory.ts),
// BENCH_EVENTS_SECONDS and BENCH_EVENTS_LATENCY_ORDERS (see bench/events.ts), BENCH_ONLY=pglite
// (PGlite under mixed load and its first start, bench/pglite-mixed.ts; BENCH_PGLITE_SECONDS),
// BENCH_ONLY=reads (reads on PostgreSQL and PGlite, printed only; bench/reads.ts; BENCH_READS_*),
// BENCH_ONLY=function (the checkout function's time per cart, bench/cart-transform.ts),
// BENCH_ONLY=storefront (the sandbox storefront's add to cart, bench/storefront-cart.ts),
// BENCH_ONLY=items (sales on stock items of 1, 5 and 20 variants and the Shopify push of 20
// siblings, bench/stock-items.ts; BENCH_ITEMS_SECONDS).
// `npm run bench -- --scale` (bench/scale.ts) and `npm run bench -- --citus` (Citus against PostgreSQL,
// bench/citus.ts) run alone, printed only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEMO_CATALOG } from '../packages/server/src/cli/demo-catalog.js';
import type { Fixture } from './bare-server.js';
import { benchCartTransform, FUNCTION_HEADING, functionTable } from './cart-transform.js';
import { benchCitus, citusTable, dropCitusBenchDatabase } from './citus.js';
import { benchEvents } from './events.js';
import { benchInventory, dropBenchDatabase } from './inventory.js';
import { benchPglite, PGLITE_HEADING, pgliteTable } from './pglite-mixed.js';
import { benchReadStores, READS_HEADING, readsTable } from './reads.js';
import { benchScale, dropScaleDatabases, scaleTable } from './scale.js';
import { benchShopify, lastShopifyBlock, SHOPIFY_HEADING, shopifyTable } from './shopify-outbox.js';
import { benchStorefront, STOREFRONT_HEADING, storefrontTable } from './storefront-cart.js';
import { benchItems } from './stock-items.js';
import { ITEMS_HEADING, itemsTable } from './stock-items-report.js';
import { benchItemsShopify } from './stock-items-shopify.js';
import { cpuSeconds, type Load, measure, sampleRss } from './load.js';
import { type Child, freePort, runNode, spawnNode, stop, stopAll, waitFor200 } from './procs.js';
import {
  EVENTS_HEADING,
  eventsTable,
  INVENTORY_HEADING,
  inventoryTable,
  type Results,
  table,
  updateReadme,
  updateReadmeSubsection,
} from './report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TARE = path.join(ROOT, 'packages/server/bin/tare.js');
const BARE = path.join(ROOT, 'bench/bare-server.ts');
const DOMAIN = 'bench-shop.example';
const ENDPOINTS = ['/api/v1/app-settings', '/api/v1/products/1001'];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const ONLY = process.env.BENCH_ONLY ?? '';
const PARTS = ['inventory', 'events', 'shopify', 'pglite', 'reads', 'function', 'storefront', 'items'];
if (ONLY !== '' && !PARTS.includes(ONLY))
  throw new Error(`BENCH_ONLY must be ${PARTS.map((p) => `'${p}'`).join(', ')} or unset, got '${ONLY}'`);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'tare-bench-'));
const tareEnv = {
  TARE_DATA_DIR: path.join(tmp, 'data'),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
  REDIS_URL: '',
};
const log = (line: string) => console.error(`[bench] ${line}`);

/** A data dir holding the demo catalog as a bench shop without rate limit, and a key for it. */
async function prepare(): Promise<string> {
  const document = structuredClone(DEMO_CATALOG);
  const shop = document.shops[0]!;
  shop.domain = DOMAIN;
  shop.settings = { ...shop.settings, rateLimit: { enabled: false } };
  const file = path.join(tmp, 'bench-shop.json');
  writeFileSync(file, JSON.stringify(document));
  await runNode([TARE, 'import', file], tareEnv);
  const output = await runNode([TARE, 'keys', 'create', '--shop', DOMAIN], tareEnv);
  const key = /apik_[a-z2-7]{16}_[0-9A-Za-z]+/.exec(output)?.[0];
  if (!key) throw new Error(`tare keys create printed no key:\n${output}`);
  return key;
}

async function startTare(nodeFlags: string[] = []): Promise<{ child: Child; url: string; ms: number; cpuMs: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawnNode([...nodeFlags, TARE, 'serve'], { ...tareEnv, PORT: String(port) });
  await waitFor200(`${url}/readyz`, child);
  return { child, url, ms: performance.now() - started, cpuMs: cpuSeconds(child.pid) * 1000 };
}

/** The real responses, captured once, for the baseline to replay byte for byte. */
async function captureFixtures(url: string, headers: Record<string, string>): Promise<Fixture[]> {
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  return Promise.all(
    ENDPOINTS.map(async (endpoint) => {
      const res = await fetch(url + endpoint, { headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`GET ${endpoint} answered ${res.status}: ${body}`);
      const kept = Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)));
      return { path: endpoint, headers: kept, body };
    }),
  );
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const combine = (runs: Load[]): Load => ({
  rps: mean(runs.map((r) => r.rps)),
  p50: mean(runs.map((r) => r.p50)),
  p99: Math.max(...runs.map((r) => r.p99)),
  cpuUs: mean(runs.map((r) => r.cpuUs)),
});

/** Start-up, read throughput against the bare baseline, and RSS: the README table and its header line. */
async function benchReads(): Promise<{ markdown: string; missed: string[]; header: string }> {
  log(`preparing a data dir in ${tmp} (tare import + tare keys create)`);
  const key = await prepare();
  const auth = { authorization: `Bearer ${key}` };

  const startupMs: number[] = [];
  const startupCpuMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const { child, ms, cpuMs } = await startTare();
    startupMs.push(ms);
    startupCpuMs.push(cpuMs);
    log(`start → ready #${i + 1}: ${ms.toFixed(0)} ms (server CPU ${cpuMs.toFixed(0)} ms)`);
    await stop(child);
  }

  const profDir = process.env.BENCH_CPU_PROF;
  const tare = await startTare(profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] : []);
  const fixtures = path.join(tmp, 'fixtures.json');
  writeFileSync(fixtures, JSON.stringify(await captureFixtures(tare.url, auth)));
  const barePort = await freePort();
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const bare = spawnNode(['--import', 'tsx', BARE, fixtures], { PORT: String(barePort), HOST: '127.0.0.1' });
  await waitFor200(bareUrl + ENDPOINTS[0], bare);

  const tareRss = sampleRss(tare.child.pid);
  const bareRss = sampleRss(bare.pid);
  const endpoints: Results['endpoints'] = [];
  for (const endpoint of ENDPOINTS) {
    log(`GET ${endpoint}: warm-up ${WARMUP_SECONDS} s each, then bare, tare, bare, tare × ${SECONDS} s`);
    await measure(bareUrl + endpoint, auth, WARMUP_SECONDS, bare.pid);
    await measure(tare.url + endpoint, auth, WARMUP_SECONDS, tare.child.pid);
    const runs: Record<'bare' | 'tare', Load[]> = { bare: [], tare: [] };
    for (let round = 0; round < 2; round++) {
      for (const [name, url, pid] of [
        ['bare', bareUrl, bare.pid],
        ['tare', tare.url, tare.child.pid],
      ] as const) {
        const load = await measure(url + endpoint, auth, SECONDS, pid);
        runs[name].push(load);
        log(
          `  ${name}: ${load.rps.toFixed(0)} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms, ${load.cpuUs.toFixed(0)} µs CPU/req`,
        );
      }
    }
    endpoints.push({ path: endpoint, tare: combine(runs.tare), bare: combine(runs.bare) });
  }
  const results: Results = { startupMs, startupCpuMs, endpoints, peakRssMb: tareRss.stop(), bareRssMb: bareRss.stop() };
  await stopAll();
  if (profDir) log(`CPU profile of the Tare server written to ${profDir}`);

  return {
    ...table(results),
    header: `64 connections, ${WARMUP_SECONDS} s warm-up then 2 × ${SECONDS} s per server and endpoint`,
  };
}

/** BENCH_ONLY=shopify: the Shopify outbox alone (it waits out real backoff, so it is not in the full run). */
async function mainShopify(): Promise<void> {
  const results = await benchShopify(tmp);
  const { markdown } = shopifyTable(results);
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const block =
    `${date} UTC · \`nproc\` ${nproc} · node ${process.version} · in process on ` +
    `${results.stores.map((s) => s.store).join(' and ')}, fake Shopify at 100 points/s (real time): ` +
    `${results.variants} levels for a–c, ${results.outageWrites} writes and a ${results.outageMinutes}-minute outage for d–e\n\n${markdown}`;
  updateReadmeSubsection(path.join(ROOT, 'bench/README.md'), SHOPIFY_HEADING, block);
  console.log(`\n${markdown}\n`);
}

/** Reads on PostgreSQL and PGlite against the bare route (bench/reads.ts); `readme`: also write its block. */
async function readStores(readme?: string): Promise<{ markdown: string; missed: string[] }> {
  const results = await benchReadStores(tmp, tareEnv);
  const reads = readsTable(results);
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const block =
    `${date} UTC · \`nproc\` ${nproc} · node ${process.version} · \`tare serve\` on ` +
    `${results.stores.map((s) => s.store).join(' and ')}, 64 connections, ${results.rounds} rounds of bare then ` +
    `Tare per endpoint, ${results.seconds} s per run\n\n${reads.markdown}`;
  if (readme) updateReadmeSubsection(readme, READS_HEADING, block);
  console.log(`\n${block}\n`);
  return reads;
}

/** `npm run bench -- --scale`: the 100k-variant catalog against the small shop (bench/scale.ts), printed only. */
async function mainScale(): Promise<void> {
  execFileSync('npm', ['run', 'build', '--silent', '-w', '@tare/server'], { stdio: 'inherit' });
  const results = await benchScale(tmp);
  const { markdown, missed } = scaleTable(results);
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  console.log(
    `\n${date} UTC · \`nproc\` ${nproc} · node ${process.version} · ${results.variants.toLocaleString('en-US')} variants, ` +
      `${results.ledgerRows.toLocaleString('en-US')} ledger rows added\n\n${markdown}\n`,
  );
  console.log(missed.length ? `Targets missed:\n${missed.map((m) => `  - ${m}`).join('\n')}` : 'All targets met.');
}

/** `npm run bench -- --citus`: Tare on the local Citus cluster against PostgreSQL (bench/citus.ts), printed only. */
async function mainCitus(): Promise<void> {
  execFileSync('npm', ['run', 'build', '--silent', '-w', '@tare/server'], { stdio: 'inherit' });
  const results = await benchCitus(tmp, tareEnv);
  const { markdown, missed } = citusTable(results);
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  console.log(
    `\n${date} UTC · \`nproc\` ${nproc} · node ${process.version} · \`tare serve\` on PostgreSQL and on Citus ` +
      `(coordinator and ${results.shards} shards on two workers, same machine; shard routing ${results.shardRouting}), ` +
      `${results.rounds} alternating rounds of ` +
      `${results.seconds} s\n\n${markdown}\n`,
  );
  console.log(missed.length ? `Targets missed:\n${missed.map((m) => `  - ${m}`).join('\n')}` : 'All targets met.');
}

/** The checkout function per cart against a no-op function (bench/cart-transform.ts), into the README. */
function mainFunction(): void {
  log('checkout function: carts of 1, 10 and 100 measured lines, with the JIT and --jitless');
  const markdown = functionTable(benchCartTransform());
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const block =
    `${date} UTC · \`nproc\` ${nproc} · node ${process.version} · the esbuild bundle in process, median of 7 ` +
    `alternating batches of ~20 ms; Shopify allows a function 11 million Wasm instructions (QuickJS)\n\n${markdown}`;
  updateReadmeSubsection(path.join(ROOT, 'bench/README.md'), FUNCTION_HEADING, block);
  console.log(`\n${markdown}\n`);
}

/** The storefront's add to cart against the sandbox API's (bench/storefront-cart.ts), into the README. */
async function mainStorefront(): Promise<void> {
  log('storefront: cart/add.js against POST /sandbox/carts/{token}/add, one request at a time');
  const markdown = storefrontTable(await benchStorefront(tmp, tareEnv));
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const block =
    `${date} UTC · \`nproc\` ${nproc} · node ${process.version} · \`tare serve\` on PGlite (demo catalog, ` +
    `rate limit off), one keep-alive client, 7 alternating batches of ~300 ms\n\n${markdown}`;
  updateReadmeSubsection(path.join(ROOT, 'bench/README.md'), STOREFRONT_HEADING, block);
  console.log(`\n${markdown}\n`);
}

/** Sales on stock items against sales on a variant's own stock, and the Shopify push of 20 siblings, into the README. */
async function mainItems(): Promise<void> {
  const results = await benchItems(tmp);
  log('stock items on the fake Shopify: one sale on an item of 20 variants');
  const markdown = itemsTable(results, await benchItemsShopify(tmp));
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const block =
    `${date} UTC · \`nproc\` ${nproc} · node ${process.version} · in process on ` +
    `${results.stores.map((s) => s.store).join(' and ')}: each kind of sale drained for ${results.seconds} s per store, ` +
    `alternating (after a warm-up)\n\n${markdown}`;
  updateReadmeSubsection(path.join(ROOT, 'bench/README.md'), ITEMS_HEADING, block);
  console.log(`\n${markdown}\n`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--scale')) return mainScale();
  if (process.argv.includes('--citus')) return mainCitus();
  if (ONLY === 'items') return mainItems();
  if (ONLY === 'shopify') return mainShopify();
  if (ONLY === 'function') return mainFunction();
  if (ONLY === 'storefront') {
    execFileSync('npm', ['run', 'build', '--silent', '-w', '@tare/server'], { stdio: 'inherit' });
    return mainStorefront();
  }
  if (ONLY === 'reads') {
    // Printed only: a partial run of reads leaves the README to the full run.
    execFileSync('npm', ['run', 'build', '--silent', '-w', '@tare/server'], { stdio: 'inherit' });
    const { missed } = await readStores();
    console.log(missed.length ? `Targets missed:\n${missed.map((m) => `  - ${m}`).join('\n')}` : 'All targets met.');
    return;
  }
  // Measure what `npm install` leaves behind: the bundled CLI, not the tsx fallback for edited
  // sources. The events benchmark runs the sources in process and needs no build.
  if (ONLY !== 'events') execFileSync('npm', ['run', 'build', '--silent', '-w', '@tare/server'], { stdio: 'inherit' });
  const reads = ONLY === '' ? await benchReads() : undefined;
  const inventory =
    ONLY === 'events' || ONLY === 'pglite' ? undefined : inventoryTable(await benchInventory(tmp, tareEnv));
  const inventorySeconds = Number(process.env.BENCH_INVENTORY_SECONDS ?? 8);
  const eventResults = ONLY === 'inventory' || ONLY === 'pglite' ? undefined : await benchEvents(tmp);
  const events = eventResults && eventsTable(eventResults);
  const pgliteResults = ONLY === '' || ONLY === 'pglite' ? await benchPglite(tmp, tareEnv) : undefined;
  const pglite = pgliteResults && pgliteTable(pgliteResults);

  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const stamp = `${date} UTC · \`nproc\` ${nproc} · node ${process.version}`;
  const inventoryBlock =
    inventory &&
    `${stamp} · PostgreSQL and PGlite, warm-up 1 s then ${inventorySeconds} s per measurement ` +
      `(1-entry: 2 × ${inventorySeconds / 2} s alternating with the raw-SQL baseline)\n\n${inventory.markdown}`;
  const pgliteBlock =
    pgliteResults &&
    pglite &&
    `${stamp} · \`tare serve\` on PGlite, 64 read connections, ${pgliteResults.seconds} s per phase: alone, with writers, alone, with writers\n\n${pglite.markdown}`;
  const eventsBlock =
    eventResults &&
    events &&
    `${stamp} · in process on ${eventResults.stores.map((s) => s.store).join(' and ')}: ` +
      `${eventResults.seconds} s of each throughput figure per store (after a warm-up), ` +
      `${eventResults.latencyOrders} checkouts for the delay\n\n${events.markdown}`;
  const readme = path.join(ROOT, 'bench/README.md');
  if (reads) {
    const shopifyBlock = lastShopifyBlock(readme);
    updateReadme(
      readme,
      `${stamp} · ${reads.header}\n\n${reads.markdown}\n\n${INVENTORY_HEADING}\n\n${inventoryBlock}` +
        (eventsBlock ? `\n\n${EVENTS_HEADING}\n\n${eventsBlock}` : '') +
        (pgliteBlock ? `\n\n${PGLITE_HEADING}\n\n${pgliteBlock}` : ''),
    );
    // Not measured by a full run (it waits out real backoff): the last BENCH_ONLY=shopify figures stay.
    if (shopifyBlock) updateReadmeSubsection(readme, SHOPIFY_HEADING, shopifyBlock);
  } else {
    if (inventoryBlock) updateReadmeSubsection(readme, INVENTORY_HEADING, inventoryBlock);
    if (eventsBlock) updateReadmeSubsection(readme, EVENTS_HEADING, eventsBlock);
    if (pgliteBlock) updateReadmeSubsection(readme, PGLITE_HEADING, pgliteBlock);
  }
  // Reads on both stores (bench/reads.ts) in a full run, after the other parts.
  const readsBoth = reads ? await readStores(readme) : undefined;
  if (reads) mainFunction();
  if (reads) await mainStorefront();
  if (reads) await mainItems();
  const missed = [
    ...(reads?.missed ?? []),
    ...(readsBoth?.missed ?? []),
    ...(inventory?.missed ?? []),
    ...(events?.missed ?? []),
    ...(pglite?.missed ?? []),
  ];
  for (const part of [reads, inventory, events, pglite]) if (part) console.log(`\n${part.markdown}\n`);
  console.log(missed.length ? `Targets missed:\n${missed.map((m) => `  - ${m}`).join('\n')}` : 'All targets met.');
}

async function cleanup(): Promise<void> {
  await stopAll();
  await dropBenchDatabase();
  await dropScaleDatabases();
  dropCitusBenchDatabase();
  rmSync(tmp, { recursive: true, force: true });
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(code)));
}
try {
  await main();
} catch (error) {
  console.error(`[bench] FAILED: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
