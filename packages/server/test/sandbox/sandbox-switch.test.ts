import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, startTestServer } from '../support/harness.js';

describe.each(testDrivers())('TARE_SANDBOX=off on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db, { TARE_SANDBOX: 'off' });
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it('when the sandbox is switched off, then its paths do not exist, with or without a key', async () => {
    const { key } = await seedShop(db);

    for (const [method, path] of [
      ['POST', '/sandbox/carts'],
      ['GET', '/sandbox/inventory?locationId=70001&variantId=2001'],
      ['POST', '/sandbox/orders/900000001/cancel'],
    ] as const) {
      expectErrorEnvelope(await call(server, path, { key, method }), 404, 'not_found');
      expectErrorEnvelope(await call(server, path, { method }), 404, 'not_found');
    }
  });

  it('when the sandbox is switched off, then the API is unchanged and the document has no sandbox paths', async () => {
    const { key } = await seedShop(db);

    expect((await call(server, '/api/v1/products/1001', { key })).status).toBe(200);
    const doc = (await call(server, '/api/v1/openapi.json')).body;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/sandbox'))).toEqual([]);
  });
});
