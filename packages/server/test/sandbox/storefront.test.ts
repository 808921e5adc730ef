import { variantMeasurementConfig } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { svcData, visitor } from './support.js';

// PRODUCT.md §18: the sandbox storefront, a sandbox shop's product pages and Shopify's Ajax Cart
// API over its sandbox carts, without an API key.
const storefrontShop = () => shopFixture({ settings: { mergeMatchingLineItems: true, storefront: { enabled: true } } });

const measured = (value: number) => ({
  id: 2001,
  quantity: 1,
  properties: { _svc_data: svcData('weight', value, 'kg') },
});

describe.each(testDrivers())('sandbox storefront on $name', ({ create }) => {
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
    it('when 1.25 kg is added with cart/add.js, then the cart cookie holds a cart that cart.js shows priced 1.25 × 24.00, in Shopify’s shape', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      const browser = visitor(server, domain);

      const added = await browser.add([measured(1.25)]);
      expect(added.status).toBe(200);
      expect(browser.cookie).toMatch(/^cart=[0-9a-f]{32}$/);
      expect(added.headers.get('set-cookie')).toMatch(/Path=\/sandbox\/storefront\/[^/]+\/; HttpOnly; SameSite=Lax/);
      expect(added.body.items).toHaveLength(1);
      expect(added.body.items[0]).toMatchObject({
        id: 2001,
        variant_id: 2001,
        product_id: 1001,
        quantity: 1,
        price: 3000,
        line_price: 3000,
        final_line_price: 3000,
        product_title: 'Coffee beans',
        variant_title: 'Variant 2001',
      });

      const cart = await browser.request('cart.js');
      expect(cart.status).toBe(200);
      expect(cart.body).toMatchObject({
        token: browser.cookie!.slice('cart='.length),
        item_count: 1,
        total_price: 3000,
        original_total_price: 3000,
        items_subtotal_price: 3000,
        total_discount: 0,
        currency: 'USD',
      });
      expect(cart.body.items[0].properties._svc_data).toBe(svcData('weight', 1.25, 'kg'));
    });

    it('when the same line is added again, then add.js answers the merged line and change.js sets or removes it', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      const browser = visitor(server, domain);
      await browser.add([measured(0.5)]);
      const again = await browser.add([measured(0.5)]);
      expect(again.body.items.map((i: any) => [i.quantity, i.line_price])).toEqual([[2, 2400]]);

      const changed = await browser.change(again.body.items[0].key, 3);
      expect(changed.status).toBe(200);
      expect([changed.body.item_count, changed.body.total_price]).toEqual([3, 3600]);
      const removed = await browser.change(again.body.items[0].key, 0);
      expect([removed.body.items, removed.body.total_price]).toEqual([[], 0]);
    });

    it('when the shop does not merge lines, then add.js answers only the new line, not the equal one already there', async () => {
      const { domain } = await seedShop(db, { ...storefrontShop(), settings: { storefront: { enabled: true } } });
      const browser = visitor(server, domain);
      const first = await browser.add([measured(0.5)]);
      const second = await browser.add([measured(0.5)]);
      expect(second.body.items).toHaveLength(1);
      expect(second.body.items[0].key).not.toBe(first.body.items[0].key);
      expect((await browser.request('cart.js')).body.items).toHaveLength(2);
    });

    it('when the customer checks out, then the order is placed at the measured price, the page shows it and the cart is gone', async () => {
      const { domain, key } = await seedShop(db, storefrontShop());
      const browser = visitor(server, domain);
      await browser.add([measured(1.25)]);

      const page = await browser.checkout();
      expect(page.status).toBe(200);
      expect(page.headers.get('set-cookie')).toMatch(/^cart=; Max-Age=0/);
      const orderId = /data-order-id="(\d+)"/.exec(page.text)?.[1];
      expect(page.text).toContain('$30.00');
      const order = await call(server, `/sandbox/orders/${orderId}`, { key });
      expect(order.body.order.line_items.map((l: any) => [l.quantity, l.price])).toEqual([[1, 3000]]);
      // Nothing typed in the form's optional fields: a guest.
      expect([order.body.order.name, order.body.order.customer]).toEqual(['#1001', null]);
      expect((await browser.request('cart.js')).body.items).toEqual([]);
    });

    it('when the customer types a name and an e-mail at checkout, then the order is placed for them and the page names the order', async () => {
      const { domain, key } = await seedShop(db, storefrontShop());
      const browser = visitor(server, domain);
      await browser.add([measured(1.25)]);
      const form = await browser.request('cart');
      expect(form.text).toContain('name="name"');
      expect(form.text).toContain('name="email" type="email"');

      const page = await browser.checkout({ name: ' <i>Ada</i> Lovelace ', email: 'ada@example.com' });
      expect(page.status).toBe(200);
      expect(page.text).toContain('Order <strong id="order-name">#1001</strong> is placed for');
      expect(page.text).toContain('&lt;i&gt;Ada&lt;/i&gt; Lovelace');
      const orderId = /data-order-id="(\d+)"/.exec(page.text)?.[1];
      const order = await call(server, `/sandbox/orders/${orderId}`, { key });
      expect(order.body.order.customer).toEqual({ name: '<i>Ada</i> Lovelace', email: 'ada@example.com' });
    });

    it('when the e-mail typed at checkout is not one, then it is 400 in words, nothing is placed and the cart is kept', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      const browser = visitor(server, domain);
      await browser.add([measured(1.25)]);

      const page = await browser.checkout({ name: 'Ada', email: 'ada at example' });
      expect(page.status).toBe(400);
      expect(page.text).toContain('is not an e-mail address: type one like ada@example.com, or leave it blank.');
      expect((await browser.request('cart.js')).body.items).toHaveLength(1);
      expect((await browser.checkout({ email: ' ' })).status).toBe(200);
    });

    it('when a product page is opened, then it renders the picker with each variant’s metafield document and the shop’s labels, ?variant= selecting one', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      const browser = visitor(server, domain);

      const page = await browser.request('products/1001?variant=2002');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.text).toContain(`<tare-measure-picker variant-id="2002" root="/sandbox/storefront/${domain}/">`);
      expect(page.text).toContain('<script src="/sandbox/storefront/assets/tare-measure-picker.js" defer></script>');
      const variants = JSON.parse(/data-tare-variants>(.*?)<\/script>/.exec(page.text)![1]!);
      const fixture = storefrontShop().products![0]!.variants[0]!;
      expect(variants['2001']).toEqual(
        variantMeasurementConfig({ ...fixture, measurementType: 'weight', settings: fixture.settings as never }, 'USD'),
      );
      const shop = JSON.parse(/data-tare-shop>(.*?)<\/script>/.exec(page.text)![1]!);
      expect(shop).toMatchObject({ version: 1, defaultLocale: 'en', currency: 'USD', pricingMode: 'function' });
      expect(shop.labels.fr.netWeight).toBe('Poids net');
      expect(shop.labels.en.unitPrice_weight_value_kg).toBeDefined();

      const unknownVariant = await browser.request('products/1001?variant=999');
      expect(unknownVariant.text).toContain('<tare-measure-picker variant-id="2001"');
      const script = await call(server, '/sandbox/storefront/assets/tare-measure-picker.js');
      expect([script.status, script.headers.get('content-type')]).toEqual([
        200,
        'application/javascript; charset=utf-8',
      ]);
    });

    it('when the shop has unit pricing on, then the labels its pages embed hold the reference unit price labels, and not when it is off', async () => {
      const on = await seedShop(db, {
        ...storefrontShop(),
        settings: { storefront: { enabled: true }, unitPricing: { enabled: true } },
      });
      const off = await seedShop(db, storefrontShop());
      const labelsOf = async (domain: string) => {
        const page = await visitor(server, domain).request('products/1001');
        return JSON.parse(/data-tare-shop>(.*?)<\/script>/.exec(page.text)![1]!).labels;
      };

      const withPricing = await labelsOf(on.domain);
      expect(withPricing.de.referenceUnitPrice).toBe('Grundpreis');
      expect(withPricing.en.referenceUnitPriceValue).toBe('{UnitPrice}');
      expect((await labelsOf(off.domain)).en).not.toHaveProperty('referenceUnitPrice');
    });

    it('when the shop’s catalog holds a product title with markup, then the pages show it as text', async () => {
      const shop = storefrontShop();
      shop.products![0]!.title = '</script><script>alert(1)</script>';
      const { domain } = await seedShop(db, shop);
      const page = await visitor(server, domain).request('products/1001');
      expect(page.text).not.toContain('<script>alert(1)');
      expect(page.text).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    });
  });

  describe('errors', () => {
    it('when an item names an unknown variant or breaks the sandbox’s rules, then add.js is 422 in Shopify’s words and nothing is added', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      const browser = visitor(server, domain);
      await browser.add([measured(1)]);

      const unknown = await browser.add([measured(1), { id: 9999, quantity: 1 }]);
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual({
        status: 422,
        message: 'Cart Error',
        description: "/items/1/id: no variant '9999' in this shop",
      });
      const inexact = await browser.add([measured(1.0000000001)]);
      expect([inexact.status, inexact.body.description]).toEqual([
        422,
        expect.stringContaining('Tare cannot book this measurement'),
      ]);
      const malformed = await browser.add([{ id: 2001 }]);
      expect(malformed.body).toEqual({
        status: 400,
        message: 'Bad Request',
        description: expect.stringContaining('quantity'),
      });
      expect((await browser.request('cart.js')).body.item_count).toBe(1);
    });

    it('when change.js names a line but the cookie names no cart of this shop, then 422 at the key, and no cart is made', async () => {
      const { domain, shopId } = await seedShop(db, storefrontShop());
      const carts = async () =>
        Number(
          (await db.query<{ n: string }>('SELECT count(*) AS n FROM sandbox_carts WHERE shop_id = $1', [shopId]))
            .rows[0]!.n,
        );
      const expected = {
        status: 422,
        message: 'Cart Error',
        description: "/key: no line with key '2001:abc' in this cart",
      };

      for (const cookie of [undefined, `cart=${'f'.repeat(32)}`, 'cart=not%20a%20token']) {
        const browser = visitor(server, domain);
        browser.cookie = cookie;
        const res = await browser.change('2001:abc', 1);
        expect(res.body).toEqual(expected);
        expect(res.headers.get('set-cookie')).toBeNull();
      }
      expect(await carts()).toBe(0);
    });

    it('when the cart is empty, then Check out is 422 and places nothing', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      const page = await visitor(server, domain).checkout();
      expect(page.status).toBe(422);
      expect(page.text).toContain('Your cart is empty.');
    });

    it('when Check out is posted twice at once, then one order is placed and the other post is 422, not 404', async () => {
      const { domain, shopId } = await seedShop(db, storefrontShop());
      const first = visitor(server, domain);
      await first.add([measured(1.25)]);
      const second = visitor(server, domain);
      second.cookie = first.cookie;
      const orders = async () =>
        Number(
          (
            await db.query<{ n: string }>('SELECT count(*) AS n FROM local_platform_orders WHERE shop_id = $1', [
              shopId,
            ])
          ).rows[0]!.n,
        );

      const pages = await Promise.all([first.checkout(), second.checkout()]);

      expect(pages.map((page) => page.status).sort()).toEqual([200, 422]);
      expect(pages.find((page) => page.status === 422)!.text).toContain('Your cart is empty.');
      expect(await orders()).toBe(1);
    });

    it('when a product or a storefront does not exist, then the page is 404', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      expect((await visitor(server, domain).request('products/4242')).status).toBe(404);
      const nowhere = visitor(server, 'nowhere.example');
      expect((await nowhere.request('')).status).toBe(404);
      expect((await nowhere.request('cart.js')).body).toEqual({
        status: 404,
        message: 'Cart Error',
        description: "No storefront with id 'nowhere.example' was found.",
      });
    });
  });

  describe('security', () => {
    it('when two tabs with the same cookie add lines at once, then the cart keeps every line and every quantity', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      const first = visitor(server, domain);
      await first.add([measured(1)]);
      const second = visitor(server, domain);
      second.cookie = first.cookie;
      const item = (n: number) => ({ ...measured(0.5), properties: { ...measured(0.5).properties, n: String(n) } });

      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, n) => (n % 2 ? second : first).add([item(n), measured(1)])),
      );

      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
      expect(second.cookie).toBe(first.cookie);
      const cart = (await first.request('cart.js')).body;
      expect(cart.items).toHaveLength(11);
      // The 1 kg line took every add (merged), and each 0.5 kg line is there once.
      expect(cart.items[0]).toMatchObject({ quantity: 11, line_price: 11 * 2400 });
      expect(
        cart.items
          .slice(1)
          .map((i: any) => i.properties.n)
          .sort((a: string, b: string) => Number(a) - Number(b)),
      ).toEqual(Array.from({ length: 10 }, (_, n) => String(n)));
      expect(cart.total_price).toBe(11 * 2400 + 10 * 1200);
    });

    it('when a sandbox shop has not enabled its storefront, or sells on Shopify, then nothing of it is served', async () => {
      const off = await seedShop(db, shopFixture());
      const offline = visitor(server, off.domain);
      for (const path of ['', 'products/1001', 'cart', 'cart.js'])
        expect((await offline.request(path)).status).toBe(404);
      expect((await offline.add([measured(1)])).status).toBe(404);

      const shopify = await seedShop(db, storefrontShop());
      await db.query("UPDATE shops SET platform = 'shopify' WHERE id = $1", [shopify.shopId]);
      expect((await visitor(server, shopify.domain).request('products/1001')).status).toBe(404);
    });

    it('when the cookie holds another shop’s cart, then this storefront neither reads nor fills it: it starts a new cart', async () => {
      const a = await seedShop(db, storefrontShop());
      const b = await seedShop(db, storefrontShop());
      const alice = visitor(server, a.domain);
      await alice.add([measured(2)]);

      const mallory = visitor(server, b.domain);
      mallory.cookie = alice.cookie;
      const cart = await mallory.request('cart.js');
      expect(cart.body.items).toEqual([]);
      expect(mallory.cookie).not.toBe(alice.cookie);
      expect((await alice.request('cart.js')).body.total_price).toBe(4800);
    });

    it('when the sandbox is switched off, then the storefront does not exist', async () => {
      const { domain } = await seedShop(db, storefrontShop());
      const off = await startTestServer(db, { TARE_SANDBOX: 'off' });
      try {
        for (const path of [
          `/sandbox/storefront/${domain}/`,
          `/sandbox/storefront/${domain}/cart.js`,
          '/sandbox/storefront/assets/tare-measure-picker.js',
        ]) {
          expect((await call(off, path)).status).toBe(404);
        }
      } finally {
        await off.close();
      }
    });
  });

  it('when settings.storefront.enabled is imported again or left out, then nothing changes', async () => {
    const shop = storefrontShop();
    const { domain } = await seedShop(db, shop);
    const { importCatalog } = await import('../../src/services/catalog-import/import-catalog.js');
    const { createLocalGateway } = await import('../../src/platform/local/local-gateway.js');
    const again = await importCatalog({ db, gateway: createLocalGateway() }, { shops: [shop] });
    expect(again.shops[0]!.changes).toBe(0);
    await importCatalog({ db, gateway: createLocalGateway() }, { shops: [{ ...shop, settings: {}, products: [] }] });
    expect((await visitor(server, domain).request('')).status).toBe(200);
  });
});
