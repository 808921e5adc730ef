import type { Keyring } from '../secrets/keyring.js';
import type { Db } from '../store/db.js';
import { createLocalGateway } from './local/local-gateway.js';
import { createRoutingGateway } from './routing-gateway.js';
import { createShopifyGateway } from './shopify/shopify-gateway.js';

/**
 * Every platform adapter behind one gateway: what the services, the CLI and the import use.
 * `shopify` also exposes what the projection push worker needs.
 */
export function createPlatforms(db: Db, keyring: Keyring) {
  const shopify = createShopifyGateway({ db, keyring });
  const gateway = createRoutingGateway({ local: createLocalGateway(), shopify: shopify.gateway });
  return { gateway, shopify };
}
