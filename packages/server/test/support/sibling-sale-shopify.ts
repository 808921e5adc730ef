import type { Db } from '../../src/store/db.js';
import type { CallRecord } from './fake-shopify/server.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import { LOC, startShopifyShop, svcData } from './shopify-shop.js';
import { itemWithSiblings } from './sibling-item.js';

// One sale on the fake Shopify of a stock item with `n` linked variants whose whole units all move
// (test/support/sibling-item.ts): what Tare then sent Shopify. For the stock-item Shopify test and
// `npm run bench` (bench/stock-items-shopify.ts).

export const SIBLING_ITEM = '5101';
export const siblingIds = (n: number) => Array.from({ length: n }, (_, i) => String(2201 + i));

/**
 * A running Tare on `db` following a coffee shop on the fake Shopify, plus the item (`kg` of it)
 * sold through `n` variants of product 1201, imported and pushed; `sell()` places an order of
 * 1 kg of the first sibling on Shopify and lets everything land, answering the calls Tare made
 * meanwhile (`sellOwnStock()` the same of a variant with its own stock). `close()` stops Tare and the fake.
 */
export async function shopWithSiblings(db: Db, n: number, kg = 100) {
  const shop = await startShopifyShop(db, { stock: { kg: 20 } });
  try {
    const ids = siblingIds(n);
    const { stockItem, product } = itemWithSiblings({
      itemId: SIBLING_ITEM,
      productId: '1201',
      variantIds: ids,
      locationId: LOC,
      kg,
    });
    shop.fake.addProduct({
      id: product.id,
      title: product.title,
      variants: ids.map((id) => ({ id, title: id, price: '3.00' })),
    });
    for (const id of ids) shop.fake.setAvailable(LOC, id, 0);
    const checked = validateImport({
      shops: [{ ...shop.importShop, stockItems: [stockItem], products: [...shop.importShop.products!, product] }],
    });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    await importCatalog({ db, gateway: shop.server.services.gateway, keyring: shop.keyring }, checked.value);
    await shop.settle();
  } catch (error) {
    await shop.close();
    throw error;
  }
  async function sellOnShopify(variantId: string): Promise<CallRecord[]> {
    const before = shop.fake.calls.length;
    shop.fake.placeOrder({ locationId: LOC, lines: [{ variantId, quantity: 1, customAttributes: svcData(1, 'kg') }] });
    await shop.settle();
    return shop.fake.calls.slice(before);
  }
  return {
    shop,
    ids: siblingIds(n),
    /** 1 kg of the item's first sibling (per 1 kg), sold on Shopify: the calls Tare made until all landed. */
    sell: () => sellOnShopify(siblingIds(n)[0]!),
    /** The same order of the coffee shop's variant 2001 (per 1 kg, stock of its own): the baseline. */
    sellOwnStock: () => sellOnShopify('2001'),
    close: () => shop.close(),
  };
}
