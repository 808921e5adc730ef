import { METAFIELD_NAMESPACE, SHOP_METAFIELD_KEY, VARIANT_METAFIELD_KEY } from '@tare/contracts';
import type { MetafieldOwnerType } from '../../store/repositories/metafield-outbox.js';
import type { ShopifyAdmin } from './admin-client.js';
import { chunks, toGid } from './ids.js';
import { SET_METAFIELDS, SHOP_ID } from './operations.js';

/** metafieldsSet "allows a maximum of 25 metafields to be set at a time". */
export const METAFIELDS_PER_CALL = 25;

export interface MetafieldWrite {
  ownerType: MetafieldOwnerType;
  /** The variant's id; '' for the shop. */
  ownerId: string;
  document: unknown;
}

/** What Shopify did with one write: set, or refused for a reason sending it again cannot change. */
export type MetafieldOutcome = { status: 'written' } | { status: 'refused'; error: string };

interface SetAnswer {
  metafieldsSet: {
    userErrors: { code: string | null; elementIndex: number | null; field: string[] | null; message: string }[];
  };
}

/**
 * Writes the documents as Tare's app-owned json metafields, 25 per call, and tells in the same
 * order which Shopify set and which it refused (with its message). The mutation is atomic: a call
 * with a user error set nothing, so the writes it did not name are sent again without the refused
 * ones; an error naming no write makes each go alone. Setting a value twice is harmless, so a
 * retry after a lost answer needs no key. Throws the admin client's errors (throttled,
 * unavailable, unauthorized, and ShopifyRequestError for a refusal of the whole call).
 */
export async function writeShopifyMetafields(
  admin: ShopifyAdmin,
  writes: MetafieldWrite[],
): Promise<MetafieldOutcome[]> {
  const outcomes = new Array<MetafieldOutcome>(writes.length);
  const shopGid = writes.some((w) => w.ownerType === 'Shop') ? await shopId(admin) : '';
  const indexed = writes.map((write, index) => ({ write, index }));
  for (const run of chunks(indexed, METAFIELDS_PER_CALL)) {
    let pending = run;
    while (pending.length > 0) {
      const answer = await setMetafields(
        admin,
        pending.map((p) => p.write),
        shopGid,
      );
      if (answer.unplaced.length > 0 && pending.length > 1) {
        for (const p of pending) {
          const alone = await setMetafields(admin, [p.write], shopGid);
          const errors = [...alone.refused.values(), ...alone.unplaced];
          outcomes[p.index] = errors.length ? { status: 'refused', error: errors.join('; ') } : { status: 'written' };
        }
        break;
      }
      if (answer.unplaced.length > 0) answer.refused.set(0, answer.unplaced.join('; '));
      for (const [i, error] of answer.refused) outcomes[pending[i]!.index] = { status: 'refused', error };
      const rest = pending.filter((_, i) => !answer.refused.has(i));
      // Atomic: with an error nothing was set, and the others go again; without one all were set.
      if (answer.refused.size === 0) {
        for (const p of rest) outcomes[p.index] = { status: 'written' };
        break;
      }
      pending = rest;
    }
  }
  return outcomes;
}

/** One call: the refused metafields by index, and the messages of errors naming none. */
async function setMetafields(
  admin: ShopifyAdmin,
  writes: MetafieldWrite[],
  shopGid: string,
): Promise<{ refused: Map<number, string>; unplaced: string[] }> {
  const { data } = await admin.request<SetAnswer>(SET_METAFIELDS, {
    metafields: writes.map((w) => ({
      ownerId: w.ownerType === 'Shop' ? shopGid : toGid('ProductVariant', w.ownerId),
      namespace: METAFIELD_NAMESPACE,
      key: w.ownerType === 'Shop' ? SHOP_METAFIELD_KEY : VARIANT_METAFIELD_KEY,
      type: 'json',
      value: JSON.stringify(w.document),
    })),
  });
  const refused = new Map<number, string>();
  const unplaced: string[] = [];
  for (const error of data.metafieldsSet.userErrors) {
    const text = `${error.code ?? 'INVALID'}: ${error.message}`;
    // elementIndex names the input; older answers only name it in `field` (["metafields", "3", "value"]).
    const index = error.elementIndex ?? Number(error.field?.[1]);
    if (!Number.isInteger(index) || index < 0 || index >= writes.length) unplaced.push(text);
    else refused.set(index, refused.has(index) ? `${refused.get(index)}; ${text}` : text);
  }
  return { refused, unplaced };
}

async function shopId(admin: ShopifyAdmin): Promise<string> {
  const { data } = await admin.request<{ shop: { id: string } }>(SHOP_ID);
  return data.shop.id;
}
