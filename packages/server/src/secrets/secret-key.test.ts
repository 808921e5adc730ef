import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseSecretKey, SecretKey } from './secret-key.js';

describe('SecretKey', () => {
  it('when a value is sealed, then it opens to the same text and the sealed form does not contain it', () => {
    const key = SecretKey.generate();
    const sealed = key.seal('shpat_0123456789abcdef', 'ctx');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('shpat_');
    expect(key.open(sealed, 'ctx')).toBe('shpat_0123456789abcdef');
  });

  it('when the same value is sealed twice, then the sealed forms differ (a fresh IV each time)', () => {
    const key = SecretKey.generate();
    expect(key.seal('same', 'ctx')).not.toBe(key.seal('same', 'ctx'));
  });

  it('when a sealed value is opened with another context, another key or altered, then it does not open', () => {
    const key = SecretKey.generate();
    const sealed = key.seal('secret', 'shop/1/token');
    expect(() => key.open(sealed, 'shop/2/token')).toThrow();
    expect(() => SecretKey.generate().open(sealed, 'shop/1/token')).toThrow();
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[bytes.length - 1]! ^= 1;
    expect(() => key.open(`v1:${bytes.toString('base64')}`, 'shop/1/token')).toThrow();
    expect(() => key.open('secret', 'shop/1/token')).toThrow('not a sealed value');
  });

  it('when a key is printed, logged or serialised, then only its id shows', () => {
    const key = SecretKey.generate();
    const material = key.exportBase64();
    for (const shown of [JSON.stringify({ key }), inspect(key), inspect({ nested: { key } }), String(key.toJSON())]) {
      expect(shown).not.toContain(material);
      expect(shown).toContain(key.id);
    }
  });

  it('when the same bytes are read twice, then the id is the same; another key has another id', () => {
    const key = SecretKey.generate();
    const again = parseSecretKey(key.exportBase64());
    expect(again).toBeInstanceOf(SecretKey);
    expect((again as SecretKey).id).toBe(key.id);
    expect(SecretKey.generate().id).not.toBe(key.id);
    expect(key.id).toMatch(/^k[0-9a-f]{16}$/);
  });
});

describe('parseSecretKey', () => {
  const bytes = Buffer.alloc(32, 7);
  it.each([
    ['base64', bytes.toString('base64')],
    ['base64 without padding', bytes.toString('base64').replace(/=$/, '')],
    ['hex', bytes.toString('hex')],
    ['hex with surrounding blanks', `  ${bytes.toString('hex')}\n`],
  ])('when the key is %s, then it is read', (_, text) => {
    expect((parseSecretKey(text) as SecretKey).id).toBe(new SecretKey(bytes).id);
  });

  it.each([
    ['16 bytes of base64', Buffer.alloc(16).toString('base64')],
    ['63 hex digits', bytes.toString('hex').slice(1)],
    ['a passphrase', 'correct horse battery staple'],
    ['empty', ''],
  ])('when the key is %s, then the problem is said', (_, text) => {
    expect(parseSecretKey(text)).toMatch(/must be 32 bytes in base64 .* or hex/);
  });
});
