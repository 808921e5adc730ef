import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { ImportRefusedError } from '../../src/services/catalog-import/stored-stock.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { shopFixture, variantFixture } from '../support/harness.js';

const KG = { prefix: '21', itemDigits: 5, value: 'weight', valueDigits: 5, decimals: 3, unit: 'kg' } as const;
const PRICE = {
  prefix: '02',
  itemDigits: 4,
  value: 'price',
  valueDigits: 5,
  decimals: 2,
  priceCheckDigit: true,
} as const;

/** A shop with the kg and price formats; variant 2001 is item 10001, 2002 none. */
function scaleShop(overrides: Partial<ImportShop> = {}): ImportShop {
  return shopFixture({
    settings: { scaleBarcodes: [KG, PRICE] },
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: [{ ...variantFixture('2001', 'kg', 1), scaleItem: '10001' }, variantFixture('2002', 'g', 100)],
      },
    ],
    ...overrides,
  });
}

/** The shop with its variants' scale items replaced: `undefined` leaves the field out of the file. */
function withItems(shop: ImportShop, items: Record<string, string | null | undefined>): ImportShop {
  const copy = structuredClone(shop);
  for (const variant of copy.products![0]!.variants) {
    if (variant.id in items) {
      const item = items[variant.id];
      if (item === undefined) delete variant.scaleItem;
      else variant.scaleItem = item;
    }
  }
  return copy;
}

describe.each(testDrivers({ citus: true }))('Scale labels in the catalog import on $name', ({ create }) => {
  let db: Db;
  const gateway = createLocalGateway();

  beforeAll(async () => {
    db = await create();
  });

  afterAll(async () => {
    await db?.close();
  });

  async function importShop(shop: ImportShop) {
    const checked = validateImport({ shops: [shop] });
    if (!checked.ok) return { issues: checked.issues };
    try {
      const summary = await importCatalog({ db, gateway }, checked.value);
      return { changes: summary.shops[0]!.changes };
    } catch (error) {
      if (error instanceof ImportRefusedError) return { issues: error.issues, refused: true };
      throw error;
    }
  }

  const stored = async (domain: string) => {
    const { rows: shops } = await db.query<{ scale_barcodes: unknown }>(
      'SELECT scale_barcodes FROM shops WHERE domain = $1',
      [domain],
    );
    const { rows: variants } = await db.query<{ id: string; scale_item: string | null }>(
      `SELECT v.id, v.scale_item FROM variants v JOIN shops s ON s.id = v.shop_id WHERE s.domain = $1 ORDER BY v.id`,
      [domain],
    );
    return {
      formats: shops[0]?.scale_barcodes,
      items: Object.fromEntries(variants.map((v) => [v.id, v.scale_item])),
    };
  };

  describe('happy', () => {
    it('when a shop states formats and a scale item, then both are stored as written', async () => {
      const shop = scaleShop();

      expect(await importShop(shop)).toEqual({ changes: expect.any(Number) });

      expect(await stored(shop.domain)).toEqual({ formats: [KG, PRICE], items: { '2001': '10001', '2002': null } });
    });

    it('when the same file is imported again, then nothing changes', async () => {
      const shop = scaleShop();
      await importShop(shop);

      expect(await importShop(shop)).toEqual({ changes: 0 });
    });

    it('when a later file leaves formats and items out, then they are kept; null clears an item, [] the formats', async () => {
      const shop = scaleShop();
      await importShop(shop);

      await importShop(withItems({ ...shop, settings: {} }, { '2001': undefined }));
      expect(await stored(shop.domain)).toEqual({ formats: [KG, PRICE], items: { '2001': '10001', '2002': null } });

      await importShop(withItems({ ...shop, settings: { scaleBarcodes: [] } }, { '2001': null }));
      expect(await stored(shop.domain)).toEqual({ formats: [], items: { '2001': null, '2002': null } });
    });

    it('when a file moves an item from one variant to another, then it is taken in one import', async () => {
      const shop = scaleShop();
      await importShop(shop);

      expect(await importShop(withItems(shop, { '2001': '10002', '2002': '10001' }))).toEqual({ changes: 2 });

      expect((await stored(shop.domain)).items).toEqual({ '2001': '10002', '2002': '10001' });
    });

    it("when another shop's variant keeps an item, then a shop may give the same item to its own variant", async () => {
      const other = scaleShop();
      await importShop(other);
      // Its own 2001 (the other shop's holder's id) is not restated: only a holder in this shop counts.
      const shop = withItems(scaleShop(), { '2001': undefined, '2002': '10001' });

      expect(await importShop(shop)).toEqual({ changes: expect.any(Number) });

      expect((await stored(shop.domain)).items).toEqual({ '2001': null, '2002': '10001' });
      expect((await stored(other.domain)).items).toEqual({ '2001': '10001', '2002': null });
    });
  });

  describe('errors', () => {
    it('when formats and items are wrong in many ways, then every issue is named at once and nothing is written', async () => {
      const shop = withItems(
        scaleShop({
          settings: {
            scaleBarcodes: [
              { ...KG, itemDigits: 6 },
              { ...PRICE, prefix: '30' },
              { ...KG, unit: undefined, itemDigits: 4, valueDigits: 6 },
            ],
          },
        }),
        { '2001': '123', '2002': '123' },
      );

      expect(await importShop(shop)).toEqual({
        issues: [
          {
            path: '/shops/0/settings/scaleBarcodes/0/valueDigits',
            message: 'prefix 2 + item 6 + value 5 + check digit 1 makes 14 digits, not 13',
          },
          {
            path: '/shops/0/settings/scaleBarcodes/1/prefix',
            message: "'30' is not a GS1 variable-measure prefix (20–29 or 02)",
          },
          { path: '/shops/0/settings/scaleBarcodes/2/unit', message: "a weight format needs a weight unit, not ''" },
          { path: '/shops/0/settings/scaleBarcodes/2/prefix', message: "prefix '21' appears twice" },
          {
            path: '/shops/0/products/0/variants/0/scaleItem',
            message: "has 3 digits; the shop's scale label formats take 6 or 4",
          },
          {
            path: '/shops/0/products/0/variants/1/scaleItem',
            message: "has 3 digits; the shop's scale label formats take 6 or 4",
          },
          { path: '/shops/0/products/0/variants/1/scaleItem', message: "scale item '123' appears twice" },
        ],
      });
      expect(await stored(shop.domain)).toEqual({ formats: undefined, items: {} });
    });

    it('when a scale item is not digits, then the schema names it', async () => {
      const shop = withItems(scaleShop(), { '2001': '1000A' });

      expect(await importShop(shop)).toEqual({
        issues: [{ path: '/shops/0/products/0/variants/0/scaleItem', message: expect.stringContaining('must') }],
      });
    });

    it('when a file without formats gives an item no stored format takes, then the import is refused there', async () => {
      const shop = scaleShop();
      await importShop(shop);

      const result = await importShop(withItems({ ...shop, settings: {} }, { '2002': '123456' }));

      expect(result).toEqual({
        refused: true,
        issues: [
          {
            path: '/shops/0/products/0/variants/1/scaleItem',
            message: "has 6 digits; the shop's scale label formats take 5 or 4",
          },
        ],
      });
      expect((await stored(shop.domain)).items).toEqual({ '2001': '10001', '2002': null });
    });

    it('when an item is kept by a variant the file does not restate, then the import is refused and nothing is written', async () => {
      const shop = scaleShop();
      await importShop(shop);

      const result = await importShop(withItems(shop, { '2001': undefined, '2002': '10001' }));

      expect(result).toEqual({
        refused: true,
        issues: [{ path: '/shops/0/products/0/variants/1/scaleItem', message: "scale item '10001' is variant 2001's" }],
      });
      expect((await stored(shop.domain)).items).toEqual({ '2001': '10001', '2002': null });
    });
  });
});
