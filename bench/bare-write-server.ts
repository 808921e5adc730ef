// The HTTP baseline of a write: a bare Fastify route (no plugins, hooks, logging, auth or
// validation) that runs the raw-SQL adjustment of bench/raw-adjustment.ts on a node-postgres pool
// of Tare's size and answers a body of Tare's size. What it costs beyond the in-process raw
// transaction is the HTTP hop and the pool, which any HTTP service pays on the same machine.
// usage: node --import tsx bench/bare-write-server.ts   (env DATABASE_URL, SHOP_ID, PORT, HOST;
// GET /readyz answers when it listens)
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { rawAdjustment, rawResponseBody } from './raw-adjustment.js';

interface Body {
  locationId: string;
  adjustments: { variantId: string; delta: { value: number; unit: string } }[];
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const shopId = process.env.SHOP_ID ?? '';
const fingerprint = randomBytes(32);
let requests = 0;
const app = Fastify({ logger: false });
app.get('/readyz', async () => 'ok');
app.post<{ Body: Body }>('/api/v1/inventory/adjustments', async (request, reply) => {
  const { locationId, adjustments } = request.body;
  const { variantId, delta } = adjustments[0]!;
  const body = rawResponseBody(locationId, variantId);
  const client = await pool.connect();
  try {
    await rawAdjustment(client, {
      shopId,
      locationId,
      variantId,
      delta: String(delta.value),
      key: String(request.headers['idempotency-key']),
      requestId: `bare-${requests++}`,
      fingerprint,
      body,
    });
  } finally {
    client.release();
  }
  return reply.type('application/json; charset=utf-8').send(body);
});
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
console.log(`bare write server listening on ${address}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => void app.close().then(() => pool.end().then(() => process.exit(0))));
