import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorCompiler } from '../../src/http/validator.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, startTestServer } from '../support/harness.js';
import { type PublicRoute, publicRoutes } from '../support/public-routes.js';
import {
  type FieldLocation,
  integerProperties,
  pointerOf,
  sampleOf,
  stringLocations,
  withText,
} from '../support/schema-walk.js';

/**
 * Rules every request value obeys whatever route it goes to, tried on every field of every
 * /api/v1 and /sandbox route as its schema declares it (so a route or field added later is tried as well):
 * text PostgreSQL cannot store as sent is 400 naming its JSON pointer, and integers in query
 * strings and paths are decimal digits only.
 */

type Part = 'params' | 'querystring' | 'body';
type Route = PublicRoute;

const NUL = 'must not contain the NUL character (U+0000)';
const LONE_SURROGATE = 'must be well-formed Unicode (it contains a lone surrogate)';
/** A URL is percent-decoded as UTF-8, which cannot spell a lone surrogate: only JSON can carry one. */
const BAD_TEXTS: [string, string, string, Part[]][] = [
  ['a NUL character', 'a\u0000b', NUL, ['params', 'querystring', 'body']],
  ['a lone surrogate', 'a\ud800b', LONE_SURROGATE, ['body']],
];
const NOT_DECIMAL = ['0x10', '0b11', '0o7', '1e2', '+5', '5.0', ' 5', '5 ', '1_0', 'Infinity', ''];

/** A request to `route` that its schemas accept, with `part` replaced by `value`. */
function requestTo(route: Route, replaced?: { part: Part; value: unknown }) {
  const value = (part: Part) => (replaced?.part === part ? replaced.value : sampleOf(route.schema[part]));
  const params = (value('params') ?? {}) as Record<string, string>;
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams();
  for (const [name, v] of Object.entries((value('querystring') ?? {}) as Record<string, unknown>)) {
    for (const item of [v].flat()) query.append(name, String(item));
  }
  const body = route.schema.body === undefined ? undefined : JSON.stringify(value('body'));
  return { path: `${path}${query.size ? `?${query}` : ''}`, method: route.method, body };
}

/** Whether the route's own validator accepts the untouched sample: then the only fault is the one put in. */
function sampleIsValid(route: Route, part: Part): boolean {
  const validate = validatorCompiler({
    schema: route.schema[part] as object,
    httpPart: part,
    method: route.method,
    url: route.url,
  });
  return validate(sampleOf(route.schema[part])) === true;
}

describe.each(testDrivers())('values every route refuses, on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;
  let key: string;
  let routes: Route[];

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    key = (await seedShop(db)).key;
    routes = await publicRoutes(server);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  function send(route: Route, replaced?: { part: Part; value: unknown }) {
    const request = requestTo(route, replaced);
    const headers: Record<string, string> = { 'idempotency-key': `values-${Math.random()}` };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    return call(server, request.path, { key, method: request.method, headers, body: request.body });
  }

  it('when the routes are listed, then every part with a schema has a valid sample to start from', () => {
    expect(routes.length).toBeGreaterThanOrEqual(7);
    expect(routes.filter((r) => r.url.startsWith('/sandbox/')).length).toBeGreaterThan(0);
    for (const route of routes) {
      for (const part of ['params', 'querystring', 'body'] as const) {
        if (route.schema[part] !== undefined)
          expect(sampleIsValid(route, part), `${route.method} ${route.url} ${part}`).toBe(true);
      }
    }
  });

  it('when any string field of any route carries a NUL or a lone surrogate, then 400 names that field and nothing is stored', async () => {
    const tried: string[] = [];
    const written = async () =>
      (
        await db.query(
          'SELECT (SELECT count(*) FROM inventory_ledger)::int AS ledger, (SELECT count(*) FROM order_edits)::int AS edits',
        )
      ).rows;
    const before = await written();
    for (const route of routes) {
      for (const part of ['params', 'querystring', 'body'] as const) {
        const schema = route.schema[part];
        for (const location of stringLocations(schema)) {
          // A part that is a bare string (none is) has no field to put the text in.
          if (location.kind === 'value' && location.segments.length === 0) continue;
          for (const [label, text, message] of BAD_TEXTS.filter(([, , , parts]) => parts.includes(part))) {
            const value = withText(sampleOf(schema), schema, location, text);
            const res = await send(route, { part, value });
            const where = `${route.method} ${route.url} ${part} ${pointerOf(location, text)} with ${label}`;
            const error = expectErrorEnvelope(res, 400, 'bad_request');
            expect(error.details, where).toEqual({
              in: part,
              errors: [{ path: pointerOf(location, text), message: expectedMessage(location, message) }],
            });
            tried.push(where);
          }
        }
      }
    }
    // The issue's own case and a free-text field of each kind of part are among those tried.
    expect(tried).toEqual(
      expect.arrayContaining([
        'PATCH /api/v1/orders/:orderId body /staffNote with a NUL character',
        'POST /api/v1/inventory/adjustments body /adjustments/0/delta/unit with a NUL character',
        'PUT /api/v1/inventory/levels body /levels/0/quantity/unit with a lone surrogate',
        'GET /api/v1/app-settings querystring /locale with a NUL character',
        'GET /api/v1/products/:productId querystring /cursor with a NUL character',
        'GET /api/v1/products/:productId params /productId with a NUL character',
        'POST /sandbox/carts/:token/add body /items/0/properties/0/value with a NUL character',
      ]),
    );
    expect(await written()).toEqual(before);
  });

  it('when an integer query or path parameter is not written in decimal digits, then 400 names it', async () => {
    const tried: string[] = [];
    for (const route of routes) {
      for (const part of ['params', 'querystring'] as const) {
        const schema = route.schema[part];
        for (const name of integerProperties(schema)) {
          for (const spelling of NOT_DECIMAL) {
            const value = { ...(sampleOf(schema) as object), [name]: spelling };
            const res = await send(route, { part, value });
            const where = `${route.method} ${route.url} ${part} ${name}=${JSON.stringify(spelling)}`;
            const error = expectErrorEnvelope(res, 400, 'bad_request');
            expect(error.details, where).toEqual({
              in: part,
              errors: [{ path: `/${name}`, message: 'must be integer' }],
            });
            tried.push(where);
          }
          // Plain digits are still an integer (the answer may be 404: the sample names nothing).
          const plain = await send(route, { part, value: { ...(sampleOf(schema) as object), [name]: '007' } });
          expect(plain.body?.error?.details?.errors ?? [], `${route.url} ${name}=007`).not.toContainEqual(
            expect.objectContaining({ path: `/${name}` }),
          );
        }
      }
    }
    expect(tried).toEqual(
      expect.arrayContaining([
        'GET /api/v1/products/:productId querystring limit="0x10"',
        'GET /api/v1/products/:productId querystring limit="1e2"',
      ]),
    );
  });
});

/** A constrained field (a pattern, an enum) refuses the text by its own rule first. */
function expectedMessage(location: FieldLocation, message: string) {
  if (location.constrained) return expect.any(String);
  return location.kind === 'key' ? `has a field name that ${message}` : message;
}
