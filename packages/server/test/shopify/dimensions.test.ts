/**
 * PRODUCT.md §19's "done when" on the fake Shopify, both stores: the demo shop's carpet, sold per
 * m² off a 4 m roll with 10 % overage. The cart helper builds the line for 2.35 m, the checkout
 * function prices it from the metafield Tare wrote (10.34 m²), orders/create books exactly that
 * off the roll and Shopify shows the whole m² left; the order's GET shows length and width. An
 * edit of the length is refused (422, decision 38: Shopify's order editing cannot rewrite a
 * line's `_svc_data`), with nothing booked and no edit begun; a second cut of the same length
 * (quantity 2) is an order edit Shopify commits, booked exactly.
 */
import { buildLineItemProperties } from '@tare/client';
import { readVariantMeasurementConfig, type ShopStorefrontConfig } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartTransformRun } from '../../../../extensions/cart-transform/src/cart_transform_run.js';
import { DEMO_CATALOG } from '../../src/cli/demo-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { addCarpet } from '../support/fake-shopify/catalog.js';
import { call } from '../support/harness.js';
import { LOC, type ShopifyShop, startShopifyShop } from '../support/shopify-shop.js';
import { cartLine, outputErrors, priced, runInput } from '../shopify-function/support.js';

const NS = '$app:tare';
const CARPET = '2501';
const demoCarpet = DEMO_CATALOG.shops[0]!.products!.find((p) => p.id === '1006')!;

describe.each(testDrivers())('carpet by its length on Shopify, on $name', ({ create }) => {
  let db: Db;
  let shop: ShopifyShop;
  beforeAll(async () => {
    db = await create();
    shop = await startShopifyShop(db, { stock: { kg: 5 } });
    addCarpet(shop.fake);
    // The shop imports the demo's carpet (200 m² on the roll at 70001), as an import does.
    const changed = structuredClone(shop.importShop);
    for (const v of changed.products!.flatMap((p) => p.variants)) delete v.inventory;
    changed.products = [...changed.products!, structuredClone(demoCarpet)];
    shop.importShop = changed;
    const checked = validateImport({ shops: [changed] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    await shop.server.services.importCatalog(checked.value);
    await shop.settle();
  });
  afterAll(async () => {
    await shop?.close();
    await db?.close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    call(shop.server, path, { key: shop.apiKey, headers: { 'content-type': 'application/json' }, ...init });

  /** The line's properties as a storefront builds them with the client's cart helper, for `length` m. */
  async function carpetProperties(length: number) {
    const variant = (await api(`/api/v1/products/1006/variants/${CARPET}`)).body.data.variant;
    const labels = (shop.fake.metafield('shop', NS, 'labels') as ShopStorefrontConfig).labels.en!;
    // The variant's price as the storefront knows it (Shopify's, which Tare's metafield carries).
    const { price } = readVariantMeasurementConfig(shop.fake.metafield(CARPET, NS, 'measurement'))!;
    return buildLineItemProperties({
      product: { id: '1006', measurementType: 'area' },
      variant,
      labels,
      factors: [length, undefined],
      price,
      currency: 'USD',
      locale: 'en',
    });
  }

  it('when 2.35 m is bought through the function and orders/create, then 10.34 m² is charged and booked exactly and the GET shows length and width; a new length is 422, a second cut is committed and booked', async () => {
    expect(await shop.total(CARPET)).toBe('200');
    expect(shop.shown(CARPET)).toBe(200);

    const properties = await carpetProperties(2.35);
    const svc = properties.find((p) => p.name === '_svc_data')!.value;
    expect(JSON.parse(svc).measurement.dimensions).toEqual([
      { value: 10.34, unit: 'm2' },
      { value: 2.35, unit: 'm', name: 'length' },
      { value: 4, unit: 'm', name: 'width' },
    ]);

    // The checkout function, with the variant's metafield as Tare wrote it on Shopify.
    const metafield = readVariantMeasurementConfig(shop.fake.metafield(CARPET, NS, 'measurement'))!;
    expect(metafield).toMatchObject({ overagePercent: 10, price: '29.00' });
    const output = cartTransformRun(runInput([cartLine({ config: metafield, svc })]));
    expect(outputErrors(output)).toEqual([]);
    // 10.34 m² × 29.00 = 299.86.
    expect(output.operations).toEqual([priced('299.86')]);

    const orderId = shop.fake.placeOrder({
      locationId: LOC,
      lines: [
        {
          variantId: CARPET,
          quantity: 1,
          price: '299.86',
          customAttributes: properties.map((p) => ({ key: p.name, value: p.value })),
        },
      ],
    });
    await shop.settle();
    expect(await shop.total(CARPET)).toBe('189.66');
    expect(shop.shown(CARPET)).toBe(189);
    const ledger = await api(`/api/v1/inventory/ledger?locationId=${LOC}&variantId=${CARPET}&limit=1`);
    expect(ledger.body.data.entries[0]).toMatchObject({ delta: -10.34 });

    const order = await api(`/api/v1/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body.data.items).toHaveLength(1);
    expect(order.body.data.items[0].measurement).toEqual({
      type: 'area',
      value: 10.34,
      unit: 'm2',
      dimensions: [
        { value: 2.35, unit: 'm', name: 'length' },
        { value: 4, unit: 'm', name: 'width' },
      ],
    });

    // Shopify cannot rewrite the line's _svc_data: the edit to 2.5 m is refused before any edit begins.
    const editsBefore = shop.fake.calls.filter((c) => c.rootFields.some((f) => f.startsWith('orderEdit'))).length;
    const edited = await api(`/api/v1/orders/${orderId}`, {
      method: 'PATCH',
      body: JSON.stringify({
        edits: [
          {
            lineItemId: order.body.data.items[0].lineItemId,
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
      }),
    });
    expect(edited.status).toBe(422);
    expect(edited.body.error).toMatchObject({ code: 'unprocessable' });
    expect(edited.body.error.message).toContain('_svc_data');
    await shop.settle();
    expect(shop.fake.calls.filter((c) => c.rootFields.some((f) => f.startsWith('orderEdit')))).toHaveLength(
      editsBefore,
    );
    expect(shop.fake.state.orders.get(orderId)!.lines[0]!.currentQuantity).toBe(1);
    expect(await shop.total(CARPET)).toBe('189.66');
    expect(shop.shown(CARPET)).toBe(189);

    // What Shopify can edit, it does: a second cut of 2.35 m commits an order edit and books exactly.
    const twice = await api(`/api/v1/orders/${orderId}`, {
      method: 'PATCH',
      body: JSON.stringify({ edits: [{ lineItemId: order.body.data.items[0].lineItemId, quantity: 2 }] }),
    });
    expect(twice.body.error).toBeNull();
    expect(twice.status).toBe(200);
    await shop.settle();
    expect(shop.fake.state.orders.get(orderId)!.lines[0]!.currentQuantity).toBe(2);
    expect(await shop.total(CARPET)).toBe('179.32');
    expect(shop.shown(CARPET)).toBe(179);
  });
});
