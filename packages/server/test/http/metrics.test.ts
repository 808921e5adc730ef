import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { storeEvent } from '../../src/store/repositories/platform-events.js';
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

  it('when events and pushes wait, then the inbox backlog and the projection lag are reported', async () => {
    const { shopId } = await seedShop(db);
    await server.services.inbox.drainNow();
    await db.query('UPDATE platform_events SET status = $1', ['processed']);
    // Held back a minute, so that the running inbox cannot take it before the scrape.
    await storeEvent(db, {
      shopId,
      eventId: 'metrics-1',
      topic: 'order_placed',
      payload: { orderId: '1' },
      notBefore: new Date(Date.now() + 60_000),
    });
    await db.query(
      `INSERT INTO projection_outbox (shop_id, location_id, variant_id, available, expected, cause, enqueued_at,
      next_attempt_at) VALUES ($1, '70001', '2001', 3, 1, 'test', now() - interval '90 seconds', now() + interval '1 hour')`,
      [shopId],
    );

    const res = await call(server, '/metrics');

    expect(res.text).toMatch(/tare_platform_inbox_events\{status="pending"\} 1\n/);
    expect(res.text).toMatch(/tare_projection_outbox_pending 1\n/);
    const lag = Number(/tare_projection_outbox_lag_seconds ([0-9.]+)/.exec(res.text)?.[1]);
    expect(lag).toBeGreaterThanOrEqual(90);
    expect(res.text).toMatch(/tare_shopify_connections\{status="unauthorized"\} 0\n/);
  });
});
