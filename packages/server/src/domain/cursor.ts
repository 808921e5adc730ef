import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a page cursor points at: a position in one product's variant list, in one shop. */
export interface CursorPayload {
  shopId: string;
  productId: string;
  direction: 'next' | 'prev';
  position: number;
  id: string;
}

const SIGNATURE_BYTES = 16;

/**
 * Opaque, tamper-evident cursors: base64url(JSON) + '.' + truncated HMAC-SHA256. The payload
 * names shop and product, so a cursor from another shop or product is rejected, not reused.
 */
export function createCursorCodec(secret: Buffer) {
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest().subarray(0, SIGNATURE_BYTES);

  return {
    encode(payload: CursorPayload): string {
      const body = Buffer.from(
        JSON.stringify([payload.shopId, payload.productId, payload.direction === 'next' ? 'n' : 'p', payload.position, payload.id]),
      ).toString('base64url');
      return `${body}.${sign(body).toString('base64url')}`;
    },
    /** The payload, or undefined when the text is not a cursor this deployment signed. */
    decode(text: string): CursorPayload | undefined {
      const [body, signature, extra] = text.split('.');
      if (!body || !signature || extra !== undefined) return undefined;
      const presented = Buffer.from(signature, 'base64url');
      const expected = sign(body);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
      try {
        const [shopId, productId, dir, position, id] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
        if (typeof shopId !== 'string' || typeof productId !== 'string' || typeof id !== 'string') return undefined;
        if ((dir !== 'n' && dir !== 'p') || !Number.isInteger(position)) return undefined;
        return { shopId, productId, direction: dir === 'n' ? 'next' : 'prev', position, id };
      } catch {
        return undefined;
      }
    },
  };
}
export type CursorCodec = ReturnType<typeof createCursorCodec>;
