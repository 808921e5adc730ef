import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import {
  call,
  expectErrorEnvelope,
  seedShop,
  shopFixture,
  startTestServer,
  variantFixture,
} from '../support/harness.js';

type Order = NonNullable<ImportShop['orders']>[number];
type Line = Order['lineItems'][number];

/** A `_svc_data` property value with one or more dimensions. */
const svcData = (type: string, ...dimensions: [string, number][]) =>
  JSON.stringify({ measurement: { type, dimensions: dimensions.map(([unit, value]) => ({ unit, value })) } });

const line = (id: string, fields: Partial<Line> & { svc?: string }): Line => {
  const { svc, ...rest } = fields;
  return {
    id,
    productId: '1001',
    variantId: '2001',
    quantity: 1,
    price: '24.00',
    fulfilled: false,
    properties: svc === undefined ? [] : [{ name: '_svc_data', value: svc }],
    ...rest,
  };
};

const order = (lineItems: Line[], id = '5001'): Order => ({ id, status: 'open', locationId: '70001', lineItems });

/** The order of the "mixed lines" tests: managed lines 9001, 9002, 9007 among lines that are not. */
const MIXED_LINES: Line[] = [
  line('9001', { quantity: 2, price: '30.00', svc: svcData('weight', ['kg', 1.25]) }),
  // A temporary product: no variant, so any weight unit is fine.
  line('9002', { productId: null, variantId: null, price: '10.00', svc: svcData('weight', ['lb', 2]) }),
  line('9003', { properties: [{ name: 'gift', value: 'yes' }] }),
  line('9004', { svc: '{"measurement":' }),
  line('9005', { svc: svcData('weight', ['m', 1]) }),
  // Variant 2002 is sold per 100 g: a kg measurement does not match its unit.
  line('9006', { variantId: '2002', svc: svcData('weight', ['kg', 1]) }),
  line('9007', { variantId: '2002', quantity: 3, price: '60.00', svc: svcData('weight', ['g', 250]) }),
  // An entry after dimensions[0] of a weight variant: only area and volume have factors (PRODUCT.md §19),
  // so the line is not measurement-based.
  line('9008', { variantId: '2003', price: '12.00', svc: svcData('weight', ['lb', 0.5], ['kg', 9]) }),
];

describe.each(testDrivers({ citus: true }))('GET /api/v1/orders/{orderId} on $name', ({ create }) => {
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
    it('when the order has one managed line, then the exact envelope and the top-level id and items are returned', async () => {
      const { key } = await seedShop(db, shopFixture({ orders: [order([MIXED_LINES[0]!])] }));

      const res = await call(server, '/api/v1/orders/5001', { key });

      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const items = [
        {
          lineItemId: '9001',
          productId: '1001',
          variantId: '2001',
          quantity: 2,
          measurement: { type: 'weight', value: 1.25, unit: 'kg' },
          unitPrice: '$24.00 per kg',
        },
      ];
      expect(res.body).toEqual({
        success: true,
        data: { id: '5001', items },
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
        id: '5001',
        items,
      });
      expect(res.body.requestId).toMatch(/^req_/);
    });

    it('when lines are mixed, then only the service-managed ones are listed, in order, each exactly', async () => {
      const { key } = await seedShop(db, shopFixture({ orders: [order(MIXED_LINES)] }));

      const res = await call(server, '/api/v1/orders/5001', { key });

      expect(res.status).toBe(200);
      const items = [
        {
          lineItemId: '9001',
          productId: '1001',
          variantId: '2001',
          quantity: 2,
          measurement: { type: 'weight', value: 1.25, unit: 'kg' },
          unitPrice: '$24.00 per kg',
        },
        {
          lineItemId: '9002',
          productId: null,
          variantId: null,
          quantity: 1,
          measurement: { type: 'weight', value: 2, unit: 'lb' },
          unitPrice: '$5.00 per lb',
        },
        {
          lineItemId: '9007',
          productId: '1001',
          variantId: '2002',
          quantity: 3,
          measurement: { type: 'weight', value: 250, unit: 'g' },
          unitPrice: '$24.00 per 100 g',
        },
      ];
      expect(res.body.data).toEqual({ id: '5001', items });
      expect(res.body.items).toEqual(items);
      expect(res.body.id).toBe('5001');
    });

    it('when a line without a variant states its unit measurement, then its unit price is quoted per that', async () => {
      const per100g = JSON.stringify({
        measurement: { type: 'weight', dimensions: [{ unit: 'g', value: 250 }] },
        unitMeasurement: { unit: 'g', value: 100 },
      });
      const perKgOtherUnit = JSON.stringify({
        measurement: { type: 'weight', dimensions: [{ unit: 'g', value: 500 }] },
        unitMeasurement: { unit: 'kg', value: 1 },
      });
      const lines = [
        line('9011', {
          productId: null,
          variantId: null,
          price: '4.50',
          svc: per100g,
        }),
        line('9012', {
          productId: null,
          variantId: null,
          price: '5.00',
          svc: perKgOtherUnit,
        }),
      ];
      const { key } = await seedShop(db, shopFixture({ orders: [order(lines)] }));

      const res = await call(server, '/api/v1/orders/5001', { key });

      expect(res.body.items.map((item: { unitPrice: string }) => item.unitPrice)).toEqual([
        '$1.80 per 100 g',
        '$10.00 per kg', // $5.00 for 500 g, quoted per the stated 1 kg (not "$0.01 per g")
      ]);
    });

    it('when a line of a variant was charged a rounded price, then unitPrice is the variant’s price per its unit measurement', async () => {
      const ribbon = {
        id: '1003',
        title: 'Ribbon',
        measurementType: 'length' as const,
        variants: [
          { ...variantFixture('2201', 'm', 1), price: '2.50' },
          { ...variantFixture('2202', 'cm', 100), price: '0.125' },
        ],
      };
      const cut = (id: string, variantId: string, price: string, unit: string, value: number) =>
        line(id, { productId: '1003', variantId, price, svc: svcData('length', [unit, value]) });
      const lines = [
        // $2.50 × 0.762 m = $1.905, charged $1.90: $1.90 ÷ 0.762 m would read "$2.49 per m".
        cut('9021', '2201', '1.90', 'm', 0.762),
        // $2.50 × 0.001 m = $0.0025, charged $0.00: "$0.00 per m" from the line's own price.
        cut('9022', '2201', '0.00', 'm', 0.001),
        // A price per 100 cm with more decimals than the currency's is quoted as it is.
        cut('9023', '2202', '0.04', 'cm', 30),
      ];
      const { key } = await seedShop(db, shopFixture({ products: [ribbon], orders: [order(lines)] }));

      const res = await call(server, '/api/v1/orders/5001', { key });

      expect(res.body.items.map((item: { unitPrice: string }) => item.unitPrice)).toEqual([
        '$2.50 per m',
        '$2.50 per m',
        '$0.125 per 100 cm',
      ]);
    });

    it('when the order has no managed line, then items is an empty list', async () => {
      const { key } = await seedShop(db, shopFixture({ orders: [order(MIXED_LINES.slice(2, 6))] }));

      const res = await call(server, '/api/v1/orders/5001', { key });

      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: '5001', items: [] });
      expect(res.body.items).toEqual([]);
    });

    it('when the shop sells in EUR, then unitPrice is formatted in euros', async () => {
      const { key } = await seedShop(db, shopFixture({ currency: 'EUR', orders: [order([MIXED_LINES[0]!])] }));

      const res = await call(server, '/api/v1/orders/5001', { key });

      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        {
          lineItemId: '9001',
          productId: '1001',
          variantId: '2001',
          quantity: 2,
          measurement: { type: 'weight', value: 1.25, unit: 'kg' },
          unitPrice: '€24.00 per kg',
        },
      ]);
    });

    it('when a closed order is read, then its managed lines are still listed', async () => {
      const closed = { ...order([MIXED_LINES[0]!]), status: 'closed' as const };
      const { key } = await seedShop(db, shopFixture({ orders: [closed] }));

      const res = await call(server, '/api/v1/orders/5001', { key });

      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { lineItemId: string }) => i.lineItemId)).toEqual(['9001']);
    });
  });

  describe('errors', () => {
    it.each(['abc', '12a', '-1', '1.5', '123456789012345678901'])(
      'when the order id is %s, then 400 bad_request',
      async (id) => {
        const { key } = await seedShop(db, shopFixture({ orders: [order([MIXED_LINES[0]!])] }));

        const res = await call(server, `/api/v1/orders/${id}`, { key });

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details).toMatchObject({ in: 'params', errors: [{ path: '/orderId' }] });
        expect(res.body).not.toHaveProperty('items');
      },
    );

    it('when the order does not exist, then 404 not_found names the order', async () => {
      const { key } = await seedShop(db, shopFixture({ orders: [order([MIXED_LINES[0]!])] }));

      const res = await call(server, '/api/v1/orders/5999', { key });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'order', id: '5999' });
      expect(res.body).toEqual({
        success: false,
        data: null,
        error: { code: 'not_found', message: "No order with id '5999' was found.", details: error.details },
        meta: {},
        requestId: res.headers.get('x-request-id'),
      });
    });

    it('when no key is sent, then 401 unauthorized with WWW-Authenticate', async () => {
      await seedShop(db, shopFixture({ orders: [order([MIXED_LINES[0]!])] }));

      const res = await call(server, '/api/v1/orders/5001');

      expectErrorEnvelope(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('when the key is unknown, then 401 unauthorized', async () => {
      await seedShop(db, shopFixture({ orders: [order([MIXED_LINES[0]!])] }));

      const res = await call(server, '/api/v1/orders/5001', { key: 'tare_sk_not-a-real-key' });

      expectErrorEnvelope(res, 401, 'unauthorized');
    });
  });

  describe('security', () => {
    it("when another shop's order is asked for, then 404 and nothing of it is disclosed", async () => {
      await seedShop(db, shopFixture({ orders: [order([MIXED_LINES[0]!], '5101')] }));
      const { key } = await seedShop(db, shopFixture({ orders: [order([MIXED_LINES[0]!])] }));

      const res = await call(server, '/api/v1/orders/5101', { key });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'order', id: '5101' });
      expect(res.text).not.toContain('9001');
    });

    it('when two shops have an order with the same id, then each key sees only its own lines', async () => {
      const a = await seedShop(db, shopFixture({ orders: [order([MIXED_LINES[0]!])] }));
      const b = await seedShop(
        db,
        shopFixture({
          currency: 'EUR',
          orders: [order([line('9901', { quantity: 4, price: '12.00', svc: svcData('weight', ['kg', 0.5]) })])],
        }),
      );

      const resA = await call(server, '/api/v1/orders/5001', { key: a.key });
      const resB = await call(server, '/api/v1/orders/5001', { key: b.key });

      expect(resA.status).toBe(200);
      expect(resA.body.items).toEqual([
        {
          lineItemId: '9001',
          productId: '1001',
          variantId: '2001',
          quantity: 2,
          measurement: { type: 'weight', value: 1.25, unit: 'kg' },
          unitPrice: '$24.00 per kg',
        },
      ]);
      expect(resB.status).toBe(200);
      expect(resB.body.items).toEqual([
        {
          lineItemId: '9901',
          productId: '1001',
          variantId: '2001',
          quantity: 4,
          measurement: { type: 'weight', value: 0.5, unit: 'kg' },
          unitPrice: '€24.00 per kg',
        },
      ]);
    });
  });
});
