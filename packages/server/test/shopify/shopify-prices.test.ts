/**
 * Prices of a shop on Shopify (PRODUCT.md §16, §18; decision 87): the merchant edits them in
 * Shopify's admin, so a `products/update` re-reads the product's variant prices from Shopify and
 * Tare's variant price follows, and the variant's storefront metafield with it.
 */
import { readVariantMeasurementConfig } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { type ShopifyShop, startShopifyShop } from '../support/shopify-shop.js';

const NS = '$app:tare';

describe.each(testDrivers())('prices changed on Shopify on $name', ({ create }) => {
  let db: Db;
  let shop: ShopifyShop;
  beforeAll(async () => {
    db = await create();
    shop = await startShopifyShop(db, { stock: { kg: 5, g: 500 } });
  });
  afterAll(async () => {
    await shop?.close();
    await db?.close();
  });

  const metafieldPrice = (variantId: string) =>
    readVariantMeasurementConfig(shop.fake.metafield(variantId, NS, 'measurement'))?.price;
  /** Tare's stored price of the variant (the API does not answer prices; the storefront documents do). */
  const storedPrice = async (variantId: string) => {
    const { rows } = await db.query<{ price: string }>('SELECT price FROM variants WHERE shop_id = $1 AND id = $2', [
      shop.shopId,
      variantId,
    ]);
    return rows[0]!.price;
  };

  it('when the merchant changes a price on Shopify, then products/update brings it to Tare’s variant and its metafield', async () => {
    shop.fake.updateProduct('1001', { variants: [{ id: '2001', price: '21.40' }] });
    await shop.settle();
    expect(metafieldPrice('2001')).toBe('21.40');
    expect(await storedPrice('2001')).toBe('21.40');
    // The other variant holds Shopify's price too.
    const other = shop.fake.state.variants.get('2002')!.price;
    expect(Number(metafieldPrice('2002'))).toBe(Number(other));
  });

  it('when two price changes are delivered in reverse order, then the price is the one Shopify shows now', async () => {
    shop.fake.webhooks.hold();
    shop.fake.updateProduct('1001', { variants: [{ id: '2001', price: '22.00' }] });
    shop.fake.updateProduct('1001', { variants: [{ id: '2001', price: '23.10' }] });
    await shop.fake.webhooks.release({ reverse: true });
    await shop.settle();
    expect(metafieldPrice('2001')).toBe('23.10');
    expect(await storedPrice('2001')).toBe('23.10');
  });

  it('when the price on Shopify equals Tare’s, then nothing is written', async () => {
    const writes = () => shop.fake.calls.filter((c) => c.operationName === 'SetMetafields').length;
    const before = writes();
    shop.fake.updateProduct('1001', { variants: [{ id: '2001', price: '23.1' }] });
    await shop.settle();
    expect(writes()).toBe(before);
    expect(metafieldPrice('2001')).toBe('23.10');
  });
});
