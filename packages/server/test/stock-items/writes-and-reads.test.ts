import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec, toPlainString } from '../../src/domain/decimal.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { cheeseShop, COFFEE, KILO, LOOSE, PACK, SIBLINGS, WHEEL } from '../support/cheese-shop.js';
import { testDrivers } from '../support/databases.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import { call, expectErrorEnvelope, seedShop, startTestServer } from '../support/harness.js';
import { inventorySender } from '../support/inventory-requests.js';

// PRODUCT.md §20: writes and reads by variant on a stock item shared by three variants.

const adjust = inventorySender('/api/v1/inventory/adjustments', 'POST');
const setLevels = inventorySender('/api/v1/inventory/levels', 'PUT');

describe.each(testDrivers({ citus: true }))('stock items: writes and reads by variant on $name', ({ create }) => {
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

  /** What the embedded platform shows for each variant at 70001. */
  async function platformUnits(shopId: string, variantIds: string[]): Promise<number[]> {
    const { rows } = await db.query<{ variant_id: string; available: string }>(
      `SELECT variant_id, available FROM local_platform_levels WHERE shop_id = $1 AND location_id = '70001'`,
      [shopId],
    );
    return variantIds.map((id) => Number(rows.find((r) => r.variant_id === id)?.available ?? NaN));
  }

  /** The item's total and its ledger's sum and chain, which must agree. */
  async function itemBook(shopId: string) {
    const level = await db.query<{ total: string }>(
      `SELECT total FROM stock_item_levels WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = $2`,
      [shopId, WHEEL],
    );
    const ledger = await db.query<{ before: string; after: string; delta: string; variant_id: string | null }>(
      `SELECT quantity_before AS before, quantity_after AS after, delta, variant_id FROM inventory_ledger
       WHERE shop_id = $1 AND location_id = '70001' AND stock_item_id = $2 ORDER BY id`,
      [shopId, WHEEL],
    );
    const sum = ledger.rows.reduce((acc, row) => acc.plus(row.delta), new Dec(0));
    const broken = ledger.rows.filter((row, i) => i > 0 && !new Dec(row.before).eq(ledger.rows[i - 1]!.after));
    return { total: toPlainString(new Dec(level.rows[0]!.total)), sum: toPlainString(sum), broken, rows: ledger.rows };
  }

  it('imports the wheel once and shows every variant its whole units: 1 kg is 10, 4 and 1', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    expect(await platformUnits(shop.shopId, SIBLINGS)).toEqual([10, 4, 1]);
    const levels = await call(
      server,
      `/api/v1/inventory/levels?locationId=70001&variantId=${LOOSE}&variantId=${KILO}&variantId=${COFFEE}`,
      {
        key: shop.key,
      },
    );
    expect(levels.status).toBe(200);
    expect(
      levels.body.data.levels.map((l: any) => [l.quantity, l.platform.available, l.fraction, l.stockItemId]),
    ).toEqual([
      [{ value: 1000, unit: 'g' }, 10, { value: 0, unit: 'g' }, WHEEL],
      [{ value: 1, unit: 'kg' }, 1, { value: 0, unit: 'kg' }, WHEEL],
      [{ value: 5, unit: 'kg' }, 5, { value: 0, unit: 'kg' }, undefined],
    ]);
    expect(await itemBook(shop.shopId)).toMatchObject({ total: '1', sum: '1', broken: [] });
  });

  it('takes a 250 g pack off the wheel: 0.75 kg, and every variant follows (7, 3 and 0)', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    const answer = await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [
        { variantId: PACK, delta: { value: -1, unit: 'g' } },
        { variantId: COFFEE, delta: { value: -0.5, unit: 'kg' } },
      ],
    });
    expect(answer.status).toBe(200);
    const again = await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [{ variantId: PACK, delta: { value: -249, unit: 'g' } }],
    });
    expect(again.status).toBe(200);
    expect(again.body.data.results).toEqual([
      {
        variantId: PACK,
        status: 'updated',
        previousQuantity: { value: 999, unit: 'g' },
        quantity: { value: 750, unit: 'g' },
      },
    ]);
    expect(await platformUnits(shop.shopId, [...SIBLINGS, COFFEE])).toEqual([7, 3, 0, 4]);
    expect(await itemBook(shop.shopId)).toMatchObject({ total: '0.75', sum: '0.75', broken: [] });
  });

  it('applies two siblings of one item in one adjustment in request order', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    const answer = await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [
        { variantId: KILO, delta: { value: 2, unit: 'kg' } },
        { variantId: LOOSE, delta: { value: -150, unit: 'g' } },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.results.map((r: any) => [r.previousQuantity, r.quantity])).toEqual([
      [
        { value: 1, unit: 'kg' },
        { value: 3, unit: 'kg' },
      ],
      [
        { value: 3000, unit: 'g' },
        { value: 2850, unit: 'g' },
      ],
    ]);
    expect(await platformUnits(shop.shopId, SIBLINGS)).toEqual([28, 11, 2]);
    const book = await itemBook(shop.shopId);
    expect(book).toMatchObject({ total: '2.85', sum: '2.85', broken: [] });
    expect(book.rows.map((r) => r.variant_id)).toEqual([null, KILO, LOOSE]);
  });

  it('refuses two siblings of one item in one PUT /inventory/levels (400), writing nothing', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    const answer = await setLevels(server, shop.key, {
      locationId: '70001',
      levels: [
        { variantId: COFFEE, quantity: { value: 2, unit: 'kg' } },
        { variantId: LOOSE, quantity: { value: 500, unit: 'g' } },
        { variantId: KILO, quantity: { value: 2, unit: 'kg' } },
      ],
    });
    const error = expectErrorEnvelope(answer, 400, 'bad_request');
    expect(error.details.errors).toEqual([
      { path: '/levels/2/variantId', message: expect.stringContaining(`stock item ${WHEEL}`) },
    ]);
    expect(await platformUnits(shop.shopId, [...SIBLINGS, COFFEE])).toEqual([10, 4, 1, 5]);
    expect(await itemBook(shop.shopId)).toMatchObject({ total: '1', sum: '1' });
  });

  it('sets the item through one sibling, answering in that variant unit', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    const answer = await setLevels(server, shop.key, {
      locationId: '70001',
      levels: [{ variantId: PACK, quantity: { value: 2.5, unit: 'kg' } }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.results[0]).toMatchObject({
      previousQuantity: { value: 1000, unit: 'g' },
      quantity: { value: 2500, unit: 'g' },
    });
    expect(await platformUnits(shop.shopId, SIBLINGS)).toEqual([25, 10, 2]);
  });

  it("reads the item's whole ledger by any sibling, each entry naming its variant", async () => {
    const shop = await seedShop(db, cheeseShop(1));
    await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [{ variantId: PACK, delta: { value: -250, unit: 'g' } }],
    });
    await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [{ variantId: LOOSE, delta: { value: -100, unit: 'g' } }],
    });
    const ledger = await call(server, `/api/v1/inventory/ledger?locationId=70001&variantId=${KILO}`, { key: shop.key });
    expect(ledger.status).toBe(200);
    expect(ledger.body.data.entries.map((e: any) => [e.operation, e.delta, e.unit, e.variantId])).toEqual([
      ['adjustment', -0.1, 'kg', LOOSE],
      ['adjustment', -0.25, 'kg', PACK],
      ['import', 1, 'kg', null],
    ]);
    const own = await call(server, `/api/v1/inventory/ledger?locationId=70001&variantId=${COFFEE}`, { key: shop.key });
    expect(own.body.data.entries.map((e: any) => ['variantId' in e, e.operation])).toEqual([[false, 'import']]);
  });

  it('GET /stock-items/{id}/levels shows the total in the item unit with every variant whole units and fraction', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [{ variantId: PACK, delta: { value: -0.25, unit: 'kg' } }],
    });
    await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [{ variantId: LOOSE, delta: { value: 50, unit: 'g' } }],
    });
    const answer = await call(server, `/api/v1/stock-items/${WHEEL}/levels?locationId=70001`, { key: shop.key });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      stockItemId: WHEEL,
      title: 'Comté wheel',
      locationId: '70001',
      quantity: { value: 0.8, unit: 'kg' },
      variants: [
        {
          variantId: LOOSE,
          unitMeasurement: { value: 100, unit: 'g' },
          platform: { available: 8 },
          fraction: { value: 0, unit: 'g' },
        },
        {
          variantId: PACK,
          unitMeasurement: { value: 250, unit: 'g' },
          platform: { available: 3 },
          fraction: { value: 50, unit: 'g' },
        },
        {
          variantId: KILO,
          unitMeasurement: { value: 1, unit: 'kg' },
          platform: { available: 0 },
          fraction: { value: 0.8, unit: 'kg' },
        },
      ],
      updatedAt: expect.any(String),
    });
    expect(await platformUnits(shop.shopId, SIBLINGS)).toEqual([8, 3, 0]);
    expectErrorEnvelope(
      await call(server, `/api/v1/stock-items/9999/levels?locationId=70001`, { key: shop.key }),
      404,
      'not_found',
    );
    expectErrorEnvelope(
      await call(server, `/api/v1/stock-items/${WHEEL}/levels?locationId=9`, { key: shop.key }),
      404,
      'not_found',
    );
    expectErrorEnvelope(
      await call(server, `/api/v1/stock-items/${WHEEL}/levels`, { key: shop.key }),
      400,
      'bad_request',
    );
    const other = await seedShop(db, cheeseShop(3));
    const theirs = await call(server, `/api/v1/stock-items/${WHEEL}/levels?locationId=70001`, { key: other.key });
    expect(theirs.body.data.quantity).toEqual({ value: 3, unit: 'kg' });
  });

  it('a linked variant names its stock item on the variant object; a variant with its own stock does not', async () => {
    const shop = await seedShop(db, cheeseShop(1));
    const pack = await call(server, `/api/v1/products/1101/variants/${PACK}`, { key: shop.key });
    expect(pack.status).toBe(200);
    expect(pack.body.data.variant.stockItemId).toBe(WHEEL);
    const coffee = await call(server, `/api/v1/products/1001/variants/${COFFEE}`, { key: shop.key });
    expect(coffee.body.data.variant).not.toHaveProperty('stockItemId');
  });

  it('re-importing the same file changes nothing', async () => {
    const file = cheeseShop(1);
    const shop = await seedShop(db, file);
    await adjust(server, shop.key, {
      locationId: '70001',
      adjustments: [{ variantId: PACK, delta: { value: -250, unit: 'g' } }],
    });
    const before = await itemBook(shop.shopId);
    const { stockItems: _, ...withoutLevels } = file;
    // A file stating the wheel again sets it; one leaving it out keeps it.
    await seedShop(db, { ...withoutLevels, stockItems: [{ ...file.stockItems![0]!, inventory: undefined }] } as any);
    expect(await itemBook(shop.shopId)).toEqual(before);
    expect(await platformUnits(shop.shopId, SIBLINGS)).toEqual([7, 3, 0]);
  });

  it('importing the same file with its stock item again reports it unchanged', async () => {
    // Citus counted every row an INSERT … SELECT … ON CONFLICT pulled through the coordinator as
    // written, even those its WHERE left alone: the wheel read as a change on every import.
    const checked = validateImport({ shops: [cheeseShop(1)] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    const importOnce = () => importCatalog({ db, gateway: createLocalGateway() }, checked.value);
    expect((await importOnce()).shops[0]!.changes).toBeGreaterThan(0);
    expect((await importOnce()).shops[0]!.changes).toBe(0);
  });
});
