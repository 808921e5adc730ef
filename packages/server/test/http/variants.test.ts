import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import {
  call,
  expectErrorEnvelope,
  rawCall,
  seedShop,
  shopFixture,
  startTestServer,
  variantFixture,
} from '../support/harness.js';

const NUMBER_RULES = { min: 0.25, increment: 0.25, defaultValue: 1, max: null };

const withoutRequestId = ({ requestId: _ignored, ...rest }: any) => rest;

/** A shop whose product 1001 (weight) has number, pills and dropdown variants; 1002 (length) has one. */
function catalogShop() {
  return shopFixture({
    products: [
      {
        id: '1001',
        title: 'Cheese',
        measurementType: 'weight',
        variants: [
          variantFixture('2001', 'kg', 1),
          {
            ...variantFixture('2002', 'g', 250),
            settings: {
              onlineStore: {
                displayStyle: 'pills',
                presets: [{ value: 1, label: 'Small', price: '4.00' }, { value: 2 }, { value: 4, label: 'Family' }],
              },
            },
          },
          {
            ...variantFixture('2003', 'lb', 0.5),
            settings: {
              onlineStore: { displayStyle: 'dropdown', presets: [{ value: 0.5, label: 'Half' }, { value: 1 }] },
            },
          },
        ],
      },
      { id: '1002', title: 'Ribbon', measurementType: 'length', variants: [variantFixture('2101', 'yd', 1)] },
    ],
  });
}

const drivers = testDrivers({ citus: true });

describe.each(drivers)('GET /api/v1/products/{productId}/variants/{variantId} on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  describe('happy', () => {
    it('when the variant has displayStyle number, then the exact envelope with rules and the parent product is returned', async () => {
      const { key } = await seedShop(db, catalogShop());

      const res = await call(server, '/api/v1/products/1001/variants/2001', { key });

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          variant: {
            id: '2001',
            unitMeasurement: { unit: 'kg', value: 1 },
            settings: { onlineStore: { displayStyle: 'number', rules: NUMBER_RULES } },
            product: { id: '1001', measurementType: 'weight' },
          },
        },
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
      });
      expect(res.body.requestId).toMatch(/^req_/);
    });

    it('when the variant uses pills, then its presets come back with label and price only where set', async () => {
      const { key } = await seedShop(db, catalogShop());

      const res = await call(server, '/api/v1/products/1001/variants/2002', { key });

      expect(res.status).toBe(200);
      expect(res.body.data.variant).toEqual({
        id: '2002',
        unitMeasurement: { unit: 'g', value: 250 },
        settings: {
          onlineStore: {
            displayStyle: 'pills',
            presets: [{ value: 1, label: 'Small', price: '4.00' }, { value: 2 }, { value: 4, label: 'Family' }],
          },
        },
        product: { id: '1001', measurementType: 'weight' },
      });
      expect(res.body.data.variant.settings.onlineStore).not.toHaveProperty('rules');
    });

    it('when the variant uses a dropdown, then its presets come back and there are no rules', async () => {
      const { key } = await seedShop(db, catalogShop());

      const res = await call(server, '/api/v1/products/1001/variants/2003', { key });

      expect(res.status).toBe(200);
      expect(res.body.data.variant).toEqual({
        id: '2003',
        unitMeasurement: { unit: 'lb', value: 0.5 },
        settings: { onlineStore: { displayStyle: 'dropdown', presets: [{ value: 0.5, label: 'Half' }, { value: 1 }] } },
        product: { id: '1001', measurementType: 'weight' },
      });
    });

    it('when the variant is read, then it equals the same variant of the product response plus its parent', async () => {
      const { key } = await seedShop(db, catalogShop());
      const product = await call(server, '/api/v1/products/1001', { key });

      for (const listed of product.body.data.product.variants) {
        const res = await call(server, `/api/v1/products/1001/variants/${listed.id}`, { key });
        expect(res.body.data.variant).toEqual({ ...listed, product: { id: '1001', measurementType: 'weight' } });
      }
    });

    it('when a JSON body is sent on the GET, even a malformed one, then it is ignored', async () => {
      const { key } = await seedShop(db, catalogShop());
      const plain = await call(server, '/api/v1/products/1002/variants/2101', { key });
      expect(plain.body.data.variant.product).toEqual({ id: '1002', measurementType: 'length' });

      for (const body of ['{"variantId":"2001"}', '{oops']) {
        const res = await rawCall(server, '/api/v1/products/1002/variants/2101', {
          key,
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(res.status).toBe(200);
        expect(withoutRequestId(res.body)).toEqual(withoutRequestId(plain.body));
      }
    });
  });

  describe('errors', () => {
    it('when the variant belongs to another product of the same shop, then 404 not_found', async () => {
      const { key } = await seedShop(db, catalogShop());

      const res = await call(server, '/api/v1/products/1002/variants/2001', { key });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error).toEqual({
        code: 'not_found',
        message: "No variant with id '2001' was found.",
        details: { resource: 'variant', id: '2001', productId: '1002' },
      });
    });

    it('when the variant does not exist, then 404 not_found names the variant', async () => {
      const { key } = await seedShop(db, catalogShop());

      const res = await call(server, '/api/v1/products/1001/variants/999999', { key });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'variant', id: '999999', productId: '1001' });
    });

    it('when the product does not exist (even with a real variant id), then 404 not_found names the product', async () => {
      const { key } = await seedShop(db, catalogShop());

      const res = await call(server, '/api/v1/products/777/variants/2001', { key });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error).toEqual({
        code: 'not_found',
        message: "No product with id '777' was found.",
        details: { resource: 'product', id: '777' },
      });
    });

    it.each([
      ['abc', '2001', ['/productId']],
      ['1001', '2x', ['/variantId']],
      ['1001', '1'.repeat(21), ['/variantId']],
      ['-5', 'abc', ['/productId', '/variantId']],
      ['1001', '', ['/variantId']],
      ['', '2001', ['/productId']],
    ])('when productId is %j and variantId %j, then 400 bad_request names %j', async (productId, variantId, paths) => {
      const { key } = await seedShop(db, catalogShop());

      const res = await call(
        server,
        `/api/v1/products/${encodeURIComponent(productId)}/variants/${encodeURIComponent(variantId)}`,
        {
          key,
        },
      );

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({
        in: 'params',
        errors: paths.map((path) => ({ path, message: 'must be a numeric id string of 1 to 20 digits' })),
      });
    });
  });

  describe('security', () => {
    it('when no key is sent, then 401 unauthorized with WWW-Authenticate: Bearer', async () => {
      await seedShop(db, catalogShop());

      const res = await call(server, '/api/v1/products/1001/variants/2001');

      const error = expectErrorEnvelope(res, 401, 'unauthorized');
      expect(error).toEqual({ code: 'unauthorized', message: 'A valid API key is required.', details: null });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('when the key is invalid, then 401 before the ids are even validated', async () => {
      const { keyId } = await seedShop(db, catalogShop());

      for (const path of ['/api/v1/products/1001/variants/2001', '/api/v1/products/abc/variants/xyz']) {
        const res = await call(server, path, { key: `apik_${keyId}_${'x'.repeat(43)}` });
        expectErrorEnvelope(res, 401, 'unauthorized');
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
    });

    it('when the variant exists only in another shop, then 404 exactly as for an unknown variant', async () => {
      const a = await seedShop(db, catalogShop());
      const b = await seedShop(
        db,
        shopFixture({
          products: [
            { id: '1001', title: 'Other', measurementType: 'weight', variants: [variantFixture('6001', 'oz', 4)] },
          ],
        }),
      );
      expect((await call(server, '/api/v1/products/1001/variants/6001', { key: b.key })).status).toBe(200);

      const res = await call(server, '/api/v1/products/1001/variants/6001', { key: a.key });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error).toEqual({
        code: 'not_found',
        message: "No variant with id '6001' was found.",
        details: { resource: 'variant', id: '6001', productId: '1001' },
      });
    });

    it('when both shops have the same product and variant ids, then each key gets its own variant', async () => {
      const a = await seedShop(db, catalogShop());
      const b = await seedShop(
        db,
        shopFixture({
          products: [
            { id: '1001', title: 'Other', measurementType: 'volume', variants: [variantFixture('2001', 'ml', 500)] },
          ],
        }),
      );

      const resA = await call(server, '/api/v1/products/1001/variants/2001', { key: a.key });
      const resB = await call(server, '/api/v1/products/1001/variants/2001', { key: b.key });
      const againA = await call(server, '/api/v1/products/1001/variants/2001', { key: a.key });

      expect(resA.body.data.variant).toEqual({
        id: '2001',
        unitMeasurement: { unit: 'kg', value: 1 },
        settings: { onlineStore: { displayStyle: 'number', rules: NUMBER_RULES } },
        product: { id: '1001', measurementType: 'weight' },
      });
      expect(resB.body.data.variant).toEqual({
        id: '2001',
        unitMeasurement: { unit: 'ml', value: 500 },
        settings: { onlineStore: { displayStyle: 'number', rules: NUMBER_RULES } },
        product: { id: '1001', measurementType: 'volume' },
      });
      expect(againA.body.data.variant).toEqual(resA.body.data.variant);
    });

    it('when the key is sent as form data, then it is not accepted on the variant endpoint (401)', async () => {
      const { key } = await seedShop(db, catalogShop());

      const res = await rawCall(server, '/api/v1/products/1001/variants/2001', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `key=${encodeURIComponent(key)}`,
      });

      expectErrorEnvelope(res, 401, 'unauthorized');
    });
  });
});
