import type { ShopifyAdmin } from './admin-client.js';
import { CART_TRANSFORMS, CREATE_CART_TRANSFORM } from './operations.js';

/** The handle of Tare's Cart Transform function (extensions/cart-transform/shopify.extension.toml). */
export const CART_TRANSFORM_FUNCTION_HANDLE = 'tare-cart-transform';

/** The function on the shop: registered (its CartTransform), or why it could not be. */
export type CartTransformRegistration =
  | { registered: true; id: string; functionId: string; created: boolean }
  | { registered: false; code: string; problem: string };

interface CartTransformNode {
  id: string;
  functionId: string;
  blockOnFailure: boolean;
}

interface CreateAnswer {
  cartTransformCreate: {
    cartTransform: CartTransformNode | null;
    userErrors: { code: string | null; field: string[] | null; message: string }[];
  };
}

/**
 * Registers Tare's deployed Cart Transform function on the shop (`cartTransformCreate`), which a
 * deployed function needs before it runs on any cart; idempotent: one the app registered already
 * is kept (looked up first, and FUNCTION_ALREADY_REGISTERED is read back). `blockOnFailure: false`:
 * a function that fails leaves the cart at Shopify's own prices instead of stopping the checkout.
 * User errors come back as a problem to show (FUNCTION_NOT_FOUND: the app is not deployed yet);
 * the admin client's errors (throttled, unavailable, unauthorized) are thrown.
 */
export async function registerCartTransform(admin: ShopifyAdmin): Promise<CartTransformRegistration> {
  const existing = await registeredCartTransform(admin);
  if (existing) return { registered: true, id: existing.id, functionId: existing.functionId, created: false };
  const { data } = await admin.request<CreateAnswer>(CREATE_CART_TRANSFORM, {
    functionHandle: CART_TRANSFORM_FUNCTION_HANDLE,
    blockOnFailure: false,
  });
  const { cartTransform, userErrors } = data.cartTransformCreate;
  if (cartTransform) {
    return { registered: true, id: cartTransform.id, functionId: cartTransform.functionId, created: true };
  }
  const error = userErrors[0];
  const code = error?.code ?? 'UNKNOWN';
  if (code === 'FUNCTION_ALREADY_REGISTERED') {
    // Registered between the look-up and the create (another connect of the same store).
    const registered = await registeredCartTransform(admin);
    if (registered) return { registered: true, id: registered.id, functionId: registered.functionId, created: false };
  }
  return { registered: false, code, problem: problemOf(code, error?.message) };
}

/** The app ships one function, so any cart transform the app owns (all `cartTransforms` lists) is Tare's. */
async function registeredCartTransform(admin: ShopifyAdmin): Promise<CartTransformNode | undefined> {
  const { data } = await admin.request<{ cartTransforms: { nodes: CartTransformNode[] } }>(CART_TRANSFORMS);
  return data.cartTransforms.nodes[0];
}

function problemOf(code: string, message: string | undefined): string {
  if (code === 'FUNCTION_NOT_FOUND') {
    return `the app's function ${CART_TRANSFORM_FUNCTION_HANDLE} is not deployed on Shopify: deploy the app (shopify app deploy), then connect again`;
  }
  return `Shopify refused to register the function ${CART_TRANSFORM_FUNCTION_HANDLE} (${code}): ${message ?? 'no message'}; connect again once it is fixed`;
}
