// The baseline: a bare Fastify app answering each route with fixed bytes captured from Tare
// (same body, content-type and other response headers), no plugins, hooks or logging.
// usage: node --import tsx bench/bare-server.ts FIXTURES.json   (env PORT, HOST)
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

export interface Fixture {
  path: string;
  headers: Record<string, string>;
  body: string;
}

const fixtures: Fixture[] = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'));
const app = Fastify({ logger: false });
for (const { path, headers, body } of fixtures) {
  app.get(path, async (_request, reply) => reply.headers(headers).send(body));
}
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
console.log(`bare server listening on ${address}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => void app.close().then(() => process.exit(0)));
