import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { adminSession } from '../admin/support/admin-http.js';
import { staffWithPassword } from '../admin/support/admin-site.js';
import { demoShop } from '../sandbox/storefront-journey.js';
import { settle, svcData } from '../sandbox/support.js';
import { testDrivers } from '../support/databases.js';
import { call, startTestServer } from '../support/harness.js';

// The "done when": the demo shop sells one Comté wheel three ways; a new user buys a
// 250 g pack in the sandbox storefront and sees, through the API and the admin, the wheel drop by
// exactly 0.25 kg and all three variants' whole units follow.

const [LOOSE, PACK, KILO] = ['2701', '2702', '2703'];

describe.each(testDrivers())('the demo cheese on $name', ({ create }) => {
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

  it('a 250 g pack bought in the storefront takes exactly 0.25 kg off the wheel, and every variant follows', async () => {
    const { key } = await demoShop(db);
    const wheel = async () =>
      (await call(server, '/api/v1/stock-items/6001/levels?locationId=70001', { key })).body.data;
    const before = await wheel();
    expect(before.quantity).toEqual({ value: 4.5, unit: 'kg' });
    expect(before.variants.map((v: any) => v.platform.available)).toEqual([45, 18, 4]);

    // A customer's storefront session: the cart cookie it is given, then the checkout form.
    const root = `/sandbox/storefront/${DEMO_SHOP}/`;
    const added = await call(server, `${root}cart/add.js`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: Number(PACK), quantity: 1, properties: { _svc_data: svcData('weight', 250, 'g') } }],
      }),
    });
    expect(added.status).toBe(200);
    const cookie = added.headers.get('set-cookie')!.split(';')[0]!;
    const page = await call(server, `${root}checkout`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(page.status).toBe(200);
    await settle(server, db);

    const after = await wheel();
    expect(after.quantity).toEqual({ value: 4.25, unit: 'kg' });
    expect(after.variants.map((v: any) => [v.variantId, v.platform.available])).toEqual([
      [LOOSE, 42],
      [PACK, 17],
      [KILO, 4],
    ]);
    const levels = await call(
      server,
      `/api/v1/inventory/levels?locationId=70001&variantId=${LOOSE}&variantId=${PACK}&variantId=${KILO}`,
      {
        key,
      },
    );
    expect(levels.body.data.levels.map((l: any) => [l.quantity, l.platform.available])).toEqual([
      [{ value: 4250, unit: 'g' }, 42],
      [{ value: 4250, unit: 'g' }, 17],
      [{ value: 4.25, unit: 'kg' }, 4],
    ]);
    for (const variantId of [LOOSE, PACK, KILO]) {
      const shown = await call(server, `/sandbox/inventory?locationId=70001&variantId=${variantId}`, { key });
      expect(shown.body.available, `the platform's units of ${variantId}`).toBe(
        after.variants.find((v: any) => v.variantId === variantId).platform.available,
      );
    }

    // The admin shows the pack's level as the wheel's 4.25 kg (in the pack's grams) and the sale on the wheel.
    const staff = await staffWithPassword(db, DEMO_SHOP);
    const admin = await adminSession(server, staff.email, staff.password);
    const pagePack = await admin.get(`/admin/inventory/70001/${PACK}`);
    expect(pagePack.status).toBe(200);
    expect(pagePack.text).toMatch(/4,?250 g/);
    expect(pagePack.text).toMatch(/Sale/);
  });
});
