import { dimensionsFromFactors, type FactorsConfig } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { send, settle, visitor } from './support.js';

// PRODUCT.md §19's "done when": the demo shop's carpet, sold per m² off a 4 m roll with 10 %
// overage, bought by its length in the sandbox storefront, then edited by its length.

/** The demo shop under its own domain (its carpet 2501: 200 m² on the roll at 70001). */
function demoShop() {
  const shop = structuredClone(DEMO_CATALOG.shops[0]!);
  shop.domain = `demo-${Math.random().toString(36).slice(2, 10)}.example`;
  return shop;
}

/** The carpet's configuration as the API answers it. */
async function carpetConfig(server: RunningServer, key: string): Promise<FactorsConfig> {
  const res = await call(server, '/api/v1/products/1006/variants/2501', { key });
  expect(res.status).toBe(200);
  return res.body.data.variant.settings.onlineStore;
}

const carpetLine = (dimensions: unknown[]) =>
  JSON.stringify({ measurement: { type: 'area', dimensions }, unitMeasurement: { unit: 'm2', value: 1 } });

describe.each(testDrivers())('carpet by its length, off a 4 m roll, on $name', ({ create }) => {
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

  /** Tare's exact stock of the roll, in m². */
  async function roll(key: string) {
    const res = await call(server, '/api/v1/inventory/levels?locationId=70001&variantId=2501', { key });
    expect(res.status).toBe(200);
    return res.body.data.levels[0].quantity;
  }

  it('when 2.35 m is bought in the storefront and edited to 2.5 m, then 10.34 m² then 11 m² are charged and booked exactly', async () => {
    const { key, domain } = await seedShop(db, demoShop());
    const config = await carpetConfig(server, key);
    const browser = visitor(server, domain);
    expect(await roll(key)).toEqual({ value: 200, unit: 'm2' });

    const dimensions = dimensionsFromFactors([2.35], 'm2', config);
    expect(dimensions).toEqual([
      { value: 10.34, unit: 'm2' },
      { value: 2.35, unit: 'm', name: 'length' },
      { value: 4, unit: 'm', name: 'width' },
    ]);
    const added = await browser.add([{ id: 2501, quantity: 1, properties: { _svc_data: carpetLine(dimensions) } }]);
    expect(added.status).toBe(200);
    // 10.34 m² × $29.00 = $299.86.
    expect(added.body.items[0]).toMatchObject({ quantity: 1, price: 29986, line_price: 29986 });

    const page = await browser.checkout();
    expect(page.status).toBe(200);
    const orderId = /data-order-id="(\d+)"/.exec(page.text)![1]!;
    await settle(server, db);
    expect(await roll(key)).toEqual({ value: 189.66, unit: 'm2' });

    const order = await call(server, `/api/v1/orders/${orderId}`, { key });
    expect(order.status).toBe(200);
    expect(order.body.data.items[0].measurement).toEqual({
      type: 'area',
      value: 10.34,
      unit: 'm2',
      dimensions: [
        { value: 2.35, unit: 'm', name: 'length' },
        { value: 4, unit: 'm', name: 'width' },
      ],
    });

    const lineItemId = order.body.data.items[0].lineItemId;
    const edited = await send(server, key, 'PATCH', `/api/v1/orders/${orderId}`, {
      edits: [
        {
          lineItemId,
          measurement: {
            type: 'area',
            unit: 'm2',
            dimensions: [
              { value: 2.5, unit: 'm' },
              { value: 4, unit: 'm' },
            ],
          },
        },
      ],
    });
    expect(edited.body.error).toBeNull();
    expect(edited.status).toBe(200);
    // 2.5 m × 4 m × 1.1 = 11 m²: the edit books the 0.66 m² more, exactly.
    expect(edited.body.data.items[0].measurement).toEqual({
      type: 'area',
      value: 11,
      unit: 'm2',
      dimensions: [
        { value: 2.5, unit: 'm', name: 'length' },
        { value: 4, unit: 'm', name: 'width' },
      ],
    });
    await settle(server, db);
    expect(await roll(key)).toEqual({ value: 189, unit: 'm2' });
    const ledger = await call(server, '/api/v1/inventory/ledger?locationId=70001&variantId=2501&limit=1', { key });
    expect(ledger.body.data.entries[0]).toMatchObject({ operation: 'order_edit', delta: -0.66 });
    const sold = await call(server, `/sandbox/orders/${orderId}`, { key });
    expect(sold.body.order.line_items.map((l: any) => [l.quantity, l.price])).toEqual([[1, 31900]]);
  });

  it('when an edit changes the fixed width, misses a factor or sends factors for a weight line, then it is 400 at the factor', async () => {
    const { key } = await seedShop(db, demoShop());
    const config = await carpetConfig(server, key);
    const order = await boughtOrder(key, [
      { id: 2501, quantity: 1, properties: { _svc_data: carpetLine(dimensionsFromFactors([1], 'm2', config)) } },
      {
        id: 2001,
        quantity: 1,
        properties: {
          _svc_data: JSON.stringify({ measurement: { type: 'weight', dimensions: [{ value: 1, unit: 'kg' }] } }),
        },
      },
    ]);
    const [carpet, coffee] = order.items.map((i: any) => i.lineItemId);
    const patch = (edit: unknown) => send(server, key, 'PATCH', `/api/v1/orders/${order.id}`, { edits: [edit] });

    const width = await patch({
      lineItemId: carpet,
      measurement: {
        type: 'area',
        unit: 'm2',
        dimensions: [
          { value: 2, unit: 'm' },
          { value: 3, unit: 'm' },
        ],
      },
    });
    expect(width.status).toBe(400);
    expect(width.body.error.details.errors).toEqual([
      expect.objectContaining({
        path: '/edits/0/measurement/dimensions/1/value',
        message: '3 m is not the fixed width 4 m',
      }),
    ]);

    const missing = await patch({
      lineItemId: carpet,
      measurement: { type: 'area', unit: 'm2', dimensions: [{ value: 2, unit: 'm' }] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.errors.map((d: any) => d.path)).toEqual(['/edits/0/measurement/dimensions/1']);

    const valueOnly = await patch({ lineItemId: carpet, measurement: { type: 'area', unit: 'm2', value: 8 } });
    expect(valueOnly.status).toBe(400);
    expect(valueOnly.body.error.details.errors.map((d: any) => d.path)).toEqual(['/edits/0/measurement/value']);

    const weight = await patch({
      lineItemId: coffee,
      measurement: { type: 'weight', unit: 'kg', dimensions: [{ value: 2, unit: 'm' }] },
    });
    expect(weight.status).toBe(400);
    expect(weight.body.error.details.errors.map((d: any) => d.path)).toEqual(['/edits/0/measurement/dimensions']);
    await settle(server, db);
    expect(await roll(key)).toEqual({ value: 195.6, unit: 'm2' });
  });

  it('when a line arrives whose area the factors do not make, then the cart charges the variant price and Tare skips it with its reason', async () => {
    const { key, domain } = await seedShop(db, demoShop());
    const browser = visitor(server, domain);
    const forged = carpetLine([
      { value: 1, unit: 'm2' },
      { value: 2.35, unit: 'm', name: 'length' },
      { value: 4, unit: 'm', name: 'width' },
    ]);
    const added = await browser.add([{ id: 2501, quantity: 1, properties: { _svc_data: forged } }]);
    expect(added.body.items[0]).toMatchObject({ quantity: 1, price: 2900 });
    const page = await browser.checkout();
    const orderId = /data-order-id="(\d+)"/.exec(page.text)![1]!;
    await settle(server, db);

    expect(await roll(key)).toEqual({ value: 200, unit: 'm2' });
    expect((await call(server, `/api/v1/orders/${orderId}`, { key })).body.data.items).toEqual([]);
    const { rows } = await db.query<{ skipped: any[] }>(
      'SELECT skipped FROM tracked_orders t JOIN shops s ON s.id = t.shop_id WHERE s.domain = $1 AND t.order_id = $2',
      [domain, orderId],
    );
    expect(rows[0]!.skipped).toEqual([
      expect.objectContaining({
        variantId: '2501',
        reason: 'invalid_svc_data',
        detail: expect.stringContaining('measurement.dimensions[0].value: 1 m2 is not what the factors make'),
      }),
    ]);
  });

  /** A sandbox order of the items, bought through the API's sandbox cart, once Tare booked it. */
  async function boughtOrder(key: string, items: { id: number; quantity: number; properties: unknown }[]) {
    const token = (await send(server, key, 'POST', '/sandbox/carts')).body.token;
    expect((await send(server, key, 'POST', `/sandbox/carts/${token}/add`, { items })).status).toBe(200);
    const placed = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});
    expect(placed.status).toBe(201);
    await settle(server, db);
    const order = await call(server, `/api/v1/orders/${placed.body.order.id}`, { key });
    return order.body.data;
  }
});
