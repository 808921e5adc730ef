import { createApiKey } from '../services/api-keys.js';
import { importCatalog } from '../services/catalog-import/import-catalog.js';
import type { StoreCommand } from './command.js';
import { DEMO_CATALOG, DEMO_SHOP } from './demo-catalog.js';

/** Loads the demo shop (idempotent) and prints a new key for it with a ready-to-paste curl. */
export const demoCommand: StoreCommand = async (ctx, args) => {
  const baseUrl = args[0] ?? `http://127.0.0.1:${process.env.PORT || 3000}`;
  await importCatalog(ctx, DEMO_CATALOG);
  ctx.changed();
  const key = await createApiKey(ctx.db, { shopDomain: DEMO_SHOP, name: 'demo' });
  for (const line of demoBanner(key.token, baseUrl)) ctx.io.out(line);
  return 0;
};

export function demoBanner(token: string, baseUrl: string): string[] {
  return [
    `Demo shop ${DEMO_SHOP} is loaded. Its API key (shown once):`,
    '',
    `  ${token}`,
    '',
    'Try it:',
    '',
    `  curl -H "Authorization: Bearer ${token}" "${baseUrl}/api/v1/app-settings?locale=en"`,
    `  curl -H "Authorization: Bearer ${token}" "${baseUrl}/api/v1/products/1001"`,
    '',
    'Shop in the sandbox (a cart, then add, checkout: see docs/guides/sandbox.md), and read the stock:',
    '',
    `  curl -X POST -H "Authorization: Bearer ${token}" "${baseUrl}/sandbox/carts"`,
    `  curl -H "Authorization: Bearer ${token}" "${baseUrl}/api/v1/inventory/levels?locationId=70001&variantId=2001"`,
    '',
  ];
}
