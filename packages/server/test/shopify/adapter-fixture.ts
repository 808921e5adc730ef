import { createShopifyAdmin, type ShopifyAdmin } from '../../src/platform/shopify/admin-client.js';
import type { ShopifyConnection } from '../../src/platform/shopify/connection.js';
import type { Db } from '../../src/store/db.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';
import { seedShop } from '../support/harness.js';

export const LOCATION = '70001';
export const OTHER_LOCATION = '70002';
/** Variants of the coffee product, as Tare's catalog fixture names them. */
export const KG = '2001';
export const GRAMS = '2002';

/**
 * A shop of Tare's on the fake Shopify: one product with two variants at two locations, and an
 * admin client pointed at the fake (closing it fails the test if Tare sent a query Shopify's
 * schema lacks).
 */
export async function shopOnFakeShopify(db: Db): Promise<{ fake: FakeShopify; admin: ShopifyAdmin; shopId: string }> {
  const fake = await startFakeShopify();
  fake.addLocation({ id: LOCATION, name: 'Main store' });
  fake.addLocation({ id: OTHER_LOCATION, name: 'Warehouse' });
  fake.addProduct({
    id: '1001',
    title: 'Coffee beans',
    variants: [
      { id: KG, title: '1 kg', price: '20.00' },
      { id: GRAMS, title: '100 g', price: '2.50' },
    ],
  });
  const { shopId } = await seedShop(db);
  const connection: ShopifyConnection = {
    shopId,
    store: fake.store,
    apiVersion: fake.apiVersion,
    endpoint: fake.adminApiUrl,
    accessToken: fake.accessToken,
    clientSecret: fake.clientSecret,
    status: 'active',
  };
  return { fake, admin: createShopifyAdmin(connection), shopId };
}

/** The `_svc_data` a storefront puts on a measured line: `value` of `unit` per unit sold. */
export function svcData(value: number, unit = 'kg'): string {
  return JSON.stringify({ measurement: { type: 'weight', dimensions: [{ value, unit }] } });
}
