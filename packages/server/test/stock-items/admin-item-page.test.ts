import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { type AdminHttp, adminSession } from '../admin/support/admin-http.js';
import { staffWithPassword } from '../admin/support/admin-site.js';
import { demoShop } from '../sandbox/storefront-journey.js';
import { settle, svcData } from '../sandbox/support.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';

// Issue 28's merchant side: the admin's item page shows the Comté wheel's exact total, each
// variant's whole units and fraction, its ledger naming the variant and the order; its forms
// write on the wheel through the API's idempotent writer.

const [LOOSE, PACK, KILO] = ['2701', '2702', '2703'];
const ITEM_PAGE = '/admin/inventory/stock-items/6001';

/** The text of the element with this id (tags stripped, spaces collapsed). */
const textOf = (html: string, id: string) => {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</(dd|td|span|table)>`).exec(html);
  return match?.[1]!
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
};
/** Each linked variant's row of the item page: [variant id, whole units, fraction as shown]. */
const siblings = (html: string) =>
  [...html.matchAll(/<tr data-variant-id="(\d+)">([\s\S]*?)<\/tr>/g)].map(([, id, row]) => {
    const cells = [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, '').trim());
    return [id, Number(cells[2]), cells[3]];
  });
/** The ledger's rows, newest first, as their cells' text and the links in them. */
const ledgerRows = (html: string) => {
  const table = /<table id="ledger">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  return [...table.matchAll(/<tr>\s*<td>([\s\S]*?)<\/tr>/g)].map(([row]) => ({
    text: row
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    links: [...row.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!),
  }));
};

describe.each(testDrivers())('the admin stock item page on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;
  let key: string;
  let admin: AdminHttp;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    ({ key } = await demoShop(db));
    // Another shop with an item of its own: this shop's admin must not reach it.
    await seedShop(
      db,
      shopFixture({
        domain: 'other-cheese.example',
        stockItems: [{ id: '6009', title: 'Other wheel', measurementType: 'weight', unit: 'kg' }],
        products: [
          {
            id: '1001',
            title: 'Other',
            measurementType: 'weight',
            variants: [{ ...variantFixture('3001', 'kg', 1), stockItemId: '6009' }],
          },
        ],
      }),
    );
    const staff = await staffWithPassword(db, DEMO_SHOP);
    admin = await adminSession(server, staff.email, staff.password);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const wheel = async () => (await call(server, '/api/v1/stock-items/6001/levels?locationId=70001', { key })).body.data;

  it('when a 250 g pack is bought in the storefront, then the item page shows the wheel 0.25 kg lower, every variant following, and the sale naming the pack and its order', async () => {
    const before = await admin.get(ITEM_PAGE);
    expect(before.status).toBe(200);
    expect(textOf(before.text, 'item-total')).toBe('4.5 kg');

    const root = `/sandbox/storefront/${DEMO_SHOP}/`;
    const added = await call(server, `${root}cart/add.js`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: Number(PACK), quantity: 1, properties: { _svc_data: svcData('weight', 250, 'g') } }],
      }),
    });
    const cookie = added.headers.get('set-cookie')!.split(';')[0]!;
    const checkout = await call(server, `${root}checkout`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(checkout.status).toBe(200);
    await settle(server, db);

    const after = await admin.get(ITEM_PAGE);
    expect(textOf(after.text, 'item-total')).toBe('4.25 kg');
    // floor(4.25 kg ÷ 100 g), floor(4.25 kg ÷ 250 g), floor(4.25 kg ÷ 1 kg), and what remains.
    expect(siblings(after.text)).toEqual([
      [LOOSE, 42, '50 g'],
      [PACK, 17, '0 g'],
      [KILO, 4, '0.25 kg'],
    ]);
    const ledger = await call(server, `/api/v1/inventory/ledger?locationId=70001&variantId=${PACK}`, { key });
    const sale = ledger.body.data.entries[0];
    expect(sale).toMatchObject({ operation: 'sale', delta: -0.25, unit: 'kg', variantId: PACK });
    const [newest] = ledgerRows(after.text);
    expect(newest!.text).toContain('Sale');
    expect(newest!.text).toContain('Comté — 250 g pack');
    expect(newest!.text).toContain('-0.25 kg');
    expect(newest!.links).toEqual([`/admin/products/1008/variants/${PACK}`, `/admin/orders/${sale.reference.id}`]);
  });

  it('when stock is adjusted and set on the item page, then the API reads the wheel exactly, every variant follows, and a double post applies once', async () => {
    const start = (await wheel()).quantity.value as number;
    const form = await admin.formOn(ITEM_PAGE, '/adjust');
    expect(form).toMatchObject({ locationId: '70001', unit: 'kg' });
    // 300 g typed on a kg item: booked as exactly 0.3 kg on the wheel.
    const adjusted = await admin.post(`${ITEM_PAGE}/adjust`, { ...form, delta: '-300', unit: 'g' });
    expect(adjusted.status).toBe(303);
    expect(adjusted.headers.get('location')).toBe(`${ITEM_PAGE}?location=70001&done=adjustment`);
    const again = await admin.post(`${ITEM_PAGE}/adjust`, { ...form, delta: '-300', unit: 'g' });
    expect(again.status).toBe(303);
    const read = await wheel();
    expect(read.quantity).toEqual({ value: Number((start - 0.3).toFixed(9)), unit: 'kg' });

    const set = await admin.formOn(ITEM_PAGE, '/set');
    expect((await admin.post(`${ITEM_PAGE}/set`, { ...set, quantity: '2,35' })).status).toBe(303);
    const after = await wheel();
    expect(after.quantity).toEqual({ value: 2.35, unit: 'kg' });
    expect(after.variants.map((v: any) => [v.variantId, v.platform.available])).toEqual([
      [LOOSE, 23],
      [PACK, 9],
      [KILO, 2],
    ]);
    for (const variantId of [LOOSE, PACK, KILO]) {
      const shown = await call(server, `/sandbox/inventory?locationId=70001&variantId=${variantId}`, { key });
      expect(shown.body.available).toBe(after.variants.find((v: any) => v.variantId === variantId).platform.available);
    }
    const page = await admin.get(`${ITEM_PAGE}?location=70001&done=set`);
    expect(page.text).toContain('Stock set: every linked variant follows');
    const [newest, adjustment] = ledgerRows(page.text);
    expect(newest!.text).toMatch(/Set The item itself .*2.35 kg Admin/);
    expect(adjustment!.text).toMatch(/Adjustment The item itself -0.3 kg/);
    // The double post applied once: one adjustment row between the sale and the set.
    expect(ledgerRows(page.text).filter((row) => row.text.includes('Adjustment'))).toHaveLength(1);
  });

  it('when the item page is sent bad values, another shop’s item or no CSRF token, then it says so and nothing changes', async () => {
    const before = (await wheel()).quantity;
    const form = await admin.formOn(ITEM_PAGE, '/adjust');
    const words = await admin.post(`${ITEM_PAGE}/adjust`, { ...form, delta: 'two' });
    expect(words.status).toBe(400);
    expect(textOf(words.text, 'delta-error')).toMatch(/^Change must be a number/);
    const length = await admin.post(`${ITEM_PAGE}/adjust`, { ...form, delta: '1', unit: 'm' });
    expect(length.status).toBe(400);
    expect(length.text).toContain('unit &#39;m&#39; is not valid');
    const other = await admin.get('/admin/inventory/stock-items/6009');
    expect(other.status).toBe(404);
    const otherPost = await admin.post('/admin/inventory/stock-items/6009/adjust', { ...form, delta: '1' });
    expect(otherPost.status).toBe(400);
    const forged = await admin.post(`${ITEM_PAGE}/adjust`, { ...form, _csrf: 'forged', delta: '1' });
    expect(forged.status).toBe(403);
    expect((await wheel()).quantity).toEqual(before);
  });

  it('when the inventory list and a linked variant’s page are opened, then the variants are under their item and the variant page sends its writes to the item', async () => {
    const list = await admin.get('/admin/inventory');
    const group = /<tbody data-stock-item="6001">([\s\S]*?)<\/tbody>/.exec(list.text)?.[1] ?? '';
    expect(group).toContain(`href="${ITEM_PAGE}?location=70001"`);
    expect([...group.matchAll(/data-variant-id="(\d+)"/g)].map((m) => m[1])).toEqual([LOOSE, PACK, KILO]);
    // Not listed again among the variants with a stock of their own.
    const own = list.text.slice(list.text.indexOf('</table>'));
    expect(own).not.toContain(`/admin/inventory/70001/${PACK}"`);
    expect(own).toContain('/admin/inventory/70001/2001"');

    const variant = await admin.get(`/admin/inventory/70001/${PACK}`);
    expect(variant.text).toContain(`id="stock-item-link">Comté wheel (6001)</a>`);
    expect(variant.text).toContain(`href="${ITEM_PAGE}?location=70001"`);
    expect(variant.text).not.toContain('Adjust stock');
    expect(variant.text).not.toContain('Set stock');
  });
});
