import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ORDER_EDIT_BEGIN,
  ORDER_EDIT_COMMIT,
  ORDER_CUSTOMER,
  ORDER_EDIT_SET_QUANTITY,
  ORDERS_CHANGED_SINCE,
  READ_ORDER,
  REFUND_LINE_ITEMS,
} from '../../src/platform/shopify/operations.js';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { adminRequest, startWebhookReceiver } from '../support/fake-shopify/client.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';

let fake: FakeShopify;
const clock = { ms: Date.parse('2026-05-01T10:00:00Z') };

beforeEach(async () => {
  fake = await startFakeShopify({ now: () => clock.ms });
  addCoffeeShop(fake);
});

afterEach(async () => {
  await fake.close();
});

function place(quantity: number) {
  return fake.placeOrder({
    locationId: '70001',
    lines: [{ variantId: '2001', quantity, price: '20.00', customAttributes: [{ key: '_svc_data', value: 'x' }] }],
  });
}

async function readOrder(id: string) {
  const { body } = await adminRequest(fake, READ_ORDER, { id: `gid://shopify/Order/${id}` });
  return body.data.order;
}

describe('who placed an order', () => {
  const customerOf = async (id: string) =>
    (await adminRequest(fake, ORDER_CUSTOMER, { id: `gid://shopify/Order/${id}` })).body;

  it('when an order has a customer, then Order.name, Order.email and Customer.displayName read as Shopify documents them', async () => {
    const id = fake.placeOrder({
      locationId: '70001',
      lines: [{ variantId: '2001', quantity: 1 }],
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    });
    const nameless = fake.placeOrder({
      locationId: '70001',
      lines: [{ variantId: '2001', quantity: 1 }],
      customer: { email: 'only@example.com' },
    });
    const guest = fake.placeOrder({ locationId: '70001', lines: [{ variantId: '2001', quantity: 1 }] });
    expect((await readOrder(id)).name).toBe('#1001');
    expect((await customerOf(id)).data.order).toEqual({
      email: 'ada@example.com',
      customer: { displayName: 'Ada Lovelace' },
    });
    // displayName falls back to the e-mail when the customer has no name.
    expect((await customerOf(nameless)).data.order.customer).toEqual({ displayName: 'only@example.com' });
    expect((await customerOf(guest)).data.order).toEqual({ email: null, customer: null });
  });

  it('when the app may not read protected customer data, then those fields are ACCESS_DENIED and the rest of the answer stands', async () => {
    fake.state.protectedCustomerData = false;
    const id = fake.placeOrder({
      locationId: '70001',
      lines: [{ variantId: '2001', quantity: 1 }],
      customer: { firstName: 'Ada', email: 'ada@example.com' },
    });
    const body = await customerOf(id);
    expect(body.data.order).toEqual({ email: null, customer: null });
    expect(
      body.errors.map((e: { extensions: { code: string }; path: string[] }) => [e.extensions.code, e.path]),
    ).toEqual([
      ['ACCESS_DENIED', ['order', 'email']],
      ['ACCESS_DENIED', ['order', 'customer']],
    ]);
    // The order itself reads as before.
    expect((await readOrder(id)).name).toBe('#1001');
    // A refusal is Shopify's answer, not a query that drifted from its schema.
    expect(fake.invalidQueries).toEqual([]);
  });
});

describe('orders and stock', () => {
  it('when an order is placed, then it reads back with its lines and location, and available dropped', async () => {
    const id = place(3);
    const order = await readOrder(id);
    expect(order).toMatchObject({
      id: `gid://shopify/Order/${id}`,
      cancelledAt: null,
      closed: false,
      retailLocation: { id: 'gid://shopify/Location/70001' },
      fulfillmentOrders: { nodes: [{ assignedLocation: { location: { id: 'gid://shopify/Location/70001' } } }] },
      lineItems: {
        nodes: [
          {
            quantity: 3,
            currentQuantity: 3,
            unfulfilledQuantity: 3,
            variant: { id: 'gid://shopify/ProductVariant/2001' },
            product: { id: 'gid://shopify/Product/1001' },
            customAttributes: [{ key: '_svc_data', value: 'x' }],
            originalUnitPriceSet: { shopMoney: { amount: '20.00' } },
          },
        ],
        pageInfo: { hasNextPage: false },
      },
      refunds: [],
    });
    expect(fake.available('70001', '2001')).toBe(7);
  });

  it('when lines are refunded, then return restocks and no_restock does not, and the refund reads back', async () => {
    const id = place(3);
    const lineId = fake.state.orders.get(id)!.lines[0]!.id;
    fake.refund(id, { lines: [{ lineItemId: lineId, quantity: 1, restockType: 'return' }] });
    fake.refund(id, { lines: [{ lineItemId: lineId, quantity: 1, restockType: 'no_restock' }] });
    expect(fake.available('70001', '2001')).toBe(8);
    const order = await readOrder(id);
    expect(order.lineItems.nodes[0].currentQuantity).toBe(1);
    const refund = await adminRequest(fake, REFUND_LINE_ITEMS, { id: order.refunds[1].id });
    expect(refund.body.data.node.refundLineItems.nodes).toEqual([
      { lineItem: { id: `gid://shopify/LineItem/${lineId}` }, quantity: 1, restockType: 'NO_RESTOCK' },
    ]);
  });

  it('when an order is cancelled with restock, then what was left comes back; without, nothing does', async () => {
    const restocked = place(2);
    const kept = place(3);
    fake.cancelOrder(restocked, { restock: true });
    fake.cancelOrder(kept, { restock: false });
    expect(fake.available('70001', '2001')).toBe(7);
    expect((await readOrder(restocked)).cancelledAt).toBe('2026-05-01T10:00:00.000Z');
  });

  it('when orders change, then updatedAt moves and orders(query: updated_at) finds them, oldest change first', async () => {
    const first = place(1);
    clock.ms += 60_000;
    const second = place(1);
    clock.ms += 60_000;
    fake.cancelOrder(first, { restock: true });
    const since = new Date(clock.ms - 90_000).toISOString();
    const { body } = await adminRequest(fake, ORDERS_CHANGED_SINCE, { query: `updated_at:>='${since}'` });
    expect(body.data.orders.nodes.map((n: { id: string }) => n.id)).toEqual([
      `gid://shopify/Order/${second}`,
      `gid://shopify/Order/${first}`,
    ]);
  });
});

describe('order editing', () => {
  it('when an edit is staged, then nothing changes until commit, which applies it and sends orders/edited', async () => {
    const receiver = await startWebhookReceiver();
    fake.webhookAddress = receiver.url;
    const id = place(3);
    const lineId = fake.state.orders.get(id)!.lines[0]!.id;
    const begin = await adminRequest(fake, ORDER_EDIT_BEGIN, { id: `gid://shopify/Order/${id}` });
    const calculatedId = begin.body.data.orderEditBegin.calculatedOrder.id;
    const set = await adminRequest(fake, ORDER_EDIT_SET_QUANTITY, {
      id: calculatedId,
      lineItemId: `gid://shopify/CalculatedLineItem/${lineId}`,
      quantity: 1,
      restock: true,
    });
    expect(set.body.data.orderEditSetQuantity.calculatedLineItem.quantity).toBe(1);
    const addVariant = `mutation Add($id: ID!, $variantId: ID!) {
      orderEditAddVariant(id: $id, variantId: $variantId, quantity: 2) { calculatedLineItem { id quantity } userErrors { message } }
    }`;
    await adminRequest(fake, addVariant, { id: calculatedId, variantId: 'gid://shopify/ProductVariant/2002' });
    expect([(await readOrder(id)).lineItems.nodes.length, fake.available('70001', '2001')]).toEqual([1, 7]);

    await fake.webhooks.settled();
    receiver.received.length = 0;
    const commit = await adminRequest(fake, ORDER_EDIT_COMMIT, {
      id: calculatedId,
      notifyCustomer: false,
      staffNote: 'weighed',
    });
    expect(commit.body.data.orderEditCommit.userErrors).toEqual([]);
    const order = await readOrder(id);
    expect(order.lineItems.nodes.map((l: { currentQuantity: number }) => l.currentQuantity)).toEqual([1, 2]);
    expect([fake.available('70001', '2001'), fake.available('70001', '2002')]).toEqual([9, 8]);

    await fake.webhooks.settled();
    const edited = receiver.received.find((r) => r.headers['x-shopify-topic'] === 'orders/edited')!;
    expect(edited.body.order_edit).toMatchObject({
      order_id: Number(id),
      staff_note: 'weighed',
      line_items: { removals: [{ id: Number(lineId), delta: 2 }], additions: [{ delta: 2 }] },
    });
    const again = await adminRequest(fake, ORDER_EDIT_COMMIT, { id: calculatedId });
    expect(again.body.data.orderEditCommit.userErrors[0].message).toMatch(/already been committed/);
    await receiver.close();
  });

  it('when the merchant edits an order in Shopify, then stock follows and orders/edited is sent', async () => {
    const id = place(3);
    const lineId = fake.state.orders.get(id)!.lines[0]!.id;
    fake.editOrderOnShopify(id, { setQuantity: [{ lineItemId: lineId, quantity: 5 }] });
    expect(fake.available('70001', '2001')).toBe(5);
    expect((await readOrder(id)).lineItems.nodes[0].currentQuantity).toBe(5);
  });
});
