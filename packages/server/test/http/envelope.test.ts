import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, rawCall, seedShop, startTestServer } from '../support/harness.js';

type Answer = Awaited<ReturnType<typeof call>>;

const JSON_TYPE = { 'content-type': 'application/json' };
const MIB = 1024 * 1024;
/** What a generated request id may look like: short and safe to log. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The whole failure envelope, with `requestId` equal to the `X-Request-Id` header. */
function expectFailure(res: Answer, status: number, error: { code: string; message: string; details: unknown }) {
  expect(res.status).toBe(status);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(SAFE_ID);
  expect(res.body).toEqual({ success: false, data: null, error, meta: {}, requestId });
}

/** The whole success envelope, with `requestId` equal to the `X-Request-Id` header. */
function expectSuccess(res: Answer, data: unknown, meta: unknown = {}) {
  expect(res.status).toBe(200);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(SAFE_ID);
  expect(res.body).toEqual({ success: true, data, error: null, meta, requestId });
}

/** Any client mistake: a 4xx with a well-formed envelope, never a 5xx or a bare framework body. */
function expectClientError(res: Answer) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expectErrorEnvelope(res, res.status, res.body?.error?.code);
}

const withoutRequestId = ({ requestId: _ignored, ...rest }: any) => rest;

/** An inventory write with a valid key: the route where a JSON body is read and parsed. */
function write(
  server: RunningServer,
  key: string,
  body: BodyInit,
  headers: Record<string, string> = JSON_TYPE,
): Promise<Answer> {
  const init = { method: 'POST', key, body, headers: { 'idempotency-key': randomUUID(), ...headers } };
  return call(server, '/api/v1/inventory/adjustments', init);
}

describe.each(testDrivers())('Response envelope on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;
  /** Same store, with TARE_BODY_LIMIT=1024 so limits are cheap to cross. */
  let small: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    small = await startTestServer(db, { TARE_BODY_LIMIT: '1024' });
  });

  afterAll(async () => {
    await small?.close();
    await server?.close();
    await db?.close();
  });

  describe('happy', () => {
    it('when /healthz is called without a key, then it is 200 with the success envelope', async () => {
      expectSuccess(await call(server, '/healthz'), { status: 'ok' });
    });

    it('when /readyz is called and the store answers, then it is 200 with the success envelope', async () => {
      expectSuccess(await call(server, '/readyz'), { status: 'ready' });
    });

    it('when an /api/v1 request succeeds, then body.requestId equals the X-Request-Id header', async () => {
      const shop = await seedShop(db);
      const res = await call(server, '/api/v1/products/1002', { key: shop.key });
      expectSuccess(
        res,
        { product: { id: '1002', measurementType: 'length', variants: [] } },
        { nextCursor: null, prevCursor: null, hasMore: false },
      );
    });

    it.each([
      ['letters and digits', 'abc123'],
      ['every allowed punctuation', 'a.b_c:d-e'],
      ['a UUID', '0b6f1a9e-58b5-4c55-9d1e-0f3c7c2d9a11'],
      ['exactly 128 characters', 'x'.repeat(128)],
    ])('when the caller sends an X-Request-Id of %s, then it is reused in the header and the body', async (_, id) => {
      const res = await call(server, '/healthz', { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).toBe(id);
      expectSuccess(res, { status: 'ok' });
    });

    it('when the caller sends an X-Request-Id and the request fails, then the failure carries it too', async () => {
      const id = 'caller-trace-42';
      const notFound = await call(server, '/nope', { headers: { 'x-request-id': id } });
      expect(notFound.body.requestId).toBe(id);
      expectFailure(notFound, 404, {
        code: 'not_found',
        message: 'No route GET /nope.',
        details: { method: 'GET', path: '/nope' },
      });
      const unauthorized = await call(server, '/api/v1/app-settings', { headers: { 'x-request-id': id } });
      expect(unauthorized.body.requestId).toBe(id);
      expectErrorEnvelope(unauthorized, 401, 'unauthorized');
    });

    it('when two requests send no X-Request-Id, then each gets its own', async () => {
      const [a, b] = await Promise.all([call(server, '/healthz'), call(server, '/healthz')]);
      expect(a.body.requestId).not.toBe(b.body.requestId);
    });
  });

  describe('errors', () => {
    it('when the route does not exist, then it is 404 not_found naming method and path', async () => {
      expectFailure(await call(server, '/api/v1/orders-of-the-day'), 404, {
        code: 'not_found',
        message: 'No route GET /api/v1/orders-of-the-day.',
        details: { method: 'GET', path: '/api/v1/orders-of-the-day' },
      });
      expectFailure(await call(server, '/api/v1/nope?x=1', { method: 'POST', body: '{}', headers: JSON_TYPE }), 404, {
        code: 'not_found',
        message: 'No route POST /api/v1/nope.',
        details: { method: 'POST', path: '/api/v1/nope' },
      });
    });

    it('when the path only differs from a route by a trailing slash, then it is 404, not 405', async () => {
      const shop = await seedShop(db);
      expectFailure(await call(server, '/api/v1/products/1001/', { key: shop.key }), 404, {
        code: 'not_found',
        message: 'No route GET /api/v1/products/1001/.',
        details: { method: 'GET', path: '/api/v1/products/1001/' },
      });
    });

    it.each([
      ['POST', '/api/v1/products/1'],
      ['DELETE', '/api/v1/products/1/variants/2'],
      ['PUT', '/api/v1/app-settings'],
      ['POST', '/healthz'],
    ])('when %s is sent to %s (a GET route), then it is 405 with Allow: GET, HEAD', async (method, path) => {
      const res = await call(server, path, { method });
      expectFailure(res, 405, {
        code: 'method_not_allowed',
        message: `Method ${method} is not allowed here.`,
        details: { allowed: ['GET', 'HEAD'] },
      });
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    });

    // Route first: where no route takes the request, 404 and 405 answer before anything about
    // the body (media type, JSON syntax, size) is even looked at.
    it.each([
      ['POST', '/api/v1/app-settings', 'text/plain', 'hello', 405, 'GET, HEAD'],
      ['POST', '/api/v1/products/1001', 'application/json', '{', 405, 'GET, HEAD'],
      ['PUT', '/api/v1/inventory/adjustments', 'application/xml', '<a/>', 405, 'POST'],
      ['POST', '/api/v1/nope', 'application/json', '{', 404, null],
      ['DELETE', '/api/v1/nope', 'text/plain', 'hello', 404, null],
    ])(
      'when %s %s carries a %s body the route would refuse, then it is %i, not a body error',
      async (method, path, type, body, status, allow) => {
        const res = await call(server, path, { method, body, headers: { 'content-type': type } });
        expectErrorEnvelope(res, status, status === 405 ? 'method_not_allowed' : 'not_found');
        expect(res.headers.get('allow')).toBe(allow);
      },
    );

    it('when a body over the limit is sent where no route takes it, then it is 404 or 405, not 413', async () => {
      const over = JSON.stringify({ pad: 'x'.repeat(2000) });
      const wrongMethod = await call(small, '/api/v1/products/1', { method: 'POST', body: over, headers: JSON_TYPE });
      expectErrorEnvelope(wrongMethod, 405, 'method_not_allowed');
      const unknown = await call(small, '/api/v1/nope', { method: 'POST', body: over, headers: JSON_TYPE });
      expectErrorEnvelope(unknown, 404, 'not_found');
    });

    it('when QUERY is sent without a Content-Type, then it is 405 on a known path and 404 on an unknown one', async () => {
      const known = await rawCall(server, '/api/v1/app-settings', { method: 'QUERY' });
      expectErrorEnvelope(known, 405, 'method_not_allowed');
      expect(known.headers.get('allow')).toBe('GET, HEAD');
      expectErrorEnvelope(await rawCall(server, '/api/v1/nope', { method: 'QUERY' }), 404, 'not_found');
    });

    // Body handling is reached through an inventory write with a valid key: the body is read
    // and parsed before the write looks at anything else.
    it('when a body is over the limit, then it is 413 payload_too_large', async () => {
      const shop = await seedShop(db);
      const over = JSON.stringify({ pad: 'x'.repeat(2000) });
      expectFailure(await write(small, shop.key, over), 413, {
        code: 'payload_too_large',
        message: 'The request body exceeds 1024 bytes.',
        details: { limitBytes: 1024 },
      });
    });

    it('when a body is exactly 1 MiB, then it is read; one byte more is 413 (the default limit)', async () => {
      const shop = await seedShop(db);
      // A JSON string, not an object: read and parsed, then refused by the schema.
      expectErrorEnvelope(await write(server, shop.key, `"${'x'.repeat(MIB - 2)}"`), 400, 'bad_request');
      expectFailure(await write(server, shop.key, `"${'x'.repeat(MIB - 1)}"`), 413, {
        code: 'payload_too_large',
        message: `The request body exceeds ${MIB} bytes.`,
        details: { limitBytes: MIB },
      });
    });

    it.each([
      ['application/xml', '<a/>', 'application/xml'],
      ['text/plain', 'hello', 'text/plain'],
      ['application/vnd.api+json', '{}', 'application/vnd.api+json'],
    ])('when a body is sent as %s, then it is 415 unsupported_media_type', async (type, body, reported) => {
      const shop = await seedShop(db);
      expectFailure(await write(server, shop.key, body, { 'content-type': type }), 415, {
        code: 'unsupported_media_type',
        message: 'The request body must be JSON (application/json).',
        details: { contentType: reported },
      });
    });

    it('when a body has no Content-Type, then it is 415 with contentType null', async () => {
      const shop = await seedShop(db);
      expectFailure(await write(server, shop.key, new Uint8Array([1, 2, 3]), {}), 415, {
        code: 'unsupported_media_type',
        message: 'The request body must be JSON (application/json).',
        details: { contentType: null },
      });
    });

    it.each(['{', '{"a":1,}', "{'a':1}", 'NaN', '{"a":1}{"b":2}'])(
      'when a JSON body is malformed (%s), then it is 400 bad_request',
      async (body) => {
        const shop = await seedShop(db);
        expectFailure(await write(server, shop.key, body), 400, {
          code: 'bad_request',
          message: 'The request body is not valid JSON.',
          details: null,
        });
      },
    );

    it('when a JSON body is empty, then it is 400 bad_request asking for an object', async () => {
      const shop = await seedShop(db);
      expectFailure(await write(server, shop.key, ''), 400, {
        code: 'bad_request',
        message: 'The request body is empty; send a JSON object.',
        details: null,
      });
    });

    it('when GET /app-settings carries a malformed, foreign or oversized body, then the body is ignored', async () => {
      const shop = await seedShop(db);
      const plain = await call(small, '/api/v1/app-settings', { key: shop.key });
      expect(plain.status).toBe(200);
      for (const [type, body] of [
        ['application/json', '{'],
        ['application/xml', '<a/>'],
        ['application/json', JSON.stringify({ pad: 'x'.repeat(4000) })],
        ['text/plain', 'x'.repeat(4000)],
      ] as const) {
        const res = await rawCall(small, '/api/v1/app-settings', {
          key: shop.key,
          headers: { 'content-type': type },
          body,
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
        expect(withoutRequestId(res.body)).toEqual(withoutRequestId(plain.body));
      }
    });

    it('when /readyz is called and the store is gone, then it is 503 service_unavailable', async () => {
      const ownDb = await create();
      const own = await startTestServer(ownDb);
      try {
        expectSuccess(await call(own, '/readyz'), { status: 'ready' });
        await ownDb.close();
        expectFailure(await call(own, '/readyz'), 503, {
          code: 'service_unavailable',
          message: 'The store is not reachable.',
          details: null,
        });
        // Liveness does not depend on the store.
        expectSuccess(await call(own, '/healthz'), { status: 'ok' });
      } finally {
        await own.close();
      }
    });
  });

  describe('security', () => {
    it.each([
      ['a space', 'abc 123'],
      ['markup', '<script>'],
      ['a quote', 'a"b'],
      ['a slash', 'a/b'],
      ['129 characters', 'x'.repeat(129)],
    ])('when the caller sends an X-Request-Id with %s, then a new safe id replaces it', async (_, id) => {
      const res = await call(server, '/healthz', { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).not.toBe(id);
      expectSuccess(res, { status: 'ok' });
    });

    it('when the X-Request-Id holds non-ASCII bytes, then a new safe id replaces it', async () => {
      const res = await rawCall(server, '/healthz', { headers: { 'x-request-id': 'caf\u00e9' } });
      expect(res.headers.get('x-request-id')).not.toBe('caf\u00e9');
      expectSuccess(res, { status: 'ok' });
    });

    it('when a JSON body tries prototype pollution, then it is 400 bad_request', async () => {
      const shop = await seedShop(db);
      for (const body of ['{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
        expectFailure(await write(server, shop.key, body), 400, {
          code: 'bad_request',
          message: 'The request body is not valid JSON.',
          details: null,
        });
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('when the URL cannot be decoded, then it is 400 bad_request in the envelope (not a bare framework body)', async () => {
      const shop = await seedShop(db);
      for (const path of ['/api/v1/products/%ZZ', '/api/v1/products/1/variants/%E0%A4%A']) {
        expectFailure(await call(server, path, { key: shop.key }), 400, {
          code: 'bad_request',
          message: 'The URL is not valid.',
          details: null,
        });
      }
    });

    it('when a path id is longer than the router allows, then it is 400 bad_request in the envelope', async () => {
      const res = await call(server, `/api/v1/products/${'9'.repeat(150)}`, {
        headers: { 'x-request-id': 'long-id-probe' },
      });
      expect(res.body.requestId).toBe('long-id-probe');
      expectFailure(res, 400, { code: 'bad_request', message: 'A path segment is too long.', details: null });
    });

    it('when bad input of every kind arrives, then no answer is a 5xx and every one is an envelope', async () => {
      const shop = await seedShop(db);
      const auth = { authorization: `Bearer ${shop.key}` };
      const answers = await Promise.all([
        call(server, '/api/v1/products/abc', { headers: auth }),
        call(server, `/api/v1/products/${'9'.repeat(21)}`, { headers: auth }),
        call(server, `/api/v1/products/${'9'.repeat(101)}`, { headers: auth }),
        call(server, '/api/v1/products/1001?limit=0', { headers: auth }),
        call(server, '/api/v1/products/1001?limit=abc', { headers: auth }),
        call(server, '/api/v1/products/1001?limit=1e999', { headers: auth }),
        call(server, '/api/v1/products/1001?limit=%ZZ', { headers: auth }),
        call(server, '/api/v1/products/1001?limit=1&limit=2', { headers: auth }),
        call(server, '/api/v1/products/1001?cursor=not-a-cursor', { headers: auth }),
        call(server, `/api/v1/products/1001?cursor=${'c'.repeat(4000)}`, { headers: auth }),
        call(server, '/api/v1/products/1001/variants/-1', { headers: auth }),
        call(server, '/api/v1/products//variants/2001', { headers: auth }),
        call(server, '/api/v1/app-settings?locale=a&locale=b', { headers: auth }),
        call(server, '/api/v1/app-settings', { headers: { authorization: `Bearer ${'a'.repeat(8000)}` } }),
        write(server, shop.key, `${'['.repeat(200_000)}${']'.repeat(200_000)}`),
        write(server, shop.key, '\u0000\u0001'),
        call(server, '/api/v1/orders/5001', { method: 'PATCH', body: '{"a":', headers: { ...auth, ...JSON_TYPE } }),
      ]);
      for (const res of answers) expectClientError(res);
      // Odd but valid input is simply served; a NUL is not storable text, so never valid input.
      const oddLocale = await call(server, '/api/v1/app-settings?locale=%7F', { headers: auth });
      expect(oddLocale.status).toBe(200);
      const nulLocale = await call(server, '/api/v1/app-settings?locale=%00%7F', { headers: auth });
      expect(nulLocale.status).toBe(400);
      expect(nulLocale.body.error.details).toEqual({
        in: 'querystring',
        errors: [{ path: '/locale', message: 'must not contain the NUL character (U+0000)' }],
      });
    });
  });
});
