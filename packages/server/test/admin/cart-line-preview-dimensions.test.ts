import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewCartLines } from '../../src/admin/routes/products/cart-line-preview.js';
import { DEMO_CATALOG } from '../../src/cli/demo-catalog.js';
import type { Db } from '../../src/store/db.js';
import { findShopById } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';

// PRODUCT.md §19 in the admin: the product page's cart-line preview of the demo carpet builds the
// line from its factors' default values (1 m × the fixed 4 m, + 10 %).
describe.each(testDrivers())('the cart-line preview of a variant made from dimensions on $name', ({ create }) => {
  let db: Db;

  beforeAll(async () => {
    db = await create();
  });

  afterAll(async () => {
    await db?.close();
  });

  it('when the carpet is previewed, then its line is 4.4 m² at $127.60 with the factors and the overage shown', async () => {
    const shop = structuredClone(DEMO_CATALOG.shops[0]!);
    shop.domain = `preview-${Math.random().toString(36).slice(2, 10)}.example`;
    const { shopId } = await seedShop(db, shop);
    const carpet = shop.products!.find((p) => p.id === '1006')!.variants[0]!;

    const preview = await previewCartLines(
      db,
      (await findShopById(db, shopId))!,
      { id: '1006', measurementType: 'area' },
      {
        id: carpet.id,
        price: carpet.price,
        unitMeasurement: carpet.unitMeasurement,
        settings: carpet.settings,
      },
    );

    expect(preview.problems).toEqual([]);
    expect(preview.lines).toHaveLength(1);
    const [line] = preview.lines;
    expect(line).toMatchObject({ choice: 'Default dimensions', measurement: '4.4 m2', linePrice: '$127.60' });
    expect(line!.properties.slice(1)).toEqual(
      expect.arrayContaining([
        { name: 'Dimensions', value: '1 m × 4 m' },
        { name: 'Overage', value: 'Includes 10% extra' },
      ]),
    );
  });
});
