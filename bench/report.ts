import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CHUNK, type EventsResults, ORDER_LINES } from './events.js';
import type { InventoryResults, Rate } from './inventory.js';
import {
  BATCH_CLIENTS,
  BATCH_SIZE,
  HOT_CLIENTS,
  HOT_REQUESTS_PER_CLIENT,
  isExact,
  SINGLE_CLIENTS,
  WIDE_CLIENTS,
} from './inventory.js';
import type { Load } from './load.js';

export interface Results {
  startupMs: number[];
  /** CPU time (all threads) the server had used when it became ready. */
  startupCpuMs: number[];
  endpoints: { path: string; tare: Load; bare: Load }[];
  peakRssMb: number;
  bareRssMb: number;
}

export const TARGETS = {
  startupMs: 3000,
  ratio: 0.7,
  p99Ms: 10,
  rssMb: 400,
  writeRatio: 0.5,
  batchGain: 20,
  /** Time per order_placed event (three measured lines) ÷ time per single-entry adjustment. */
  orderEventCost: 1.5,
};

/** The middle value, or the mean of the two middle ones for an even count (NaN for none). */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const rps = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const met = (ok: boolean) => (ok ? 'yes' : '**no**');

/** The results as Markdown table rows, with whether each target is met. */
export function table(r: Results): { markdown: string; missed: string[] } {
  const rows: [string, string, string, boolean][] = [];
  const startup = median(r.startupMs);
  const runs = r.startupMs.map((t) => (t / 1000).toFixed(2)).join(' / ');
  rows.push([
    `Start → ready, existing data dir (median of ${runs} s)`,
    `${(startup / 1000).toFixed(2)} s (server CPU ${(median(r.startupCpuMs) / 1000).toFixed(2)} s)`,
    '< 3 s',
    startup < TARGETS.startupMs,
  ]);
  for (const { path, tare, bare } of r.endpoints) {
    const ratio = tare.rps / bare.rps;
    rows.push([
      `\`GET ${path}\` req/s, Tare / bare Fastify`,
      `${rps(tare.rps)} / ${rps(bare.rps)} = **${ratio.toFixed(2)}** (server CPU ${tare.cpuUs.toFixed(0)} / ${bare.cpuUs.toFixed(0)} µs per request)`,
      '≥ 0.7',
      ratio >= TARGETS.ratio,
    ]);
    rows.push([
      `\`GET ${path}\` latency p50 / p99, Tare (bare)`,
      `${ms(tare.p50)} / **${ms(tare.p99)}** ms (${ms(bare.p50)} / ${ms(bare.p99)})`,
      'p99 < 10 ms',
      tare.p99 < TARGETS.p99Ms,
    ]);
  }
  rows.push([
    `Peak RSS of the Tare server under load (bare: ${r.bareRssMb.toFixed(0)} MB)`,
    `${r.peakRssMb.toFixed(0)} MB`,
    '< 400 MB',
    r.peakRssMb < TARGETS.rssMb,
  ]);
  return render(rows);
}

type Row = [what: string, result: string, target: string, ok: boolean | null];

function render(rows: Row[]): { markdown: string; missed: string[] } {
  const markdown = [
    '| Measurement | Result | Target | Met |',
    '|---|---|---|---|',
    ...rows.map(([what, result, target, ok]) => `| ${what} | ${result} | ${target} | ${ok === null ? '—' : met(ok)} |`),
  ].join('\n');
  return { markdown, missed: rows.filter((row) => row[3] === false).map((row) => row[0]) };
}

const latency = (r: Rate) => `p50 ${r.p50.toFixed(1)} / p99 ${r.p99.toFixed(1)} ms`;
const cpu = (r: Rate, server = 'Tare') =>
  [
    r.tareCpuUs !== undefined ? `${server} ${r.tareCpuUs.toFixed(0)}` : '',
    r.pgCpuUs !== undefined ? `PostgreSQL ${r.pgCpuUs.toFixed(0)}` : '',
  ]
    .filter(Boolean)
    .join(' + ');

/** The inventory-write results as Markdown table rows, with whether each target is met. */
export function inventoryTable(r: InventoryResults): { markdown: string; missed: string[] } {
  const rows: Row[] = [];
  const adjust = '`POST /api/v1/inventory/adjustments`';
  for (const [store, s] of [
    ['PostgreSQL', r.postgres],
    ['PGlite', r.pglite],
  ] as const) {
    const baselines = 'baselines' in s ? s.baselines : undefined;
    for (const [clients, single, base] of [
      [SINGLE_CLIENTS, s.single, baselines],
      [WIDE_CLIENTS, s.wide, 'wideBaselines' in s ? s.wideBaselines : undefined],
    ] as const) {
      if (base) {
        const ratio = single.tps / base.raw.tps;
        rows.push([
          `${store}: 1-entry ${adjust} tx/s at ${clients} clients, Tare / raw SQL (node-postgres)`,
          `${rps(single.tps)} / ${rps(base.raw.tps)} = **${ratio.toFixed(2)}** (${latency(single)}; raw ${latency(base.raw)}; ` +
            `CPU µs/tx ${cpu(single)}; raw: ${cpu(base.raw)})`,
          '≥ 0.5',
          ratio >= TARGETS.writeRatio,
        ]);
        rows.push([
          `${store}: the same at ${clients} clients, Tare / the raw SQL behind a bare HTTP route (the HTTP hop's share)`,
          `${rps(single.tps)} / ${rps(base.http.tps)} = **${(single.tps / base.http.tps).toFixed(2)}** ` +
            `(bare route ÷ raw SQL ${(base.http.tps / base.raw.tps).toFixed(2)}; bare ${latency(base.http)}; ` +
            `CPU µs/tx ${cpu(base.http, 'bare route')})`,
          '—',
          null,
        ]);
      } else {
        rows.push([
          `${store}: 1-entry ${adjust} tx/s at ${clients} clients`,
          `**${rps(single.tps)}** (${latency(single)}; CPU µs/tx ${cpu(single)})`,
          '—',
          null,
        ]);
      }
    }
    const gain = (s.batch.tps * BATCH_SIZE) / s.single.tps;
    rows.push([
      `${store}: ${BATCH_SIZE}-entry batches at ${BATCH_CLIENTS} clients, entries/s ÷ 1-entry entries/s`,
      `${rps(s.batch.tps * BATCH_SIZE)} / ${rps(s.single.tps)} = **${gain.toFixed(1)}×** ` +
        `(${s.batch.tps.toFixed(1)} tx/s, ${latency(s.batch)}; CPU µs/tx ${cpu(s.batch)})`,
      baselines ? '≥ 20×' : '—',
      baselines ? gain >= TARGETS.batchGain : null,
    ]);
    rows.push([
      `${store}: ${HOT_CLIENTS} writers × ${HOT_REQUESTS_PER_CLIENT} on one variant (+0.001 kg / +0.1 g each)`,
      `${rps(s.hot.tps)} tx/s (${latency(s.hot)}); total **${s.hot.actual}** kg = expected ${s.hot.expected}, ` +
        `${s.hot.ledgerRows} / ${s.hot.expectedLedgerRows} ledger rows`,
      'exact',
      isExact(s.hot),
    ]);
  }
  return render(rows);
}

/** The platform-event results as Markdown table rows, with whether the cost target is met. */
export function eventsTable(r: EventsResults): { markdown: string; missed: string[] } {
  const rows: Row[] = [];
  for (const s of r.stores) {
    const { adjustments: a, orders: o, trace } = s;
    rows.push([
      `${s.store}: \`order_placed\` events processed/s, ${ORDER_LINES} measured lines each, one worker (\`drainNow()\` of ${CHUNK} placed orders)`,
      `**${o.perSecond.toFixed(1)}**/s (${o.msEach.toFixed(2)} ms each; ${o.count} events in ${o.seconds.toFixed(1)} s)`,
      '—',
      null,
    ]);
    const cpuOf =
      s.store === 'PostgreSQL'
        ? `bench process + PostgreSQL backends, of which PostgreSQL ${o.backendCpuUsEach.toFixed(0)} / ${a.backendCpuUsEach.toFixed(0)}`
        : 'bench process, PGlite included';
    rows.push([
      `${s.store}: one order event ÷ one single-entry adjustment (\`createInventoryWriter\`, idempotency key), same store, alternating`,
      `${o.msEach.toFixed(2)} / ${a.msEach.toFixed(2)} ms = **${s.ratio.toFixed(2)}×** (adjustments ${a.perSecond.toFixed(1)}/s, ` +
        `${a.count} in ${a.seconds.toFixed(1)} s; per round median ${s.perRound.median.toFixed(2)}×, ` +
        `${s.perRound.min.toFixed(2)}–${s.perRound.max.toFixed(2)}; CPU ${o.cpuUsEach.toFixed(0)} / ${a.cpuUsEach.toFixed(0)} µs ` +
        `= ${s.cpuRatio.toFixed(2)}× (${cpuOf}); statements ${trace.orderEvent.statements.toFixed(1)} / ` +
        `${trace.adjustment.statements.toFixed(1)}; level row writes ${trace.orderEvent.levelWrites?.toFixed(1)} / ` +
        `${trace.adjustment.levelWrites?.toFixed(1)})`,
      `≤ ${TARGETS.orderEventCost}×`,
      s.ratio <= TARGETS.orderEventCost,
    ]);
    rows.push([
      `${s.store}: sandbox checkout commit → the order's \`sale\` rows committed, worker started, one order at a time`,
      `p50 **${s.latency.p50.toFixed(1)}** / p99 **${s.latency.p99.toFixed(1)}** ms (max ${s.latency.max.toFixed(1)}, ${s.latency.samples} orders)`,
      '—',
      null,
    ]);
  }
  return render(rows);
}

const HEADING = '## Latest results';
export const INVENTORY_HEADING = '### Inventory writes';
export const EVENTS_HEADING = '### Platform events';

/** Replaces the "Latest results" section of README (up to the next `## ` heading), or appends it. */
export function updateReadme(file: string, section: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Tare benchmark\n';
  const start = text.indexOf(HEADING);
  const block = `${HEADING}\n\n${section.trim()}\n`;
  if (start < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${block}`);
    return;
  }
  const next = text.indexOf('\n## ', start + HEADING.length);
  const rest = next < 0 ? '' : `\n${text.slice(next + 1)}`;
  writeFileSync(file, `${text.slice(0, start)}${block}${rest}`);
}

/**
 * Replaces only the `heading` block (e.g. "### Inventory writes", up to the next `### ` or the
 * section's end) inside "Latest results", or adds it at the section's end: a partial run
 * (`BENCH_ONLY=…`) keeps the other figures.
 */
export function updateReadmeSubsection(file: string, heading: string, block: string): void {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(HEADING);
  if (start < 0) return updateReadme(file, `${heading}\n\n${block}`);
  const nextSection = text.indexOf('\n## ', start + HEADING.length);
  const end = nextSection < 0 ? text.length : nextSection + 1;
  const section = text.slice(start + HEADING.length, end);
  const fresh = `${heading}\n\n${block.trim()}`;
  const sub = section.indexOf(`\n${heading}\n`);
  let body: string;
  if (sub < 0) {
    body = `${section.trim()}\n\n${fresh}`;
  } else {
    const after = section.indexOf('\n### ', sub + heading.length + 1);
    const rest = after < 0 ? '' : section.slice(after + 1).trim();
    body = [section.slice(0, sub).trim(), fresh, rest].filter(Boolean).join('\n\n');
  }
  updateReadme(file, body);
}
