import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { type AdminHttp, adminSession, fieldErrors } from '../admin/support/admin-http.js';
import { staffWithPassword } from '../admin/support/admin-site.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer, variantFixture } from '../support/harness.js';
import { cheeseShop } from './support/cheese-shop.js';

// The variant page links a variant to a stock item or unlinks it, through the import with its
// checks and guards: each refusal beside the field, in words, nothing saved.

const variantPage = (productId: string, variantId: string) => `/admin/products/${productId}/variants/${variantId}`;
const fieldError = (html: string) => fieldErrors(html).stockItemId;

describe.each(testDrivers())('linking variants to stock items in the admin on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;
  let key: string;
  let admin: AdminHttp;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    const shop = cheeseShop({
      id: '1002',
      title: 'Ribbon',
      measurementType: 'length',
      variants: [variantFixture('2101', 'm', 1)],
    });
    ({ key } = await seedShop(db, shop));
    const staff = await staffWithPassword(db, shop.domain);
    admin = await adminSession(server, staff.email, staff.password);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const levelOf = async (variantId: string) =>
    (await call(server, `/api/v1/inventory/levels?locationId=70001&variantId=${variantId}`, { key })).body.data
      .levels[0];
  const wheel = async () => (await call(server, '/api/v1/stock-items/6001/levels?locationId=70001', { key })).body.data;
  const link = async (productId: string, variantId: string, stockItemId: string) => {
    // A length variant's page offers no weight item (no form): its post is sent as a forged one would be.
    const page = variantPage(productId, variantId);
    await admin.get(page);
    return admin.post(`${page}/stock-item`, { stockItemId });
  };

  it('when a linked variant is shown, then its page and its product’s page link its stock item', async () => {
    const page = await admin.get(variantPage('1001', '2002'));
    expect(page.text).toMatch(
      /id="linked-item">Sells from stock item <a href="\/admin\/inventory\/stock-items\/6001">Wheel \(6001\)<\/a>/,
    );
    expect(page.text).toMatch(/<option value="6001" selected>Wheel \(6001, kg\)<\/option>/);
    const product = await admin.get('/admin/products/1001');
    expect(product.text).toContain('Sells from <a href="/admin/inventory/stock-items/6001">Wheel (6001)</a>');
    // A length variant is not offered a weight item.
    expect((await admin.get(variantPage('1002', '2101'))).text).not.toContain('<option value="6001"');
  });

  it('when a variant holding stock of its own is linked, then it is refused beside the field naming its level, nothing saved', async () => {
    const answer = await link('1001', '2001', '6001');
    expect(answer.status).toBe(409);
    expect(fieldError(answer.text)).toBe(
      "Stock item: variant 2001 holds stock of its own (3 kg at location 70001 (Main store)); set it to 0, or count it into stock item '6001', before linking the variant to the item",
    );
    expect(answer.text).toMatch(/<option value="6001" selected>/);
    const level = await levelOf('2001');
    expect(level).not.toHaveProperty('stockItemId');
    expect(level.quantity).toEqual({ value: 3, unit: 'kg' });
  });

  it('when a variant of another type, or an item the shop does not have, is posted, then it is refused in words', async () => {
    const ribbon = await link('1002', '2101', '6001');
    expect(ribbon.status).toBe(400);
    expect(fieldError(ribbon.text)).toBe(
      "Stock item: stock item '6001' is counted in weight units; a length variant cannot sell from it",
    );
    const unknown = await link('1001', '2003', '9999');
    expect(unknown.status).toBe(400);
    expect(fieldError(unknown.text)).toBe("Stock item must name one of this shop's stock items, not '9999'");
    const page = variantPage('1001', '2003');
    const form = await admin.formOn(page, `${page}/stock-item`);
    const forged = await admin.post(`${page}/stock-item`, { ...form, _csrf: 'forged', stockItemId: '6001' });
    expect(forged.status).toBe(403);
    expect(await levelOf('2003')).not.toHaveProperty('stockItemId');
  });

  it('when a variant without stock is linked and another unlinked, then the first follows the item and the second starts at 0 of its own', async () => {
    const linked = await link('1001', '2003', '6001');
    expect(linked.status).toBe(303);
    expect(linked.headers.get('location')).toBe(`${variantPage('1001', '2003')}?done=linked#stock-heading`);
    expect(await levelOf('2003')).toMatchObject({
      stockItemId: '6001',
      quantity: { value: 2000, unit: 'g' },
      platform: { available: 8 },
    });
    const shown = await call(server, '/sandbox/inventory?locationId=70001&variantId=2003', { key });
    expect(shown.body.available).toBe(8);

    const unlinking = await link('1001', '2002', '');
    expect(unlinking.status).toBe(303);
    const unlinked = await levelOf('2002');
    expect(unlinked).not.toHaveProperty('stockItemId');
    expect(unlinked).toMatchObject({ quantity: { value: 0, unit: 'g' }, platform: { available: 0 } });
    const item = await wheel();
    expect(item.quantity).toEqual({ value: 2, unit: 'kg' });
    expect(item.variants.map((v: any) => v.variantId)).toEqual(['2003']);
    // Posting the same choice again changes nothing.
    const again = await link('1001', '2002', '');
    expect(again.headers.get('location')).toContain('done=unchanged');
  });
});
