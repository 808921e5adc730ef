import type { SandboxCartAddBody, SandboxCartChangeBody, SandboxCart, SandboxOrder } from '@tare/contracts';
import { AppError, errors } from '../errors.js';
import {
  listStorefrontProducts,
  STOREFRONT_PAGE_SIZE,
} from '../platform/local/sandbox/storefront/storefront-catalog.js';
import { noLineWithKey } from '../platform/local/sandbox/carts.js';
import { addedTo, type LineTitles, storefrontCart } from '../platform/local/sandbox/storefront/storefront-cart.js';
import { platformOf } from '../platform/platform-of.js';
import type { Db } from '../store/db.js';
import { findProduct, findProductsByIds, findVariantsByIds, listVariantsPage } from '../store/repositories/catalog.js';
import { shopStorefrontDocument, variantDocument } from './storefront/storefront-metafields.js';
import { findShopByDomain, type Shop } from '../store/repositories/shops.js';
import type { SandboxShop } from './sandbox-shop.js';

/** What a cart token looks like (SandboxCartParams); anything else in the cookie names no cart. */
const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;

/** Whether the sandbox answered that the token names no cart of the shop. */
const missingCart = (error: unknown): boolean =>
  error instanceof AppError && error.code === 'not_found' && error.details?.['resource'] === 'cart';

/** Where a shop's storefront lives: `/sandbox/storefront/{domain}/` (its Shopify `routes.root`). */
export const storefrontRoot = (domain: string): string => `/sandbox/storefront/${domain}/`;

/**
 * The sandbox storefront (PRODUCT.md §18): a sandbox shop's product pages with the measure
 * picker and Shopify's Ajax Cart API over its sandbox carts (§15), without an API key. It exists
 * only for a shop on the embedded platform that enables it (`settings.storefront.enabled`); any
 * other domain is as unknown (404). A cart token the shop does not know (none yet, or a cart
 * checked out) is replaced by a new cart when the cart is read or added to, as Shopify gives a
 * new visitor a new cart.
 */
export function createSandboxStorefront(deps: { db: Db; sandboxShop: SandboxShop }) {
  const { db, sandboxShop } = deps;

  async function shopAt(domain: string): Promise<Shop> {
    const shop = await findShopByDomain(db, domain);
    if (!shop || platformOf(shop) !== 'local' || !shop.storefrontEnabled) throw errors.notFound('storefront', domain);
    return shop;
  }

  async function existingCart(shop: Shop, token: string | undefined): Promise<SandboxCart | undefined> {
    if (token === undefined || !TOKEN.test(token)) return undefined;
    try {
      return await sandboxShop.readCart(shop.id, token);
    } catch (error) {
      if (missingCart(error)) return undefined;
      throw error;
    }
  }

  async function cartOf(shop: Shop, token: string | undefined): Promise<SandboxCart> {
    return (await existingCart(shop, token)) ?? sandboxShop.createCart(shop.id);
  }

  async function shown(shop: Shop, cart: SandboxCart) {
    const ids = [...new Set(cart.items.map((item) => String(item.variant_id)))];
    const variants = await findVariantsByIds(db, shop.id, ids);
    const products = await findProductsByIds(db, shop.id, [...new Set([...variants.values()].map((v) => v.productId))]);
    const titles: LineTitles = new Map(
      [...variants.values()].map((v) => [
        v.id,
        { variantTitle: v.title, productTitle: products.get(v.productId)?.title ?? '' },
      ]),
    );
    return storefrontCart(cart, titles, storefrontRoot(shop.domain));
  }

  return {
    async frontPage(domain: string) {
      const shop = await shopAt(domain);
      return { shop, products: await listStorefrontProducts(db, shop.id) };
    },

    /** A product page: every variant's picker document, the one `?variant=` names selected (else the first). */
    async productPage(domain: string, productId: string, variantId: string | undefined) {
      const shop = await shopAt(domain);
      const product = await findProduct(db, shop.id, productId);
      if (!product) throw errors.notFound('product', productId);
      // The documents a Shopify shop's metafields hold, from the same builders; the sandbox
      // charges the measured price itself, so its pricing mode is the function's.
      const page = await listVariantsPage(db, shop.id, product.id, { direction: 'next', limit: STOREFRONT_PAGE_SIZE });
      const variants = page.slice(0, STOREFRONT_PAGE_SIZE).map((variant) => ({
        id: variant.id,
        title: variant.title,
        config: variantDocument({ ...variant, measurementType: product.measurementType }, shop),
      }));
      const selected = variants.find((v) => v.id === variantId) ?? variants[0];
      if (!selected) throw errors.notFound('product', productId);
      return { shop, product, variants, selected, shopConfig: await shopStorefrontDocument(db, shop, 'function') };
    },

    async readCart(domain: string, token: string | undefined) {
      const shop = await shopAt(domain);
      const cart = await cartOf(shop, token);
      return { token: cart.token, cart: await shown(shop, cart) };
    },

    /**
     * `/cart/add.js`: answers the lines the items went to (a merged line with its whole quantity).
     * The cart is added to at once, and made only when the token names none (one read fewer).
     */
    async addToCart(domain: string, token: string | undefined, body: SandboxCartAddBody) {
      const shop = await shopAt(domain);
      let cart: SandboxCart;
      try {
        if (token === undefined || !TOKEN.test(token)) throw errors.notFound('cart', String(token));
        cart = await sandboxShop.addToCart(shop.id, token, body);
      } catch (error) {
        if (!missingCart(error)) throw error;
        cart = await sandboxShop.addToCart(shop.id, (await sandboxShop.createCart(shop.id)).token, body);
      }
      const answer = await shown(shop, cart);
      // Unmerged, each item is a new line at the end; merged, it is the line of its variant and properties.
      const items = shop.mergeMatchingLineItems
        ? answer.items.filter((item) => addedTo(body, item))
        : answer.items.slice(-body.items.length);
      return { token: answer.token, items };
    },

    /**
     * `/cart/change.js`: a token that names no cart names no line either, so it is the same 400 as
     * an empty cart's, and no cart is made for it (the cart is read once, locked, by the change).
     */
    async changeCart(domain: string, token: string | undefined, body: SandboxCartChangeBody) {
      const shop = await shopAt(domain);
      if (token === undefined || !TOKEN.test(token)) throw noLineWithKey(body.key);
      try {
        return { token, cart: await shown(shop, await sandboxShop.changeCart(shop.id, token, body)) };
      } catch (error) {
        throw missingCart(error) ? noLineWithKey(body.key) : error;
      }
    },

    /**
     * Places the order as the sandbox's checkout does (the shop's first location), for the customer
     * typed (both fields optional, blank is none); 422 when the cart is empty, 400 for an e-mail
     * that is not one.
     */
    async checkout(
      domain: string,
      token: string | undefined,
      typed: { name?: string; email?: string } = {},
    ): Promise<SandboxOrder> {
      const shop = await shopAt(domain);
      const empty = () => new AppError('unprocessable', 'Your cart is empty.', null);
      const customer = checkoutCustomer(typed);
      const cart = await existingCart(shop, token);
      if (!cart || cart.items.length === 0) throw empty();
      try {
        return (await sandboxShop.checkout(shop.id, cart.token, customer ? { customer } : {})).order;
      } catch (error) {
        // A double post: the other one placed the order and consumed the cart since it was read.
        throw missingCart(error) ? empty() : error;
      }
    },
  };
}
export type SandboxStorefront = ReturnType<typeof createSandboxStorefront>;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The storefront's checkout fields as the sandbox's checkout takes them; undefined when both are blank. */
function checkoutCustomer(typed: { name?: string; email?: string }) {
  const name = typed.name?.trim().slice(0, 200) || undefined;
  const email = typed.email?.trim() || undefined;
  if (email !== undefined && (email.length > 254 || !EMAIL.test(email))) {
    throw new AppError(
      'bad_request',
      `“${email}” is not an e-mail address: type one like ada@example.com, or leave it blank.`,
      null,
    );
  }
  return name === undefined && email === undefined ? undefined : { name, email };
}
