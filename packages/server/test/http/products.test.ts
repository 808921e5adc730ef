import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
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

/** The API shape of a `variantFixture` variant (displayStyle number). */
const numberVariant = (id: string, unit: string, value: number) => ({
  id,
  unitMeasurement: { unit, value },
  settings: { onlineStore: { displayStyle: 'number', rules: NUMBER_RULES } },
});

/** Product 3001 with `count` number variants 4001, 4002, … in that order. */
function manyVariants(count: number, productId = '3001', firstVariantId = 4001) {
  return {
    id: productId,
    title: `Product ${productId}`,
    measurementType: 'volume' as const,
    variants: Array.from({ length: count }, (_, i) => variantFixture(String(firstVariantId + i), 'L', 1)),
  };
}

const ids = (body: any): string[] => body.data.product.variants.map((v: { id: string }) => v.id);

/** The whole body without the per-request id, for comparing two answers of the same page. */
const withoutRequestId = ({ requestId: _ignored, ...rest }: any) => rest;

/** Re-imports the shop exactly like `tare import` (validated, one transaction, NOTIFY at commit). */
async function reimport(db: Db, shop: ImportShop) {
  const checked = validateImport({ shops: [shop] });
  if (!checked.ok) throw new Error(`bad fixture: ${JSON.stringify(checked.issues)}`);
  return importCatalog({ db, gateway: createLocalGateway() }, checked.value);
}

/** Flips one character of `text` at `index` to another base64url character. */
function flip(text: string, index: number): string {
  const replacement = text[index] === 'A' ? 'B' : 'A';
  return `${text.slice(0, index)}${replacement}${text.slice(index + 1)}`;
}

describe.each(testDrivers())('GET /api/v1/products/{productId} on $name', ({ create }) => {
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
    it('when the product exists, then the exact envelope with the product and its variants is returned', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await call(server, '/api/v1/products/1001', { key });

      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        success: true,
        data: {
          product: {
            id: '1001',
            measurementType: 'weight',
            variants: [
              numberVariant('2001', 'kg', 1),
              numberVariant('2002', 'g', 100),
              {
                id: '2003',
                unitMeasurement: { unit: 'lb', value: 1 },
                settings: {
                  onlineStore: { displayStyle: 'dropdown', presets: [{ value: 0.5, label: 'Half' }, { value: 1 }] },
                },
              },
            ],
          },
        },
        error: null,
        meta: { nextCursor: null, prevCursor: null, hasMore: false },
        requestId: res.headers.get('x-request-id'),
      });
      expect(res.body.requestId).toMatch(/^req_/);
      for (const variant of res.body.data.product.variants) expect(variant).not.toHaveProperty('product');
    });

    it('when a variant uses pills with prices and a bounded max, then presets and rules come back exactly', async () => {
      const { key } = await seedShop(
        db,
        shopFixture({
          products: [
            {
              id: '1001',
              title: 'Fabric',
              measurementType: 'length',
              variants: [
                {
                  ...variantFixture('2001', 'm', 0.5),
                  settings: {
                    onlineStore: {
                      displayStyle: 'number',
                      rules: { min: 0.5, increment: 0.5, defaultValue: 2, max: 30 },
                    },
                  },
                },
                {
                  ...variantFixture('2002', 'cm', 10),
                  settings: {
                    onlineStore: {
                      displayStyle: 'pills',
                      presets: [
                        { value: 1, label: 'Short', price: '3.50' },
                        { value: 2.5 },
                        { value: 5, label: 'Long' },
                      ],
                    },
                  },
                },
              ],
            },
          ],
        }),
      );

      const res = await call(server, '/api/v1/products/1001', { key });

      expect(res.status).toBe(200);
      expect(res.body.data.product).toEqual({
        id: '1001',
        measurementType: 'length',
        variants: [
          {
            id: '2001',
            unitMeasurement: { unit: 'm', value: 0.5 },
            settings: {
              onlineStore: { displayStyle: 'number', rules: { min: 0.5, increment: 0.5, defaultValue: 2, max: 30 } },
            },
          },
          {
            id: '2002',
            unitMeasurement: { unit: 'cm', value: 10 },
            settings: {
              onlineStore: {
                displayStyle: 'pills',
                presets: [{ value: 1, label: 'Short', price: '3.50' }, { value: 2.5 }, { value: 5, label: 'Long' }],
              },
            },
          },
        ],
      });
      // Key order of the wire format is the documented one, whatever jsonb did to it.
      expect(Object.keys(res.body.data.product.variants[0].settings.onlineStore.rules)).toEqual([
        'min',
        'increment',
        'defaultValue',
        'max',
      ]);
    });

    it('when the product has zero variants, then variants is [] with hasMore false and both cursors null', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await call(server, '/api/v1/products/1002', { key });

      expect(res.status).toBe(200);
      expect(withoutRequestId(res.body)).toEqual({
        success: true,
        data: { product: { id: '1002', measurementType: 'length', variants: [] } },
        error: null,
        meta: { nextCursor: null, prevCursor: null, hasMore: false },
      });
    });

    it('when no limit is given, then a page holds 50 variants and the rest follows on the next page', async () => {
      const { key } = await seedShop(db, shopFixture({ products: [manyVariants(53)] }));

      const first = await call(server, '/api/v1/products/3001', { key });
      expect(first.status).toBe(200);
      expect(ids(first.body)).toEqual(Array.from({ length: 50 }, (_, i) => String(4001 + i)));
      expect(first.body.meta).toEqual({ nextCursor: expect.any(String), prevCursor: null, hasMore: true });

      const second = await call(
        server,
        `/api/v1/products/3001?cursor=${encodeURIComponent(first.body.meta.nextCursor)}`,
        { key },
      );
      expect(second.status).toBe(200);
      expect(ids(second.body)).toEqual(['4051', '4052', '4053']);
      expect(second.body.meta).toEqual({ nextCursor: null, prevCursor: expect.any(String), hasMore: false });
    });

    it('when limit is 1 or 100, then exactly that many variants come back', async () => {
      const { key } = await seedShop(db, shopFixture({ products: [manyVariants(101)] }));

      const one = await call(server, '/api/v1/products/3001?limit=1', { key });
      expect(ids(one.body)).toEqual(['4001']);
      expect(one.body.meta.hasMore).toBe(true);

      const hundred = await call(server, '/api/v1/products/3001?limit=100', { key });
      expect(ids(hundred.body)).toHaveLength(100);
      expect(ids(hundred.body).at(-1)).toBe('4100');
      expect(hundred.body.meta.hasMore).toBe(true);
    });

    it('when walking nextCursor with limit 3 over 7 variants, then every variant is visited once in order, and walking prevCursor back gives the same pages', async () => {
      const { key } = await seedShop(db, shopFixture({ products: [manyVariants(7)] }));
      const page = async (cursor?: string) => {
        const query = cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const res = await call(server, `/api/v1/products/3001?limit=3${query}`, { key });
        expect(res.status).toBe(200);
        return res.body;
      };

      const forward = [await page()];
      while (forward.at(-1).meta.nextCursor !== null) {
        forward.push(await page(forward.at(-1).meta.nextCursor));
        if (forward.length > 10) throw new Error('pagination does not end');
      }

      expect(forward.map(ids)).toEqual([['4001', '4002', '4003'], ['4004', '4005', '4006'], ['4007']]);
      expect(forward.map((b) => b.meta.hasMore)).toEqual([true, true, false]);
      expect(forward[0].meta.prevCursor).toBeNull();
      expect(forward[1].meta.prevCursor).toEqual(expect.any(String));
      expect(forward[2].meta.prevCursor).toEqual(expect.any(String));
      expect(forward[2].meta.nextCursor).toBeNull();

      const backward = [forward[2]];
      while (backward.at(-1).meta.prevCursor !== null) {
        backward.push(await page(backward.at(-1).meta.prevCursor));
        if (backward.length > 10) throw new Error('backward pagination does not end');
      }
      expect(backward.map(ids)).toEqual([['4007'], ['4004', '4005', '4006'], ['4001', '4002', '4003']]);
      // Same pages, same cursors, same meta: only the request ids differ.
      expect(backward.reverse().map(withoutRequestId)).toEqual(forward.map(withoutRequestId));
    });

    it('when the variant count is a multiple of the limit, then the last page says hasMore false (no empty page)', async () => {
      const { key } = await seedShop(db, shopFixture({ products: [manyVariants(6)] }));

      const first = await call(server, '/api/v1/products/3001?limit=3', { key });
      const second = await call(
        server,
        `/api/v1/products/3001?limit=3&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`,
        {
          key,
        },
      );

      expect(ids(second.body)).toEqual(['4004', '4005', '4006']);
      expect(second.body.meta).toEqual({ nextCursor: null, prevCursor: expect.any(String), hasMore: false });
    });

    it('when a cursor is issued, then it is opaque: no product or variant id in clear text', async () => {
      const { key } = await seedShop(db, shopFixture({ products: [manyVariants(5, '3001', 4001)] }));

      const first = await call(server, '/api/v1/products/3001?limit=2', { key });
      const second = await call(
        server,
        `/api/v1/products/3001?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`,
        {
          key,
        },
      );
      const cursors = [first.body.meta.nextCursor, second.body.meta.nextCursor, second.body.meta.prevCursor];

      for (const cursor of cursors) {
        expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
        for (const id of ['3001', '4001', '4002', '4003', '4004']) expect(cursor).not.toContain(id);
      }
    });

    it('when a JSON body is sent on the GET, even a malformed one, then it is ignored', async () => {
      const { key } = await seedShop(db, shopFixture());
      const plain = await call(server, '/api/v1/products/1001', { key });

      for (const body of ['{"limit": 1, "productId": "1002"}', '{not json', '']) {
        const res = await rawCall(server, '/api/v1/products/1001', {
          key,
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(res.status, `body ${JSON.stringify(body)}`).toBe(200);
        expect(withoutRequestId(res.body)).toEqual(withoutRequestId(plain.body));
      }
    });
  });

  describe('cache', () => {
    it('when the catalog is re-imported, then the next request shows the change (NOTIFY drops the cache)', async () => {
      const shop = shopFixture();
      const { key } = await seedShop(db, shop);
      const before = await call(server, '/api/v1/products/1001', { key });
      expect(before.body.data.product.variants[0].unitMeasurement).toEqual({ unit: 'kg', value: 1 });

      const changed: ImportShop = structuredClone(shop);
      changed.products![0]!.variants[0]!.unitMeasurement.value = 2.5;
      const summary = await reimport(db, changed);
      expect(summary.shops[0]!.changes).toBeGreaterThan(0);

      const deadline = Date.now() + 2000;
      let seen: unknown;
      for (;;) {
        const res = await call(server, '/api/v1/products/1001', { key });
        expect(res.status).toBe(200);
        seen = res.body.data.product.variants[0].unitMeasurement;
        if ((seen as { value: number }).value === 2.5 || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(seen, 'the re-imported unit value did not show within 2 s: the cache was not dropped').toEqual({
        unit: 'kg',
        value: 2.5,
      });
    });

    it('when a variant is changed in the database behind Tare’s back, then the cached answer is still served', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const before = await call(server, '/api/v1/products/1001', { key });
      expect(before.body.data.product.variants[0].unitMeasurement).toEqual({ unit: 'kg', value: 1 });

      const updated = await db.query("UPDATE variants SET unit_value = 7 WHERE shop_id = $1 AND id = '2001'", [shopId]);
      expect(updated.rowCount).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));

      const after = await call(server, '/api/v1/products/1001', { key });
      expect(after.status).toBe(200);
      expect(withoutRequestId(after.body)).toEqual(withoutRequestId(before.body));
    });
  });

  describe('errors', () => {
    it.each([
      ['abc', 'abc'],
      ['12a', '12a'],
      ['21 digits', '1'.repeat(21)],
      ['a negative number', '-1'],
      ['a decimal', '1.5'],
    ])('when productId is %s, then 400 bad_request names /productId', async (_label, productId) => {
      const { key } = await seedShop(db, shopFixture());

      const res = await call(server, `/api/v1/products/${encodeURIComponent(productId)}`, { key });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({
        in: 'params',
        errors: [{ path: '/productId', message: 'must be a numeric id string of 1 to 20 digits' }],
      });
    });

    it('when productId has 20 digits and no such product exists, then it is valid and answers 404', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await call(server, `/api/v1/products/${'9'.repeat(20)}`, { key });

      expectErrorEnvelope(res, 404, 'not_found');
    });

    // Ajv would coerce the spellings Number() reads; only decimal digits are an integer here.
    it.each(['0', '101', '1.5', '-1', 'abc', '', '0x10', '0b11', '0o7', '1e2', '+5', '5.0', ' 5'])(
      'when limit is %j, then 400 bad_request names /limit',
      async (limit) => {
        const { key } = await seedShop(db, shopFixture());

        const res = await call(server, `/api/v1/products/1001?limit=${encodeURIComponent(limit)}`, { key });

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details.in).toBe('querystring');
        expect(error.details.errors).toEqual([{ path: '/limit', message: expect.any(String) }]);
        expect(error.details.errors[0].message.length).toBeGreaterThan(0);
      },
    );

    it('when a cursor is tampered with (one character flipped), then 400 bad_request names /cursor', async () => {
      const { key } = await seedShop(db, shopFixture({ products: [manyVariants(5)] }));
      const first = await call(server, '/api/v1/products/3001?limit=2', { key });
      const cursor: string = first.body.meta.nextCursor;
      const middle = Math.floor(cursor.length / 2);

      for (const tampered of [flip(cursor, 2), flip(cursor, middle), `${cursor}x`, cursor.slice(0, -2)]) {
        expect(tampered).not.toBe(cursor);
        const res = await call(server, `/api/v1/products/3001?limit=2&cursor=${encodeURIComponent(tampered)}`, { key });
        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details).toEqual({
          in: 'querystring',
          errors: [{ path: '/cursor', message: 'is not a cursor this service issued' }],
        });
      }
    });

    it.each(['garbage', 'a.b', 'a.b.c', '.', '!!!', 'eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA'])(
      'when the cursor is garbage %j, then 400 bad_request',
      async (cursor) => {
        const { key } = await seedShop(db, shopFixture());

        const res = await call(server, `/api/v1/products/1001?cursor=${encodeURIComponent(cursor)}`, { key });

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details.errors).toEqual([{ path: '/cursor', message: expect.any(String) }]);
      },
    );

    it('when the cursor is empty or longer than 512 characters, then 400 bad_request', async () => {
      const { key } = await seedShop(db, shopFixture());

      for (const cursor of ['', 'A'.repeat(513)]) {
        const res = await call(server, `/api/v1/products/1001?cursor=${cursor}`, { key });
        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details.errors).toEqual([{ path: '/cursor', message: expect.any(String) }]);
      }
    });

    it('when a cursor of another product of the same shop is used, then 400 bad_request', async () => {
      const { key } = await seedShop(
        db,
        shopFixture({ products: [manyVariants(4, '3001', 4001), manyVariants(4, '3002', 5001)] }),
      );
      const other = await call(server, '/api/v1/products/3002?limit=2', { key });
      expect(other.body.meta.nextCursor).toEqual(expect.any(String));

      const res = await call(
        server,
        `/api/v1/products/3001?limit=2&cursor=${encodeURIComponent(other.body.meta.nextCursor)}`,
        {
          key,
        },
      );

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({
        in: 'querystring',
        errors: [{ path: '/cursor', message: 'belongs to another product' }],
      });
    });

    it('when the product does not exist, then 404 not_found names the product', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await call(server, '/api/v1/products/424242', { key });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error).toEqual({
        code: 'not_found',
        message: "No product with id '424242' was found.",
        details: { resource: 'product', id: '424242' },
      });
    });
  });

  describe('security', () => {
    it('when no key is sent, then 401 unauthorized with WWW-Authenticate: Bearer', async () => {
      await seedShop(db, shopFixture());

      const res = await call(server, '/api/v1/products/1001');

      const error = expectErrorEnvelope(res, 401, 'unauthorized');
      expect(error).toEqual({ code: 'unauthorized', message: 'A valid API key is required.', details: null });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('when the key is wrong (garbage, unknown id, wrong secret, wrong scheme), then the same 401', async () => {
      const { key, keyId } = await seedShop(db, shopFixture());
      const wrongSecret = `apik_${keyId}_${'Z'.repeat(43)}`;
      const unknownId = `apik_${'a'.repeat(16)}_${key.slice(22)}`;

      const attempts = [
        { headers: { authorization: 'Bearer nope' } },
        { headers: { authorization: `Bearer ${wrongSecret}` } },
        { headers: { authorization: `Bearer ${unknownId}` } },
        { headers: { authorization: `Basic ${key}` } },
        { headers: { authorization: key } },
        { headers: { authorization: 'Bearer ' } },
      ];
      for (const init of attempts) {
        const res = await call(server, '/api/v1/products/1001', init);
        const error = expectErrorEnvelope(res, 401, 'unauthorized');
        expect(error.message).toBe('A valid API key is required.');
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
    });

    it('when two shops import the same product id with different variants, then each key sees only its own', async () => {
      const a = await seedShop(db, shopFixture());
      const b = await seedShop(
        db,
        shopFixture({
          products: [
            { id: '1001', title: 'Rope', measurementType: 'length', variants: [variantFixture('7001', 'ft', 3)] },
          ],
        }),
      );

      const resA = await call(server, '/api/v1/products/1001', { key: a.key });
      const resB = await call(server, '/api/v1/products/1001', { key: b.key });

      expect(resA.body.data.product.measurementType).toBe('weight');
      expect(ids(resA.body)).toEqual(['2001', '2002', '2003']);
      expect(resB.body.data.product).toEqual({
        id: '1001',
        measurementType: 'length',
        variants: [numberVariant('7001', 'ft', 3)],
      });
      // And again in the other order, so a shared cache entry could not hide.
      const againA = await call(server, '/api/v1/products/1001', { key: a.key });
      expect(againA.body.data.product).toEqual(resA.body.data.product);
    });

    it('when a product exists only in another shop, then 404 exactly as for an unknown product', async () => {
      const a = await seedShop(db, shopFixture());
      const b = await seedShop(db, shopFixture({ products: [manyVariants(2, '8888', 8001)] }));
      expect((await call(server, '/api/v1/products/8888', { key: b.key })).status).toBe(200);

      const res = await call(server, '/api/v1/products/8888', { key: a.key });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error).toEqual({
        code: 'not_found',
        message: "No product with id '8888' was found.",
        details: { resource: 'product', id: '8888' },
      });
    });

    it('when a cursor issued to shop B is used by shop A for the same product id, then 400', async () => {
      const a = await seedShop(db, shopFixture({ products: [manyVariants(5)] }));
      const b = await seedShop(db, shopFixture({ products: [manyVariants(5)] }));
      const fromB = await call(server, '/api/v1/products/3001?limit=2', { key: b.key });
      expect(fromB.body.meta.nextCursor).toEqual(expect.any(String));

      const res = await call(
        server,
        `/api/v1/products/3001?limit=2&cursor=${encodeURIComponent(fromB.body.meta.nextCursor)}`,
        {
          key: a.key,
        },
      );

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details.errors).toEqual([{ path: '/cursor', message: expect.any(String) }]);
    });

    it('when the key is sent as form data on /products, then it is not accepted (401)', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await rawCall(server, '/api/v1/products/1001', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `key=${encodeURIComponent(key)}`,
      });

      expectErrorEnvelope(res, 401, 'unauthorized');
    });
  });
});
