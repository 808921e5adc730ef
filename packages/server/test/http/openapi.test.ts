import { validate } from '@readme/openapi-parser';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, startTestServer } from '../support/harness.js';
import { createLogger } from '../../src/logger.js';

type Operation = {
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
  security?: Record<string, string[]>[];
  requestBody?: unknown;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
};

/** `/orders/:orderId` → `/orders/{orderId}`, as the document writes paths. */
const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('OpenAPI document and docs page', () => {
  let db: Db;
  let server: RunningServer;
  let doc: Document;
  /** Every public route the app registers under /api/v1, seen through an onRoute hook. */
  const apiRoutes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    db = await testDrivers()[0]!.create();
    server = await startTestServer(db);
    doc = (await call(server, '/api/v1/openapi.json')).body as Document;

    // The served app is already listening: build a second one over the same services to see,
    // through an onRoute hook, every route registered under /api/v1 and not hidden.
    const collector = await buildApp({
      ...server.services,
      logger: createLogger('silent'),
      bodyLimit: 1024 * 1024,
      rateLimitStore: { kind: 'memory' },
      onRoute: (route: RouteOptions) => {
        if (!route.url.startsWith('/api/v1/') || route.schema?.hide) return;
        for (const method of [route.method].flat()) if (method !== 'HEAD') apiRoutes.push({ method, url: route.url });
      },
    });
    await collector.close();
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it('when fetched without an API key, then it is 200 JSON with the document', async () => {
    const res = await call(server, '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Tare API');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('then the document is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('then every /api/v1 route is in the paths with its method, 401 and 500, and the bearer security', () => {
    expect(apiRoutes.length).toBeGreaterThanOrEqual(7);
    for (const { method, url } of apiRoutes) {
      const operation = doc.paths[toOpenApiPath(url)]?.[method.toLowerCase()];
      expect(operation, `${method} ${url}`).toBeDefined();
      expect(Object.keys(operation!.responses), `${method} ${url}`).toEqual(
        expect.arrayContaining(['200', '401', '500']),
      );
      expect(operation!.security ?? doc.security).toEqual([{ bearerAuth: [] }]);
      expect(operation!.responses['200']!.headers).toHaveProperty('X-Request-Id');
    }
  });

  it('then the inventory writes require the Idempotency-Key header and order edits accept it', () => {
    const header = (path: string, method: string) =>
      doc.paths[path]?.[method]?.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect(header('/api/v1/inventory/adjustments', 'post')?.required).toBe(true);
    expect(header('/api/v1/inventory/levels', 'put')?.required).toBe(true);
    expect(header('/api/v1/orders/{orderId}', 'patch')?.required).toBe(false);
    expect(doc.paths['/api/v1/inventory/adjustments']!.post!.responses['429']!.headers).toHaveProperty('Retry-After');
    expect(doc.paths['/api/v1/inventory/levels']!.put!.responses['200']!.headers).toHaveProperty(
      'Idempotency-Replayed',
    );
  });

  it('then non-API routes are hidden', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.every((p) => p.startsWith('/api/v1/'))).toBe(true);
    expect(paths).not.toContain('/api/v1/openapi.json');
  });

  it('when /docs is fetched without an API key, then it is 200 HTML', async () => {
    const res = await call(server, '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<html/i);
  });
});
