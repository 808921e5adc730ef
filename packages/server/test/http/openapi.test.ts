import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, startTestServer } from '../support/harness.js';
import { publicRoutes } from '../support/public-routes.js';
import { ERROR_STATUS } from '@tare/contracts';
import { parseIdempotencyKey } from '../../src/domain/idempotency-key.js';

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
type Parameter = {
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
};

/** The generator moves a parameter's examples out of its schema, to the parameter. */
function parameterExamples(parameter: Parameter): unknown[] {
  if ('example' in parameter) return [parameter.example];
  return parameter.examples ? Object.values(parameter.examples).map((e) => e.value) : (parameter.schema.examples ?? []);
}
type Link = { operationId: string; description?: string; parameters?: Record<string, string>; requestBody?: unknown };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  responses: Record<string, { headers?: Record<string, unknown>; links?: Record<string, Link> } & Content>;
  security?: Record<string, string[]>[];
  requestBody?: Content;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
};

/** `#/data/items/0/id` → the value at that JSON pointer, or undefined. */
function atPointer(document: unknown, pointer: string): unknown {
  const tokens = pointer.replace(/^#/, '').split('/').slice(1);
  return tokens.reduce<unknown>((node, token) => {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    return node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }, document);
}

/** `/orders/:orderId` → `/orders/{orderId}`, as the document writes paths. */
const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('OpenAPI document and docs page', () => {
  let db: Db;
  let server: RunningServer;
  let doc: Document;
  /** Every public route the app registers under /api/v1 and /sandbox, seen through an onRoute hook. */
  const apiRoutes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    db = await testDrivers()[0]!.create();
    server = await startTestServer(db);
    doc = (await call(server, '/api/v1/openapi.json')).body as Document;

    apiRoutes.push(...(await publicRoutes(server)));
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

  it('then every /api/v1 and /sandbox route is in the paths with its method, 401, 431, 500 and 503, and the bearer security', () => {
    expect(apiRoutes.length).toBeGreaterThanOrEqual(18);
    for (const { method, url } of apiRoutes) {
      const operation = doc.paths[toOpenApiPath(url)]?.[method.toLowerCase()];
      expect(operation, `${method} ${url}`).toBeDefined();
      // Operations that create something answer 201 (the sandbox's carts, orders and refunds).
      const ok = '201' in operation!.responses ? '201' : '200';
      expect(Object.keys(operation!.responses), `${method} ${url}`).toEqual(
        expect.arrayContaining([ok, '401', '431', '500', '503']),
      );
      expect(operation!.security ?? doc.security).toEqual([{ bearerAuth: [] }]);
      expect(operation!.responses[ok]!.headers).toHaveProperty('X-Request-Id');
    }
  });

  it('then the sandbox shop is tagged Sandbox, and its creations are documented as 201 only', () => {
    const sandbox = Object.entries(doc.paths).filter(([path]) => path.startsWith('/sandbox/'));
    expect(sandbox.length).toBeGreaterThanOrEqual(8);
    for (const [path, operations] of sandbox) {
      for (const operation of Object.values(operations))
        expect((operation as { tags?: string[] }).tags, path).toEqual(['Sandbox']);
    }
    for (const [path, method] of [
      ['/sandbox/carts', 'post'],
      ['/sandbox/carts/{token}/checkout', 'post'],
      ['/sandbox/orders/{id}/refunds', 'post'],
    ] as const) {
      expect(Object.keys(doc.paths[path]![method]!.responses)).toContain('201');
      expect(Object.keys(doc.paths[path]![method]!.responses)).not.toContain('200');
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
          // A cursor is sealed by the server for one shop: no example could be one, and the docs
          // page's Try it out would send it (400) instead of leaving the field empty.
          if (parameter.name === 'cursor') {
            expect(parameterExamples(parameter), `${name} cursor`).toEqual([]);
            continue;
          }
          check(`${name} ${parameter.in} ${parameter.name}`, parameter.schema, parameterExamples(parameter));
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

  it('then Idempotency-Key declares what the server accepts, and no key example is shared by two requests', () => {
    const ajv = new Ajv2020({ strict: false });
    const declared = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        (operation.parameters ?? [])
          .filter((p) => p.in === 'header' && p.name === 'Idempotency-Key')
          .map((header) => ({ where: `${method.toUpperCase()} ${path}`, header, operation })),
      ),
    );
    expect(declared.map((d) => d.where).sort()).toEqual([
      'PATCH /api/v1/orders/{orderId}',
      'POST /api/v1/inventory/adjustments',
      'PUT /api/v1/inventory/levels',
    ]);
    const seen = new Set<string>();
    for (const { where, header, operation } of declared) {
      expect(header.schema, where).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
      const schemaAccepts = ajv.compile(header.schema);
      // `""` is left out: the server reads it as the quoted form of an empty key.
      for (const value of [
        'k',
        'x'.repeat(255),
        'x'.repeat(256),
        '',
        ' ~!@#$%^&*()"\\ ',
        '"quoted"',
        'café',
        'a\tb',
        'del\x7f',
        'nul\x00',
      ]) {
        expect(schemaAccepts(value), `${where}: ${JSON.stringify(value)}`).toBe(
          parseIdempotencyKey(value) !== undefined,
        );
      }
      // A fuzzer pairs the n-th key example with the n-th body example (and builds more bodies
      // from property examples): one key per body, never one key for two requests.
      const keys = parameterExamples(header) as string[];
      expect(keys.length, where).toBeGreaterThan(mediaExamples(operation.requestBody!).length);
      for (const key of keys) {
        expect(seen.has(key), `${where}: ${key} is also an example elsewhere`).toBe(false);
        seen.add(key);
      }
    }
  });

  it('then every link names an existing operation and its parameters, and resolves on the example answer to valid input', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const operations = new Map<string, Operation>();
    for (const methods of Object.values(doc.paths)) {
      for (const operation of Object.values(methods)) operations.set(operation.operationId!, operation);
    }
    const valid = (where: string, schema: Schema, value: unknown) => {
      const validateValue = ajv.compile(schema);
      expect(validateValue(value) ? [] : validateValue.errors, `${where}: ${JSON.stringify(value)}`).toEqual([]);
    };
    const linked = new Set<string>();
    for (const [sourceId, source] of operations) {
      for (const [status, answer] of Object.entries(source.responses)) {
        for (const [name, link] of Object.entries(answer.links ?? {})) {
          const where = `${sourceId} ${status} → ${name}`;
          const target = operations.get(link.operationId);
          expect(target, `${where}: operation ${link.operationId}`).toBeDefined();
          expect(link.description, where).toEqual(expect.any(String));
          // Runtime expressions evaluated as a stateful fuzzer would, on the documented answer.
          const [example] = mediaExamples(answer);
          const evaluate = (value: unknown): unknown => {
            if (Array.isArray(value)) return value.map(evaluate);
            if (value !== null && typeof value === 'object')
              return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, evaluate(v)]));
            if (typeof value !== 'string' || !value.startsWith('$')) return value;
            if (value.startsWith('$response.body#')) return atPointer(example, value.slice('$response.body'.length));
            const request = /^\$request\.(path|query|header)\.(.+)$/.exec(value);
            const parameter = source.parameters?.find((p) => p.in === request?.[1] && p.name === request?.[2]);
            expect(parameter, `${where}: ${value} names a parameter of ${sourceId}`).toBeDefined();
            return parameterExamples(parameter!)[0];
          };
          const given = Object.entries(link.parameters ?? {}).map(([key, expression]) => {
            const [, location, parameterName] = /^(?:(path|query|header|cookie)\.)?(.+)$/.exec(key)!;
            const parameter = target!.parameters?.find(
              (p) => p.name === parameterName && (location === undefined || p.in === location),
            );
            expect(parameter, `${where}: ${link.operationId} has no parameter ${key}`).toBeDefined();
            const value = evaluate(expression);
            expect(value, `${where}: ${expression} resolves`).toBeDefined();
            valid(`${where} ${key}`, parameter!.schema, value);
            return parameter!;
          });
          for (const parameter of target!.parameters ?? []) {
            if (parameter.in === 'path') expect(given, `${where}: path ${parameter.name} given`).toContain(parameter);
          }
          if (link.requestBody !== undefined) {
            const media = target!.requestBody?.content?.['application/json'];
            expect(media, `${where}: ${link.operationId} takes a body`).toBeDefined();
            valid(`${where} body`, media!.schema, evaluate(link.requestBody));
          }
          linked.add(`${sourceId} → ${link.operationId}`);
        }
      }
    }
    // The chains a stateful fuzzer needs to reach real resources instead of 404s.
    expect([...linked].sort()).toEqual(
      expect.arrayContaining([
        'adjustInventory → setInventoryLevels',
        'editOrder → getOrder',
        'getOrder → editOrder',
        'getProduct → adjustInventory',
        'getProduct → getProduct',
        'getProduct → getVariant',
        'getProduct → setInventoryLevels',
        'getVariant → adjustInventory',
        'getVariant → getProduct',
        'getVariant → setInventoryLevels',
        'sandboxCreateCart → sandboxAddToCart',
        'sandboxAddToCart → sandboxChangeCart',
        'sandboxAddToCart → sandboxCheckout',
        'sandboxCheckout → sandboxRefundOrder',
        'sandboxCheckout → getOrder',
        'sandboxGetOrder → sandboxCancelOrder',
      ]),
    );
  });

  it('then non-API routes are hidden', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.every((p) => p.startsWith('/api/v1/') || p.startsWith('/sandbox/'))).toBe(true);
    expect(paths).not.toContain('/api/v1/openapi.json');
  });

  it('when /docs is fetched without an API key, then it is 200 HTML', async () => {
    const res = await call(server, '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<html/i);
  });
});
