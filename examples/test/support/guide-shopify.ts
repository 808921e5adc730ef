/**
 * The Shopify store a guide connects the demo shop to, in CI: the fake Shopify Admin API of the
 * server's tests (packages/server/test/support/fake-shopify), started in the test process with
 * the demo catalog's locations, products and variants under the same ids, each level showing the
 * whole units Tare projects for it, as a store already in step with Tare would.
 *
 * Its `webhookAddress` stays unset: webhooks go only where the guide's `tare platform webhooks`
 * subscribed them, so the guide proves its subscription works. `close()` throws if Tare (or the
 * guide's own Admin API calls) sent a query Shopify would refuse.
 */
import { TareClient } from '@tare/client';
import { DEMO_CATALOG } from '../../../packages/server/src/cli/demo-catalog.js';
import { type FakeShopify, startFakeShopify } from '../../../packages/server/test/support/fake-shopify/index.js';

export interface GuideShopify {
  fake: FakeShopify;
  /** What the guide reads: the store, its app's credentials and where its Admin API answers. */
  env: Record<string, string>;
}

export async function startGuideShopify(tare: { url: string; apiKey: string }): Promise<GuideShopify> {
  const [shop] = DEMO_CATALOG.shops;
  if (!shop) throw new Error('the demo catalog has no shop');
  const fake = await startFakeShopify();
  try {
    for (const location of shop.locations ?? []) fake.addLocation(location);
    for (const product of shop.products ?? []) {
      fake.addProduct({
        id: product.id,
        title: product.title,
        variants: product.variants.map((v) => ({ id: v.id, title: v.title, price: v.price })),
      });
    }
    const client = new TareClient({ apiKey: tare.apiKey, baseUrl: tare.url });
    const variantIds = (shop.products ?? []).flatMap((p) => p.variants.map((v) => v.id));
    for (const location of shop.locations ?? []) {
      const { data } = await client.inventory.levels({ locationId: location.id, variantIds });
      for (const level of data.levels) fake.setAvailable(location.id, level.variantId, level.platform.available);
    }
  } catch (error) {
    await fake.close().catch(() => {});
    throw error;
  }
  return {
    fake,
    env: {
      SHOPIFY_STORE: fake.store,
      SHOPIFY_ACCESS_TOKEN: fake.accessToken,
      SHOPIFY_CLIENT_SECRET: fake.clientSecret,
      SHOPIFY_ADMIN_API_URL: fake.adminApiUrl,
      // Shopify delivers webhooks to a public https address; the fake reaches Tare where it listens.
      TARE_PUBLIC_URL: tare.url,
    },
  };
}
