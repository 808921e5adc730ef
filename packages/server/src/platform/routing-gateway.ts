import type { Queryable } from '../store/db.js';
import { type PlatformKind, shopPlatform } from '../store/repositories/shops.js';
import type { KnownShop, PlatformGateway } from './gateway.js';

/**
 * One gateway for every shop: each call goes to the adapter of the platform the shop sells on
 * (the embedded platform or Shopify), so the services never ask which one it is. The platform
 * is read in the caller's transaction (an import may connect the shop in the same transaction
 * as it writes its stock), unless the caller passes what it read there already (`KnownShop`:
 * the inventory write's level lock and the inbox's claim return it), which saves a round trip.
 */
export function createRoutingGateway(adapters: Record<PlatformKind, PlatformGateway>): PlatformGateway {
  const adapterOf = async (tx: Queryable, shopId: string, known?: KnownShop) =>
    adapters[(known?.platform !== undefined ? known.platform : await shopPlatform(tx, shopId)) ?? 'local'];
  return {
    name: 'routing',
    projectLevels: async (tx, shopId, levels, cause, known) =>
      (await adapterOf(tx, shopId, known)).projectLevels(tx, shopId, levels, cause, known),
    readLevels: async (tx, shopId, ...rest) => (await adapterOf(tx, shopId)).readLevels(tx, shopId, ...rest),
    ordersChangedSince: async (tx, shopId, ...rest) =>
      (await adapterOf(tx, shopId)).ordersChangedSince(tx, shopId, ...rest),
    readOrder: async (tx, shopId, orderId, options) =>
      (await adapterOf(tx, shopId, options)).readOrder(tx, shopId, orderId, options),
    editOrder: async (tx, shopId, ...rest) => (await adapterOf(tx, shopId)).editOrder(tx, shopId, ...rest),
    readVariantPrices: async (tx, shopId, productId) =>
      (await adapterOf(tx, shopId)).readVariantPrices?.(tx, shopId, productId),
  };
}
