import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { buy, send, settle, svcData, typeStock } from '../sandbox/support.js';
import { type AdminHttp, adminSession } from './support/admin-http.js';
import { staffWithPassword } from './support/admin-site.js';

/** The cells of a table's body rows as markup (links and titles kept). */
function rowsOf(html: string, id: string): string[][] {
  const body = new RegExp(`<table id="${id}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]!.replace(/\s+/g, ' ').trim()),
  );
}
const text = (markup: string) => markup.replace(/<[^>]+>/g, '').trim();

/** Quantities, times and ledger words as the admin shows them to a person (issue 25). */
describe.each(testDrivers())('numbers, times and words in the admin on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let shop: { domain: string; shopId: string; key: string; keyId: string };
  let admin: AdminHttp;
  let orderId: string;
  let refundId: string;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    const fixture = shopFixture();
    fixture.products![0]!.variants![0]!.inventory = [{ locationId: '70001', quantity: { value: 10, unit: 'kg' } }];
    shop = await seedShop(db, fixture);
    // A sale of 2 × 1.015340867 kg, one of them refunded with return, then 9 typed on the platform.
    const order = await buy(server, shop.key, [
      { id: 2001, quantity: 2, properties: { _svc_data: svcData('weight', 1.015340867, 'kg') } },
    ]);
    orderId = String(order.id);
    await settle(server, db);
    const refund = await send(server, shop.key, 'POST', `/sandbox/orders/${orderId}/refunds`, {
      lines: [{ lineItemId: order.line_items[0].id, quantity: 1, restockType: 'return' }],
    });
    refundId = String(refund.body.refund.id);
    await settle(server, db);
    await typeStock(server, shop.key, '2001', 9);
    await settle(server, db);
    const staff = await staffWithPassword(db, shop.domain);
    admin = await adminSession(server, staff.email, staff.password);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  test('when a level holds more digits than a person reads, then it shows 2 places for kg and every digit on hover and in a detail', async () => {
    const page = (await admin.get('/admin/inventory/70001/2001')).text;
    // 10 − 2 × 1.015340867 + 1.015340867 = 8.984659133 kg; 9 typed on the platform adds 1 kg.
    const exact = /<dd id="exact-total">([\s\S]*?)<\/dd>/.exec(page)![1]!;
    expect(exact).toBe('<span class="rounded" title="Exactly 9.984659133 kg">9.98 kg</span>');
    expect(/<span id="exact-total-digits">([^<]*)<\/span>/.exec(page)![1]).toBe('9.984659133 kg');
    const overview = (await admin.get('/admin/inventory')).text;
    expect(overview).toContain('<span class="rounded" title="Exactly 9.984659133 kg">9.98 kg</span>');
  });

  test('when the ledger is read, then operations are words, causes link to the order and the refund’s order, and no event id shows', async () => {
    const page = (await admin.get('/admin/inventory/70001/2001')).text;
    const rows = rowsOf(page, 'ledger');
    expect(rows.map((cells) => text(cells[1]!))).toEqual(['Typed on the platform', 'Refund', 'Sale', 'Import']);
    expect(rows.map((cells) => cells[5])).toEqual([
      expect.stringMatching(/^<span title="Platform event [^"]+">Change on the platform<\/span>$/),
      `<a href="/admin/orders/${orderId}#bookings-heading">Refund ${refundId} of order ${orderId}</a>`,
      `<a href="/admin/orders/${orderId}">Order ${orderId}</a>`,
      'Import',
    ]);
    // Changes signed and rounded; the exact change on hover.
    expect(text(rows[2]![2]!)).toBe('-2.03 kg');
    expect(rows[2]![2]).toContain('title="Exactly -2.030681734 kg"');
    expect(text(rows[1]![2]!)).toBe('+1.02 kg');
    // The platform's event id is kept for support, in the title only.
    expect(page.replace(/title="[^"]*"/g, '')).not.toMatch(/sandbox:/);
  });

  test('when ledger entries share a minute, then their times carry seconds and the others do not', async () => {
    const { rows: ids } = await db.query<{ id: string }>(
      `SELECT id::text FROM inventory_ledger WHERE shop_id = $1 AND variant_id = '2001' ORDER BY id`,
      [shop.shopId],
    );
    const at = ['2026-03-01T08:00:00Z', '2026-03-01T09:15:05Z', '2026-03-01T09:15:41Z', '2026-03-02T10:00:00Z'];
    for (const [i, { id }] of ids.entries()) {
      await db.query('UPDATE inventory_ledger SET created_at = $2 WHERE shop_id = $1 AND id = $3', [
        shop.shopId,
        at[i],
        id,
      ]);
    }
    const rows = rowsOf((await admin.get('/admin/inventory/70001/2001')).text, 'ledger');
    expect(rows.map((cells) => cells[0])).toEqual([
      '<time datetime="2026-03-02T10:00:00.000Z" data-local>2026-03-02 10:00 UTC</time>',
      '<time datetime="2026-03-01T09:15:41.000Z" data-local data-seconds>2026-03-01 09:15:41 UTC</time>',
      '<time datetime="2026-03-01T09:15:05.000Z" data-local data-seconds>2026-03-01 09:15:05 UTC</time>',
      '<time datetime="2026-03-01T08:00:00.000Z" data-local>2026-03-01 08:00 UTC</time>',
    ]);
  });

  test('when the pages with times open, then every UTC time is a <time> the browser rewrites in its zone', async () => {
    const pages = [
      '/admin/inventory/70001/2001',
      '/admin/orders',
      `/admin/orders/${orderId}`,
      '/admin/api-keys',
      '/admin/settings',
    ];
    let times = 0;
    for (const path of pages) {
      const html = (await admin.get(path)).text;
      for (const match of html.matchAll(/(<[^<>]*>)?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})? UTC)/g)) {
        expect(match[1], `${path}: ${match[2]}`).toMatch(/^<time datetime="[^"]+" data-local( data-seconds)?>$/);
        times += 1;
      }
    }
    // The ledger, the orders list, the order's placing and the key's creation at least.
    expect(times).toBeGreaterThanOrEqual(4);
  });

  test('when a key is made to expire on a day, then the list shows that day and the revoke confirmation names the key by name and prefix', async () => {
    const fields = await admin.formOn('/admin/api-keys', '/admin/api-keys');
    const created = await admin.post('/admin/api-keys', { ...fields, name: 'Till sync', expiresAt: '2027-06-30' });
    expect(created.status).toBe(201);
    const keyId = /apik_([^_"]+)_/.exec(created.text)![1]!;
    const row = rowsOf(created.text, 'keys').find((cells) => cells.some((cell) => cell.includes('Till sync')))!;
    expect(row[4]).toBe(
      '<time datetime="2027-06-30" title="Stops working at the end of that day (UTC)">2027-06-30</time>',
    );
    expect(created.text).toContain(
      `data-confirm="Revoke the key “Till sync” (apik_${keyId}_…)? Requests with it will fail at once."`,
    );
  });
});
