import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { type AdminHttp, adminSession, fieldErrors } from '../admin/support/admin-http.js';
import { staffWithPassword } from '../admin/support/admin-site.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { cheeseShop } from './support/cheese-shop.js';

// Stock items made and changed in the admin: an import of the shop stating the item, with the
// import's checks and guards, each refusal beside its field.

const LIST = '/admin/inventory/stock-items';
describe.each(testDrivers())('stock items made and changed in the admin on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;
  let key: string;
  let admin: AdminHttp;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    // The wheel with one variant sold from it (and two with stock of their own).
    const shop = cheeseShop();
    ({ key } = await seedShop(db, shop));
    const staff = await staffWithPassword(db, shop.domain);
    admin = await adminSession(server, staff.email, staff.password);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const levels = async (id: string) => call(server, `/api/v1/stock-items/${id}/levels?locationId=70001`, { key });

  it('when a stock item is added, then the list and the API have it at 0, and its stock forms ask for a linked variant first', async () => {
    const list = await admin.get(LIST);
    expect(list.text).toMatch(
      /<a href="\/admin\/inventory\/stock-items\/6001">Wheel<\/a>[\s\S]*?<td class="number">1<\/td>/,
    );
    const added = await admin.post(LIST, {
      itemId: '6002',
      itemTitle: 'Linen bolt',
      itemType: 'length',
      itemUnit: 'm',
    });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`${LIST}/6002?done=created`);
    const read = await levels('6002');
    expect(read.body.data).toMatchObject({ title: 'Linen bolt', quantity: { value: 0, unit: 'm' }, variants: [] });
    const page = await admin.get(`${LIST}/6002?done=created`);
    expect(page.text).toContain('Stock item created');
    const form = await admin.formOn(`${LIST}/6002`, '/adjust');
    const adjusted = await admin.post(`${LIST}/6002/adjust`, { ...form, delta: '5' });
    expect(adjusted.status).toBe(400);
    expect(fieldErrors(adjusted.text).delta).toBe(
      'Change cannot be booked yet: link a variant to this stock item first',
    );
  });

  it('when an item is added with an id in use, a unit of another type or no title, then each is refused beside its field', async () => {
    await admin.get(LIST);
    const taken = await admin.post(LIST, { itemId: '6001', itemTitle: 'Again', itemType: 'weight', itemUnit: 'kg' });
    expect(taken.status).toBe(409);
    expect(fieldErrors(taken.text).itemId).toBe("Item id '6001' is already used, by stock item “Wheel”");
    const unit = await admin.post(LIST, { itemId: '6003', itemTitle: 'Oil', itemType: 'weight', itemUnit: 'L' });
    expect(unit.status).toBe(400);
    expect(fieldErrors(unit.text).itemUnit).toMatch(/^Unit 'L' is not a weight unit; use one of mg, g, kg/);
    const blank = await admin.post(LIST, { itemId: '6003', itemTitle: '', itemType: 'weight', itemUnit: 'kg' });
    expect(blank.status).toBe(400);
    expect(fieldErrors(blank.text).itemTitle).toMatch(/^Title /);
    expect((await levels('6003')).status).toBe(404);
    expect((await levels('6001')).body.data.title).toBe('Wheel');
  });

  it('when a shop has a stock item and no variant yet, then the inventory list shows the item', async () => {
    const bare = shopFixture({
      stockItems: [{ id: '7001', title: 'Flour sack', measurementType: 'weight', unit: 'kg' }],
      products: [],
    });
    await seedShop(db, bare);
    const staff = await staffWithPassword(db, bare.domain);
    const other = await adminSession(server, staff.email, staff.password);
    const list = await other.get('/admin/inventory');
    expect(list.text).toMatch(/<tbody data-stock-item="7001">[\s\S]*?Flour sack[\s\S]*?no variant linked/);
  });

  it('when an item’s title and unit change, then its stock reads in the new unit; a type change while it holds stock is refused', async () => {
    const page = `${LIST}/6001`;
    const form = await admin.formOn(page, '/edit');
    expect(form).toMatchObject({ itemTitle: 'Wheel', itemType: 'weight', itemUnit: 'kg' });
    const saved = await admin.post(`${page}/edit`, { ...form, itemTitle: 'Big wheel', itemUnit: 'g' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`${page}?done=saved`);
    const read = (await levels('6001')).body.data;
    expect(read).toMatchObject({ title: 'Big wheel', quantity: { value: 2000, unit: 'g' } });
    expect(read.variants[0].platform.available).toBe(20);

    const volume = await admin.post(`${page}/edit`, { ...form, itemType: 'volume', itemUnit: 'L' });
    expect(volume.status).toBe(409);
    expect(fieldErrors(volume.text).itemType).toBe(
      "Measurement type: stock item '6001' holds stock counted in weight units (2000 g at location 70001 (Main store)); its type cannot change to volume: make a new stock item for it",
    );
    expect((await levels('6001')).body.data.quantity).toEqual({ value: 2000, unit: 'g' });
  });
});
