import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';

/** What a page cursor points at: a position in one product's variant list, in one shop. */
export interface CursorPayload {
  shopId: string;
  productId: string;
  direction: 'next' | 'prev';
  position: number;
  id: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Opaque, tamper-evident cursors: AES-256-GCM over a compact JSON payload, base64url. The
 * payload names shop and product, so a cursor from another shop or product is rejected, and
 * encryption keeps internal ids out of sight (a signed-only cursor is readable by anyone).
 */
export function createCursorCodec(secret: Buffer) {
  const key = createHash('sha256').update(secret).update('tare-cursor-v1').digest();

  return {
    encode(payload: CursorPayload): string {
      const plain = JSON.stringify([
        payload.shopId,
        payload.productId,
        payload.direction === 'next' ? 'n' : 'p',
        payload.position,
        payload.id,
      ]);
      // Synthetic IV (derived from the plaintext): the same position always yields the same
      // cursor, so answers are stable and cacheable, and distinct positions never share an IV.
      const iv = createHmac('sha256', key).update(plain).digest().subarray(0, IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    /** The payload, or undefined when the text is not a cursor this deployment issued. */
    decode(text: string): CursorPayload | undefined {
      if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
      const raw = Buffer.from(text, 'base64url');
      // Decoding ignores stray trailing bits; only the canonical spelling is our cursor.
      if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString('base64url') !== text) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
          decipher.final(),
        ]);
        const [shopId, productId, dir, position, id] = JSON.parse(plain.toString('utf8'));
        if (typeof shopId !== 'string' || typeof productId !== 'string' || typeof id !== 'string') return undefined;
        if ((dir !== 'n' && dir !== 'p') || !Number.isInteger(position)) return undefined;
        return { shopId, productId, direction: dir === 'n' ? 'next' : 'prev', position, id };
      } catch {
        return undefined; // wrong key, tampered bytes or not ours
      }
    },
  };
}
export type CursorCodec = ReturnType<typeof createCursorCodec>;
