import { parse, validate } from 'graphql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as operations from '../../src/platform/shopify/operations.js';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { adminRequest } from '../support/fake-shopify/client.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';

let fake: FakeShopify;

beforeEach(async () => {
  fake = await startFakeShopify();
  addCoffeeShop(fake);
});

afterEach(async () => {
  fake.invalidQueries.length = 0;
  await fake.close();
});

describe('queries the schema refuses', () => {
  it('when a query names a field Shopify lacks, then it gets GraphQL errors and close() fails the test', async () => {
    const { status, body } = await adminRequest(fake, 'query Drift { shop { myshopifyDomain planName } }');
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors[0].message).toMatch(/^Cannot query field "planName" on type "Shop"/);
    expect(fake.invalidQueries).toHaveLength(1);
    await expect(async () => fake.assertNoInvalidQueries()).rejects.toThrow(/planName/);
  });

  it('when a connection is asked without first or last, then it is refused as Shopify does', async () => {
    const { body } = await adminRequest(fake, 'query { orders { nodes { id } } }');
    expect(body.errors[0].message).toMatch(/`first` or `last`/);
    expect(fake.invalidQueries).toHaveLength(1);
  });

  it('when a variable does not fit its type, then it is refused', async () => {
    const { body } = await adminRequest(fake, 'query ($id: ID!) { order(id: $id) { id } }', {});
    expect(body.errors[0].message).toMatch(/\$id/);
    expect(fake.invalidQueries).toHaveLength(1);
  });

  it('when close() sees a refused query, then it throws after stopping the server', async () => {
    const other = await startFakeShopify();
    await adminRequest(other, 'query { nope }');
    await expect(other.close()).rejects.toThrow(/Cannot query field "nope"/);
  });
});

describe("the adapter's documents", () => {
  it('when each document of operations.ts is validated against the schema, then none is refused', () => {
    const documents = Object.entries(operations).filter(
      ([, value]) => typeof value === 'string' && /\b(query|mutation)\b/.test(value),
    );
    expect(documents.length).toBeGreaterThan(0);
    for (const [name, document] of documents) {
      expect([name, validate(fake.schema, parse(document as string)).map((e) => e.message)]).toEqual([name, []]);
    }
  });
});

describe('authentication', () => {
  it("when the token is wrong or revoked, then 401 with Shopify's message", async () => {
    const unauthorized = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
    expect(await adminRequest(fake, '{ shop { id } }', {}, { accessToken: 'shpat_wrong' })).toEqual({
      status: 401,
      body: unauthorized,
    });
    expect((await adminRequest(fake, '{ shop { id } }')).status).toBe(200);
    fake.revokeToken();
    expect(await adminRequest(fake, '{ shop { id } }')).toEqual({ status: 401, body: unauthorized });
  });
});
