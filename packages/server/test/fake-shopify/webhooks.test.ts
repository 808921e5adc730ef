import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { adminRequest, startWebhookReceiver } from '../support/fake-shopify/client.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';

let fake: FakeShopify;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeEach(async () => {
  fake = await startFakeShopify({ clientSecret: 'hush', inventoryLevelWebhooks: 'merchant-only' });
  addCoffeeShop(fake);
  receiver = await startWebhookReceiver();
  fake.webhookAddress = receiver.url;
});

afterEach(async () => {
  await fake.close();
  await receiver.close();
});

const order = (quantity = 2) => ({
  locationId: '70001',
  lines: [{ variantId: '2001', quantity, customAttributes: { _svc_data: '{"v":1}' } }],
});

describe('webhook deliveries', () => {
  it('when an order is placed, then orders/create carries the REST order, signed with the client secret', async () => {
    const orderId = fake.placeOrder(order());
    await fake.webhooks.settled();
    const [delivery] = receiver.received;
    const expected = createHmac('sha256', 'hush').update(delivery!.rawBody, 'utf8').digest('base64');
    expect(delivery!.headers).toMatchObject({
      'x-shopify-topic': 'orders/create',
      'x-shopify-hmac-sha256': expected,
      'x-shopify-shop-domain': 'tare-test.myshopify.com',
      'x-shopify-api-version': '2026-04',
      'content-type': 'application/json',
    });
    expect(delivery!.headers['x-shopify-webhook-id']).toBeTruthy();
    expect(delivery!.headers['x-shopify-event-id']).toBeTruthy();
    expect(delivery!.headers['x-shopify-triggered-at']).toBeTruthy();
    expect(delivery!.body).toMatchObject({
      id: Number(orderId),
      location_id: 70001,
      line_items: [{ variant_id: 2001, quantity: 2, properties: [{ name: '_svc_data', value: '{"v":1}' }] }],
    });
    expect(fake.available('70001', '2001')).toBe(8);
  });

  it('when the other header family is asked for, then the headers are lowercase shopify-*', async () => {
    fake.webhooks.headerFamily = 'shopify';
    fake.placeOrder(order());
    await fake.webhooks.settled();
    const headers = receiver.received[0]!.headers;
    expect(headers['shopify-topic']).toBe('orders/create');
    expect(headers['shopify-hmac-sha256']).toBe(fake.sign(receiver.received[0]!.rawBody));
    expect(headers['shopify-webhook-id']).toBeTruthy();
    expect(headers['x-shopify-topic']).toBeUndefined();
  });

  it('when deliveries are held, then release sends them duplicated and in reverse order', async () => {
    fake.webhooks.hold();
    const id = fake.placeOrder(order());
    fake.merchantSetsStock('70001', '2002', 4);
    fake.cancelOrder(id, { restock: true });
    expect(receiver.received).toHaveLength(0);
    await fake.webhooks.release({ reverse: true, duplicate: 1 });
    expect(receiver.topics()).toEqual([
      'refunds/create',
      'refunds/create',
      'orders/cancelled',
      'orders/cancelled',
      'inventory_levels/update',
      'inventory_levels/update',
      'orders/create',
      'orders/create',
    ]);
    const ids = receiver.received.map((r) => r.headers['x-shopify-webhook-id']);
    expect(ids[0]).toBe(ids[1]);
    expect(receiver.received[4]!.body).toMatchObject({ location_id: 70001, available: 4 });
    expect(receiver.received[0]!.body.refund_line_items[0].restock_type).toBe('cancel');
  });

  it('when the receiver answers 500, then the delivery is retried until it gets a 2xx', async () => {
    receiver.statuses.push(500, 503);
    fake.merchantSetsStock('70001', '2001', 3);
    await fake.webhooks.settled();
    expect(fake.webhooks.delivered.map((d) => [d.attempt, d.status])).toEqual([
      [0, 500],
      [1, 503],
      [2, 200],
    ]);
  });

  it('when a subscription is created through the API, then its topic is delivered to its uri', async () => {
    fake.webhookAddress = undefined;
    const other = await startWebhookReceiver();
    const create = `mutation Subscribe($topic: WebhookSubscriptionTopic!, $uri: String!) {
      webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri, format: JSON }) {
        webhookSubscription { id topic uri }
        userErrors { field message }
      }
    }`;
    const { body } = await adminRequest(fake, create, { topic: 'ORDERS_CREATE', uri: other.url });
    expect(body.data.webhookSubscriptionCreate.webhookSubscription).toMatchObject({
      topic: 'ORDERS_CREATE',
      uri: other.url,
    });
    fake.placeOrder(order(1));
    fake.merchantSetsStock('70001', '2001', 1);
    await fake.webhooks.settled();
    expect(other.topics()).toEqual(['orders/create']);
    await other.close();
  });

  it('when the app is uninstalled, then app/uninstalled is sent and the token stops working', async () => {
    fake.uninstall();
    await fake.webhooks.settled();
    expect(receiver.topics()).toEqual(['app/uninstalled']);
    expect(receiver.received[0]!.body.myshopify_domain).toBe('tare-test.myshopify.com');
    expect((await adminRequest(fake, '{ shop { id } }')).status).toBe(401);
  });

  it('when compliance requests come, then the three topics reach the webhook address', async () => {
    fake.customersDataRequest({ id: '42', email: 'a@example.com', orderIds: ['1'] });
    fake.customersRedact({ id: '42' });
    fake.shopRedact();
    await fake.webhooks.settled();
    expect(receiver.topics()).toEqual(['customers/data_request', 'customers/redact', 'shop/redact']);
    expect(receiver.received[2]!.body).toEqual({ shop_id: expect.any(Number), shop_domain: 'tare-test.myshopify.com' });
  });

  it('when a raw body is sent with a wrong signature, then it arrives as sent', async () => {
    const status = await fake.webhooks.sendRaw({ topic: 'orders/create', body: 'not json', hmac: 'wrong' });
    expect(status).toBe(200);
    expect(receiver.received[0]).toMatchObject({ rawBody: 'not json', headers: { 'x-shopify-hmac-sha256': 'wrong' } });
  });
});
