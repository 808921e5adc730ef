import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, startTestServer } from '../support/harness.js';
import { createLogger } from '../../src/logger.js';
import { ERROR_STATUS } from '@tare/contracts';

type Schema = Record<string, unknown> & { examples?: unknown[] };
type Media = { schema: Schema; example?: unknown; examples?: Record<string, { value: unknown }> };
type Content = { content?: Record<string, Media> };

/** The generator moves a body's examples out of its schema, to the media type (`example` when one). */
function mediaExamples(content: Content): unknown[] {
  const media = content.content?.['application/json'];
  if (!media) return [];
  if ('example' in media) return [media.example];
  return media.examples ? Object.values(media.examples).map((e) => e.value) : (media.schema.examples ?? []);
}
type Operation = {
  parameters?: { in: string; name: string; required?: boolean; schema: Schema; example?: unknown }[];
  responses: Record<string, { headers?: Record<string, unknown> } & Content>;
  security?: Record<string, string[]>[];
  requestBody?: Content;
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

  it('then every /api/v1 route is in the paths with its method, 401, 431, 500 and 503, and the bearer security', () => {
    expect(apiRoutes.length).toBeGreaterThanOrEqual(7);
    for (const { method, url } of apiRoutes) {
      const operation = doc.paths[toOpenApiPath(url)]?.[method.toLowerCase()];
      expect(operation, `${method} ${url}`).toBeDefined();
      expect(Object.keys(operation!.responses), `${method} ${url}`).toEqual(
        expect.arrayContaining(['200', '401', '431', '500', '503']),
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

  it('then every parameter, request body and answer has examples, and each example is valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const checked: string[] = [];
    const shownCodes = new Set<string>();
    const check = (where: string, schema: Schema, examples: unknown[]) => {
      expect(examples.length, `${where} has examples`).toBeGreaterThan(0);
      const validateExample = ajv.compile(schema);
      for (const example of examples) {
        const errors = validateExample(example) ? [] : validateExample.errors;
        expect(errors, `${where}: ${JSON.stringify(example)}`).toEqual([]);
        const code = (example as { error?: { code?: string } } | null)?.error?.code;
        if (code) shownCodes.add(code);
      }
      checked.push(where);
    };
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        for (const parameter of operation.parameters ?? []) {
          // The generator moves a parameter's example out of its schema, to the parameter.
          const examples = 'example' in parameter ? [parameter.example] : (parameter.schema.examples ?? []);
          check(`${name} ${parameter.in} ${parameter.name}`, parameter.schema, examples);
        }
        const { requestBody } = operation;
        if (requestBody)
          check(`${name} body`, requestBody.content!['application/json']!.schema, mediaExamples(requestBody));
        for (const [status, answer] of Object.entries(operation.responses)) {
          if (answer.content)
            check(`${name} ${status}`, answer.content['application/json']!.schema, mediaExamples(answer));
        }
      }
    }
    expect(checked.length).toBeGreaterThan(60);
    // Every error code an operation can answer is shown; 405 answers a path's unknown methods
    // and 408 a connection too slow to send a request, before any operation is known.
    const codes = Object.keys(ERROR_STATUS).filter(
      (code) => code !== 'method_not_allowed' && code !== 'request_timeout',
    );
    expect([...shownCodes].sort()).toEqual(codes.sort());
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
