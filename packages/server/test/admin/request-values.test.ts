import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, startTestServer } from '../support/harness.js';
import { type AdminHttp, adminSession } from './support/admin-http.js';
import { staffWithPassword } from './support/admin-site.js';

const NUL_REFUSED = 'must not contain the NUL character (U+0000)';

/**
 * Text PostgreSQL cannot store (NUL) is refused before any query, in every part of every admin
 * request, as the API refuses it: 400, never a database error answered as 500.
 */
describe.each(testDrivers())('admin request values on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let shop: { domain: string; shopId: string; key: string };
  let admin: AdminHttp;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    shop = await seedShop(db);
    const staff = await staffWithPassword(db, shop.domain);
    admin = await adminSession(server, staff.email, staff.password);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  /** The path sent as written: fetch and URL would resolve `..` before it leaves. */
  function statusOfUnnormalized(path: string): Promise<number | undefined> {
    const { hostname, port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      httpRequest({ host: hostname, port, path }, (answer) => {
        answer.resume();
        resolve(answer.statusCode);
      })
        .on('error', reject)
        .end();
    });
  }

  test('when the sign-in form carries a NUL, then it is 400 naming the field, in HTML', async () => {
    const signedOut = await fetch(`${server.url}/admin/login`);
    const token = /name="_csrf" value="([^"]+)"/.exec(await signedOut.text())![1]!;
    const answer = await fetch(`${server.url}/admin/login`, {
      method: 'POST',
      headers: {
        cookie: signedOut.headers.getSetCookie()[0]!.split(';')[0]!,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `_csrf=${encodeURIComponent(token)}&email=a%00b@x&password=whatever-it-is`,
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await answer.text()).toContain(`Email ${NUL_REFUSED}`);
  });

  test('when a query or a path parameter of an admin page carries a NUL, then it is 400, not 500', async () => {
    for (const path of [
      '/admin/products?q=%00',
      '/admin/products?after=1:%00',
      '/admin/orders?orderId=%00',
      '/admin/orders?after=%00',
      '/admin/inventory/%00/2001',
      '/admin/inventory/70001/%00',
      '/admin/orders/5%000',
      '/admin/products/%00',
      '/admin/labels/%00',
      '/admin/no-such-page/%00',
    ]) {
      const answer = await admin.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.text, path).toContain(NUL_REFUSED);
    }
  });

  test('when an admin form carries a NUL, then it is 400 and nothing is written', async () => {
    const fields = await admin.formOn('/admin/inventory/70001/2001', '/adjust');
    const answer = await admin.post('/admin/inventory/70001/2001/adjust', { ...fields, delta: '1', unit: 'k\u0000g' });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(`Unit ${NUL_REFUSED}`);
    const { rows } = await db.query('SELECT 1 FROM inventory_ledger WHERE shop_id = $1', [shop.shopId]);
    expect(rows).toEqual([]);
  });

  test('when an asset path climbs out of the assets folder, then it is the 404 page', async () => {
    for (const path of [
      '/admin/assets/../admin.css',
      '/admin/assets/%2e%2e/admin.css',
      '/admin/assets/..%2fadmin.css',
    ]) {
      expect(await statusOfUnnormalized(path), path).toBe(404);
    }
    expect(await statusOfUnnormalized('/admin/assets/admin.css')).toBe(200);
  });

  test('when an API or sandbox request carries a NUL where the route has no schema for it, then it is 400 too', async () => {
    const query = await call(server, '/api/v1/app-settings?locale=en&other=%00', { key: shop.key });
    expect(expectErrorEnvelope(query, 400, 'bad_request').details).toEqual({
      in: 'querystring',
      errors: [{ path: '/other', message: NUL_REFUSED }],
    });
    const body = await call(server, '/sandbox/carts', {
      key: shop.key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'a\u0000b' }),
    });
    expect(expectErrorEnvelope(body, 400, 'bad_request').details).toEqual({
      in: 'body',
      errors: [{ path: '/note', message: NUL_REFUSED }],
    });
  });
});
