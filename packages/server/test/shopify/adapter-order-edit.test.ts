/**
 * Order edits through the adapter, on the fake Shopify: quantities and removals are committed in
 * one edit with notifyCustomer and staffNote, restocking Shopify's units; what Shopify's order
 * editing cannot change (a line's measurement, variant or price) is 422 before any edit begins;
 * a refusal after the edit began commits nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import type { LineItemChange, PlatformOrder } from '../../src/platform/gateway.js';
import { editShopifyOrder } from '../../src/platform/shopify/order-edit.js';
import { readShopifyOrder } from '../../src/platform/shopify/orders.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import type { FakeShopify } from '../support/fake-shopify/index.js';
import { GRAMS, KG, LOCATION, shopOnFakeShopify, svcData } from './adapter-fixture.js';

describe.each(testDrivers())('Shopify order edits through the adapter on %s', (driver) => {
  let db: Db;
  let fake: FakeShopify;
  let setup: Awaited<ReturnType<typeof shopOnFakeShopify>>;
  let order: PlatformOrder;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    setup = await shopOnFakeShopify(db);
    fake = setup.fake;
    fake.setAvailable(LOCATION, KG, 20);
    fake.setAvailable(LOCATION, GRAMS, 20);
    const orderId = fake.placeOrder({
      locationId: LOCATION,
      lines: [
        { variantId: KG, quantity: 3, price: '12.50', customAttributes: { _svc_data: svcData(0.625) } },
        { variantId: GRAMS, quantity: 2, price: '2.50', customAttributes: { _svc_data: svcData(100, 'g') } },
      ],
    });
    order = (await readShopifyOrder(setup.admin, orderId))!;
  });
  afterEach(async () => {
    await fake.close();
  });

  const keep = (index: number, over: Partial<Extract<LineItemChange, { remove?: false }>> = {}): LineItemChange => {
    const line = order.lineItems[index]!;
    return {
      lineItemId: line.id,
      variantId: line.variantId,
      quantity: line.quantity,
      price: line.price,
      properties: line.properties,
      ...over,
    };
  };
  const editCalls = () => fake.calls.filter((c) => c.rootFields.some((f) => f.startsWith('orderEdit')));
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the edit should have been refused'),
      (e: unknown) => e as AppError,
    );

  it('when quantities change and a line is removed, then one edit is committed with the note, restocking Shopify', async () => {
    await editShopifyOrder(
      setup.admin,
      order,
      [keep(0, { quantity: 1 }), { lineItemId: order.lineItems[1]!.id, remove: true }],
      {
        notifyCustomer: true,
        staffNote: 'Customer asked for less',
      },
    );
    const edited = (await readShopifyOrder(setup.admin, order.id))!;
    expect(edited.lineItems.map((l) => [l.variantId, l.quantity, l.properties])).toEqual([
      [KG, 1, [{ name: '_svc_data', value: svcData(0.625) }]],
    ]);
    expect(fake.available(LOCATION, KG)).toBe(19);
    expect(fake.available(LOCATION, GRAMS)).toBe(20);
    const commit = fake.calls.find((c) => c.operationName === 'OrderEditCommit')!;
    expect(commit.variables).toMatchObject({ notifyCustomer: true, staffNote: 'Customer asked for less' });
    expect(editCalls().map((c) => c.operationName)).toEqual([
      'OrderEditBegin',
      'OrderEditSetQuantity',
      'OrderEditSetQuantity',
      'OrderEditCommit',
    ]);
  });

  it('when the _svc_data is only written back with other spacing, then it is no change of properties', async () => {
    const respaced = JSON.stringify(JSON.parse(svcData(0.625)), null, 1);
    await editShopifyOrder(
      setup.admin,
      order,
      [keep(0, { quantity: 4, properties: [{ name: '_svc_data', value: respaced }] })],
      {
        notifyCustomer: false,
      },
    );
    expect((await readShopifyOrder(setup.admin, order.id))!.lineItems[0]!.quantity).toBe(4);
  });

  it('when an edit changes a line measurement, then it is 422 naming _svc_data and no edit begins', async () => {
    const error = await refusal(
      editShopifyOrder(
        setup.admin,
        order,
        [keep(1, { quantity: 1 }), keep(0, { price: '20.00', properties: [{ name: '_svc_data', value: svcData(1) }] })],
        { notifyCustomer: false },
      ),
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'unprocessable',
      status: 422,
      details: { lineItemId: order.lineItems[0]!.id },
    });
    expect(error.message).toContain('_svc_data');
    expect(editCalls()).toEqual([]);
    expect((await readShopifyOrder(setup.admin, order.id))!.lineItems.map((l) => l.quantity)).toEqual([3, 2]);
  });

  it('when an edit moves a line to another variant, then it is 422 and no edit begins', async () => {
    const error = await refusal(
      editShopifyOrder(setup.admin, order, [keep(0, { variantId: GRAMS })], { notifyCustomer: false }),
    );
    expect(error).toMatchObject({ code: 'unprocessable' });
    expect(error.message).toContain(`variant ${GRAMS}`);
    expect(editCalls()).toEqual([]);
  });

  it('when an edit changes only a unit price, then it is 422 naming both prices and no edit begins', async () => {
    const error = await refusal(
      editShopifyOrder(setup.admin, order, [keep(0, { price: '13.00' })], { notifyCustomer: false }),
    );
    expect(error.message).toContain('12.5');
    expect(error.message).toContain('13.00');
    expect(editCalls()).toEqual([]);
  });

  it('when Shopify refuses a quantity after the edit began, then it is 422 and nothing is committed', async () => {
    const unknownLine = { ...order, lineItems: [...order.lineItems, { ...order.lineItems[0]!, id: '424242' }] };
    const error = await refusal(
      editShopifyOrder(setup.admin, unknownLine, [keep(0, { quantity: 1 }), { lineItemId: '424242', remove: true }], {
        notifyCustomer: false,
      }),
    );
    expect(error).toMatchObject({ code: 'unprocessable' });
    expect(editCalls().map((c) => c.operationName)).not.toContain('OrderEditCommit');
    expect((await readShopifyOrder(setup.admin, order.id))!.lineItems.map((l) => l.quantity)).toEqual([3, 2]);
    expect(fake.available(LOCATION, KG)).toBe(17);
  });
});
