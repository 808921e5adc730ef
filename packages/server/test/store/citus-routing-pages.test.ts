import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { type AdminHttp, adminBrowser } from '../admin/support/admin-http.js';
import { SIGNED_IN_PAGES, staffWithPassword } from '../admin/support/admin-site.js';
import { shardCheck } from '../support/citus-plan.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { recording, type Sent } from '../support/recording-db.js';
import { svcData, visitor } from '../sandbox/support.js';

// The merchant's admin and the sandbox storefront on Citus: every statement the admin's sign-in
// and each of its pages send, and each step of a storefront visit, is planned on the shop's one
// shard (Citus's EXPLAIN), as the API's are (citus-routing.test.ts).

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
