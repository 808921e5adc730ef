import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CATALOG } from '../../src/cli/demo-catalog.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { type AdminHttp, adminSession } from './support/admin-http.js';
import { staffWithPassword } from './support/admin-site.js';

const CARPET_PAGE = '/admin/products/1006/variants/2501';

// PRODUCT.md §19 in the admin: the variant form edits an area or volume variant's factors and
// overage, checked by the import's own rules, each refusal beside its field.
describe.each(testDrivers())("the variant form's dimensions on $name", (driver) => {
  let db: Db;
  let server: RunningServer;
  let shop: { domain: string; shopId: string; key: string };
  let admin: AdminHttp;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
    const demo = structuredClone(DEMO_CATALOG.shops[0]!);
    demo.domain = `dimensions-${Math.random().toString(36).slice(2, 10)}.example`;
    shop = await seedShop(db, demo);
    const staff = await staffWithPassword(db, shop.domain);
    admin = await adminSession(server, staff.email, staff.password);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const carpetSettings = async () => {
    const answer = await call(server, '/api/v1/products/1006/variants/2501', { key: shop.key });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.variant.settings.onlineStore;
  };

  test("when the carpet's roll width and overage are edited, then the API's variant carries them and the preview shows the factors", async () => {
    const fields = await admin.formOn(CARPET_PAGE, '/variants/2501');
    expect(fields).toMatchObject({
      factorName_1: 'width',
      factorFixed_1: '4',
      factorUnit_1: 'm',
      overagePercent: '10',
    });

    const saved = await admin.post(CARPET_PAGE, { ...fields, factorFixed_1: '5', overagePercent: '12.5' });

    expect(saved.status).toBe(303);
    const onlineStore = await carpetSettings();
    expect(onlineStore.dimensions).toEqual([
      { name: 'length', unit: 'm', rules: { min: 0.5, increment: 0.01, defaultValue: 1, max: 50 } },
      { name: 'width', unit: 'm', fixed: 5 },
    ]);
    expect(onlineStore.overagePercent).toBe(12.5);
    // 1 m × 5 m + 12.5 % = 5.625 → 5.63 m² on the 0.01 grid.
    const page = await admin.get(CARPET_PAGE);
    expect(page.text).toContain('5.63 m2');
    expect(page.text).toContain('1 m × 5 m');
  });

  test('when a factor breaks its rules, then it is refused beside its field in words and nothing is saved', async () => {
    const before = await carpetSettings();
    const fields = await admin.formOn(CARPET_PAGE, '/variants/2501');

    const refused = await admin.post(CARPET_PAGE, { ...fields, factorMin_0: '2', overagePercent: '150' });
    const unnamed = await admin.post(CARPET_PAGE, { ...fields, factorName_1: '' });

    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="factorDefault_0-error">Length default value [^<]*below the minimum/);
    expect(refused.text).toMatch(/id="overagePercent-error">Overage percent must be a number from 0 to 100/);
    expect(refused.text).toContain('aria-invalid="true"');
    expect(unnamed.status).toBe(400);
    expect(unnamed.text).toMatch(/id="factorName_1-error">Factor 2 name must not be empty/);
    expect(await carpetSettings()).toEqual(before);
  });

  test('when a number cannot be read, or a factor has both a fixed value and rules, then each is said at its field', async () => {
    const before = await carpetSettings();
    const fields = await admin.formOn(CARPET_PAGE, '/variants/2501');

    const unreadable = await admin.post(CARPET_PAGE, { ...fields, factorFixed_1: 'four' });
    expect(unreadable.status).toBe(400);
    expect(unreadable.text).toMatch(/id="factorFixed_1-error">Width fixed value /);

    const both = await admin.post(CARPET_PAGE, {
      ...fields,
      factorMin_1: '1',
      factorIncrement_1: '1',
      factorDefault_1: '4',
    });
    expect(both.status).toBe(400);
    expect(both.text).toMatch(/id="factorFixed_1-error">Width fixed value [^<]*exactly one of rules or fixed/);
    expect(await carpetSettings()).toEqual(before);
  });

  test('when every factor and the overage are left blank, then the carpet is sold by its area directly', async () => {
    const fields = await admin.formOn(CARPET_PAGE, '/variants/2501');
    const blank = Object.fromEntries(
      Object.keys(fields)
        .filter((name) => /^(factor(Name|Fixed|Min|Increment|Default|Max)_\d|overagePercent)$/.test(name))
        .map((name) => [name, '']),
    );

    expect((await admin.post(CARPET_PAGE, { ...fields, ...blank })).status).toBe(303);

    const onlineStore = await carpetSettings();
    expect(onlineStore.dimensions).toBeUndefined();
    expect(onlineStore.overagePercent).toBeUndefined();
  });

  test('when the form is posted without its CSRF token, then it is 403 and nothing is saved', async () => {
    const before = await carpetSettings();
    const fields = await admin.formOn(CARPET_PAGE, '/variants/2501');

    const forged = await admin.post(CARPET_PAGE, { ...fields, _csrf: 'forged', factorFixed_1: '3' });

    expect(forged.status).toBe(403);
    expect(await carpetSettings()).toEqual(before);
  });

  test('when the form is previewed with other factors, then the line is built from those typed, not those stored', async () => {
    const fields = await admin.formOn(CARPET_PAGE, '/variants/2501');
    const { _csrf: _, ...typed } = fields;
    // Every factor typed, whatever an earlier test saved.
    const carpet = {
      factorName_0: 'length',
      factorUnit_0: 'm',
      factorMin_0: '0.5',
      factorIncrement_0: '0.01',
      factorDefault_0: '2.35',
      factorMax_0: '50',
      factorName_1: 'width',
      factorUnit_1: 'm',
      factorFixed_1: '4',
      overagePercent: '10',
    };
    const query = new URLSearchParams({ ...typed, ...carpet });

    const preview = await admin.get(`${CARPET_PAGE}/preview?${query}`);
    const wrong = await admin.get(
      `${CARPET_PAGE}/preview?${new URLSearchParams({ ...typed, ...carpet, overagePercent: '150' })}`,
    );

    expect(preview.status).toBe(200);
    // 2.35 m × 4 m + 10 % = 10.34 m² (PRODUCT.md §19's example).
    const [line] = JSON.parse(preview.text).lines;
    expect(line.measurement).toBe('10.34 m2');
    expect(line.properties).toEqual(expect.arrayContaining([{ name: 'Dimensions', value: '2.35 m × 4 m' }]));
    expect(JSON.parse(wrong.text)).toMatchObject({
      lines: [],
      problems: ['Overage percent must be a number from 0 to 100'],
    });
  });

  test('when a product is not area or volume, then its variant form offers no factors', async () => {
    const page = await admin.get('/admin/products/1001/variants/2001');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('factorName_0');
  });
});
