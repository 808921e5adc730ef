import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
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
import { newCart, send, svcData } from './support.js';

const MEASURED_2_5_KG = { _svc_data: svcData('weight', 2.5, 'kg') };

/** A shop whose variant 2001 sells at 42.00 per kg in pills: 1 kg at its own 39.00, 0.5 kg unpriced. */
function presetShop() {
  const fixture = shopFixture();
  fixture.products![0]!.variants![0] = {
    ...variantFixture('2001', 'kg', 1),
    price: '42.00',
    settings: {
      onlineStore: {
        displayStyle: 'pills',
        presets: [{ value: 1, label: '1 kg bag', price: '39.00' }, { value: 0.5 }],
      },
    },
  };
  return fixture;
}

describe.each(testDrivers())('sandbox carts on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    ({ key } = await seedShop(db));
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const add = (token: string, items: unknown[], withKey = key) =>
    send(server, withKey, 'POST', `/sandbox/carts/${token}/add`, { items });

  describe('happy', () => {
    it('when a cart is created, then it is 201 with an empty cart in the envelope and at the top level', async () => {
      const res = await send(server, key, 'POST', '/sandbox/carts');

      expect(res.status).toBe(201);
      const cart = {
        token: expect.stringMatching(/^[0-9a-f]{32}$/),
        items: [],
        item_count: 0,
        total_price: 0,
        currency: 'USD',
      };
      expect(res.body).toEqual({
        success: true,
        data: cart,
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
        ...cart,
      });
      expect(res.body.data.token).toBe(res.body.token);
    });

    it('when a measured line is added, then it costs measurement ÷ unit value × price, in cents', async () => {
      const token = await newCart(server, key);

      const res = await add(token, [{ id: 2001, quantity: 2, properties: MEASURED_2_5_KG }]);

      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        {
          key: expect.stringMatching(/^2001:[0-9a-f]{32}$/),
          variant_id: 2001,
          product_id: 1001,
          quantity: 2,
          properties: MEASURED_2_5_KG,
          price: 6000,
          line_price: 12000,
        },
      ]);
      expect(res.body).toMatchObject({ token, item_count: 2, total_price: 12000, currency: 'USD' });
      expect(res.body.data).toEqual({
        token,
        items: res.body.items,
        item_count: 2,
        total_price: 12000,
        currency: 'USD',
      });
    });

    it('when a line of a variant sold per 100 g measures 250 g, then it costs 2.5 × the price', async () => {
      const token = await newCart(server, key);

      const res = await add(token, [
        { id: '2002', quantity: 1, properties: { _svc_data: svcData('weight', 250, 'g') } },
      ]);

      expect(res.body.items[0]).toMatchObject({ variant_id: 2002, price: 6000, line_price: 6000 });
    });

    it('when the id is a numeric string or a global id, then it names the same variant', async () => {
      const token = await newCart(server, key);

      const res = await add(token, [
        { id: '2003', quantity: 1 },
        { id: 'gid://shopify/ProductVariant/2001', quantity: 1, properties: { note: 'a' } },
      ]);

      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { variant_id: number }) => i.variant_id)).toEqual([2003, 2001]);
    });

    it('when properties are a list of name and value, then the line shows them as an object in their order', async () => {
      const token = await newCart(server, key);

      const res = await add(token, [
        {
          id: 2001,
          quantity: 1,
          properties: [
            { name: 'Gift', value: 'yes' },
            { name: '_svc_data', value: svcData('weight', 2.5, 'kg') },
          ],
        },
      ]);

      expect(res.body.items[0].properties).toEqual({ Gift: 'yes', ...MEASURED_2_5_KG });
      expect(Object.keys(res.body.items[0].properties)).toEqual(['Gift', '_svc_data']);
      expect(res.body.items[0].price).toBe(6000);
    });

    it('when an unmeasured line or one whose _svc_data is invalid for its variant is added, then it costs the variant price', async () => {
      const token = await newCart(server, key);

      const res = await add(token, [
        { id: 2001, quantity: 1 },
        { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 2.5, 'g') } },
        { id: 2001, quantity: 1, properties: { _svc_data: '{"measurement":' } },
      ]);

      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { price: number }) => i.price)).toEqual([2400, 2400, 2400]);
    });

    it('when a line measures a preset with its own price, then it costs that price, and other measures cost their share of the variant price', async () => {
      const shop = await seedShop(db, presetShop());
      const token = await newCart(server, shop.key);

      const res = await add(
        token,
        [
          { id: 2001, quantity: 2, properties: { _svc_data: svcData('weight', 1, 'kg') } },
          { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 0.5, 'kg') } },
          { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 0.75, 'kg') } },
          { id: 2001, quantity: 1 },
        ],
        shop.key,
      );

      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { price: number; line_price: number }) => [i.price, i.line_price])).toEqual([
        [3900, 7800], // the 1 kg preset's own 39.00
        [2100, 2100], // the 0.5 kg preset has no price: 0.5 × 42.00
        [3150, 3150], // no preset: 0.75 × 42.00
        [4200, 4200], // not measured: the variant price
      ]);
      expect(res.body.total_price).toBe(17250);
    });

    it('when an equal line is added to a shop that merges matching lines, then the quantities add on one line', async () => {
      const token = await newCart(server, key);
      const first = await add(token, [{ id: 2001, quantity: 1, properties: { a: '1', b: '2' } }]);

      const res = await add(token, [
        {
          id: '2001',
          quantity: 2,
          properties: [
            { name: 'b', value: '2' },
            { name: 'a', value: '1' },
          ],
        },
      ]);

      expect(res.body.items).toHaveLength(1);
      expect(res.body.items[0]).toMatchObject({ key: first.body.items[0].key, quantity: 3, line_price: 7200 });
    });

    it('when an item merges into a line worth 3.6e15 cents, then the total counts that line once, at its new quantity', async () => {
      // 1.5e12 kg at 24.00: two on one line is 7.2e15 cents, under 2^53 − 1; counted twice it would pass it.
      const huge = { _svc_data: svcData('weight', 1.5e12, 'kg') };
      const token = await newCart(server, key);

      const once = await add(token, [
        { id: 2001, quantity: 1, properties: huge },
        { id: 2001, quantity: 1, properties: huge },
      ]);
      expect(once.status).toBe(200);
      expect(once.body.items.map((i: { quantity: number }) => i.quantity)).toEqual([2]);
      expect(once.body.total_price).toBe(7_200_000_000_000_000);

      const other = await newCart(server, key);
      await add(other, [{ id: 2001, quantity: 1, properties: huge }]);
      const again = await add(other, [{ id: 2001, quantity: 1, properties: huge }]);
      expect(again.status).toBe(200);
      expect(again.body.total_price).toBe(7_200_000_000_000_000);
    });

    it('when lines differ in properties, then they stay apart even when the shop merges', async () => {
      const token = await newCart(server, key);

      const res = await add(token, [
        { id: 2001, quantity: 1, properties: { a: '1' } },
        { id: 2001, quantity: 1, properties: { a: '2' } },
        { id: 2001, quantity: 1 },
      ]);

      expect(res.body.items).toHaveLength(3);
    });

    it('when the shop does not merge matching lines, then an equal line is a new line with its own key', async () => {
      const other = await seedShop(db, shopFixture({ settings: { mergeMatchingLineItems: false } }));
      const token = await newCart(server, other.key);

      await add(token, [{ id: 2001, quantity: 1 }], other.key);
      const res = await add(token, [{ id: 2001, quantity: 1 }], other.key);

      expect(res.body.items).toHaveLength(2);
      expect(res.body.items[0].key).not.toBe(res.body.items[1].key);
    });

    it('when a measured price falls half-way between two cents, then it is rounded half to even', async () => {
      const fixture = shopFixture();
      fixture.products![0]!.variants![0] = { ...variantFixture('2001', 'kg', 1), price: '0.10' };
      const shop = await seedShop(db, fixture);
      const token = await newCart(server, shop.key);

      // 0.25 kg × 0.10 = 0.025: half-even gives 0.02 (half-up would give 0.03).
      const res = await add(
        token,
        [{ id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 0.25, 'kg') } }],
        shop.key,
      );

      expect(res.body.items[0].price).toBe(2);
    });

    it('when the shop sells in a currency without minor unit, then prices are whole yen', async () => {
      const fixture = shopFixture({ currency: 'JPY' });
      fixture.products![0]!.variants![0] = { ...variantFixture('2001', 'kg', 1), price: '2400' };
      const shop = await seedShop(db, fixture);
      const token = await newCart(server, shop.key);

      const res = await add(token, [{ id: 2001, quantity: 1, properties: MEASURED_2_5_KG }], shop.key);

      expect(res.body).toMatchObject({ currency: 'JPY', total_price: 6000, items: [{ price: 6000 }] });
    });

    it('when a line is changed, then its quantity is set, and 0 removes it', async () => {
      const token = await newCart(server, key);
      const added = await add(token, [
        { id: 2001, quantity: 1 },
        { id: 2002, quantity: 1 },
      ]);
      const [first, second] = added.body.items;

      const changed = await send(server, key, 'POST', `/sandbox/carts/${token}/change`, {
        key: first.key,
        quantity: 5,
      });
      expect(changed.status).toBe(200);
      expect(changed.body.items[0]).toMatchObject({ key: first.key, quantity: 5, line_price: 12000 });

      const removed = await send(server, key, 'POST', `/sandbox/carts/${token}/change`, {
        key: second.key,
        quantity: 0,
      });
      expect(removed.body.items.map((i: { key: string }) => i.key)).toEqual([first.key]);
      expect(removed.body.item_count).toBe(5);
    });

    it('when a cart is read, then it shows what was added', async () => {
      const token = await newCart(server, key);
      const added = await add(token, [{ id: 2001, quantity: 1, properties: MEASURED_2_5_KG }]);

      const res = await call(server, `/sandbox/carts/${token}`, { key });

      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(added.body.data);
      expect(res.body.items).toEqual(added.body.items);
    });

    it('when 250 lines are in one cart, then they are accepted', async () => {
      const token = await newCart(server, key);
      const items = Array.from({ length: 250 }, (_, i) => ({ id: 2001, quantity: 1, properties: { n: String(i) } }));

      const res = await add(token, items);

      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(250);
    });
  });

  describe('error', () => {
    it('when the cart token is unknown, then reading, adding, changing and checking out are 404', async () => {
      const token = 'f'.repeat(32);
      for (const res of [
        await call(server, `/sandbox/carts/${token}`, { key }),
        await add(token, [{ id: 2001, quantity: 1 }]),
        await send(server, key, 'POST', `/sandbox/carts/${token}/change`, { key: 'x', quantity: 1 }),
        await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {}),
      ]) {
        expect(expectErrorEnvelope(res, 404, 'not_found').details).toMatchObject({ resource: 'cart', id: token });
      }
    });

    it('when the token is not a token, then it is 400 on the path', async () => {
      const res = await call(server, '/sandbox/carts/not%20a%20token', { key });

      expect(expectErrorEnvelope(res, 400, 'bad_request').details).toMatchObject({ in: 'params' });
    });

    it('when a variant is unknown, then it is 400 at its id and nothing is added', async () => {
      const token = await newCart(server, key);

      const res = await add(token, [
        { id: 2001, quantity: 1 },
        { id: 2999, quantity: 1 },
      ]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        { path: '/items/1/id', message: "no variant '2999' in this shop" },
      ]);
      expect((await call(server, `/sandbox/carts/${token}`, { key })).body.items).toEqual([]);
    });

    it.each([
      ['0', 0],
      ['negative', -1],
      ['fractional', 1.5],
      ['a string', '1'],
      ['over 32 bits', 2147483648],
    ])('when the quantity is %s, then it is 400 at the quantity', async (_name, quantity) => {
      const token = await newCart(server, key);

      const res = await add(token, [{ id: 2001, quantity }]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        expect.objectContaining({ path: '/items/0/quantity' }),
      ]);
    });

    it.each([
      ['a number in an object', { a: 1 }, '/items/0/properties'],
      ['null in an object', { a: null }, '/items/0/properties'],
      ['a number in a list', [{ name: 'a', value: 1 }], '/items/0/properties'],
      ['a list entry without value', [{ name: 'a' }], '/items/0/properties'],
    ])('when a property value is %s, then it is 400', async (_name, properties, path) => {
      const token = await newCart(server, key);

      const res = await add(token, [{ id: 2001, quantity: 1, properties }]);

      const issues = expectErrorEnvelope(res, 400, 'bad_request').details.errors as { path: string }[];
      expect(issues.length).toBeGreaterThan(0);
      expect(issues.every((issue) => issue.path.startsWith(path))).toBe(true);
    });

    it('when a property name is given twice in a list, then it is 400 at the second', async () => {
      const token = await newCart(server, key);

      const res = await add(token, [
        {
          id: 2001,
          quantity: 1,
          properties: [
            { name: 'a', value: '1' },
            { name: 'a', value: '2' },
          ],
        },
      ]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        { path: '/items/0/properties/1/name', message: "property 'a' is given twice" },
      ]);
    });

    it.each([
      ['a product gid', 'gid://shopify/Product/2001'],
      ['zero', 0],
      ['a fraction', 2001.5],
      ['text', 'abc'],
    ])('when the id is %s, then it is 400 at the id', async (_name, id) => {
      const token = await newCart(server, key);

      const res = await add(token, [{ id, quantity: 1 }]);

      const issues = expectErrorEnvelope(res, 400, 'bad_request').details.errors as { path: string }[];
      expect(issues.map((i) => i.path)).toContain('/items/0/id');
    });

    it('when an item has an unknown field or none is sent, then it is 400', async () => {
      const token = await newCart(server, key);

      const unknown = await add(token, [{ id: 2001, quantity: 1, variant: 2 }]);
      expect(expectErrorEnvelope(unknown, 400, 'bad_request').details.errors).toEqual([
        { path: '/items/0/variant', message: "unknown field 'variant'" },
      ]);
      expectErrorEnvelope(await add(token, []), 400, 'bad_request');
    });

    it('when a cart would hold more than 250 lines, then it is 400 at the first item that does not fit', async () => {
      const token = await newCart(server, key);
      const items = Array.from({ length: 250 }, (_, i) => ({ id: 2001, quantity: 1, properties: { n: String(i) } }));
      await add(token, items);

      const res = await add(token, [
        { id: 2001, quantity: 1, properties: { n: '0' } },
        { id: 2002, quantity: 1 },
      ]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        { path: '/items/1', message: 'a cart holds at most 250 lines' },
      ]);
      expect((await call(server, `/sandbox/carts/${token}`, { key })).body.items).toHaveLength(250);
    });

    it('when 251 items are sent at once, then it is 400 at the items', async () => {
      const token = await newCart(server, key);

      const res = await add(
        token,
        Array.from({ length: 251 }, () => ({ id: 2001, quantity: 1 })),
      );

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        expect.objectContaining({ path: '/items' }),
      ]);
    });

    it('when a merged quantity would pass 32 bits, then it is 400 at the quantity', async () => {
      const token = await newCart(server, key);
      await add(token, [{ id: 2001, quantity: 2147483647 }]);

      const res = await add(token, [{ id: 2001, quantity: 1 }]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        expect.objectContaining({ path: '/items/0/quantity' }),
      ]);
    });

    it('when a line of 2147483647 × 1e300 kg is added, then it is 400 at its _svc_data, and the cart reads 200 as it was', async () => {
      const token = await newCart(server, key);
      const before = await add(token, [{ id: 2001, quantity: 1, properties: MEASURED_2_5_KG }]);

      const res = await add(token, [
        { id: 2001, quantity: 2147483647, properties: { _svc_data: svcData('weight', 1e300, 'kg') } },
      ]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        {
          path: '/items/0/properties/_svc_data',
          message: "the line's unit price would be more than 90071992547409.91 USD, the most the cart can show exactly",
        },
      ]);
      const read = await call(server, `/sandbox/carts/${token}`, { key });
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(before.body.data);
    });

    it.each([
      ['0.1234567891', 'has more than 9 decimal places; Tare keeps 9 decimal places of a unit'],
      ['1e-12', 'has more than 9 decimal places; Tare keeps 9 decimal places of a unit'],
    ])(
      'when a line states %s kg, a measure Tare cannot book exactly, then it is 400 at its _svc_data and nothing is added',
      async (value, why) => {
        const token = await newCart(server, key);
        const res = await add(token, [
          { id: 2001, quantity: 1, properties: MEASURED_2_5_KG },
          { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', Number(value), 'kg') } },
        ]);
        expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
          {
            path: '/items/1/properties/_svc_data',
            message: `Tare cannot book this measurement: ${Number(value)} kg ${why}`,
          },
        ]);
        expect((await call(server, `/sandbox/carts/${token}`, { key })).body.items).toEqual([]);
      },
    );

    it('when a line price or the cart total would pass what a JSON integer holds exactly, then it is 400 at the item and nothing is added', async () => {
      const token = await newCart(server, key);
      // 1.5e12 kg at 24.00 is 3.6e15 cents a line: two fit, a third takes the total past 2^53 − 1.
      const huge = (n: string) => [
        { name: 'n', value: n },
        { name: '_svc_data', value: svcData('weight', 1.5e12, 'kg') },
      ];

      const res = await add(token, [
        { id: 2001, quantity: 1, properties: huge('a') },
        { id: 2001, quantity: 1, properties: huge('b') },
        { id: 2001, quantity: 1, properties: huge('c') },
        { id: 2001, quantity: 3, properties: huge('d') },
      ]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        {
          path: '/items/2',
          message: "the cart's total would be more than 90071992547409.91 USD, the most the cart can show exactly",
        },
        {
          path: '/items/3/quantity',
          message:
            "the line's price (unit price × quantity) would be more than 90071992547409.91 USD, the most the cart can show exactly",
        },
      ]);
      expect((await call(server, `/sandbox/carts/${token}`, { key })).body.items).toEqual([]);
    });

    it('when a change would take a line price past what a JSON integer holds exactly, then it is 400 at the quantity and the line is kept', async () => {
      const token = await newCart(server, key);
      const added = await add(token, [
        { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 1e9, 'kg') } },
      ]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/change`, {
        key: added.body.items[0].key,
        quantity: 2147483647,
      });

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        {
          path: '/quantity',
          message:
            "the line's price (unit price × quantity) would be more than 90071992547409.91 USD, the most the cart can show exactly",
        },
      ]);
      const read = await call(server, `/sandbox/carts/${token}`, { key });
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(added.body.data);
    });

    it('when a change names an unknown key or a negative quantity, then it is 400 at that field', async () => {
      const token = await newCart(server, key);

      const unknown = await send(server, key, 'POST', `/sandbox/carts/${token}/change`, {
        key: '2001:abc',
        quantity: 1,
      });
      expect(expectErrorEnvelope(unknown, 400, 'bad_request').details.errors).toEqual([
        { path: '/key', message: "no line with key '2001:abc' in this cart" },
      ]);
      const negative = await send(server, key, 'POST', `/sandbox/carts/${token}/change`, {
        key: '2001:abc',
        quantity: -1,
      });
      expect(expectErrorEnvelope(negative, 400, 'bad_request').details.errors).toEqual([
        expect.objectContaining({ path: '/quantity' }),
      ]);
    });

    it('when the body is not JSON, then it is 415', async () => {
      const token = await newCart(server, key);

      const res = await call(server, `/sandbox/carts/${token}/add`, {
        key,
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'items',
      });

      expectErrorEnvelope(res, 415, 'unsupported_media_type');
    });
  });

  describe('security', () => {
    it('when no key is sent, then every cart endpoint is 401', async () => {
      const token = await newCart(server, key);
      for (const [method, path] of [
        ['POST', '/sandbox/carts'],
        ['GET', `/sandbox/carts/${token}`],
        ['POST', `/sandbox/carts/${token}/add`],
        ['POST', `/sandbox/carts/${token}/change`],
        ['POST', `/sandbox/carts/${token}/checkout`],
      ] as const) {
        const res = await call(server, path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: method === 'GET' ? undefined : '{}',
        });
        expectErrorEnvelope(res, 401, 'unauthorized');
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
    });

    it("when another shop's key names the cart, then it is 404 and the cart is untouched", async () => {
      const token = await newCart(server, key);
      await add(token, [{ id: 2001, quantity: 1 }]);
      const other = await seedShop(db);

      for (const res of [
        await call(server, `/sandbox/carts/${token}`, { key: other.key }),
        await add(token, [{ id: 2001, quantity: 1 }], other.key),
        await send(server, other.key, 'POST', `/sandbox/carts/${token}/checkout`, {}),
      ]) {
        expectErrorEnvelope(res, 404, 'not_found');
      }
      expect((await call(server, `/sandbox/carts/${token}`, { key })).body.items).toMatchObject([{ quantity: 1 }]);
    });

    it('when a variant exists only in another shop, then adding it is 400 as for an unknown variant', async () => {
      const fixture = shopFixture();
      fixture.products![0]!.variants!.push(variantFixture('2777', 'kg', 1));
      await seedShop(db, fixture);
      const token = await newCart(server, key);

      const res = await add(token, [{ id: 2777, quantity: 1 }]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors[0].path).toBe('/items/0/id');
    });

    it('when the key is over its rate limit, then the sandbox is 429 with the budget it shares with the API', async () => {
      const limited = await seedShop(
        db,
        shopFixture({ settings: { rateLimit: { enabled: true, requestsPerMinute: 2 } } }),
      );

      expect((await call(server, '/api/v1/app-settings', { key: limited.key })).status).toBe(200);
      expect((await send(server, limited.key, 'POST', '/sandbox/carts')).status).toBe(201);
      const res = await send(server, limited.key, 'POST', '/sandbox/carts');

      expectErrorEnvelope(res, 429, 'rate_limited');
      expect(res.headers.get('retry-after')).toEqual(expect.any(String));
    });
  });
});
