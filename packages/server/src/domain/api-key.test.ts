import { describe, expect, it } from 'vitest';
import { generateKey, hashSecret, parseKey, secretMatches } from './api-key.js';

describe('api keys', () => {
  it('when a key is generated, then it has the documented form and parses back', () => {
    const key = generateKey();
    expect(key.token).toMatch(/^apik_[a-z2-7]{16}_[0-9A-Za-z]{43}$/);
    expect(parseKey(key.token)).toEqual({ keyId: key.keyId, secret: key.secret });
  });

  it('when the keyId:secret spelling is used, then it is the same credential', () => {
    const key = generateKey();
    expect(parseKey(`${key.keyId}:${key.secret}`)).toEqual({ keyId: key.keyId, secret: key.secret });
    expect(parseKey(`apik_${key.keyId}:${key.secret}`)).toEqual({ keyId: key.keyId, secret: key.secret });
  });

  it.each([
    '',
    'apik_',
    'apik_short_secret',
    'apik_ABCDEFGHIJKLMNOP_0123456789012345678901234567890123',
    'apik_abcdefghijklmnop0123456789012345678901234567890123',
    'apik_abcdefghijklmnop_short',
    'abcdefghijklmnop:',
    ':0123456789012345678901234567890123',
    'apik_abcdefghijklmnop_01234567890123456789012345678901-3',
  ])('when the text is %j, then it is not a key', (raw) => {
    expect(parseKey(raw)).toBeUndefined();
  });

  it('when secrets are compared, then only the exact secret matches', () => {
    const key = generateKey();
    const stored = hashSecret(key.secret);
    expect(secretMatches(key.secret, stored)).toBe(true);
    // Its last character changed (to one it is not: a random secret ends in 'x' one time in 62).
    const other = key.secret.endsWith('x') ? 'y' : 'x';
    expect(secretMatches(`${key.secret.slice(0, -1)}${other}`, stored)).toBe(false);
  });

  it('when many keys are generated, then ids and secrets do not repeat', () => {
    const keys = Array.from({ length: 500 }, generateKey);
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(500);
    expect(new Set(keys.map((k) => k.secret)).size).toBe(500);
  });
});
