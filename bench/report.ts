import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Load } from './load.js';

export interface Results {
  startupMs: number[];
  /** CPU time (all threads) the server had used when it became ready. */
  startupCpuMs: number[];
  endpoints: { path: string; tare: Load; bare: Load }[];
  peakRssMb: number;
  bareRssMb: number;
}

export const TARGETS = { startupMs: 3000, ratio: 0.7, p99Ms: 10, rssMb: 400 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
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
  const markdown = [
    '| Measurement | Result | Target | Met |',
    '|---|---|---|---|',
    ...rows.map(([what, result, target, ok]) => `| ${what} | ${result} | ${target} | ${met(ok)} |`),
  ].join('\n');
  return { markdown, missed: rows.filter((row) => !row[3]).map((row) => row[0]) };
}

const HEADING = '## Latest results';

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
