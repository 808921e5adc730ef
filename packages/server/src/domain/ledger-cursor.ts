import type { CursorCodec } from './cursor.js';

/** What a ledger page cursor points at: an entry of one level (shop, location, variant). */
export interface LedgerCursor {
  shopId: string;
  locationId: string;
  variantId: string;
  direction: 'next' | 'prev';
  /** The ledger entry's id (a bigint, as decimal text). */
  entryId: string;
}

// The codec names the list a cursor belongs to in its `productId` field. A ledger's list is
// `ledger/<locationId>/<variantId>`, which no product id (digits only) can equal: a product
// cursor is never a ledger cursor, nor the reverse, and both share the codec's secret.
const PREFIX = 'ledger/';

/**
 * Opaque, tamper-evident cursors for the ledger of one level, encrypted and authenticated like
 * the product cursors (domain/cursor.ts).
 *
 * @example encodeLedgerCursor(codec, { shopId: '1', locationId: '70001', variantId: '2001', direction: 'next', entryId: '42' })
 */
export function encodeLedgerCursor(codec: CursorCodec, cursor: LedgerCursor): string {
  return codec.encode({
    shopId: cursor.shopId,
    productId: `${PREFIX}${cursor.locationId}/${cursor.variantId}`,
    direction: cursor.direction,
    position: 0,
    id: cursor.entryId,
  });
}

/** The cursor, or undefined when the text is not a ledger cursor this deployment issued. */
export function decodeLedgerCursor(codec: CursorCodec, text: string): LedgerCursor | undefined {
  const payload = codec.decode(text);
  if (!payload?.productId.startsWith(PREFIX) || !/^[0-9]+$/.test(payload.id)) return undefined;
  const [locationId, variantId, ...rest] = payload.productId.slice(PREFIX.length).split('/');
  if (!locationId || !variantId || rest.length) return undefined;
  return { shopId: payload.shopId, locationId, variantId, direction: payload.direction, entryId: payload.id };
}
