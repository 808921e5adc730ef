import { createApiKey } from '../services/api-keys.js';
import { importCatalog } from '../services/catalog-import/import-catalog.js';
import { forgetShopKeys } from '../store/repositories/idempotency.js';
import { findShopByDomain } from '../store/repositories/shops.js';
import { parseCommandArgs } from './args.js';
import { CommandError, type StoreCommand, UsageError } from './command.js';
import { DEMO_CATALOG, DEMO_SHOP } from './demo-catalog.js';
import { demoOwnStockCleared } from './demo-relink.js';

const USAGE = `usage:
  tare demo [BASE_URL]               a new demo-shop key; loads the demo shop only if it is not there yet
  tare demo --reset [--yes]          put the demo shop's data back as the demo ships it (asks first; --yes does not)`;

/**
 * `tare demo`: a new key for the demo shop, with a ready-to-paste curl. It loads the demo shop
 * only when there is none, so getting a key never touches data (decision: like `stripe login`,
 * the command people run to get going changes nothing they made). `--reset` re-seeds it: the
 * CLI asks on a terminal first and then passes `--yes`; without `--yes` the command refuses, so
 * a script or a server running it for the CLI never overwrites data unasked.
 */
export const demoCommand: StoreCommand = async (ctx, args) => {
  const { values, positionals } = parseCommandArgs('demo', args, [], USAGE, ['reset', 'yes']);
  if (positionals.length > 1) throw new UsageError(`demo: unexpected argument '${positionals[1]}'`, USAGE);
  const baseUrl = positionals[0] ?? `http://127.0.0.1:${process.env.PORT || 3000}`;
  if (values.yes && !values.reset) throw new UsageError('demo: --yes only confirms --reset', USAGE);
  const existing = await findShopByDomain(ctx.db, DEMO_SHOP);
  let headline: string | undefined;
  if (values.reset) {
    if (!values.yes) {
      throw new UsageError(
        `demo --reset overwrites ${DEMO_SHOP}'s settings, products, stock and order 5001 with the demo's; ` +
          'run it on a terminal to confirm, or add --yes',
        USAGE,
      );
    }
    // The demo's stock and order would be pushed to, or refused by, a real store.
    if (existing?.platform === 'shopify') {
      throw new CommandError(
        `${DEMO_SHOP} sells on Shopify; disconnect it first (tare platform disconnect --shop ${DEMO_SHOP})`,
      );
    }
    const cleared = existing && (await demoOwnStockCleared(ctx.db, existing.id));
    if (cleared) await importCatalog(ctx, cleared);
    const { shops } = await importCatalog(ctx, DEMO_CATALOG);
    // Answers stored under a key describe data the reset replaced: a guide's fixed keys
    // (`receipt-8812`) apply again on the fresh shop instead of replaying those answers.
    if (existing) await forgetShopKeys(ctx.db, existing.id);
    ctx.changed();
    headline = `Demo shop ${DEMO_SHOP} is reset to the demo's data (${shops[0]?.changes ?? 0} change(s) written).`;
  } else if (existing) {
    headline = `Demo shop ${DEMO_SHOP} is already loaded; its data is left as it is.`;
  } else {
    await importCatalog(ctx, DEMO_CATALOG);
    ctx.changed();
  }
  const key = await createApiKey(ctx.db, { shopDomain: DEMO_SHOP, name: 'demo' });
  for (const line of demoBanner(key.token, baseUrl, headline)) ctx.io.out(line);
  return 0;
};

/** A new demo key and what to try with it, after a line saying what happened to the shop. */
export function demoBanner(token: string, baseUrl: string, headline?: string): string[] {
  return [
    headline
      ? `${headline} A new API key for it (shown once):`
      : `Demo shop ${DEMO_SHOP} is loaded. Its API key (shown once):`,
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
