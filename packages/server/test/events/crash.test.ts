import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type GroupProcess, spawnGroup } from '../support/child-processes.js';
import { testDrivers } from '../support/databases.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/server/bin/tare.js');
const DEMO_KEY = /^ {2}(apik_[a-z2-7]{16}_[0-9A-Za-z]{32,})$/m;
const ORDERS = 12;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `tare serve` on the store; resolves with what it printed once it listens. */
async function serve(env: NodeJS.ProcessEnv): Promise<{ proc: GroupProcess; stdout: string }> {
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
  return { proc, stdout };
}

describe.each(testDrivers({ citus: true }))('The event inbox through kill -9 on $name', (driver) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('when Tare is killed with events stored but not processed, then after a restart every order is booked exactly once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tare-crash-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let storeEnv: Record<string, string> = { TARE_DATA_DIR: join(dir, 'data') };
    if (driver.database) {
      const database = await driver.database();
      cleanups.push(() => database.drop());
      storeEnv = { DATABASE_URL: database.url };
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: '',
      ...storeEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      TARE_RECONCILE_MINUTES: '0',
      // Events stored at checkout wait up to 1.5 s before they are due: most are still in the
      // inbox when the process dies.
      TARE_SANDBOX_DELIVERY: 'chaos',
    };
    const first = await serve(env);
    cleanups.push(async () => void (await first.proc.kill('SIGKILL')));
    const key = DEMO_KEY.exec(first.stdout)?.[1];
    expect(key, first.stdout).toBeDefined();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(res.status, path).toBeLessThan(300);
      return ((await res.json()) as any).data;
    };
    const svcData = JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 0.25 }] } });
    for (let i = 0; i < ORDERS; i++) {
      const cart = await post('/sandbox/carts', {});
      await post(`/sandbox/carts/${cart.token}/add`, {
        items: [{ id: 2001, quantity: 1, properties: { _svc_data: svcData } }],
      });
      await post(`/sandbox/carts/${cart.token}/checkout`, {});
    }
    await first.proc.kill('SIGKILL');

    const second = await serve(env);
    cleanups.push(async () => void (await second.proc.kill('SIGKILL')));
    const expected = 12.75 - ORDERS * 0.25;
    const read = async () => {
      const res = await fetch(`${base}/api/v1/inventory/levels?locationId=70001&variantId=2001`, { headers });
      return ((await res.json()) as any).data.levels[0];
    };
    for (let i = 0; i < 600 && (await read()).quantity.value !== expected; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await read()).toMatchObject({
      quantity: { value: expected },
      platform: { available: Math.floor(expected) },
    });
    const ledger = await fetch(`${base}/api/v1/inventory/ledger?locationId=70001&variantId=2001&limit=100`, {
      headers,
    });
    const sales = ((await ledger.json()) as any).data.entries.filter((e: any) => e.operation === 'sale');
    expect(sales).toHaveLength(ORDERS);
    expect(new Set(sales.map((e: any) => e.reference.id)).size).toBe(ORDERS);
  }, 180_000);
});
