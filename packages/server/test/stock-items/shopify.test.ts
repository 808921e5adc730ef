/**
 * PRODUCT.md §20 on the fake Shopify, both stores: a stock item's siblings are pushed in one
 * `inventorySetQuantities` per change, each with its own `changeFromQuantity` (the fake checks it),
 * and orders and typed stock on different siblings, interleaved, end with Tare's exact total
 * and every sibling's whole units right.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dec, toPlainString } from '../../src/domain/decimal.js';
import { wholeUnitsOf } from '../../src/domain/sibling-units.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { KILO, LOOSE, PACK, SIBLINGS, WHEEL } from '../support/cheese-shop.js';
import { testDrivers } from '../support/databases.js';
import { variantFixture } from '../support/harness.js';
import { LOC, type ShopifyShop, startShopifyShop, svcData } from '../support/shopify-shop.js';

const UNITS = { [LOOSE]: ['g', 100], [PACK]: ['g', 250], [KILO]: ['kg', 1] } as const;

describe.each(testDrivers())('stock items on the fake Shopify on %s', (driver) => {
  let db: Db;
  let shop: ShopifyShop;

  beforeEach(async () => {
    db = await driver.create();
    shop = await startShopifyShop(db, { stock: { kg: 20 } });
    // The cheese on Shopify, then in Tare: one wheel of 2 kg sold three ways.
    shop.fake.addProduct({
      id: '1101',
      title: 'Comté',
      variants: SIBLINGS.map((id) => ({ id, title: id, price: '3.00', sku: `CHEESE-${id}` })),
    });
    for (const id of SIBLINGS) shop.fake.setAvailable(LOC, id, 0);
    const linked = (id: string) => {
      const [unit, value] = UNITS[id as keyof typeof UNITS];
      return { ...variantFixture(id, unit, value), stockItemId: WHEEL };
    };
    const file = {
      ...shop.importShop,
      stockItems: [
        {
          id: WHEEL,
          title: 'Comté wheel',
          measurementType: 'weight' as const,
          unit: 'kg',
          inventory: [{ locationId: LOC, quantity: { value: 2, unit: 'kg' } }],
        },
      ],
      products: [
        ...shop.importShop.products!,
        { id: '1101', title: 'Comté', measurementType: 'weight' as const, variants: SIBLINGS.map(linked) },
      ],
    };
    const checked = validateImport({ shops: [file] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    await importCatalog({ db, gateway: shop.server.services.gateway, keyring: shop.keyring }, checked.value);
    await shop.settle();
  });

  afterEach(async () => {
    await shop?.close();
    await db?.close();
  });

  async function wheel(): Promise<Dec> {
    const { rows } = await db.query<{ total: string }>(
      `SELECT total FROM stock_item_levels WHERE shop_id = $1 AND location_id = $2 AND stock_item_id = $3`,
      [shop.shopId, LOC, WHEEL],
    );
    return new Dec(rows[0]!.total);
  }

  /** Shopify shows every sibling floor(total ÷ its unit), and the item's ledger sums to its total. */
  async function expectInStep(total: string) {
    expect(toPlainString(await wheel())).toBe(total);
    const { rows } = await db.query<{ sum: string }>(
      `SELECT COALESCE(sum(delta), 0)::text AS sum FROM inventory_ledger WHERE shop_id = $1 AND stock_item_id = $2`,
      [shop.shopId, WHEEL],
    );
    expect(toPlainString(new Dec(rows[0]!.sum))).toBe(total);
    for (const id of SIBLINGS) {
      const [unit, value] = UNITS[id as keyof typeof UNITS];
      expect(shop.shown(id), `Shopify's ${id}`).toBe(
        wholeUnitsOf(new Dec(total), 'kg', unit, new Dec(value)).toNumber(),
      );
    }
  }

  const sell = (variantId: string, quantity: number, value: number, unit: string) =>
    shop.fake.placeOrder({ locationId: LOC, lines: [{ variantId, quantity, customAttributes: svcData(value, unit) }] });

  it('a 250 g pack sold: the wheel drops 0.25 kg and the other siblings are pushed in one call, each compared with what Shopify showed', async () => {
    await expectInStep('2');
    const before = shop.fake.calls.length;
    sell(PACK, 1, 250, 'g');
    await shop.settle();
    await expectInStep('1.75');
    const pushes = shop.fake.calls
      .slice(before)
      .filter((call) => call.rootFields.includes('inventorySetQuantities') && call.httpStatus === 200);
    expect(pushes).toHaveLength(1);
    const input = pushes[0]!.variables.input as {
      quantities: { inventoryItemId: string; quantity: number; changeFromQuantity: number }[];
    };
    // The pack moved on Shopify by itself (8 → 7 = floor(1.75 ÷ 0.25)); loose 20 → 17 and kilo 2 → 1 are pushed.
    expect(
      input.quantities
        .map((q) => [q.inventoryItemId, q.changeFromQuantity, q.quantity])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual(
      [
        [`gid://shopify/InventoryItem/${shop.fake.inventoryItemId(LOOSE)}`, 20, 17],
        [`gid://shopify/InventoryItem/${shop.fake.inventoryItemId(KILO)}`, 2, 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('orders and typed stock on different siblings, interleaved, end in step', async () => {
    sell(PACK, 1, 250, 'g');
    sell(LOOSE, 2, 150, 'g');
    shop.fake.merchantSetsStock(LOC, KILO, 3);
    sell(KILO, 1, 1, 'kg');
    await shop.settle();
    // The sales take 0.25 + 0.3 + 1 kg off the 2 kg wheel (0.45 kg, kilo 0 whole units); the merchant's
    // kilo figure stands (3, then the sale's 1 off: 2), so 2 × 1 kg are adopted on the wheel.
    const total = await wheel();
    expect(toPlainString(total)).toBe('2.45');
    await expectInStep(toPlainString(total));
  });
});
