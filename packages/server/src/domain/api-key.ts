import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_ID = /^[a-z2-7]{16}$/;
const SECRET = /^[0-9A-Za-z]{32,128}$/;

export interface ParsedKey {
  keyId: string;
  secret: string;
}

function randomString(alphabet: string, length: number): string {
  // Rejection sampling keeps every character uniformly likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

/** A new key: 16-char base32 id (80 bits) and a 43-char base62 secret (≥ 256 bits). */
export function generateKey(): ParsedKey & { token: string } {
  const keyId = randomString(BASE32, 16);
  const secret = randomString(BASE62, 43);
  return { keyId, secret, token: `apik_${keyId}_${secret}` };
}

/**
 * Reads either spelling of one credential: `apik_<keyId>_<secret>` or `<keyId>:<secret>`
 * (the `apik_` prefix is tolerated there too). Anything else is undefined.
 */
export function parseKey(raw: string): ParsedKey | undefined {
  const text = raw.trim();
  let keyId: string | undefined;
  let secret: string | undefined;
  if (text.startsWith('apik_') && !text.includes(':')) {
    keyId = text.slice(5, 21);
    secret = text[21] === '_' ? text.slice(22) : undefined;
  } else if (text.includes(':')) {
    [keyId, secret] = text.replace(/^apik_/, '').split(':', 2);
  }
  if (!keyId || !secret || !KEY_ID.test(keyId) || !SECRET.test(secret)) return undefined;
  return { keyId, secret };
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Compares a presented secret with the stored hash in constant time (`hash`: tests count calls). */
export function secretMatches(secret: string, storedSha256: Buffer, hash = hashSecret): boolean {
  const presented = hash(secret);
  return presented.length === storedSha256.length && timingSafeEqual(presented, storedSha256);
}
