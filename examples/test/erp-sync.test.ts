/**
 * examples/erp-sync.ts against `tare serve` run as a real process: a restart of the server in
 * the middle of a sync, with the answer of a batch that was already applied lost, must not apply
 * anything twice; running the job again must skip or replay what it did, not redo it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TareClient } from '@tare/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_SIZE, batchKey, parseStockCsv, syncLevels } from '../erp-sync.js';
import { type TareProcess, startTare, storeKinds } from './support/tare-process.js';

const LOCATION = '70001';
const VARIANTS = Array.from({ length: 300 }, (_, i) => String(31001 + i));

/** 300 flour variants sold per 1 kg, added to the demo shop with `tare import`. */
function flourCatalog() {
  const variant = (id: string) => ({
    id,
    title: `Flour ${id}`,
    price: '3.20',
    unitMeasurement: { unit: 'kg', value: 1 },
    settings: {
      onlineStore: { displayStyle: 'number', rules: { min: 0.5, increment: 0.5, defaultValue: 1, max: null } },
    },
    inventory: [{ locationId: LOCATION, quantity: { value: 5, unit: 'kg' } }],
  });
  const shop = { domain: 'demo-shop.example', currency: 'USD', locations: [{ id: LOCATION, name: 'Main store' }] };
  const products = [{ id: '1100', title: 'Flour', measurementType: 'weight', variants: VARIANTS.map(variant) }];
  return { shops: [{ ...shop, products }] };
}

/** The ERP's export: kilograms with up to 3 decimals, every seventh row counted in grams. */
function stockCsv(night: number): { csv: string; expectedKg: Map<string, string> } {
  const expectedKg = new Map<string, string>();
  const lines = VARIANTS.map((id, i) => {
    const grams = ((i * 7919 + night * 104729) % 250_000) + 250;
    expectedKg.set(id, String(grams / 1000));
    return i % 7 === 0 ? `${id},${grams},g` : `${id},${grams / 1000},kg`;
  });
  return { csv: ['variant_id,quantity,unit', ...lines].join('\n'), expectedKg };
}

describe.each(storeKinds())('examples/erp-sync.ts on %s', (kind) => {
  let tare: TareProcess;
  let work: string;

  // Two processes, one after the other, each starting Tare: a hook for each, as each may take
  // tens of seconds on a loaded machine.
  beforeAll(async () => {
    tare = await startTare(kind);
  }, 60_000);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'tare-erp-'));
    await writeFile(join(work, 'flour.json'), JSON.stringify(flourCatalog()));
    const imported = await tare.cli(['import', join(work, 'flour.json')]);
    expect(imported.code, imported.stderr).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await tare?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Stops the server, reads the store, starts the server again. */
  async function inspect<T>(read: (query: (sql: string, params: unknown[]) => Promise<any[]>) => Promise<T>) {
    await tare.stop();
    const db = await tare.openStore();
    try {
      return await read(async (sql, params) => (await db.query(sql, params)).rows);
    } finally {
      await db.close();
      await tare.start();
    }
  }

  it('when the server restarts mid-run and an applied batch loses its answer, then nothing is applied twice and a sale made meanwhile stands', async () => {
    const { csv, expectedKg } = stockCsv(1);
    const rows = parseStockCsv(csv);
    const sold = VARIANTS[150]!; // in batch 2
    const shop = new TareClient({ apiKey: tare.apiKey, baseUrl: tare.url });
    let levelRequests = 0;
    let restartInBackground: Promise<void> = Promise.resolve();

    const flakyFetch = async (url: string, init: RequestInit): Promise<Response> => {
      if (init.method !== 'PUT') return fetch(url, init);
      levelRequests++;
      if (levelRequests === 2) {
        // Batch 2 reaches the server and commits; then the server dies before the answer
        // arrives, comes back, and a sale is booked before the client retries.
        await fetch(url, init);
        await tare.stop('SIGKILL');
        await tare.start();
        await shop.inventory.adjust({
          locationId: LOCATION,
          adjustments: [{ variantId: sold, delta: { value: -1.5, unit: 'kg' } }],
        });
        throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
      }
      if (levelRequests === 4) {
        // Batch 3 finds the server going down for a restart: refused until it is back.
        await tare.stop('SIGTERM');
        restartInBackground = sleep(500).then(() => tare.start());
      }
      return fetch(url, init);
    };

    const client = new TareClient({ apiKey: tare.apiKey, baseUrl: tare.url, maxRetries: 10, fetch: flakyFetch });
    const runId = 'night-1';
    const report = await syncLevels(client, { locationId: LOCATION, rows, runId });
    await restartInBackground;

    expect(report).toEqual({ batches: 3, applied: 2, replayed: 1, skipped: 0 });
    expect(levelRequests).toBeGreaterThan(4); // batch 2 was retried, batch 3 was refused at least once

    const state = await inspect(async (query) => ({
      sets: await query(
        `SELECT variant_id, count(*)::int AS n FROM inventory_ledger
         WHERE operation = 'set' AND idempotency_key LIKE $1 GROUP BY variant_id`,
        [`erp-sync/${runId}/%`],
      ),
      levels: await query(
        `SELECT l.variant_id, l.total::text AS total, p.available::text AS available,
                (SELECT sum(delta)::text FROM inventory_ledger g
                  WHERE g.shop_id = l.shop_id AND g.location_id = l.location_id AND g.variant_id = l.variant_id) AS ledger
         FROM inventory_levels l
         JOIN local_platform_levels p USING (shop_id, location_id, variant_id)
         WHERE l.location_id = $1 AND l.variant_id LIKE '31%'`,
        [LOCATION],
      ),
    }));

    expect(state.sets).toHaveLength(300);
    expect(state.sets.every((row: { n: number }) => row.n === 1)).toBe(true);
    expect(state.levels).toHaveLength(300);
    for (const level of state.levels) {
      const expected = Number(expectedKg.get(level.variant_id)) - (level.variant_id === sold ? 1.5 : 0);
      expect(Number(level.total), level.variant_id).toBe(expected);
      expect(Number(level.ledger), `ledger of ${level.variant_id}`).toBe(Number(level.total));
      expect(Number(level.available), `platform level of ${level.variant_id}`).toBe(Math.floor(expected));
    }
  }, 120_000);

  it('when the job runs again, then done batches are skipped, a lost checkpoint means replays, and a corrected export is applied', async () => {
    const stock = join(work, 'stock.csv');
    const sync = async () => {
      const run = await tare.example('erp-sync.ts', [stock, '--location', LOCATION, '--run-id', 'night-2']);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout);
    };
    const { csv } = stockCsv(2);
    await writeFile(stock, csv);

    expect(await sync()).toEqual({ batches: 3, applied: 3, replayed: 0, skipped: 0 });
    expect(await sync()).toEqual({ batches: 3, applied: 0, replayed: 0, skipped: 3 });
    await rm(`${stock}.checkpoint.json`);
    expect(await sync()).toEqual({ batches: 3, applied: 0, replayed: 3, skipped: 0 });

    const corrected = csv.replace(/^31250,.*$/m, '31250,42.5,kg');
    await writeFile(stock, corrected);
    expect(await sync()).toEqual({ batches: 3, applied: 1, replayed: 0, skipped: 2 });

    const sets = await inspect((query) =>
      query(
        `SELECT variant_id, count(*)::int AS n FROM inventory_ledger
         WHERE operation = 'set' AND idempotency_key LIKE 'erp-sync/night-2/%' GROUP BY variant_id ORDER BY variant_id`,
        [],
      ),
    );
    const twice = sets.filter((row: { n: number }) => row.n === 2).map((row: { variant_id: string }) => row.variant_id);
    expect(sets).toHaveLength(300);
    expect(twice).toEqual(VARIANTS.slice(200, 300)); // only the corrected batch, once more
  }, 120_000);

  it('when the export has a bad row, then the job stops before sending anything', async () => {
    const stock = join(work, 'bad.csv');
    await writeFile(stock, 'variant_id,quantity,unit\n31001,1.5,kg\nabc,-2,kg\n31003,,kg\n');
    const result = await tare.example('erp-sync.ts', [stock, '--location', LOCATION, '--run-id', 'night-3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("line 3: variant_id 'abc' is not a numeric id");
    expect(result.stderr).toContain("line 3: quantity '-2' is not a number ≥ 0");
    expect(result.stderr).toContain("line 4: quantity '' is not a number ≥ 0");
  });
});

describe('erp-sync batch keys', () => {
  const rows = parseStockCsv('variant_id,quantity,unit\n1,1.5,kg\n2,250,g');

  it('when the same run sends the same rows, then the key is the same; other rows, run or location, then another', () => {
    expect(batchKey('n1', LOCATION, rows)).toBe(
      batchKey('n1', LOCATION, parseStockCsv('variant_id,quantity,unit\n1,1.5,kg\n2,250,g')),
    );
    expect(batchKey('n1', LOCATION, rows)).not.toBe(batchKey('n2', LOCATION, rows));
    expect(batchKey('n1', LOCATION, rows)).not.toBe(batchKey('n1', '70002', rows));
    expect(batchKey('n1', LOCATION, rows)).not.toBe(batchKey('n1', LOCATION, rows.slice(1)));
    expect(batchKey('n1', LOCATION, rows)).toMatch(/^erp-sync\/n1\/[0-9a-f]{24}$/);
    expect(BATCH_SIZE).toBe(100);
  });
});
