import { CartInputError } from './errors.js';

const NUMERIC = /^\d+$/;
const GID = /^gid:\/\/([A-Za-z0-9][\w.-]*)\/ProductVariant\/(\d+)$/;

/**
 * The cart API id of a variant. `variantId` may be the numeric id or already a variant gid.
 * @example cartVariantId('shopify', '123') // 'gid://shopify/ProductVariant/123'
 */
export function cartVariantId(platform: string, variantId: string): string {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(platform)) throw new CartInputError([`invalid platform '${platform}'`]);
  return `gid://${platform}/ProductVariant/${numericVariantId(variantId)}`;
}

/**
 * The numeric variant id (for the platform's add-to-cart endpoint) from a numeric id or a
 * `gid://<platform>/ProductVariant/<id>`; anything else throws a CartInputError.
 * @example numericVariantId('gid://shopify/ProductVariant/123') // '123'
 */
export function numericVariantId(gidOrId: string): string {
  if (typeof gidOrId === 'string') {
    if (NUMERIC.test(gidOrId)) return gidOrId;
    const m = GID.exec(gidOrId);
    if (m?.[2] !== undefined) return m[2];
  }
  throw new CartInputError([`'${String(gidOrId)}' is neither a numeric variant id nor a ProductVariant gid`]);
}
