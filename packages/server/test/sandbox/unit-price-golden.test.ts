/**
 * The unit price golden table (PRODUCT.md §21) through every layer a customer meets: the variant
 * answer, the picker's document on the product page, the picker's line and the cart line. €4.80
 * per 250 g is €19.20/kg; €3.99 per 12 fl oz is €11.24/L, or €1.12/100 ml where the shop states
 * 100 ml.
 */
import { pickLine, readShopConfig, readVariantConfig, shopLabels } from '@tare/client/picker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, startTestServer } from '../support/harness.js';
import { unitPricedShop } from '../support/unit-priced-shop.js';
import { visitor } from './support.js';

type UnitPricing = Parameters<typeof unitPricedShop>[0];

/** The unit-priced shop with its sandbox storefront open. */
function storefrontShop(unitPricing: UnitPricing) {
  const shop = unitPricedShop(unitPricing);
  return { ...shop, settings: { ...shop.settings, storefront: { enabled: true } } };
}

describe.each(testDrivers())('unit price golden table through the storefront on $name', ({ create }) => {
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

  /** The documents the product page embeds for the picker. */
  async function pageDocuments(domain: string, productId: string) {
    const page = await call(server, `/sandbox/storefront/${domain}/products/${productId}`);
    expect(page.status).toBe(200);
    const script = (attribute: string) =>
      JSON.parse(new RegExp(`<script type="application/json" ${attribute}>(.*?)</script>`, 's').exec(page.text)![1]!);
    return { variants: script('data-tare-variants'), shop: readShopConfig(script('data-tare-shop'))! };
  }

  it.each([
    ['€19.20/kg', { enabled: true }, '1001', '2001', 250],
    ['€11.24/L', { enabled: true }, '1002', '2101', 12],
    [
      '€1.12/100ml',
      { enabled: true, reference: { weight: { value: 100, unit: 'g' }, volume: { value: 100, unit: 'ml' } } },
      '1002',
      '2101',
      12,
    ],
  ] as const)(
    'when the golden figure is %s, then the variant answer, the picker and the cart line all show it',
    async (shown, unitPricing, productId, variantId, value) => {
      const { domain, key } = await seedShop(db, storefrontShop(unitPricing as UnitPricing));
      const answered = (await call(server, `/api/v1/products/${productId}/variants/${variantId}`, { key })).body.data
        .variant.unitPrice;

      const documents = await pageDocuments(domain, productId);
      const variant = readVariantConfig(documents.variants[variantId])!;
      expect(variant.unitPrice).toEqual(answered);

      const { locale, labels } = shopLabels(documents.shop, 'en');
      const line = pickLine({ variantId, variant, pricingMode: 'function', labels, locale, value });
      expect(line.ok).toBe(true);
      if (!line.ok) return;
      expect(line.visible).toContainEqual({ name: 'Price per measure', value: shown });

      const customer = visitor(server, domain);
      expect((await customer.add([line.item])).status).toBe(200);
      const cart = await customer.request('cart.js');
      expect(cart.body.items[0].properties['Price per measure']).toBe(shown);
    },
  );

  it('when the shop has unit pricing off, then neither the document nor the cart line carries a unit price', async () => {
    const { domain } = await seedShop(db, storefrontShop({ enabled: false }));
    const documents = await pageDocuments(domain, '1001');
    const variant = readVariantConfig(documents.variants['2001'])!;
    expect(variant.unitPrice).toBeUndefined();
    const { locale, labels } = shopLabels(documents.shop, 'en');
    const line = pickLine({ variantId: '2001', variant, pricingMode: 'function', labels, locale, value: 250 });
    expect(line.ok && line.visible.map((p) => p.name)).not.toContain('Price per measure');
  });
});
