import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { ImportRefusedError } from '../../src/services/catalog-import/stored-stock.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { cheeseShop } from './support/cheese-shop.js';

// The import's guards around stock items (decision in docs/decisions.md): a file that would make
// stock vanish, count it twice or leave it unreadable is refused in words, nothing written.

describe.each(testDrivers())('stock item guards of the import on $name', ({ create }) => {
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

  /** Imports the changed shop; the issues when it is refused. */
  const reimport = async (shop: ImportShop) => {
    const checked = validateImport({ shops: [shop] });
    if (!checked.ok) throw new Error(`bad file: ${JSON.stringify(checked.issues)}`);
    try {
      await importCatalog({ db, gateway: createLocalGateway() }, checked.value);
      return [];
    } catch (error) {
      if (!(error instanceof ImportRefusedError)) throw error;
      return error.issues;
    }
  };
  const withVariant = (shop: ImportShop, j: number, change: Record<string, unknown>): ImportShop => {
    const product = shop.products![0]!;
    const variants = product.variants.map((v, k) => {
      if (k !== j) return v;
      const { inventory: _, ...rest } = v;
      return ('id' in change ? change : { ...rest, ...change }) as typeof v;
    });
    return { ...shop, products: [{ ...product, variants }] };
  };
  const levelOf = async (key: string, variantId: string) =>
    (await call(server, `/api/v1/inventory/levels?locationId=70001&variantId=${variantId}`, { key })).body.data
      .levels[0];
  const wheel = async (key: string) =>
    (await call(server, '/api/v1/stock-items/6001/levels?locationId=70001', { key })).body.data;

  it('when a variant holding stock of its own is linked, then it is refused naming the variant and its level; at 0 it links and follows the item', async () => {
    const shop = cheeseShop();
    const { key } = await seedShop(db, shop);
    const issues = await reimport(withVariant(shop, 0, { stockItemId: '6001' }));
    expect(issues).toEqual([
      {
        path: '/shops/0/products/0/variants/0/stockItemId',
        message:
          "variant 2001 holds stock of its own (3 kg at location 70001 (Main store)); set it to 0, or count it into stock item '6001', before linking the variant to the item",
      },
    ]);
    expect(await levelOf(key, '2001')).not.toHaveProperty('stockItemId');
    expect((await levelOf(key, '2001')).quantity).toEqual({ value: 3, unit: 'kg' });

    expect(await reimport(withVariant(shop, 2, { stockItemId: '6001' }))).toEqual([]);
    expect(await levelOf(key, '2003')).toMatchObject({
      stockItemId: '6001',
      quantity: { value: 2000, unit: 'g' },
      platform: { available: 8 },
    });
  });

  it('when a variant is unlinked without its own inventory, then it is refused; stating it, the variant keeps that and the item its stock', async () => {
    const shop = cheeseShop();
    const { key } = await seedShop(db, shop);
    expect(await levelOf(key, '2002')).toMatchObject({
      quantity: { value: 2000, unit: 'g' },
      platform: { available: 20 },
    });
    const issues = await reimport(withVariant(shop, 1, { stockItemId: null }));
    expect(issues).toEqual([
      {
        path: '/shops/0/products/0/variants/1/inventory',
        message:
          "variant 2002 stops selling from stock item '6001': state its own inventory (0 or what it holds) at location 70001",
      },
    ]);
    expect(await levelOf(key, '2002')).toMatchObject({ stockItemId: '6001' });

    const unlinked = withVariant(shop, 1, {
      stockItemId: null,
      inventory: [{ locationId: '70001', quantity: { value: 0, unit: 'g' } }],
    });
    expect(await reimport(unlinked)).toEqual([]);
    const level = await levelOf(key, '2002');
    expect(level).not.toHaveProperty('stockItemId');
    expect(level).toMatchObject({ quantity: { value: 0, unit: 'g' }, platform: { available: 0 } });
    expect((await wheel(key)).quantity).toEqual({ value: 2, unit: 'kg' });
  });

  it("when an item's type changes while it holds stock and is sold by a variant, or its unit would round the stock, then it is refused; a unit that converts exactly is taken", async () => {
    const shop = cheeseShop();
    const { key } = await seedShop(db, shop);
    const item = shop.stockItems![0]!;
    const { inventory: _, ...bare } = item;
    // The file leaves 2002's link as stored (no stockItemId): the store still has it sold from the wheel.
    const { stockItemId: _link, ...keptLink } = shop.products![0]!.variants[1]!;
    const kept = withVariant(shop, 1, keptLink);
    const volume = await reimport({ ...kept, stockItems: [{ ...bare, measurementType: 'volume', unit: 'L' }] });
    expect(volume).toEqual([
      {
        path: '/shops/0/stockItems/0/measurementType',
        message:
          "stock item '6001' holds stock counted in weight units (2 kg at location 70001 (Main store)); its type cannot change to volume: make a new stock item for it",
      },
      {
        path: '/shops/0/stockItems/0/measurementType',
        message: "stock item '6001' is sold by variant 2002 (weight); unlink them before its type changes to volume",
      },
    ]);
    const pounds = await reimport({ ...shop, stockItems: [{ ...bare, unit: 'lb' }] });
    expect(pounds).toEqual([
      {
        path: '/shops/0/stockItems/0/unit',
        message: 'would round the stock at location 70001: 2 kg has more than 9 decimal places in lb',
      },
    ]);
    expect((await wheel(key)).quantity).toEqual({ value: 2, unit: 'kg' });

    expect(await reimport({ ...shop, stockItems: [{ ...bare, unit: 'g' }] })).toEqual([]);
    expect((await wheel(key)).quantity).toEqual({ value: 2000, unit: 'g' });
    expect((await levelOf(key, '2002')).platform.available).toBe(20);
  });
});
