/**
 * kill -9 of a real `tare serve` in the middle of Shopify traffic, on a PGlite data dir, on
 * PostgreSQL and on Citus: webhooks being delivered, events stored but not processed, a push in flight whose
 * write Shopify applies after Tare is gone. After a restart, and Shopify's redeliveries, every
 * order is booked exactly once, every push lands once, and Shopify shows the whole units of
 * Tare's exact stock.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretKey } from '../../src/secrets/secret-key.js';
import type { Db } from '../../src/store/db.js';
import { openPglite } from '../../src/store/pglite-driver.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { type GroupProcess, runGroup, spawnGroup } from '../support/child-processes.js';
import { testDrivers } from '../support/databases.js';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';
import { coffeeShop } from '../support/platform-simulator.js';
import { LOC, svcData } from '../support/shopify-shop.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/server/bin/tare.js');
const API_KEY = /(apik_[a-z2-7]{16}_[0-9A-Za-z]{32,})/;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `tare serve` on the store; resolves once it listens. */
async function serve(env: NodeJS.ProcessEnv): Promise<GroupProcess> {
  const proc = spawnGroup(process.execPath, [BIN, 'serve'], { cwd: REPO_ROOT, env });
  let stdout = '';
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('Tare is listening on')) resolve();
    });
    void proc.exited.then(() => reject(new Error(`tare serve exited before listening:\n${stderr}`)));
  });
  return proc;
}

/** A CLI command (forwarded to the running server on PGlite); its output, or the failure. */
async function tare(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const result = await runGroup(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`tare ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
  return result.stdout;
}

/** Polls until `done` holds (at most `ms`); the caller asserts what it waited for. */
async function until(done: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end && !(await done());) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(testDrivers({ citus: true }))('Tare killed with kill -9 amid Shopify traffic on $name', (driver) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    cleanups.length = 0;
  });

  it('when Tare dies with webhooks arriving and a push in flight, then after a restart every order and push counts once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tare-shopify-crash-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let storeEnv: Record<string, string> = { TARE_DATA_DIR: join(dir, 'data') };
    let openStore = (): Promise<Db> => openPglite({ dataDir: join(dir, 'data') });
    if (driver.database) {
      const database = await driver.database();
      cleanups.push(() => database.drop());
      storeEnv = { DATABASE_URL: database.url };
      openStore = () => openPostgres({ connectionString: database.url });
    }
    // Shopify retries a delivery that got no answer (8 times over 4 hours); here fast enough
    // to reach the restarted Tare within seconds.
    const fake: FakeShopify = await startFakeShopify({
      store: `crash-${randomUUID().slice(0, 8)}.myshopify.com`,
      webhookRetry: { attempts: 10, baseDelayMs: 250 },
    });
    cleanups.push(() => fake.close());
    addCoffeeShop(fake);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    fake.webhookAddress = `${base}/webhooks/shopify`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: '',
      ...storeEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      TARE_RECONCILE_MINUTES: '0',
      TARE_SECRETS_KEY: SecretKey.generate().exportBase64(),
    };

    const first = await serve(env);
    cleanups.push(() => first.kill('SIGKILL'));
    const shop = {
      ...coffeeShop({ kg: 20.5 }),
      platform: {
        kind: 'shopify',
        store: fake.store,
        accessToken: fake.accessToken,
        clientSecret: fake.clientSecret,
        adminApiUrl: fake.adminApiUrl,
      },
    };
    const file = join(dir, 'shop.json');
    await writeFile(file, JSON.stringify({ shops: [shop] }));
    await tare(env, ['import', file]);
    const key = API_KEY.exec(await tare(env, ['keys', 'create', '--shop', shop.domain]))?.[1];
    expect(key).toBeDefined();
    await until(() => fake.available(LOC, '2001') === 20);
    expect(fake.available(LOC, '2001')).toBe(20);

    // Two writes through the API, landed; then traffic held back and let go all at once:
    // sales, a refund and a cancel, each delivered twice.
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const adjust = async (kg: number) => {
      const res = await fetch(`${base}/api/v1/inventory/adjustments`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': randomUUID() },
        body: JSON.stringify({
          locationId: LOC,
          adjustments: [{ variantId: '2001', delta: { value: kg, unit: 'kg' } }],
        }),
      });
      expect(res.status).toBe(200);
    };
    await adjust(-0.35);
    await adjust(1.7);
    await until(() => fake.available(LOC, '2001') === 21);
    expect(fake.available(LOC, '2001')).toBe(21);
    fake.webhooks.hold();
    const sales = [1.3, 0.45, 2.2, 0.8, 1.05, 0.6].map((kg, i) =>
      fake.placeOrder({
        locationId: LOC,
        lines: [{ variantId: '2001', quantity: 1 + (i % 2), customAttributes: svcData(kg, 'kg') }],
      }),
    );
    const firstLine = fake.state.orders.get(sales[0]!)!.lines[0]!.id;
    fake.refund(sales[0]!, { lines: [{ lineItemId: firstLine, quantity: 1, restockType: 'return' }] });
    fake.cancelOrder(sales[3]!, { restock: true });

    // Tare dies in the middle of the deliveries, inside the first push it sends for them (once
    // it has booked a sale): Shopify applies that write after Tare is gone; its answer is lost.
    const earlier = fake.webhooks.delivered.length;
    const answered = () => fake.webhooks.delivered.slice(earlier).filter((d) => d.status === 200).length;
    let killedInFlight = false;
    const killOnPush = (): void =>
      fake.faults.onNextInventoryWrite(async () => {
        if (answered() === 0) return killOnPush();
        killedInFlight = true;
        await first.kill('SIGKILL');
      });
    killOnPush();
    const delivered = fake.webhooks.release({ duplicate: 1 });
    await until(() => !first.running || answered() >= 30, 15_000);
    await first.kill('SIGKILL'); // had no push come, it dies all the same (and the test says so below)
    expect(fake.webhooks.pending).toEqual([]);

    // The push in flight holds its lease for a minute (another instance may still be sending
    // it); time moves on while Tare is down, as an operator's restart would take.
    const db: Db = await openStore();
    await db.query('UPDATE projection_outbox SET next_attempt_at = now()');
    await db.close();

    const second = await serve(env);
    cleanups.push(() => second.kill('SIGKILL'));
    await delivered;
    const read = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers });
      return (await res.json()) as any;
    };
    const level = async () => (await read(`/api/v1/inventory/levels?locationId=${LOC}&variantId=2001`)).data.levels[0];
    const backlog = async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const pending = /^tare_platform_inbox_events\{status="pending"\} (\d+)/m.exec(text)?.[1];
      const outbox = /^tare_projection_outbox_pending (\d+)/m.exec(text)?.[1];
      return Number(pending) + Number(outbox);
    };
    // 20.5 − sold (1×1.3, 2×0.45, 1×2.2, 2×0.8, 1×1.05, 2×0.6) + back (1.3 refunded, 1.6
    // cancelled) − 0.35 + 1.7 through the API.
    const expected = 16.5;
    await until(async () => (await backlog()) === 0 && fake.available(LOC, '2001') === Math.floor(expected));

    expect(await backlog()).toBe(0);
    expect(await level()).toMatchObject({
      quantity: { value: expected, unit: 'kg' },
      platform: { available: Math.floor(expected) },
    });
    expect(fake.available(LOC, '2001')).toBe(Math.floor(expected));
    const ledger = (await read(`/api/v1/inventory/ledger?locationId=${LOC}&variantId=2001&limit=100`)).data.entries;
    const count = (operation: string) => {
      const byReference: Record<string, number> = {};
      for (const e of ledger.filter((x: any) => x.operation === operation)) {
        byReference[e.reference.id] = (byReference[e.reference.id] ?? 0) + 1;
      }
      return byReference;
    };
    expect(count('sale')).toEqual(Object.fromEntries(sales.map((id) => [id, 1])));
    expect(count('order_cancel')).toEqual({ [sales[3]!]: 1 });
    expect(Object.values(count('refund'))).toEqual([1]);
    expect(ledger.filter((e: any) => e.operation === 'platform_adjustment')).toEqual([]);
    // Some deliveries found no Tare and came again.
    expect(fake.webhooks.delivered.some((d) => d.status === 'error' && d.attempt === 0)).toBe(true);
    expect(killedInFlight).toBe(true);
  }, 90_000);
});
