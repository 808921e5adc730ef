import { ean13CheckDigit } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { type AdminHttp, adminBrowser } from '../admin/support/admin-http.js';
import { NEW_VARIANT_FORM, SIGNED_IN_PAGES, staffWithPassword } from '../admin/support/admin-site.js';
import { shardCheck } from '../support/citus-plan.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { recording, type Sent } from '../support/recording-db.js';
import { svcData, visitor } from '../sandbox/support.js';

// The merchant's admin and the sandbox storefront on Citus: every statement the admin's sign-in
// and each of its pages send, and each step of a storefront visit, is planned on the shop's one
// shard (Citus's EXPLAIN), as the API's are (citus-routing.test.ts).

/** The demo shop's counter label: prefix 21, the Arabica's item 10001, 01234 g = 1.234 kg. */
const SCALE_LABEL = `211000101234${ean13CheckDigit('211000101234')}`;
const NEW_ITEM = { itemId: '6009', itemTitle: 'Oil', itemType: 'volume', itemUnit: 'L' };
const NEW_VARIANT = { ...NEW_VARIANT_FORM, variantId: '2609' };
const NEW_PRODUCT = {
  ...NEW_VARIANT,
  variantId: '2610',
  productId: '1609',
  productTitle: 'Rice',
  measurementType: 'weight',
};

const citus = testDrivers({ citus: true }).filter((driver) => driver.name === 'citus');

describe.skipIf(citus.length === 0)("The admin's and the storefront's statements on one shard on Citus", () => {
  let db: Db;
  let server: RunningServer;
  const sent: Sent[] = [];
  let browser: AdminHttp;

  beforeAll(async () => {
    db = await citus[0]!.create();
    // Another shop first, so the demo shop is not alone on the cluster.
    await seedShop(db);
    const { key } = await seedShop(db, DEMO_CATALOG.shops[0]!);
    server = await startTestServer(recording(db, sent));
    // A ledger entry of the API's beside the import's.
    const adjusted = await call(server, '/api/v1/inventory/adjustments', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'admin-routing' },
      body: JSON.stringify({
        locationId: '70001',
        adjustments: [{ variantId: '2001', delta: { value: -0.25, unit: 'kg' } }],
      }),
    });
    expect(adjusted.status).toBe(200);
    browser = adminBrowser(server);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it('when staff sign in, then every statement touches one shard or the reference tables', async () => {
    const staff = await staffWithPassword(db, DEMO_SHOP);
    const signIn = shardCheck(db, sent);
    expect((await signIn.run('sign-in', () => browser.signIn(staff.email, staff.password))).status).toBe(303);
    expect(signIn.statements['sign-in']).toBeGreaterThan(0);
    expect(signIn.fannedOut).toEqual({});
  });

  it('when each admin page is opened, then every statement it sends touches one shard', async () => {
    const pages = shardCheck(db, sent);
    for (const [name, path] of SIGNED_IN_PAGES) {
      const page = await pages.run(name, () => browser.get(path));
      expect(page.status, name).toBe(name === 'not-found' ? 404 : 200);
    }
    expect(pages.fannedOut).toEqual({});
    expect(pages.total).toBeGreaterThan(SIGNED_IN_PAGES.length);
  });

  it("when staff send each of the admin's forms, then every statement touches one shard", async () => {
    const staff = await staffWithPassword(db, DEMO_SHOP);
    expect((await browser.signIn(staff.email, staff.password)).status).toBe(303);
    const item = '/admin/inventory/stock-items/6001';
    const next = `another horse ${'x'.repeat(12)}`;
    // Each form as the page shows it, with what a merchant would type; in an order the demo allows.
    const forms: [name: string, page: string, action: string, typed: Record<string, string>, status: number][] = [
      ['adjust', '/admin/inventory/70001/2001', '/admin/inventory/70001/2001/adjust', { delta: '0.5' }, 303],
      ['set', '/admin/inventory/70001/2001', '/admin/inventory/70001/2001/set', { quantity: '12' }, 303],
      ['scan', '/admin/inventory', '/admin/inventory/scan', { code: SCALE_LABEL }, 303],
      ['stock-item-new', '/admin/inventory/stock-items', '/admin/inventory/stock-items', NEW_ITEM, 303],
      ['stock-item-edit', item, `${item}/edit`, { itemTitle: 'Big wheel' }, 303],
      ['stock-item-adjust', item, `${item}/adjust`, { delta: '-0.25' }, 303],
      ['stock-item-set', item, `${item}/set`, { quantity: '30' }, 303],
      ['product', '/admin/products/1001', '/admin/products/1001', { productTitle: 'Arabica, roasted' }, 303],
      [
        'variant',
        '/admin/products/1001/variants/2001',
        '/admin/products/1001/variants/2001',
        { variantTitle: 'Loose' },
        303,
      ],
      ['price', '/admin/products', '/admin/products/1001/variants/2001/price', { price: '31.00' }, 303],
      ['product-new', '/admin/products/new', '/admin/products/new', NEW_PRODUCT, 303],
      ['variant-new', '/admin/products/1001/variants/new', '/admin/products/1001/variants/new', NEW_VARIANT, 303],
      ['order-edit', '/admin/orders/5001', '/admin/orders/5001/edit', { 'quantity-9001': '1' }, 303],
      ['labels', '/admin/labels/fr', '/admin/labels/fr', {}, 303],
      ['settings', '/admin/settings', '/admin/settings', { rateLimitEnabled: 'on', requestsPerMinute: '600' }, 303],
      ['api-key', '/admin/api-keys', '/admin/api-keys', { name: 'Till' }, 201],
      ['password', '/admin/password', '/admin/password', { current: staff.password, next, confirmation: next }, 303],
    ];
    const posts = shardCheck(db, sent);
    for (const [name, page, action, typed, status] of forms) {
      const fields = await browser.formOn(page, action);
      const answer = await posts.run(name, () => browser.post(action, { ...fields, ...typed }));
      expect(answer.status, name).toBe(status);
      expect(posts.statements[name], name).toBeGreaterThan(0);
    }
    for (const [name, preview] of [
      ['product-new-preview', `/admin/products/new/preview?${new URLSearchParams(NEW_PRODUCT)}`],
      ['variant-new-preview', `/admin/products/1001/variants/new/preview?${new URLSearchParams(NEW_VARIANT)}`],
    ] as const) {
      expect((await posts.run(name, () => browser.get(preview))).status, name).toBe(200);
    }
    const keyId = /apik_([^_"]+)_/.exec((await browser.get('/admin/api-keys')).text)![1]!;
    const revoke = `/admin/api-keys/${keyId}/revoke`;
    const revokeFields = await browser.formOn('/admin/api-keys', revoke);
    expect((await posts.run('api-key-revoke', () => browser.post(revoke, revokeFields))).status).toBe(303);
    expect((await posts.run('sign-out', () => browser.post('/admin/logout', {}))).status).toBe(303);
    expect(posts.fannedOut).toEqual({});
  });

  it('when a customer visits the storefront, adds a measured line and checks out, then every statement touches one shard', async () => {
    const { domain } = await seedShop(db, shopFixture({ settings: { storefront: { enabled: true } } }));
    const customer = visitor(server, domain);
    const measured = { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 1.25, 'kg') } };
    const steps: [name: string, step: () => Promise<{ status: number }>, status: number][] = [
      ['front page', () => customer.request(''), 200],
      ['product page', () => customer.request('products/1001'), 200],
      ['cart/add.js', () => customer.add([measured]), 200],
      ['cart.js', () => customer.request('cart.js'), 200],
      ['cart page', () => customer.request('cart'), 200],
      ['checkout', () => customer.checkout({ name: 'Ada' }), 200],
    ];
    const visit = shardCheck(db, sent);
    for (const [name, step, status] of steps) {
      expect((await visit.run(name, step)).status, name).toBe(status);
      expect(visit.statements[name], name).toBeGreaterThan(0);
    }
    expect(visit.fannedOut).toEqual({});
  });
});
