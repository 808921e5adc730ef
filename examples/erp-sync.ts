/**
 * An ERP's nightly stock sync: read the counted stock of a location from a CSV export and set
 * Tare's levels to it, 100 variants per request.
 *
 *   TARE_URL=http://127.0.0.1:3000 TARE_API_KEY=apik_… \
 *     node --import tsx examples/erp-sync.ts stock.csv --location 70001 [--run-id 2026-11-22]
 *
 * The CSV has a header `variant_id,quantity,unit` and one row per variant, e.g. `2001,12.75,kg`.
 *
 * Safe to interrupt and to run again. Every batch is sent under an Idempotency-Key made of the
 * run id and a hash of the batch, so a batch that reached Tare before an answer was lost (a
 * server restart, a dropped connection, this script killed) is answered from Tare's idempotency
 * store on the retry instead of being applied again; a level set twice would otherwise undo the
 * sales made in between. A checkpoint file records the batches done, so a second run of the
 * same night skips them; keys are kept 24 hours, longer than a nightly run.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { TareClient, type LevelsBody } from '@tare/client';

export const BATCH_SIZE = 100;

export type StockRow = LevelsBody['levels'][number];

export interface SyncOptions {
  locationId: string;
  rows: StockRow[];
  /** Names this run, e.g. the date of the night; batches of the same run share their keys. */
  runId: string;
  /** JSON file of the batches done; omitted, nothing is skipped (the keys still protect). */
  checkpointFile?: string;
  log?: (line: string) => void;
}

export interface SyncReport {
  batches: number;
  /** Applied by this run. */
  applied: number;
  /** Already applied under the same key: answered from Tare's idempotency store. */
  replayed: number;
  /** Recorded as done in the checkpoint by an earlier run: not sent. */
  skipped: number;
}

export async function syncLevels(tare: TareClient, options: SyncOptions): Promise<SyncReport> {
  const { locationId, rows, runId, checkpointFile, log = () => {} } = options;
  const done = await readCheckpoint(checkpointFile, runId);
  const report: SyncReport = { batches: 0, applied: 0, replayed: 0, skipped: 0 };
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    const levels = rows.slice(start, start + BATCH_SIZE);
    const key = batchKey(runId, locationId, levels);
    report.batches++;
    const label = `batch ${report.batches} (${levels.length} variants)`;
    if (done.has(key)) {
      report.skipped++;
      log(`${label}: done by an earlier run`);
      continue;
    }
    const result = await tare.inventory.setLevels({ locationId, levels }, { idempotencyKey: key });
    report[result.replayed ? 'replayed' : 'applied']++;
    log(`${label}: ${result.replayed ? 'already applied' : 'applied'} (request ${result.requestId})`);
    done.add(key);
    await writeCheckpoint(checkpointFile, runId, done);
  }
  return report;
}

/** Same run, location and rows: the same key. Different rows (a corrected export): a new key. */
export function batchKey(runId: string, locationId: string, levels: StockRow[]): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([locationId, levels]))
    .digest('hex')
    .slice(0, 24);
  return `erp-sync/${runId}/${hash}`;
}

/** `variant_id,quantity,unit` rows; every bad row is reported before anything is sent. */
export function parseStockCsv(text: string): StockRow[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = lines.shift()?.trim();
  if (header !== 'variant_id,quantity,unit')
    throw new Error(`expected the header 'variant_id,quantity,unit', got '${header}'`);
  const problems: string[] = [];
  const rows = lines.map((line, index) => {
    const [variantId = '', quantity = '', unit = ''] = line.split(',').map((cell) => cell.trim());
    const value = Number(quantity);
    if (!/^\d{1,20}$/.test(variantId))
      problems.push(`line ${index + 2}: variant_id '${variantId}' is not a numeric id`);
    if (!/^\d+(\.\d+)?$/.test(quantity)) problems.push(`line ${index + 2}: quantity '${quantity}' is not a number ≥ 0`);
    if (unit === '') problems.push(`line ${index + 2}: unit is missing`);
    return { variantId, quantity: { value, unit } };
  });
  if (problems.length > 0) throw new Error(`the stock file has errors; nothing was sent:\n  ${problems.join('\n  ')}`);
  return rows;
}

async function readCheckpoint(file: string | undefined, runId: string): Promise<Set<string>> {
  if (file === undefined) return new Set();
  const saved = await readFile(file, 'utf8').then(JSON.parse, (error) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return new Set(saved?.runId === runId ? saved.done : []);
}

/** Written to a temporary file and renamed, so a crash never leaves half a checkpoint. */
async function writeCheckpoint(file: string | undefined, runId: string, done: Set<string>): Promise<void> {
  if (file === undefined) return;
  await writeFile(`${file}.tmp`, JSON.stringify({ runId, done: [...done] }));
  await rename(`${file}.tmp`, file);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { location: { type: 'string' }, 'run-id': { type: 'string' }, checkpoint: { type: 'string' } },
  });
  const [file] = positionals;
  if (!file || !values.location) throw new Error('usage: erp-sync.ts STOCK.csv --location ID [--run-id ID]');
  const runId = values['run-id'] ?? new Date().toISOString().slice(0, 10);
  const tare = new TareClient({
    apiKey: process.env.TARE_API_KEY ?? '',
    baseUrl: process.env.TARE_URL ?? 'http://127.0.0.1:3000',
    // Rides out a restart of the service (a few seconds) instead of failing the night's run.
    maxRetries: 10,
  });
  const report = await syncLevels(tare, {
    locationId: values.location,
    rows: parseStockCsv(await readFile(file, 'utf8')),
    runId,
    checkpointFile: values.checkpoint ?? `${file}.checkpoint.json`,
    log: (line) => console.error(line),
  });
  console.log(JSON.stringify(report));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
