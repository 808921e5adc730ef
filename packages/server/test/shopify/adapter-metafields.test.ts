/**
 * Writing storefront metafields with metafieldsSet against the fake Shopify: 25 a call, a
 * refusal names its input and the call's others are written anyway (the mutation is atomic, so
 * they are sent again), and the fake refuses what Shopify refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopifyAdmin } from '../../src/platform/shopify/admin-client.js';
import { type MetafieldWrite, writeShopifyMetafields } from '../../src/platform/shopify/metafields.js';
import { SET_METAFIELDS } from '../../src/platform/shopify/operations.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';

describe('writing metafields to the fake Shopify', () => {
  let fake: FakeShopify;
  const variantIds = Array.from({ length: 30 }, (_, i) => String(3000 + i));
  beforeAll(async () => {
    fake = await startFakeShopify();
    fake.addProduct({
      id: '1001',
      title: 'Many',
      variants: variantIds.map((id) => ({ id, title: id, price: '1.00' })),
    });
  });
  afterAll(async () => {
    await fake.close();
  });
  const admin = () =>
    createShopifyAdmin({
      store: fake.store,
      apiVersion: fake.apiVersion,
      accessToken: fake.accessToken,
      endpoint: fake.adminApiUrl,
    });
  const writes = (n: number, tag: string): MetafieldWrite[] =>
    variantIds.slice(0, n).map((id) => ({ ownerType: 'ProductVariant', ownerId: id, document: { tag } }));
  const setCalls = () => fake.calls.filter((c) => c.operationName === 'SetMetafields');

  it('when 30 variants and the shop are written, then they go 25 a call and all land', async () => {
    const before = setCalls().length;
    const outcomes = await writeShopifyMetafields(admin(), [
      ...writes(30, 'a'),
      { ownerType: 'Shop', ownerId: '', document: { tag: 'shop' } },
    ]);
    expect(outcomes.every((o) => o.status === 'written')).toBe(true);
    expect(
      setCalls()
        .slice(before)
        .map((c) => (c.variables.metafields as unknown[]).length),
    ).toEqual([25, 6]);
    expect(fake.metafield('3029', '$app:tare', 'measurement')).toEqual({ tag: 'a' });
    expect(fake.metafield('shop', '$app:tare', 'labels')).toEqual({ tag: 'shop' });
  });

  it('when Shopify refuses one input, then it alone is refused with Shopify’s code and the others are written', async () => {
    fake.faults.refuseMetafields(1, 'INVALID_VALUE', 'Value is invalid.');
    const outcomes = await writeShopifyMetafields(admin(), writes(3, 'b'));
    expect(outcomes).toEqual([
      { status: 'refused', error: 'INVALID_VALUE: Value is invalid.' },
      { status: 'written' },
      { status: 'written' },
    ]);
    expect(fake.metafield('3000', '$app:tare', 'measurement')).toEqual({ tag: 'a' });
    expect(fake.metafield('3001', '$app:tare', 'measurement')).toEqual({ tag: 'b' });
  });

  it.each([
    ['more than 25 inputs', 'LESS_THAN_OR_EQUAL_TO', 26, {}],
    ['another app’s namespace', 'APP_NOT_AUTHORIZED', 1, { namespace: 'app--999--tare' }],
    ['an unknown type', 'INVALID_TYPE', 1, { type: 'jsonish' }],
    ['a json value that does not parse', 'INVALID_VALUE', 1, { value: '{' }],
    ['a json value over 128KB', 'TOO_LONG', 1, { value: JSON.stringify('x'.repeat(140_000)) }],
  ])('when metafieldsSet gets %s, then nothing is set and the user error is %s', async (_, code, n, override) => {
    const inputs = variantIds.slice(0, n).map((id) => ({
      ownerId: `gid://shopify/ProductVariant/${id}`,
      namespace: '$app:tare',
      key: 'measurement',
      type: 'json',
      value: '{"tag":"c"}',
      ...override,
    }));
    const { data } = await admin().request<{ metafieldsSet: { userErrors: { code: string }[] } }>(SET_METAFIELDS, {
      metafields: inputs,
    });
    expect(data.metafieldsSet.userErrors.map((e) => e.code)).toEqual([code]);
    expect(fake.metafield('3000', '$app:tare', 'measurement')).not.toEqual({ tag: 'c' });
  });
});
