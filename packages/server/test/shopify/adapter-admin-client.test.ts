import { describe, expect, it } from 'vitest';
import {
  createShopifyAdmin,
  ShopifyRequestError,
  ShopifyThrottledError,
  ShopifyUnauthorizedError,
  ShopifyUnavailableError,
} from '../../src/platform/shopify/admin-client.js';
import type { ShopifyConnection } from '../../src/platform/shopify/connection.js';
import { PlatformUnavailableError } from '../../src/platform/gateway.js';

const TOKEN = 'shpat_secret_token_never_printed';

const connection: ShopifyConnection = {
  shopId: '1',
  store: 'tare-test.myshopify.com',
  apiVersion: '2026-04',
  endpoint: 'http://127.0.0.1:9/admin/api/2026-04/graphql.json',
  accessToken: TOKEN,
  clientSecret: 'client-secret',
  status: 'active',
};

/** A fetch that records what it was sent and answers `answer`. */
function stubFetch(answer: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const cost = (requested: number, available: number, restoreRate = 100) => ({
  requestedQueryCost: requested,
  actualQueryCost: null,
  throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate },
});

async function failure(answer: () => Response | Promise<Response>): Promise<unknown> {
  const { fetch } = stubFetch(answer);
  return createShopifyAdmin(connection, { fetch })
    .request('{ shop { id } }')
    .then(
      () => expect.unreachable('the request should have failed'),
      (error: unknown) => error,
    );
}

describe('Shopify admin client', () => {
  it('when Shopify answers, then the data and the cost come back, sent to the connection endpoint with the token', async () => {
    const { fetch, calls } = stubFetch(() =>
      json({ data: { shop: { id: 'gid://shopify/Shop/1' } }, extensions: { cost: cost(1, 1999) } }),
    );
    const answer = await createShopifyAdmin(connection, { fetch }).request<{ shop: { id: string } }>(
      'query Q($a: Int) { shop { id } }',
      { a: 1 },
    );
    expect(answer.data.shop.id).toBe('gid://shopify/Shop/1');
    expect(answer.cost?.throttleStatus.currentlyAvailable).toBe(1999);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(connection.endpoint);
    expect(new Headers(calls[0]!.init.headers).get('x-shopify-access-token')).toBe(TOKEN);
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      query: 'query Q($a: Int) { shop { id } }',
      variables: { a: 1 },
    });
  });

  it('when Shopify throttles (HTTP 200, THROTTLED), then the wait is the missing points over the restore rate', async () => {
    const error = await failure(() =>
      json({
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: { cost: cost(752, 666, 50) },
      }),
    );
    expect(error).toBeInstanceOf(ShopifyThrottledError);
    expect(error).toBeInstanceOf(PlatformUnavailableError);
    // (752 − 666) / 50 points per second = 1.72 s
    expect((error as ShopifyThrottledError).retryAfterMs).toBe(1720);
  });

  it('when a throttled answer carries no cost, then a one-second wait is asked', async () => {
    const error = await failure(() => json({ errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] }));
    expect((error as ShopifyThrottledError).retryAfterMs).toBe(1000);
  });

  it('when Shopify answers 429 with Retry-After, then it is unavailable for that long', async () => {
    const error = await failure(() => json({ errors: 'Exceeded 2 calls per second' }, 429, { 'retry-after': '2.0' }));
    expect(error).toBeInstanceOf(ShopifyUnavailableError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 2000 });
  });

  it.each([500, 502, 503])('when Shopify answers %i, then it is unavailable', async (status) => {
    const error = await failure(() => new Response('<html>down</html>', { status }));
    expect(error).toBeInstanceOf(ShopifyUnavailableError);
    expect(error).toMatchObject({ status, retryAfterMs: undefined });
  });

  it('when Shopify cannot be reached, then it is unavailable', async () => {
    const error = await failure(() => Promise.reject(new TypeError('fetch failed')));
    expect(error).toBeInstanceOf(ShopifyUnavailableError);
    expect((error as Error).message).toContain('fetch failed');
  });

  it('when an answer is not JSON, then Shopify is taken as unavailable', async () => {
    const error = await failure(() => new Response('<html>proxy error</html>', { status: 200 }));
    expect(error).toBeInstanceOf(ShopifyUnavailableError);
  });

  it.each([401, 403])(
    'when Shopify answers %i, then the token is refused, and the token is not in the message',
    async (status) => {
      const error = await failure(() => json({ errors: '[API] Invalid API key or access token' }, status));
      expect(error).toBeInstanceOf(ShopifyUnauthorizedError);
      expect(error).toMatchObject({ status });
      expect((error as Error).message).not.toContain(TOKEN);
    },
  );

  it('when access to a field is denied (a missing scope), then the token is refused', async () => {
    const error = await failure(() =>
      json({ errors: [{ message: 'Access denied for orders field.', extensions: { code: 'ACCESS_DENIED' } }] }),
    );
    expect(error).toBeInstanceOf(ShopifyUnauthorizedError);
  });

  it('when Shopify rejects the document, then the request error lists its messages and is not retryable', async () => {
    const error = await failure(() =>
      json({
        errors: [{ message: "Field 'nope' doesn't exist on type 'Shop'", extensions: { code: 'undefinedField' } }],
      }),
    );
    expect(error).toBeInstanceOf(ShopifyRequestError);
    expect(error).not.toBeInstanceOf(PlatformUnavailableError);
    expect((error as Error).message).toContain("Field 'nope' doesn't exist");
  });

  it('when Shopify answers 404, then the request error names the status', async () => {
    const error = await failure(() => json({ errors: 'Not Found' }, 404));
    expect(error).toBeInstanceOf(ShopifyRequestError);
    expect(error).toMatchObject({ details: { status: 404 } });
  });

  it('when a call fails, then the library does not retry it (the outbox does)', async () => {
    const { fetch, calls } = stubFetch(() => new Response('', { status: 503 }));
    await expect(createShopifyAdmin(connection, { fetch }).request('{ shop { id } }')).rejects.toThrow(
      ShopifyUnavailableError,
    );
    expect(calls).toHaveLength(1);
  });
});
