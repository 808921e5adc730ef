/**
 * The docs page's "Try it out" fills each operation with its examples: the example of every
 * parameter (path, query, header) and the first example of the body. Sent with a key of the demo
 * shop (`tare demo`), each API operation answers with success, so someone trying the API from
 * /docs on the demo shop is not met by a 404 of an id that exists nowhere. On Citus, every
 * statement each operation sent is also planned on the shop's one shard (Citus's EXPLAIN; the
 * cross-shop ones on purpose aside, docs/operations.md).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CATALOG } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { shardCheck } from '../support/citus-plan.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { recording, type Sent } from '../support/recording-db.js';

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
  schema: { examples?: unknown[] };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
}

/** The value Swagger UI puts in a parameter's field: its `example`, else its first example. */
function exampleOf(parameter: Parameter): unknown {
  if ('example' in parameter) return parameter.example;
  const [first] = Object.values(parameter.examples ?? {});
  return first ? first.value : parameter.schema.examples?.[0];
}

function bodyExampleOf(operation: Operation): unknown {
  const media = operation.requestBody?.content['application/json'];
  if (!media) return undefined;
  if ('example' in media) return media.example;
  return Object.values(media.examples ?? {})[0]?.value;
}

/**
 * Operations whose examples name what the demo shop does not have, with the answer they get
 * there: a test that fails once the demo has it, so the exception does not outlive its reason.
 */
const NOT_IN_THE_DEMO: Record<string, number> = {};

describe.each(testDrivers({ citus: true }))('the docs page’s "Try it out" on the demo shop on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let key: string;
  let operations: { method: string; path: string; operation: Operation }[];
  const sent: Sent[] = [];

  beforeAll(async () => {
    db = await driver.create();
    // Another shop first, so the demo shop is not alone on the cluster.
    await seedShop(db);
    ({ key } = await seedShop(db, DEMO_CATALOG.shops[0]!));
    server = await startTestServer(recording(db, sent));
    const document = (await call(server, '/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
      );
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  test('when every API operation is sent with its examples and a demo key, then each succeeds', async () => {
    expect(operations.length).toBeGreaterThan(5);
    const answers: Record<string, number> = {};
    // On Citus, each operation's statements are checked to be on the shop's one shard.
    const shards = driver.name === 'citus' ? shardCheck(db, sent) : undefined;
    // Reads first, as someone exploring does, then the writes.
    const ordered = [...operations].sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
    for (const { method, path, operation } of ordered) {
      let url = path;
      const query = new URLSearchParams();
      const headers: Record<string, string> = {};
      for (const parameter of operation.parameters ?? []) {
        const value = exampleOf(parameter);
        if (value === undefined) continue;
        const values = Array.isArray(value) ? value.map(String) : [String(value)];
        if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(values[0]!));
        if (parameter.in === 'query') for (const one of values) query.append(parameter.name, one);
        if (parameter.in === 'header') headers[parameter.name] = values[0]!;
      }
      const body = bodyExampleOf(operation);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const request = () =>
        call(server, `${url}${query.size ? `?${query}` : ''}`, {
          method,
          key,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const answer = await (shards ? shards.run(operation.operationId, request) : request());
      answers[operation.operationId] = answer.status;
      if (answer.status >= 300) answers[`${operation.operationId} said`] = answer.body?.error?.message;
    }
    if (shards) {
      expect(shards.fannedOut).toEqual({});
      // Some answer from a cache or from no store at all (the units) and send nothing.
      expect(shards.total).toBeGreaterThan(operations.length);
    }
    const failed = Object.entries(answers).filter(([, status]) => typeof status !== 'number' || status >= 300);
    expect(Object.fromEntries(failed.filter(([id]) => !(id.replace(/ said$/, '') in NOT_IN_THE_DEMO)))).toEqual({});
    for (const [id, status] of Object.entries(NOT_IN_THE_DEMO)) expect(answers[id], id).toBe(status);
  });
});
