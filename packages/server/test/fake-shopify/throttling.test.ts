import { afterEach, describe, expect, it } from 'vitest';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { adminRequest } from '../support/fake-shopify/client.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';

const SHOP = 'query Shop { shop { myshopifyDomain } }';
const ORDER_IDS = 'query Orders { orders(first: 10) { nodes { id } } }';

let fake: FakeShopify | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A fake on a clock the test moves by hand. */
async function startOnClock(options: { maximumAvailable: number; restoreRate?: number }) {
  const clock = { ms: Date.parse('2026-05-01T00:00:00Z') };
  fake = await startFakeShopify({ ...options, now: () => clock.ms });
  addCoffeeShop(fake);
  return { fake, advance: (ms: number) => (clock.ms += ms) };
}

describe('query cost', () => {
  it('when a query is answered, then extensions.cost reports the requested and actual cost and the bucket', async () => {
    const { fake } = await startOnClock({ maximumAvailable: 2000 });
    fake.placeOrder({ locationId: '70001', lines: [{ variantId: '2001', quantity: 1 }] });
    const { body } = await adminRequest(fake, ORDER_IDS);
    // A connection costs 2 plus its page size times a node (1): requested 2 + 10, actual 2 + 1 returned.
    expect(body.extensions.cost).toEqual({
      requestedQueryCost: 12,
      actualQueryCost: 3,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1997, restoreRate: 100 },
    });
    expect(fake.calls.at(-1)).toMatchObject({
      operationName: 'Orders',
      requestedCost: 12,
      actualCost: 3,
      status: 'ok',
    });
  });

  it('when a single query asks for more than 1000 points, then MAX_COST_EXCEEDED', async () => {
    const { fake } = await startOnClock({ maximumAvailable: 2000 });
    const { body } = await adminRequest(
      fake,
      'query Big { orders(first: 250) { nodes { lineItems(first: 250) { nodes { id } } } } }',
    );
    expect(body.errors[0].extensions.code).toBe('MAX_COST_EXCEEDED');
    expect(() => fake.assertNoInvalidQueries()).toThrow(/MAX_COST_EXCEEDED/);
    fake.invalidQueries.length = 0;
  });
});

describe('throttling', () => {
  it('when the bucket cannot pay, then HTTP 200 THROTTLED, and it refills at the restore rate', async () => {
    const { fake, advance } = await startOnClock({ maximumAvailable: 25, restoreRate: 100 });
    const mutation = 'mutation Begin($id: ID!) { orderEditBegin(id: $id) { userErrors { message } } }';
    const variables = { id: 'gid://shopify/Order/1' };
    expect((await adminRequest(fake, mutation, variables)).body.extensions.cost.throttleStatus.currentlyAvailable).toBe(
      15,
    );
    expect((await adminRequest(fake, mutation, variables)).body.extensions.cost.throttleStatus.currentlyAvailable).toBe(
      5,
    );

    const throttled = await adminRequest(fake, mutation, variables);
    expect(throttled.status).toBe(200);
    expect(throttled.body.data).toBeUndefined();
    expect(throttled.body.errors).toEqual([
      {
        message: 'Throttled',
        extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
      },
    ]);
    expect(throttled.body.extensions.cost).toEqual({
      requestedQueryCost: 10,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 25, currentlyAvailable: 5, restoreRate: 100 },
    });

    advance(50); // 100 points/s × 0.05 s = 5 points: 10 in the bucket
    expect((await adminRequest(fake, mutation, variables)).body.extensions.cost.throttleStatus.currentlyAvailable).toBe(
      0,
    );
    advance(60_000);
    expect(fake.throttleStatus().currentlyAvailable).toBe(25);
  });

  it('when throttling is injected or the bucket emptied, then the next requests are THROTTLED', async () => {
    const { fake, advance } = await startOnClock({ maximumAvailable: 2000 });
    fake.faults.throttle(2);
    expect((await adminRequest(fake, SHOP)).body.errors[0].extensions.code).toBe('THROTTLED');
    expect((await adminRequest(fake, SHOP)).body.errors[0].extensions.code).toBe('THROTTLED');
    expect((await adminRequest(fake, SHOP)).body.data.shop.myshopifyDomain).toBe('tare-test.myshopify.com');

    fake.faults.emptyBucket();
    expect((await adminRequest(fake, SHOP)).body.errors[0].extensions.code).toBe('THROTTLED');
    advance(10); // one point back, the cost of `shop`
    expect((await adminRequest(fake, SHOP)).body.data.shop).toBeTruthy();
    expect(fake.calls.map((c) => c.status)).toEqual(['throttled', 'throttled', 'ok', 'throttled', 'ok']);
  });
});
