import { ean13CheckDigit } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import { createLogger } from '../../src/logger.js';
import { createApiKey } from '../../src/services/api-keys.js';
import type { RunningServer } from '../../src/main.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInboxWorker } from '../../src/services/events/inbox-worker.js';
import { reconcile } from '../../src/services/events/reconcile.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';
import { type AdminHttp, adminSession } from './support/admin-http.js';
import { coffeeShop, createPlatformSimulator } from '../support/platform-simulator.js';
import { staffWithPassword } from './support/admin-site.js';

type Order = NonNullable<ImportShop['orders']>[number];

/** An open order of the shop's platform with one measured line of 2001 (2 × 1.25 kg). */
const order = (id: string): Order => ({
  id,
  status: 'open',
  locationId: '70001',
  lineItems: [
    {
      id: `${id}1`,
      productId: '1001',
      variantId: '2001',
      quantity: 2,
      price: '30.00',
      properties: [
        {
          name: '_svc_data',
          value: JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 1.25 }] } }),
        },
      ],
    },
  ],
});

/** The cells of a table's body rows, as text. */
function tableRows(html: string, id: string): string[][] {
  const body = new RegExp(`<table id="${id}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
      cell[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/&#39;/g, "'")
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

/** Who made each change is recorded with it, and the admin's ledger and order history name them. */
describe.each(testDrivers())('who made a change, on $name', (driver) => {
  let db: Db;
  let server: RunningServer;
  let shop: { domain: string; shopId: string; key: string; keyId: string };
  let staff: { email: string; password: string };
  let staffId: string;
  let admin: AdminHttp;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    const [first, ...rest] = shopFixture().products!;
    shop = await seedShop(
      db,
      shopFixture({
        products: [
          {
            ...first!,
            variants: [
              {
                ...variantFixture('2001', 'kg', 1),
                inventory: [{ locationId: '70001', quantity: { value: 10, unit: 'kg' } }],
              },
              ...first!.variants.slice(1),
            ],
          },
          ...rest,
        ],
        orders: [order('5001'), order('5002')],
      }),
    );
    staff = await staffWithPassword(db, shop.domain);
    staffId = (await db.query<{ id: string }>('SELECT id::text FROM admin_users WHERE email = $1', [staff.email]))
      .rows[0]!.id;
    admin = await adminSession(server, staff.email, staff.password);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const actorsOf = async (variantId: string) =>
    (
      await db.query(
        `SELECT operation, actor_type, actor_id, actor_name FROM inventory_ledger
         WHERE shop_id = $1 AND variant_id = $2 ORDER BY id`,
        [shop.shopId, variantId],
      )
    ).rows;

  test('when an API write’s Idempotency-Key starts with "admin-", then the ledger names the API key, not the admin', async () => {
    const answer = await call(server, '/api/v1/inventory/adjustments', {
      key: shop.key,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'admin-looks-like-a-form' },
      body: JSON.stringify({
        locationId: '70001',
        adjustments: [{ variantId: '2003', delta: { value: 2, unit: 'lb' } }],
      }),
    });
    expect(answer.status).toBe(200);
    const rows = tableRows((await admin.get('/admin/inventory/70001/2003')).text, 'ledger');
    expect(rows.map((cells) => cells.slice(5))).toEqual([
      ['API write admin-looks-like-a-form', `API key ${shop.keyId}`],
    ]);
    expect(await actorsOf('2003')).toEqual([
      { operation: 'adjustment', actor_type: 'api_key', actor_id: shop.keyId, actor_name: null },
    ]);
  });

  test('when a key with a name writes stock, then the admin’s ledger names the key by it (escaped)', async () => {
    const named = await createApiKey(db, { shopDomain: shop.domain, name: 'Till <sync>' });
    const adjusted = await call(server, '/api/v1/inventory/adjustments', {
      key: named.token,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'named-key-1' },
      body: JSON.stringify({
        locationId: '70001',
        adjustments: [{ variantId: '2003', delta: { value: 1, unit: 'lb' } }],
      }),
    });
    expect(adjusted.status).toBe(200);
    const rows = tableRows((await admin.get('/admin/inventory/70001/2003')).text, 'ledger');
    expect(rows[0]!.at(-1)).toBe('API key “Till &lt;sync&gt;”');
    expect((await actorsOf('2003')).at(-1)).toEqual({
      operation: 'adjustment',
      actor_type: 'api_key',
      actor_id: named.keyId,
      actor_name: 'Till <sync>',
    });
  });

  test('when staff adjust stock in the admin, then the ledger row records them and the page names them; the API ledger stays as it was', async () => {
    const fields = await admin.formOn('/admin/inventory/70001/2002', '/adjust');
    expect(
      (await admin.post('/admin/inventory/70001/2002/adjust', { ...fields, delta: '300', unit: 'g' })).status,
    ).toBe(303);
    const rows = tableRows((await admin.get('/admin/inventory/70001/2002')).text, 'ledger');
    expect(rows.map((cells) => cells.slice(5))).toEqual([['Admin', staff.email]]);
    expect(await actorsOf('2002')).toEqual([
      { operation: 'adjustment', actor_type: 'staff', actor_id: staffId, actor_name: staff.email },
    ]);
    const read = await call(server, '/api/v1/inventory/ledger?locationId=70001&variantId=2002', { key: shop.key });
    expect(Object.keys(read.body.data.entries[0]).sort()).toEqual(
      [
        'createdAt',
        'delta',
        'id',
        'operation',
        'quantityAfter',
        'quantityBefore',
        'reference',
        'requestId',
        'unit',
      ].sort(),
    );
  });

  test('when staff edit an order in the admin and a key edits another, then the history and the stock each edit moved name who did it', async () => {
    const fields = await admin.formOn('/admin/orders/5001', '/edit');
    expect((await admin.post('/admin/orders/5001/edit', { ...fields, 'value-50011': '1.5' })).status).toBe(303);
    const patched = await call(server, '/api/v1/orders/5002', {
      key: shop.key,
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ edits: [{ lineItemId: '50021', measurement: { type: 'weight', value: 1, unit: 'kg' } }] }),
    });
    expect(patched.status).toBe(200);

    const byStaff = tableRows((await admin.get('/admin/orders/5001')).text, 'history');
    expect(byStaff[0]![1]).toBe(staff.email);
    const byKey = tableRows((await admin.get('/admin/orders/5002')).text, 'history');
    expect(byKey[0]![1]).toBe(`API key ${shop.keyId}`);
    const edits = await db.query(
      'SELECT order_id, api_key_id, actor_type, actor_id, actor_name FROM order_edits WHERE shop_id = $1 ORDER BY id',
      [shop.shopId],
    );
    expect(edits.rows).toEqual([
      { order_id: '5001', api_key_id: null, actor_type: 'staff', actor_id: staffId, actor_name: staff.email },
      { order_id: '5002', api_key_id: shop.keyId, actor_type: 'api_key', actor_id: shop.keyId, actor_name: null },
    ]);
    // 2001's ledger: the import that stated its stock, then each edit's own booking.
    expect(await actorsOf('2001')).toEqual([
      { operation: 'import', actor_type: 'import', actor_id: null, actor_name: null },
      { operation: 'order_edit', actor_type: 'staff', actor_id: staffId, actor_name: staff.email },
      { operation: 'order_edit', actor_type: 'api_key', actor_id: shop.keyId, actor_name: null },
    ]);
  });

  test('when the platform sells and the merchant types a figure there, then those rows name the platform', async () => {
    const coffee = await seedShop(db, coffeeShop({ kg: 10, g: 1250 }));
    const platform = createPlatformSimulator(db, coffee.shopId);
    const worker = createInboxWorker({ db, gateway: createLocalGateway(), logger: createLogger('silent') });
    await platform.deliver(
      await platform.placeOrder({
        id: '5001',
        locationId: '70001',
        lines: [{ id: '9001', variantId: '2001', quantity: 1, measure: { value: 2.5, unit: 'kg' } }],
      }),
    );
    await platform.deliver(await platform.typeStock('70001', '2002', 20));
    await worker.drainNow();
    const { rows } = await db.query(
      `SELECT variant_id, operation, actor_type, actor_id, actor_name FROM inventory_ledger
       WHERE shop_id = $1 AND operation <> 'import' ORDER BY id`,
      [coffee.shopId],
    );
    expect(rows).toEqual([
      { variant_id: '2001', operation: 'sale', actor_type: 'platform', actor_id: null, actor_name: null },
      {
        variant_id: '2002',
        operation: 'platform_adjustment',
        actor_type: 'platform',
        actor_id: null,
        actor_name: null,
      },
    ]);
  });

  test('when staff book a scanned scale label, then its ledger row names them', async () => {
    const demo = await seedShop(db, DEMO_CATALOG.shops[0]!);
    const counter = await staffWithPassword(db, DEMO_SHOP);
    const counterAdmin = await adminSession(server, counter.email, counter.password);
    // The demo shop's counter label: prefix 21, the Arabica's item 10001, 01234 g.
    const code = `211000101234${ean13CheckDigit('211000101234')}`;
    const fields = await counterAdmin.formOn('/admin/inventory', '/admin/inventory/scan');
    expect((await counterAdmin.post('/admin/inventory/scan', { ...fields, code })).status).toBe(303);
    const { rows } = await db.query(
      `SELECT delta, actor_type, actor_name FROM inventory_ledger
       WHERE shop_id = $1 AND operation = 'adjustment' ORDER BY id`,
      [demo.shopId],
    );
    expect(rows).toEqual([{ delta: '-1.234', actor_type: 'staff', actor_name: counter.email }]);
  });

  test('when reconciliation books an order and adopts a level that no event brought, then those rows name the platform', async () => {
    const coffee = await seedShop(db, coffeeShop({ kg: 10, g: 1250 }));
    const platform = createPlatformSimulator(db, coffee.shopId);
    // Neither change reaches Tare as an event: reconciliation finds them.
    await platform.placeOrder({
      id: '5001',
      locationId: '70001',
      lines: [{ id: '9001', variantId: '2001', quantity: 1, measure: { value: 2.5, unit: 'kg' } }],
    });
    await platform.typeStock('70001', '2002', 20);
    const [report] = await reconcile({ db, gateway: createLocalGateway() }, { shopDomain: coffee.domain, fix: true });
    expect(report!.ordersSynced).toBe(1);
    const { rows } = await db.query(
      `SELECT variant_id, operation, actor_type FROM inventory_ledger
       WHERE shop_id = $1 AND operation <> 'import' ORDER BY id`,
      [coffee.shopId],
    );
    expect(rows).toEqual([
      { variant_id: '2001', operation: 'sale', actor_type: 'platform' },
      { variant_id: '2002', operation: 'platform_adjustment', actor_type: 'platform' },
    ]);
  });

  test('when an API key sets a level, then the row names the key', async () => {
    const answer = await call(server, '/api/v1/inventory/levels', {
      key: shop.key,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'set-2001-to-4' },
      body: JSON.stringify({
        locationId: '70001',
        levels: [{ variantId: '2001', quantity: { value: 4, unit: 'kg' } }],
      }),
    });
    expect(answer.status).toBe(200);
    expect((await actorsOf('2001')).at(-1)).toEqual({
      operation: 'set',
      actor_type: 'api_key',
      actor_id: shop.keyId,
      actor_name: null,
    });
  });

  // Last: every way in above (API, admin forms, scan, import, platform events, reconciliation,
  // order edits by key and by staff) has written to this database by now.
  test('when every way in has written, then no ledger row and no order edit is without an actor', async () => {
    const ledger = await db.query<{ operation: string; n: number }>(
      `SELECT operation, count(*)::int AS n FROM inventory_ledger GROUP BY operation ORDER BY operation`,
    );
    expect(ledger.rows.map((row) => row.operation)).toEqual(
      expect.arrayContaining(['adjustment', 'import', 'order_edit', 'platform_adjustment', 'sale', 'set']),
    );
    const unnamed = await db.query(
      `SELECT 'ledger' AS what, id::text, operation FROM inventory_ledger WHERE actor_type IS NULL
       UNION ALL SELECT 'order edit', id::text, order_id FROM order_edits WHERE actor_type IS NULL`,
    );
    expect(unnamed.rows).toEqual([]);
  });
});
