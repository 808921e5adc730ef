import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { type AdminHttp, adminSession } from './support/admin-http.js';
import { staffWithPassword } from './support/admin-site.js';

const OTHER_PAGE = 'This form was made for another page; nothing was changed.';

/** A form's id (its double-post protection) holds only for what the form was rendered for. */
describe.each(testDrivers())('admin form ids on $name', (driver) => {
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

  const quantityOf = async (variantId: string) =>
    (await call(server, `/api/v1/inventory/levels?locationId=70001&variantId=${variantId}`, { key: shop.key })).body
      .data.levels[0].quantity.value;

  test('when a level’s adjust form is posted to another level, then it is refused there and neither is changed again', async () => {
    const fields = { ...(await admin.formOn('/admin/inventory/70001/2001', '/adjust')), delta: '3', unit: 'kg' };
    expect((await admin.post('/admin/inventory/70001/2001/adjust', fields)).status).toBe(303);

    const elsewhere = await admin.post('/admin/inventory/70001/2003/adjust', fields);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain(OTHER_PAGE);
    // Posted to the other operation of the same level, too.
    const asSet = await admin.post('/admin/inventory/70001/2001/set', { ...fields, quantity: '3' });
    expect(asSet.status).toBe(400);
    expect([await quantityOf('2001'), await quantityOf('2003')]).toEqual([3, 0]);
    const { rows } = await db.query('SELECT variant_id FROM inventory_ledger WHERE shop_id = $1', [shop.shopId]);
    expect(rows).toEqual([{ variant_id: '2001' }]);
  });

  test('when a form id was not issued by Tare, then the form is refused and nothing is written', async () => {
    const fields = await admin.formOn('/admin/inventory/70001/2002', '/adjust');
    const forged = await admin.post('/admin/inventory/70001/2002/adjust', {
      ...fields,
      formId: 'made-up-by-hand',
      delta: '5',
      unit: 'g',
    });
    expect(forged.status).toBe(400);
    expect(await quantityOf('2002')).toBe(0);
  });

  test('when a locale’s labels form is posted to another locale, then it is refused, not answered "saved"', async () => {
    const fields = await admin.formOn('/admin/labels/en', '/admin/labels/en');
    const elsewhere = await admin.post('/admin/labels/de', fields);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain(OTHER_PAGE);
    expect((await admin.post('/admin/labels/en', fields)).status).toBe(303);
  });

  test('when one form is posted twice at once (a double click), then it applies once', async () => {
    const adjust = { ...(await admin.formOn('/admin/inventory/70001/2002', '/adjust')), delta: '7', unit: 'kg' };
    const adjusted = await Promise.all([1, 2].map(() => admin.post('/admin/inventory/70001/2002/adjust', adjust)));
    // The second replays the first (303) or finds it still running (409); either way it writes nothing.
    expect(adjusted.map((answer) => answer.status)).toContain(303);
    for (const answer of adjusted) expect([303, 409]).toContain(answer.status);
    const { rows } = await db.query('SELECT delta FROM inventory_ledger WHERE shop_id = $1 AND variant_id = $2', [
      shop.shopId,
      '2002',
    ]);
    expect(rows).toEqual([{ delta: '7000' }]); // 2002 is kept in g

    const create = { ...(await admin.formOn('/admin/api-keys', '/admin/api-keys')), name: 'At once' };
    const created = await Promise.all([1, 2].map(() => admin.post('/admin/api-keys', create)));
    expect(created.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const keys = await db.query('SELECT 1 FROM api_keys WHERE shop_id = $1 AND name = $2', [shop.shopId, 'At once']);
    expect(keys.rows).toHaveLength(1);
  });
});
