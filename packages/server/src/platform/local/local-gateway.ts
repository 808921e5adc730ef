import type { LineItemChange, PlatformGateway, PlatformOrder } from '../gateway.js';
import { moveLocalLevels, projectLocalLevels, readLocalLevels } from './levels-repository.js';
import {
  deleteLineItem,
  localOrdersChangedSince,
  readLocalOrder,
  touchOrder,
  updateLineItem,
} from './orders-repository.js';

/** The embedded platform: its integer levels live in Tare's database, written in Tare's transaction. */
export function createLocalGateway(): PlatformGateway {
  return {
    name: 'local',
    projectLevels: projectLocalLevels,
    readLevels: (tx, shopId, levels) => readLocalLevels(tx, shopId, levels),
    ordersChangedSince: localOrdersChangedSince,
    readOrder(tx, shopId, orderId, options) {
      return readLocalOrder(tx, shopId, orderId, options?.forUpdate ?? false);
    },
    // The embedded platform has no customers to notify; the edit history keeps both fields. Like
    // Shopify's order editing with restock, the platform's own levels follow the lines' units.
    async editOrder(tx, shopId, orderId, changes) {
      const order = await readLocalOrder(tx, shopId, orderId, true);
      if (!order) return;
      await moveLocalLevels(tx, shopId, unitMoves(order, changes));
      for (const change of changes) {
        if (change.remove) await deleteLineItem(tx, shopId, change.lineItemId);
        else await updateLineItem(tx, shopId, { id: change.lineItemId, ...change });
      }
      await touchOrder(tx, shopId, orderId);
    },
  };
}

/** The whole units an edit gives back (the line's old variant and quantity) and takes (its new ones). */
function unitMoves(order: PlatformOrder, changes: LineItemChange[]) {
  const moves: { locationId: string; variantId: string; by: number }[] = [];
  for (const change of changes) {
    const line = order.lineItems.find((l) => l.id === change.lineItemId);
    if (line?.variantId) moves.push({ locationId: order.locationId, variantId: line.variantId, by: line.quantity });
    if (!change.remove && change.variantId) {
      moves.push({ locationId: order.locationId, variantId: change.variantId, by: -change.quantity });
    }
  }
  return moves;
}
