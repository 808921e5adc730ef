import type { ShopDirectory } from '../services/shop-directory.js';
import type { PlatformGateway } from './gateway.js';
import { type PlatformKind, platformOf } from './platform-of.js';

/**
 * One gateway for every shop: each call goes to the adapter of the platform the shop sells on
 * (the embedded platform or Shopify), so the services never ask which one it is.
 */
export function createRoutingGateway(shops: ShopDirectory, adapters: Record<PlatformKind, PlatformGateway>) {
  const adapterOf = async (shopId: string) => adapters[platformOf(await shops.get(shopId))];
  const gateway: PlatformGateway = {
    name: 'routing',
    projectLevels: async (tx, shopId, ...rest) => (await adapterOf(shopId)).projectLevels(tx, shopId, ...rest),
    readLevels: async (tx, shopId, ...rest) => (await adapterOf(shopId)).readLevels(tx, shopId, ...rest),
    ordersChangedSince: async (tx, shopId, ...rest) =>
      (await adapterOf(shopId)).ordersChangedSince(tx, shopId, ...rest),
    readOrder: async (tx, shopId, ...rest) => (await adapterOf(shopId)).readOrder(tx, shopId, ...rest),
    editOrder: async (tx, shopId, ...rest) => (await adapterOf(shopId)).editOrder(tx, shopId, ...rest),
  };
  return gateway;
}
