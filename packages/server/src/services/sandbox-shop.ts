import type {
  SandboxCancelBody,
  SandboxCart,
  SandboxCartAddBody,
  SandboxCartChangeBody,
  SandboxCheckoutBody,
  SandboxOrder,
  SandboxRefundBody,
  SandboxStock,
} from '@tare/contracts';
import { cartAnswer, orderAnswer, refundAnswer } from '../platform/local/sandbox/answers.js';
import { addToCart, changeCart, createCart, readCart } from '../platform/local/sandbox/carts.js';
import type { EventDelivery } from '../platform/local/sandbox/event-delivery.js';
import { errors } from '../errors.js';
import { readLocalOrder } from '../platform/local/orders-repository.js';
import { cancelOrder, checkout, fulfilOrder, refundOrder } from '../platform/local/sandbox/shop-actions.js';
import { readStock, setStock } from '../platform/local/sandbox/stock.js';
import { platformOf } from '../platform/platform-of.js';
import type { Db } from '../store/db.js';
import type { ShopDirectory } from './shop-directory.js';

/**
 * The sandbox shop (PRODUCT.md §15): a storefront and a merchant's admin on the embedded
 * platform. Each call is one transaction; the events it emits are stored in it (see
 * createEventDelivery) and reach Tare through the inbox, asynchronously, as a real platform's do.
 */
export function createSandboxShop(deps: { db: Db; shops: ShopDirectory; delivery: EventDelivery }) {
  const { db, shops, delivery } = deps;
  const currencyOf = async (shopId: string) => (await shops.get(shopId)).currency;

  return {
    /** Whether the shop has a sandbox: only shops on the embedded platform do. */
    async servesShop(shopId: string): Promise<boolean> {
      return platformOf(await shops.get(shopId)) === 'local';
    },

    async createCart(shopId: string): Promise<SandboxCart> {
      const cart = await db.transaction((tx) => createCart(tx, shopId));
      return cartAnswer(cart, await currencyOf(shopId));
    },
    async readCart(shopId: string, token: string): Promise<SandboxCart> {
      return cartAnswer(await readCart(db, shopId, token), await currencyOf(shopId));
    },
    // The answer is made inside the transaction: a cart it could not show is never stored.
    async addToCart(shopId: string, token: string, body: SandboxCartAddBody): Promise<SandboxCart> {
      const shop = await shops.get(shopId);
      return db.transaction(async (tx) => cartAnswer(await addToCart(tx, shop, token, body), shop.currency));
    },
    async changeCart(shopId: string, token: string, body: SandboxCartChangeBody): Promise<SandboxCart> {
      const shop = await shops.get(shopId);
      return db.transaction(async (tx) => cartAnswer(await changeCart(tx, shop, token, body), shop.currency));
    },
    async checkout(shopId: string, token: string, body: SandboxCheckoutBody): Promise<{ order: SandboxOrder }> {
      const order = await delivery.transaction((tx, emit) => checkout(tx, emit, shopId, token, body));
      return { order: orderAnswer(order, await currencyOf(shopId)) };
    },

    async readOrder(shopId: string, orderId: string): Promise<{ order: SandboxOrder }> {
      // Not locked: a read must never wait for, or deadlock with, Tare's processing of the order.
      const order = await readLocalOrder(db, shopId, orderId, false);
      if (!order) throw errors.notFound('order', orderId);
      return { order: orderAnswer(order, await currencyOf(shopId)) };
    },
    async cancelOrder(shopId: string, orderId: string, body: SandboxCancelBody): Promise<{ order: SandboxOrder }> {
      const order = await delivery.transaction((tx, emit) => cancelOrder(tx, emit, shopId, orderId, body));
      return { order: orderAnswer(order, await currencyOf(shopId)) };
    },
    async refundOrder(shopId: string, orderId: string, body: SandboxRefundBody) {
      const { refund, order } = await delivery.transaction((tx, emit) => refundOrder(tx, emit, shopId, orderId, body));
      return {
        refund: { ...refundAnswer(refund), order_id: order.id },
        order: orderAnswer(order, await currencyOf(shopId)),
      };
    },
    async fulfilOrder(shopId: string, orderId: string): Promise<{ order: SandboxOrder }> {
      const order = await delivery.transaction((tx, emit) => fulfilOrder(tx, emit, shopId, orderId));
      return { order: orderAnswer(order, await currencyOf(shopId)) };
    },

    async readStock(shopId: string, level: { locationId: string; variantId: string }): Promise<SandboxStock> {
      return readStock(db, shopId, level);
    },
    async setStock(shopId: string, level: SandboxStock): Promise<SandboxStock> {
      return delivery.transaction((tx, emit) => setStock(tx, emit, shopId, level));
    },

    /** Stops the delivery's pending duplicates (chaos); call before the store closes. */
    stop: () => delivery.stop(),
  };
}
export type SandboxShop = ReturnType<typeof createSandboxShop>;
