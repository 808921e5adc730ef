import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';

const [pglite] = testDrivers();

describe('GET /metrics', () => {
  let db: Db;
  let server: RunningServer;
  beforeAll(async () => {
    db = await pglite!.create();
    server = await startTestServer(db);
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  it('when requests were served, then Prometheus text counts them by route pattern and status, without a key', async () => {
    const { key } = await seedShop(db);
    await call(server, '/api/v1/products/1001', { key });
    await call(server, '/api/v1/products/424242', { key });

    const res = await call(server, '/metrics');

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toMatch(
      /tare_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/products\/:productId",status="200"\} 1/,
    );
    expect(res.text).toMatch(/route="\/api\/v1\/products\/:productId",status="404"\} 1/);
    expect(res.text).not.toContain('424242');
    expect(res.text).toContain('process_resident_memory_bytes');
  });
});
