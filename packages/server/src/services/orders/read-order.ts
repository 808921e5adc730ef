import type { OrderItem } from '@tare/contracts';
import { AppError, errors } from '../../errors.js';
import { type PlatformGateway, type PlatformOrder, PlatformUnavailableError } from '../../platform/gateway.js';
import type { Db, Queryable } from '../../store/db.js';
import { findVariantsByIds } from '../../store/repositories/catalog.js';
import type { ShopDirectory } from '../shop-directory.js';
import { managedLines, toOrderItem } from './managed-lines.js';

/** The configured variants an order's lines name (lines of unconfigured variants get none). */
export async function lineVariantsOf(tx: Queryable, shopId: string, variantIds: (string | null)[]) {
  const ids = [...new Set(variantIds.filter((id): id is string => id !== null))];
  return ids.length ? await findVariantsByIds(tx, shopId, ids) : new Map<never, never>();
}

/**
 * GET /orders/{id}: the order's service-managed lines; another shop's order is 404.
 * `withPlatformOrder` reads the same and keeps the platform's order (every line as charged, and
 * with `customer` who placed it) and the shop's currency, for the admin's order page.
 */
export function createOrderReader(deps: { db: Db; gateway: PlatformGateway; shops: ShopDirectory }) {
  async function withPlatformOrder(
    shopId: string,
    orderId: string,
    options: { customer?: boolean } = {},
  ): Promise<{ data: { id: string; items: OrderItem[] }; platform: PlatformOrder; currency: string }> {
    const read = deps.gateway.readOrder(deps.db, shopId, orderId, { customer: options.customer });
    const order = await read.catch((error: unknown) => {
      if (error instanceof PlatformUnavailableError) {
        throw new AppError('platform_unavailable', 'The platform could not be reached to read the order; try again.');
      }
      throw error;
    });
    if (!order) throw errors.notFound('order', orderId);
    const [shop, variants] = await Promise.all([
      deps.shops.get(shopId),
      lineVariantsOf(
        deps.db,
        shopId,
        order.lineItems.map((l) => l.variantId),
      ),
    ]);
    return {
      data: {
        id: order.id,
        items: managedLines(order.lineItems, variants).map((m) => toOrderItem(m, shop.currency, variants)),
      },
      platform: order,
      currency: shop.currency,
    };
  }
  const readOrder = async (shopId: string, orderId: string) => (await withPlatformOrder(shopId, orderId)).data;
  return Object.assign(readOrder, { withPlatformOrder });
}
export type OrderReader = ReturnType<typeof createOrderReader>;
