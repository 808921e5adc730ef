import { randomUUID } from 'node:crypto';
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

const WEIGHT_UNITS = 'mg, g, kg, t, oz, lb, st';

const svcData = (type: string, unit: string, value: number) =>
  JSON.stringify({ measurement: { type, dimensions: [{ unit, value }] } });

/** Line 9001's `_svc_data`, with an unknown top-level field and an unknown field in dimensions[0]. */
const SVC_9001 = {
  note: 'keep me',
  measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 1.25, tol: 5 }] },
};

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

const order = (id: string, status: Order['status'], lineItems: Line[]): Order => ({
  id,
  status,
  locationId: '70001',
  lineItems,
});

/**
 * Product 1001 (weight): 2001 per 1 kg with 10.25 kg, 2002 per 100 g with 5000 g, 2003 per 1 lb
 * (no stock). Product 1002 (length): 2101 per 1 m. Order 5001 is open; 5002 closed; 5003 cancelled.
 */
function editShop(overrides: Partial<ImportShop> = {}): ImportShop {
  return shopFixture({
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: [
          {
            ...variantFixture('2001', 'kg', 1),
            inventory: [{ locationId: '70001', quantity: { value: 10.25, unit: 'kg' } }],
          },
          {
            ...variantFixture('2002', 'g', 100),
            inventory: [{ locationId: '70001', quantity: { value: 5000, unit: 'g' } }],
          },
          variantFixture('2003', 'lb', 1),
        ],
      },
      { id: '1002', title: 'Fabric', measurementType: 'length', variants: [variantFixture('2101', 'm', 1)] },
    ],
    orders: [
      order('5001', 'open', [
        line('9001', { quantity: 2, price: '30.00', svc: JSON.stringify(SVC_9001) }),
        line('9002', { price: '12.00', svc: svcData('weight', 'kg', 0.5) }),
        line('9003', { variantId: '2002', quantity: 4, price: '60.00', svc: svcData('weight', 'g', 250) }),
        line('9004', { properties: [{ name: 'gift', value: 'yes' }] }),
        line('9005', { fulfilled: true, svc: svcData('weight', 'kg', 1) }),
        line('9006', { productId: null, variantId: null, price: '10.00', svc: svcData('weight', 'lb', 2) }),
      ]),
      order('5002', 'closed', [line('9101', { svc: svcData('weight', 'kg', 1) })]),
      order('5003', 'cancelled', [line('9201', { svc: svcData('weight', 'kg', 1) })]),
    ],
    ...overrides,
  });
}

const item = (
  lineItemId: string,
  variantId: string | null,
  quantity: number,
  value: number,
  unit: string,
  unitPrice: string,
  productId: string | null = '1001',
) => ({ lineItemId, productId, variantId, quantity, measurement: { type: 'weight', value, unit }, unitPrice });

/** GET /orders/5001 of `editShop()` before any edit. */
const ITEMS = {
  '9001': item('9001', '2001', 2, 1.25, 'kg', '$24.00 per kg'),
  '9002': item('9002', '2001', 1, 0.5, 'kg', '$24.00 per kg'),
  '9003': item('9003', '2002', 4, 250, 'g', '$24.00 per 100 g'),
  '9005': item('9005', '2001', 1, 1, 'kg', '$24.00 per kg'),
  '9006': item('9006', null, 1, 2, 'lb', '$5.00 per lb', null),
};
const itemsWith = (changes: Partial<Record<keyof typeof ITEMS, ReturnType<typeof item> | null>>) =>
  (Object.keys(ITEMS) as (keyof typeof ITEMS)[]).flatMap((id) => {
    const changed = id in changes ? changes[id] : ITEMS[id];
    return changed ? [changed] : [];
  });

const weight = (value: number, unit = 'kg', type = 'weight') => ({ type, value, unit });

/** PATCH /orders/{orderId}; `payload` is sent as is when it is a string. */
function patch(
  server: RunningServer,
  key: string | undefined,
  payload: unknown,
  options: { orderId?: string; idempotencyKey?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  return call(server, `/api/v1/orders/${options.orderId ?? '5001'}`, {
    key,
    method: 'PATCH',
    headers,
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

/** Everything an order edit may touch for a shop. */
async function snapshot(db: Db, shopId: string) {
  const rows = async (sql: string) => (await db.query<Record<string, unknown>>(sql, [shopId])).rows;
  return {
    orders: await rows(
      `SELECT id, status, location_id, updated_at::text AS updated_at FROM local_platform_orders
       WHERE shop_id = $1 ORDER BY id`,
    ),
    lines: await rows(
      `SELECT order_id, id, position, product_id, variant_id, quantity, price::text AS price, fulfilled, properties
       FROM local_platform_line_items WHERE shop_id = $1 ORDER BY order_id, position, id`,
    ),
    levels: await rows(
      `SELECT location_id, variant_id, total::text AS total, unit FROM inventory_levels
       WHERE shop_id = $1 ORDER BY location_id, variant_id`,
    ),
    ledger: await rows(
      `SELECT id::text AS id, variant_id, operation, quantity_before::text AS before, quantity_after::text AS after,
         delta::text AS delta, unit, idempotency_key, request_id
       FROM inventory_ledger WHERE shop_id = $1 ORDER BY inventory_ledger.id`,
    ),
    platform: await rows(
      `SELECT location_id, variant_id, available::text AS available FROM local_platform_levels
       WHERE shop_id = $1 ORDER BY location_id, variant_id`,
    ),
    edits: await rows(
      `SELECT order_id, api_key_id, request_id, edits, notify_customer, staff_note FROM order_edits
       WHERE shop_id = $1 ORDER BY id`,
    ),
    keys: await rows(`SELECT key, response_status FROM idempotency_keys WHERE shop_id = $1 ORDER BY key`),
  };
}

async function lineRow(db: Db, shopId: string, lineItemId: string) {
  const { rows } = await db.query<{
    variant_id: string | null;
    quantity: number;
    price: string;
    properties: { name: string; value: string }[];
  }>(
    `SELECT variant_id, quantity, price::text AS price, properties FROM local_platform_line_items
     WHERE shop_id = $1 AND id = $2`,
    [shopId, lineItemId],
  );
  return rows[0];
}

/** The parsed `_svc_data` of a line as stored on the platform. */
async function storedSvcData(db: Db, shopId: string, lineItemId: string): Promise<unknown> {
  const row = await lineRow(db, shopId, lineItemId);
  const raw = row?.properties.find((p) => p.name === '_svc_data')?.value;
  return raw === undefined ? undefined : JSON.parse(raw);
}

/** Tare's total and the platform's integer level of a variant at location 70001. */
async function level(db: Db, shopId: string, variantId: string) {
  const total = await db.query<{ total: string }>(
    `SELECT total::text AS total FROM inventory_levels WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2`,
    [shopId, variantId],
  );
  const platform = await db.query<{ available: string }>(
    `SELECT available::text AS available FROM local_platform_levels
     WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2`,
    [shopId, variantId],
  );
  return { total: total.rows[0]?.total, platform: platform.rows[0]?.available };
}

async function orderEditLedger(db: Db, shopId: string) {
  const { rows } = await db.query(
    `SELECT variant_id, quantity_before::text AS before, quantity_after::text AS after, delta::text AS delta, unit,
       idempotency_key, request_id
     FROM inventory_ledger WHERE shop_id = $1 AND operation = 'order_edit' ORDER BY variant_id, id`,
    [shopId],
  );
  return rows;
}

async function orderEdits(db: Db, shopId: string) {
  const { rows } = await db.query(
    `SELECT order_id, api_key_id, request_id, edits, notify_customer, staff_note FROM order_edits
     WHERE shop_id = $1 ORDER BY id`,
    [shopId],
  );
  return rows;
}

/** The success body of a PATCH of order 5001 (envelope plus the top-level id and items). */
const okBody = (requestId: string | null, items: unknown[]) => ({
  success: true,
  data: { id: '5001', items },
  error: null,
  meta: {},
  requestId,
  id: '5001',
  items,
});

describe.each(testDrivers({ citus: true }))('PATCH /api/v1/orders/{orderId} on $name', ({ create }) => {
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
    it('when a measurement changes, then _svc_data keeps unknown fields, the price is recomputed and the consumption is booked', async () => {
      const { key, keyId, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, { edits: [{ lineItemId: '9001', measurement: weight(1.5) }] });

      expect(res.status).toBe(200);
      expect(res.headers.get('idempotency-replayed')).toBeNull();
      const requestId = res.headers.get('x-request-id');
      expect(res.body).toEqual(
        okBody(requestId, itemsWith({ '9001': item('9001', '2001', 2, 1.5, 'kg', '$24.00 per kg') })),
      );
      expect(await lineRow(db, shopId, '9001')).toMatchObject({ variant_id: '2001', quantity: 2, price: '36.00' });
      expect(await storedSvcData(db, shopId, '9001')).toEqual({
        note: 'keep me',
        measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 1.5, tol: 5 }] },
      });
      // Consumption 2 × 1.25 = 2.5 kg becomes 2 × 1.5 = 3 kg: 0.5 kg more is taken.
      expect(await orderEditLedger(db, shopId)).toEqual([
        {
          variant_id: '2001',
          before: '10.25',
          after: '9.75',
          delta: '-0.5',
          unit: 'kg',
          idempotency_key: null,
          request_id: requestId,
        },
      ]);
      expect(await level(db, shopId, '2001')).toEqual({ total: '9.75', platform: '9' });
      expect(await level(db, shopId, '2002')).toEqual({ total: '5000', platform: '50' });
      expect(await orderEdits(db, shopId)).toEqual([
        {
          order_id: '5001',
          api_key_id: keyId,
          request_id: requestId,
          edits: [{ lineItemId: '9001', measurement: weight(1.5) }],
          notify_customer: false,
          staff_note: null,
        },
      ]);
      const get = await call(server, '/api/v1/orders/5001', { key });
      expect(get.body.items).toEqual(res.body.items);
    });

    it('when the measurement is sent in another unit of the type, then it is stored in the line unit', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, { edits: [{ lineItemId: '9001', measurement: weight(1500, 'g') }] });

      expect(res.status).toBe(200);
      expect(res.body.items[0]).toEqual(item('9001', '2001', 2, 1.5, 'kg', '$24.00 per kg'));
      expect(await lineRow(db, shopId, '9001')).toMatchObject({ price: '36.00' });
      expect(await level(db, shopId, '2001')).toEqual({ total: '9.75', platform: '9' });
    });

    it('when the quantity goes from 2 to 1, then one line measurement (1.25 kg) is returned to stock', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, { edits: [{ lineItemId: '9001', quantity: 1 }] });

      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        okBody(res.body.requestId, itemsWith({ '9001': item('9001', '2001', 1, 1.25, 'kg', '$24.00 per kg') })),
      );
      expect(await lineRow(db, shopId, '9001')).toMatchObject({ quantity: 1, price: '30.00' });
      expect(await storedSvcData(db, shopId, '9001')).toEqual(SVC_9001);
      expect(await orderEditLedger(db, shopId)).toEqual([
        expect.objectContaining({ variant_id: '2001', before: '10.25', after: '11.5', delta: '1.25', unit: 'kg' }),
      ]);
      expect(await level(db, shopId, '2001')).toEqual({ total: '11.5', platform: '11' });
    });

    it('when the quantity is 0, then the line is removed and its whole consumption is returned', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, { edits: [{ lineItemId: '9001', quantity: 0 }] });

      expect(res.status).toBe(200);
      expect(res.body).toEqual(okBody(res.body.requestId, itemsWith({ '9001': null })));
      expect(await lineRow(db, shopId, '9001')).toBeUndefined();
      expect(await orderEditLedger(db, shopId)).toEqual([
        expect.objectContaining({ variant_id: '2001', before: '10.25', after: '12.75', delta: '2.5', unit: 'kg' }),
      ]);
      expect(await level(db, shopId, '2001')).toEqual({ total: '12.75', platform: '12' });
      const get = await call(server, '/api/v1/orders/5001', { key });
      expect(get.body.items).toEqual(itemsWith({ '9001': null }));
    });

    it('when the variant changes from kg to a per-100 g variant, then stock moves between them and the measurement is converted', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, { edits: [{ lineItemId: '9001', variantId: '2002' }] });

      expect(res.status).toBe(200);
      // 2 × 1250 g at 24.00 per 100 g: 300.00 per line unit, $24.00 per 100 g.
      expect(res.body).toEqual(
        okBody(res.body.requestId, itemsWith({ '9001': item('9001', '2002', 2, 1250, 'g', '$24.00 per 100 g') })),
      );
      expect(await lineRow(db, shopId, '9001')).toMatchObject({ variant_id: '2002', quantity: 2, price: '300.00' });
      expect(await storedSvcData(db, shopId, '9001')).toEqual({
        note: 'keep me',
        measurement: { type: 'weight', dimensions: [{ unit: 'g', value: 1250, tol: 5 }] },
      });
      const requestId = res.body.requestId;
      expect(await orderEditLedger(db, shopId)).toEqual([
        {
          variant_id: '2001',
          before: '10.25',
          after: '12.75',
          delta: '2.5',
          unit: 'kg',
          idempotency_key: null,
          request_id: requestId,
        },
        {
          variant_id: '2002',
          before: '5000',
          after: '2500',
          delta: '-2500',
          unit: 'g',
          idempotency_key: null,
          request_id: requestId,
        },
      ]);
      expect(await level(db, shopId, '2001')).toEqual({ total: '12.75', platform: '12' });
      expect(await level(db, shopId, '2002')).toEqual({ total: '2500', platform: '25' });
    });

    it('when the variant changes from kg to lb, then the measurement is converted and rounded half-even to 9 decimals of lb', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, { edits: [{ lineItemId: '9001', variantId: '2003' }] });

      expect(res.status).toBe(200);
      // 1.25 kg is 2.75577827731… lb: 2.755778277 lb is kept (PRODUCT.md §6).
      expect(res.body.items).toEqual(
        itemsWith({ '9001': item('9001', '2003', 2, 2.755778277, 'lb', '$24.00 per lb') }),
      );
      expect(await storedSvcData(db, shopId, '9001')).toEqual({
        note: 'keep me',
        measurement: { type: 'weight', dimensions: [{ unit: 'lb', value: 2.755778277, tol: 5 }] },
      });
      expect(await level(db, shopId, '2001')).toEqual({ total: '12.75', platform: '12' });
      expect(await level(db, shopId, '2003')).toEqual({ total: '-5.511556554', platform: '-6' });
    });

    it('when measurements in oz meet a 10th decimal of exactly 5 in kg, then it goes to the even 9th: kept when even, up when odd', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, {
        edits: [
          { lineItemId: '9001', measurement: weight(4, 'oz') }, // 0.1133980925 kg
          { lineItemId: '9002', measurement: weight(12, 'oz') }, // 0.3401942775 kg
        ],
      });

      expect(res.status).toBe(200);
      expect(res.body.items).toEqual(
        itemsWith({
          '9001': item('9001', '2001', 2, 0.113398092, 'kg', '$24.00 per kg'),
          '9002': item('9002', '2001', 1, 0.340194278, 'kg', '$24.00 per kg'),
        }),
      );
      expect(await lineRow(db, shopId, '9001')).toMatchObject({ price: '2.72' });
      expect(await lineRow(db, shopId, '9002')).toMatchObject({ price: '8.16' });
      // Consumption 2 × 1.25 + 0.5 = 3 kg becomes 2 × 0.113398092 + 0.340194278 = 0.566990462 kg.
      expect(await orderEditLedger(db, shopId)).toEqual([
        expect.objectContaining({ before: '10.25', after: '12.683009538', delta: '2.433009538', unit: 'kg' }),
      ]);
      expect(await level(db, shopId, '2001')).toEqual({ total: '12.683009538', platform: '12' });
    });

    it('when lines move from lb to kg and meet a 10th decimal of exactly 5, then it goes to the even 9th', async () => {
      const { key, shopId } = await seedShop(
        db,
        editShop({
          orders: [
            order('5001', 'open', [
              line('9007', { variantId: '2003', svc: svcData('weight', 'lb', 0.05) }), // 0.0226796185 kg
              line('9008', { variantId: '2003', svc: svcData('weight', 'lb', 0.15) }), // 0.0680388555 kg
            ]),
          ],
        }),
      );

      const res = await patch(server, key, {
        edits: [
          { lineItemId: '9007', variantId: '2001' },
          { lineItemId: '9008', variantId: '2001' },
        ],
      });

      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        item('9007', '2001', 1, 0.022679618, 'kg', '$24.00 per kg'),
        item('9008', '2001', 1, 0.068038856, 'kg', '$24.00 per kg'),
      ]);
      expect(await storedSvcData(db, shopId, '9008')).toEqual({
        measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 0.068038856 }] },
      });
      expect(await level(db, shopId, '2001')).toEqual({ total: '10.159281526', platform: '10' });
      expect(await level(db, shopId, '2003')).toEqual({ total: '0.2', platform: '0' });
    });

    it('when the variant and the measurement change together, then the new variant takes the new consumption', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, {
        edits: [{ lineItemId: '9002', variantId: '2003', measurement: weight(1.5, 'lb') }],
      });

      expect(res.status).toBe(200);
      expect(res.body.items).toEqual(itemsWith({ '9002': item('9002', '2003', 1, 1.5, 'lb', '$24.00 per lb') }));
      expect(await lineRow(db, shopId, '9002')).toMatchObject({ variant_id: '2003', quantity: 1, price: '36.00' });
      expect(await level(db, shopId, '2001')).toEqual({ total: '10.75', platform: '10' });
      // 2003 had no stock: the line oversells it.
      expect(await level(db, shopId, '2003')).toEqual({ total: '-1.5', platform: '-2' });
    });

    it('when a measurement changes to a preset with its own price, then the line is charged that price', async () => {
      const shop = editShop();
      const variants = shop.products![0]!.variants;
      variants[2] = {
        ...variants[2]!,
        settings: { onlineStore: { displayStyle: 'pills', presets: [{ value: 1.5, price: '30.00' }, { value: 3 }] } },
      };
      const { key, shopId } = await seedShop(db, shop);

      const res = await patch(server, key, {
        edits: [
          { lineItemId: '9002', variantId: '2003', measurement: weight(1.5, 'lb') },
          { lineItemId: '9001', variantId: '2003', measurement: weight(3, 'lb') },
        ],
      });

      expect(res.status).toBe(200);
      // 1.5 lb is a preset at 30.00 (1.5 × 24.00 would be 36.00); 3 lb is one without a price.
      expect(await lineRow(db, shopId, '9002')).toMatchObject({ variant_id: '2003', price: '30.00' });
      expect(await lineRow(db, shopId, '9001')).toMatchObject({ variant_id: '2003', price: '72.00' });
    });

    it('when several edits are sent, then all are applied and each variant gets one net ledger row', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, {
        edits: [
          { lineItemId: '9001', measurement: weight(1.5) },
          { lineItemId: '9002', quantity: 3 },
          { lineItemId: '9003', quantity: 0 },
        ],
      });

      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        okBody(
          res.body.requestId,
          itemsWith({
            '9001': item('9001', '2001', 2, 1.5, 'kg', '$24.00 per kg'),
            '9002': item('9002', '2001', 3, 0.5, 'kg', '$24.00 per kg'),
            '9003': null,
          }),
        ),
      );
      // 2001: -0.5 (9001) and -1 (9002); 2002: +1000 g (9003 removed).
      expect(await orderEditLedger(db, shopId)).toEqual([
        expect.objectContaining({ variant_id: '2001', before: '10.25', after: '8.75', delta: '-1.5', unit: 'kg' }),
        expect.objectContaining({ variant_id: '2002', before: '5000', after: '6000', delta: '1000', unit: 'g' }),
      ]);
      expect(await level(db, shopId, '2001')).toEqual({ total: '8.75', platform: '8' });
      expect(await level(db, shopId, '2002')).toEqual({ total: '6000', platform: '60' });
      expect(await lineRow(db, shopId, '9002')).toMatchObject({ quantity: 3, price: '12.00' });
      expect(await lineRow(db, shopId, '9003')).toBeUndefined();
    });

    it('when a line without a variant is edited, then its _svc_data changes, its price stays and no stock moves', async () => {
      const { key, shopId } = await seedShop(db, editShop());
      const before = await snapshot(db, shopId);

      const res = await patch(server, key, { edits: [{ lineItemId: '9006', measurement: weight(4, 'lb') }] });

      expect(res.status).toBe(200);
      expect(res.body.items).toEqual(itemsWith({ '9006': item('9006', null, 1, 4, 'lb', '$2.50 per lb', null) }));
      expect(await lineRow(db, shopId, '9006')).toMatchObject({ variant_id: null, price: '10.00' });
      const after = await snapshot(db, shopId);
      expect(after.levels).toEqual(before.levels);
      expect(after.ledger).toEqual(before.ledger);
      expect(after.platform).toEqual(before.platform);
    });

    it('when a ribbon at $2.50 per m is cut to 0.762 m and then to 0.001 m, then its unitPrice still reads $2.50 per m', async () => {
      const ribbon = {
        id: '1003',
        title: 'Ribbon',
        measurementType: 'length' as const,
        variants: [{ ...variantFixture('2201', 'm', 1), price: '2.50' }],
      };
      const { key, shopId } = await seedShop(
        db,
        editShop({
          products: [ribbon],
          orders: [
            order('5001', 'open', [
              line('9301', { productId: '1003', variantId: '2201', price: '2.50', svc: svcData('length', 'm', 1) }),
            ]),
          ],
        }),
      );
      const cutTo = (value: number) =>
        patch(server, key, { edits: [{ lineItemId: '9301', measurement: { type: 'length', value, unit: 'm' } }] });
      const ribbonItem = (value: number) => ({
        ...item('9301', '2201', 1, value, 'm', '$2.50 per m', '1003'),
        measurement: { type: 'length', value, unit: 'm' },
      });

      const cut = await cutTo(0.762);

      expect(cut.status).toBe(200);
      expect(cut.body.items).toEqual([ribbonItem(0.762)]);
      // $1.905 rounded half-even: the line's price is rounded, the quoted unit price is not.
      expect(await lineRow(db, shopId, '9301')).toMatchObject({ price: '1.90' });

      const tiny = await cutTo(0.001);

      expect(tiny.status).toBe(200);
      expect(tiny.body.items).toEqual([ribbonItem(0.001)]);
      expect(await lineRow(db, shopId, '9301')).toMatchObject({ price: '0.00' });
      expect((await call(server, '/api/v1/orders/5001', { key })).body.items).toEqual([ribbonItem(0.001)]);
    });

    it('when the quantity is the largest 32-bit integer, then it is accepted', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const res = await patch(server, key, { edits: [{ lineItemId: '9006', quantity: 2147483647 }] });

      expect(res.status).toBe(200);
      expect(res.body.items).toEqual(
        itemsWith({ '9006': item('9006', null, 2147483647, 2, 'lb', '$5.00 per lb', null) }),
      );
      expect(await lineRow(db, shopId, '9006')).toMatchObject({ quantity: 2147483647, price: '10.00' });
    });

    it('when an edit would take a level out of range, then 400 names that edit and nothing is written', async () => {
      const { key, shopId } = await seedShop(db, editShop());
      const before = await snapshot(db, shopId);

      const huge = { lineItemId: '9001', quantity: 2147483647, measurement: weight(10_000_000, 'kg') };
      const res = await patch(server, key, { edits: [{ lineItemId: '9002', quantity: 2 }, huge] });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({
        in: 'body',
        errors: [{ path: '/edits/1', message: expect.stringMatching(/past what a platform level holds/) }],
      });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when notifyCustomer and staffNote are sent, then the edit history records them with the key and request id', async () => {
      const { key, keyId, shopId } = await seedShop(db, editShop());
      const body = {
        edits: [{ lineItemId: '9002', quantity: 2 }],
        notifyCustomer: true,
        staffNote: 'Customer asked by phone.',
      };

      const res = await patch(server, key, body);

      expect(res.status).toBe(200);
      expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
      expect(await orderEdits(db, shopId)).toEqual([
        {
          order_id: '5001',
          api_key_id: keyId,
          request_id: res.body.requestId,
          edits: body.edits,
          notify_customer: true,
          staff_note: 'Customer asked by phone.',
        },
      ]);
    });

    it('when an Idempotency-Key is replayed, then the same body comes back marked replayed and nothing is applied twice', async () => {
      const { key, shopId } = await seedShop(db, editShop());
      const idempotencyKey = randomUUID();
      const body = { edits: [{ lineItemId: '9001', measurement: weight(1.5) }] };

      const first = await patch(server, key, body, { idempotencyKey });
      const afterFirst = await snapshot(db, shopId);
      const retry = await patch(server, key, body, { idempotencyKey });

      expect(first.status).toBe(200);
      expect(first.headers.get('idempotency-replayed')).toBeNull();
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotency-replayed')).toBe('true');
      expect(retry.text).toBe(first.text);
      expect(retry.headers.get('x-request-id')).toBe(first.headers.get('x-request-id'));
      expect(await snapshot(db, shopId)).toEqual(afterFirst);
      expect(await orderEditLedger(db, shopId)).toEqual([
        {
          variant_id: '2001',
          before: '10.25',
          after: '9.75',
          delta: '-0.5',
          unit: 'kg',
          idempotency_key: idempotencyKey,
          request_id: first.body.requestId,
        },
      ]);
      expect(afterFirst.edits).toHaveLength(1);
      expect(await level(db, shopId, '2001')).toEqual({ total: '9.75', platform: '9' });
    });

    it('when an Idempotency-Key is reused with another body, then 422 idempotency_key_reused and nothing changes', async () => {
      const { key, shopId } = await seedShop(db, editShop());
      const idempotencyKey = randomUUID();
      await patch(server, key, { edits: [{ lineItemId: '9001', measurement: weight(1.5) }] }, { idempotencyKey });
      const before = await snapshot(db, shopId);

      const res = await patch(
        server,
        key,
        { edits: [{ lineItemId: '9001', measurement: weight(2) }] },
        { idempotencyKey },
      );

      const error = expectErrorEnvelope(res, 422, 'idempotency_key_reused');
      expect(error.details).toEqual({ idempotencyKey });
      expect(await snapshot(db, shopId)).toEqual(before);
    });
  });

  describe('errors', () => {
    /** A fresh shop, its key and the snapshot before the request. */
    async function primedShop(overrides: Partial<ImportShop> = {}) {
      const seeded = await seedShop(db, editShop(overrides));
      return { ...seeded, before: await snapshot(db, seeded.shopId) };
    }

    const bad = (path: string, message: string) => ({ in: 'body', errors: [{ path, message }] });
    const roundsToZero = (conversion: string, unit: string) =>
      `${conversion}, below what Tare keeps in the variant's unit (9 decimal places of ${unit}): it would be booked as 0`;
    const quantityEdit = (lineItemId = '9001', quantity = 1) => ({ lineItemId, quantity });

    it.each(['abc', '5001x', '-5001', '1.5', '123456789012345678901'])(
      'when the order id is %s, then 400 names /orderId and nothing changes',
      async (orderId) => {
        const { key, shopId, before } = await primedShop();

        const res = await patch(server, key, { edits: [quantityEdit()] }, { orderId });

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details).toEqual({
          in: 'params',
          errors: [{ path: '/orderId', message: 'must be a numeric id string of 1 to 20 digits' }],
        });
        expect(await snapshot(db, shopId)).toEqual(before);
      },
    );

    it('when the order does not exist, then 404 not_found and nothing changes', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await patch(server, key, { edits: [quantityEdit()] }, { orderId: '5999' });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'order', id: '5999' });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    const hundredAndOne = Array.from({ length: 101 }, () => quantityEdit());
    it.each<[string, unknown, ReturnType<typeof bad>]>([
      ['edits is empty', { edits: [] }, bad('/edits', 'must NOT have fewer than 1 items')],
      ['there are 101 edits', { edits: hundredAndOne }, bad('/edits', 'must NOT have more than 100 items')],
      ['edits is missing', { notifyCustomer: true }, bad('/edits', 'is required')],
      [
        'an edit only names its line',
        { edits: [{ lineItemId: '9001' }] },
        bad('/edits/0', 'the edit changes nothing: give quantity, measurement or variantId'),
      ],
      [
        'an edit repeats the current quantity',
        { edits: [quantityEdit('9001', 2)] },
        bad('/edits/0', 'the edit changes nothing: the line already has these values'),
      ],
      [
        'an edit repeats the current measurement, variant and quantity',
        { edits: [{ lineItemId: '9001', quantity: 2, variantId: '2001', measurement: weight(1.25) }] },
        bad('/edits/0', 'the edit changes nothing: the line already has these values'),
      ],
      [
        'an edit repeats the current measurement in another unit',
        { edits: [{ lineItemId: '9001', measurement: weight(1250, 'g') }] },
        bad('/edits/0', 'the edit changes nothing: the line already has these values'),
      ],
      [
        'the line does not exist',
        { edits: [quantityEdit(), quantityEdit('9999')] },
        bad('/edits/1/lineItemId', "line item '9999' is not a service-managed line of this order"),
      ],
      [
        'the line is not service-managed',
        { edits: [quantityEdit('9004')] },
        bad('/edits/0/lineItemId', "line item '9004' is not a service-managed line of this order"),
      ],
      [
        "the line is another order's",
        { edits: [quantityEdit('9101')] },
        bad('/edits/0/lineItemId', "line item '9101' is not a service-managed line of this order"),
      ],
      [
        'the lineItemId is not numeric',
        { edits: [{ lineItemId: 'x9001', quantity: 1 }] },
        bad('/edits/0/lineItemId', 'must be a numeric id string of 1 to 20 digits'),
      ],
      ['the quantity is negative', { edits: [quantityEdit('9001', -1)] }, bad('/edits/0/quantity', 'must be >= 0')],
      [
        'the quantity is fractional',
        { edits: [quantityEdit('9001', 1.5)] },
        bad('/edits/0/quantity', 'must be integer'),
      ],
      [
        'the quantity is a string',
        { edits: [{ lineItemId: '9001', quantity: '1' }] },
        bad('/edits/0/quantity', 'must be integer'),
      ],
      [
        'the measurement value is 0',
        { edits: [{ lineItemId: '9001', measurement: weight(0) }] },
        bad('/edits/0/measurement/value', 'must be > 0'),
      ],
      [
        'the measurement value is negative',
        { edits: [{ lineItemId: '9001', measurement: weight(-1) }] },
        bad('/edits/0/measurement/value', 'must be > 0'),
      ],
      [
        'the measurement value is a string',
        { edits: [{ lineItemId: '9001', measurement: { type: 'weight', value: '1.5', unit: 'kg' } }] },
        bad('/edits/0/measurement/value', 'must be number'),
      ],
      [
        'the measurement value is 1e999 (Infinity)',
        '{"edits":[{"lineItemId":"9001","measurement":{"type":"weight","value":1e999,"unit":"kg"}}]}',
        bad('/edits/0/measurement/value', 'must be a finite number'),
      ],
      [
        'the measurement value is -1e999 (-Infinity)',
        '{"edits":[{"lineItemId":"9001","measurement":{"type":"weight","value":-1e999,"unit":"kg"}}]}',
        bad('/edits/0/measurement/value', 'must be > 0'),
      ],
      [
        'the quantity is 1e999 (Infinity)',
        '{"edits":[{"lineItemId":"9001","quantity":1e999}]}',
        bad('/edits/0/quantity', 'must be <= 2147483647'),
      ],
      [
        'the quantity is beyond 32 bits on a line without a variant',
        { edits: [quantityEdit('9006', 2147483648)] },
        bad('/edits/0/quantity', 'must be <= 2147483647'),
      ],
      [
        'the measurement value has more than 9 decimal places',
        { edits: [{ lineItemId: '9001', measurement: weight(1.0000000001) }] },
        bad('/edits/0/measurement/value', 'has more than 9 decimal places; Tare keeps 9 decimal places of a unit'),
      ],
      [
        'the measurement value converts into the line unit as 0 at 9 decimals (it used to be booked as 0)',
        { edits: [{ lineItemId: '9001', measurement: weight(1e-7, 'g') }] },
        bad('/edits/0/measurement/value', roundsToZero('0.0000001 g is 0.0000000001 kg', 'kg')),
      ],
      [
        'the measurement converts exactly but into more digits than its JSON number in _svc_data holds',
        { edits: [{ lineItemId: '9002', measurement: weight(123456789012, 'lb') }] },
        bad(
          '/edits/0/measurement/value',
          'is 55999057520.54303844 kg, more significant digits than a JSON number holds',
        ),
      ],
      [
        'staffNote contains a NUL character',
        { edits: [quantityEdit()], staffNote: 'a\u0000b' },
        bad('/staffNote', 'must not contain the NUL character (U+0000)'),
      ],
      [
        'staffNote contains a lone surrogate',
        { edits: [quantityEdit()], staffNote: 'a\ud800b' },
        bad('/staffNote', 'must be well-formed Unicode (it contains a lone surrogate)'),
      ],
      [
        'the measurement unit contains a NUL character',
        { edits: [{ lineItemId: '9001', measurement: weight(1.5, 'k\u0000g') }] },
        bad('/edits/0/measurement/unit', 'must not contain the NUL character (U+0000)'),
      ],
      [
        'the measurement unit is of another type',
        { edits: [{ lineItemId: '9001', measurement: weight(1.5, 'm') }] },
        bad('/edits/0/measurement/unit', `unit 'm' is not a weight unit; use one of ${WEIGHT_UNITS}`),
      ],
      [
        'the measurement unit is unknown',
        { edits: [{ lineItemId: '9001', measurement: weight(1.5, 'KG') }] },
        bad('/edits/0/measurement/unit', `unit 'KG' is not a weight unit; use one of ${WEIGHT_UNITS}`),
      ],
      [
        "the measurement type is not the product's",
        { edits: [{ lineItemId: '9001', measurement: weight(1.5, 'm', 'length') }] },
        bad('/edits/0/measurement/type', "must be 'weight', the product's measurement type"),
      ],
      [
        'the measurement misses its type',
        { edits: [{ lineItemId: '9001', measurement: { value: 1.5, unit: 'kg' } }] },
        bad('/edits/0/measurement/type', 'is required'),
      ],
      [
        'the variant is of another product',
        { edits: [{ lineItemId: '9001', variantId: '2101' }] },
        bad('/edits/0/variantId', "variant '2101' is not a configured variant of product '1001'"),
      ],
      [
        'the variant is not configured',
        { edits: [{ lineItemId: '9001', variantId: '2999' }] },
        bad('/edits/0/variantId', "variant '2999' is not a configured variant of product '1001'"),
      ],
      [
        'notifyCustomer is not a boolean',
        { edits: [quantityEdit()], notifyCustomer: 'yes' },
        bad('/notifyCustomer', 'must be boolean'),
      ],
      [
        'staffNote is over 5000 characters',
        { edits: [quantityEdit()], staffNote: 'x'.repeat(5001) },
        bad('/staffNote', 'must NOT have more than 5000 characters'),
      ],
      ['the body has an unknown field', { edits: [quantityEdit()], note: 'x' }, bad('/note', "unknown field 'note'")],
      [
        'an edit has an unknown field',
        { edits: [{ ...quantityEdit(), qty: 1 }] },
        bad('/edits/0/qty', "unknown field 'qty'"),
      ],
      [
        'a measurement has an unknown field',
        { edits: [{ lineItemId: '9001', measurement: { ...weight(1.5), values: [1] } }] },
        bad('/edits/0/measurement/values', "unknown field 'values'"),
      ],
      [
        'only the last of several edits is invalid',
        {
          edits: [quantityEdit('9001', 1), { lineItemId: '9002', measurement: weight(0.75) }, quantityEdit('9003', -2)],
        },
        bad('/edits/2/quantity', 'must be >= 0'),
      ],
      [
        'only the last of several edits names an unknown line',
        {
          edits: [quantityEdit('9001', 1), { lineItemId: '9002', measurement: weight(0.75) }, quantityEdit('9998', 1)],
        },
        bad('/edits/2/lineItemId', "line item '9998' is not a service-managed line of this order"),
      ],
      [
        'the same line is edited twice',
        { edits: [quantityEdit('9001', 1), quantityEdit('9001', 3)] },
        bad('/edits/1/lineItemId', "line item '9001' already appears at /edits/0"),
      ],
    ])('when %s, then 400 names the field and nothing changes', async (_label, payload, details) => {
      const { key, shopId, before } = await primedShop();

      const res = await patch(server, key, payload, { idempotencyKey: randomUUID() });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual(details);
      expect(error.message).toBe(
        `The request is invalid: ${details.errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`,
      );
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      [
        "the line's measurement would round to 0 in the new variant's unit",
        '2002',
        svcData('weight', 'g', 0.0000001),
        `the line's measurement ${roundsToZero('0.0000001 g is 0.0000000001 kg', 'kg')}; send a measurement in kg with it`,
      ],
      [
        "the line's measurement, rounded in the new variant's unit, has more digits than a JSON number holds",
        '2003',
        svcData('weight', 'lb', 1234567890.5),
        "the line's measurement is 559990575.377795485 kg, more significant digits than a JSON number holds; " +
          'send a measurement in kg with it',
      ],
    ])('when %s, then 400 names the variantId and nothing changes', async (_label, variantId, svc, message) => {
      const lines = [line('9009', { variantId, svc })];
      const { key, shopId, before } = await primedShop({ orders: [order('5001', 'open', lines)] });

      const res = await patch(server, key, { edits: [{ lineItemId: '9009', variantId: '2001' }] });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual(bad('/edits/0/variantId', message));
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the body is not valid JSON, then 400 bad_request and nothing changes', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await patch(server, key, '{"edits":[{"lineItemId":"9001","quantity":1}');

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error).toEqual({ code: 'bad_request', message: 'The request body is not valid JSON.', details: null });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the Idempotency-Key header is malformed, then 400 names the header and nothing changes', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await patch(server, key, { edits: [quantityEdit()] }, { idempotencyKey: 'x'.repeat(256) });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({ header: 'Idempotency-Key' });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it("when the shop's add-on is inactive, then 422 addon_inactive and nothing changes", async () => {
      const { key, shopId, before } = await primedShop({ addonActive: false });

      const res = await patch(server, key, { edits: [quantityEdit()] }, { idempotencyKey: randomUUID() });

      const error = expectErrorEnvelope(res, 422, 'addon_inactive');
      expect(error.details).toEqual({ orderId: '5001' });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the edited line is fulfilled, then 422 unprocessable and the other edits are not applied', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await patch(server, key, { edits: [quantityEdit('9001', 1), quantityEdit('9005', 2)] });

      const error = expectErrorEnvelope(res, 422, 'unprocessable');
      expect(error.details).toEqual({ lineItemId: '9005' });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      ['5002', '9101', 'closed'],
      ['5003', '9201', 'cancelled'],
    ])('when order %s is %s, then 422 unprocessable and nothing changes', async (orderId, lineItemId, status) => {
      const { key, shopId, before } = await primedShop();

      const res = await patch(server, key, { edits: [quantityEdit(lineItemId, 2)] }, { orderId });

      const error = expectErrorEnvelope(res, 422, 'unprocessable');
      expect(error.details).toEqual({ status });
      expect(error.message).toBe(`Order ${orderId} is ${status} and cannot be edited.`);
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when no key is sent, then 401 unauthorized and nothing changes', async () => {
      const { shopId, before } = await primedShop();

      const res = await patch(server, undefined, { edits: [quantityEdit()] });

      expectErrorEnvelope(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await snapshot(db, shopId)).toEqual(before);
    });
  });

  describe('concurrency', () => {
    /** Start + (initial − final consumption) of the open order's lines of `variantId`, in its unit, as a number. */
    async function expectConsistent(shopId: string, variantId: string, start: number, initialConsumption: number) {
      const { rows } = await db.query<{ consumed: string }>(
        `SELECT coalesce(sum(l.quantity * ((p.value::jsonb -> 'measurement' -> 'dimensions' -> 0 ->> 'value')::numeric)), 0)::text
           AS consumed
         FROM local_platform_line_items l, jsonb_to_recordset(l.properties) AS p(name text, value text)
         WHERE l.shop_id = $1 AND l.order_id = '5001' AND l.variant_id = $2 AND p.name = '_svc_data'`,
        [shopId, variantId],
      );
      const { rows: sums } = await db.query<{ total: string; deltas: string }>(
        `SELECT l.total::text AS total, (SELECT sum(delta) FROM inventory_ledger g
           WHERE g.shop_id = l.shop_id AND g.location_id = l.location_id AND g.variant_id = l.variant_id)::text AS deltas
         FROM inventory_levels l WHERE l.shop_id = $1 AND l.location_id = '70001' AND l.variant_id = $2`,
        [shopId, variantId],
      );
      const expected = start + initialConsumption - Number(rows[0]!.consumed);
      expect(Number(sums[0]!.total)).toBe(expected);
      expect(Number(sums[0]!.deltas)).toBe(expected);
      return expected;
    }

    it('when two PATCHes edit different lines at once, then both apply and the inventory matches the final lines', async () => {
      const { key, shopId } = await seedShop(db, editShop());

      const [a, b] = await Promise.all([
        patch(server, key, { edits: [{ lineItemId: '9001', measurement: weight(1.5) }] }),
        patch(server, key, { edits: [{ lineItemId: '9002', measurement: weight(0.75) }] }),
      ]);

      expect([a.status, b.status]).toEqual([200, 200]);
      const get = await call(server, '/api/v1/orders/5001', { key });
      expect(get.body.items).toEqual(
        itemsWith({
          '9001': item('9001', '2001', 2, 1.5, 'kg', '$24.00 per kg'),
          '9002': item('9002', '2001', 1, 0.75, 'kg', '$24.00 per kg'),
        }),
      );
      // 9001 2.5 → 3 kg, 9002 0.5 → 0.75 kg (9005 is fulfilled and consumes 1 kg throughout).
      expect(await expectConsistent(shopId, '2001', 10.25, 2.5 + 0.5 + 1)).toBe(9.5);
      expect(await level(db, shopId, '2001')).toEqual({ total: '9.5', platform: '9' });
      expect((await orderEditLedger(db, shopId)).map((r) => r.delta).sort()).toEqual(['-0.25', '-0.5']);
      expect(await orderEdits(db, shopId)).toHaveLength(2);
    });

    it('when several PATCHes set the same line to different values at once, then the last one wins and stock matches it', async () => {
      const { key, shopId } = await seedShop(db, editShop());
      const values = [1.5, 1.75, 2, 2.25, 2.5];

      const responses = await Promise.all(
        values.map((value) => patch(server, key, { edits: [{ lineItemId: '9001', measurement: weight(value) }] })),
      );

      expect(responses.map((r) => r.status)).toEqual(values.map(() => 200));
      const { rows } = await db.query<{ request_id: string }>(
        'SELECT request_id FROM order_edits WHERE shop_id = $1 ORDER BY id',
        [shopId],
      );
      expect(rows).toHaveLength(values.length);
      const last = responses.find((r) => r.body.requestId === rows[rows.length - 1]!.request_id)!;
      const finalValue = last.body.items[0].measurement.value as number;
      const get = await call(server, '/api/v1/orders/5001', { key });
      expect(get.body.items[0]).toEqual(item('9001', '2001', 2, finalValue, 'kg', '$24.00 per kg'));
      expect(await expectConsistent(shopId, '2001', 10.25, 2.5 + 0.5 + 1)).toBe(10.25 + 2.5 - 2 * finalValue);
      expect(await orderEditLedger(db, shopId)).toHaveLength(values.length);
    });
  });

  describe('security', () => {
    it("when a foreign key edits another shop's order, then 404 and neither shop changes", async () => {
      const victim = await seedShop(db, editShop());
      const attacker = await seedShop(db, editShop({ orders: [] }));
      const victimBefore = await snapshot(db, victim.shopId);
      const attackerBefore = await snapshot(db, attacker.shopId);

      const res = await patch(server, attacker.key, { edits: [{ lineItemId: '9001', quantity: 0 }] });
      const read = await call(server, '/api/v1/orders/5001', { key: attacker.key });

      expect(expectErrorEnvelope(res, 404, 'not_found').details).toEqual({ resource: 'order', id: '5001' });
      expect(expectErrorEnvelope(read, 404, 'not_found').details).toEqual({ resource: 'order', id: '5001' });
      expect(await snapshot(db, victim.shopId)).toEqual(victimBefore);
      expect(await snapshot(db, attacker.shopId)).toEqual(attackerBefore);
    });

    it("when two shops have order 5001, then a PATCH with one shop's key changes only that shop's order", async () => {
      const a = await seedShop(db, editShop());
      const b = await seedShop(db, editShop());
      const bBefore = await snapshot(db, b.shopId);

      const res = await patch(server, a.key, { edits: [{ lineItemId: '9001', quantity: 0 }] });

      expect(res.status).toBe(200);
      expect(await lineRow(db, a.shopId, '9001')).toBeUndefined();
      expect(await snapshot(db, b.shopId)).toEqual(bBefore);
      const readB = await call(server, '/api/v1/orders/5001', { key: b.key });
      expect(readB.body.items).toEqual(itemsWith({}));
    });
  });
});
