/**
 * A PostgreSQL outage while the service runs: requests get 503 `service_unavailable` with
 * Retry-After (not 401 from the key check, not an opaque 500), nothing is half written, and the
 * service recovers by itself when the database is back. The outage is real: Tare talks to
 * PostgreSQL through a TCP proxy that the test cuts and restores.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { migrate } from '../../src/store/migrate.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { createPostgresDatabase } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, startTestServer } from '../support/harness.js';

/** A TCP proxy to `target` that can be cut (every connection dropped, new ones refused) and restored. */
async function cuttableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    url: (database: string) => `postgres://${target.username}@127.0.0.1:${port}/${database}`,
    async cut() {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    async restore() {
      if (!server?.listening) await listen();
    },
  };
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL outage on postgres', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let db: Db;
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const target = new URL(database.url);
    proxy = await cuttableProxy(target);
    db = await openPostgres({ connectionString: proxy.url(target.pathname.slice(1)) });
    await migrate(db);
    server = await startTestServer(db);
    ({ key } = await seedShop(db));
  });

  afterAll(async () => {
    await proxy?.restore();
    await server?.close();
    await db?.close();
    await database?.drop();
  });

  const adjust = (idempotencyKey: string) =>
    call(server, '/api/v1/inventory/adjustments', {
      key,
      method: 'POST',
      headers: { 'idempotency-key': idempotencyKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        locationId: '70001',
        adjustments: [{ variantId: '2001', delta: { value: 1.5, unit: 'kg' } }],
      }),
    });

  it('when the database goes away, then reads and writes are 503 with Retry-After, and when it is back, then the retried write applies once', async () => {
    expect((await call(server, '/api/v1/products/1001', { key })).status).toBe(200);

    await proxy.cut();
    const write = await adjust('outage-1');
    expectErrorEnvelope(write, 503, 'service_unavailable');
    expect(write.headers.get('retry-after')).toBe('1');
    const read = await call(server, '/api/v1/orders/5001', { key });
    expectErrorEnvelope(read, 503, 'service_unavailable');
    expect((await call(server, '/readyz')).status).toBe(503);

    await proxy.restore();
    const retried = await adjust('outage-1');
    expect(retried.status).toBe(200);
    expect(retried.body.data.results[0].previousQuantity).toEqual({ value: 0, unit: 'kg' });
    expect(retried.body.data.results[0].quantity).toEqual({ value: 1.5, unit: 'kg' });
    const replay = await adjust('outage-1');
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect((await call(server, '/readyz')).status).toBe(200);
  });
});
