import { describe, expect, it } from 'vitest';
import { hashPassword, oneTimePassword, passwordProblem, verifyPassword } from './password.js';

describe('passwords', () => {
  it('when a password is hashed, then only its scrypt hash with parameters and salt is kept, and it verifies', async () => {
    const hash = await hashPassword('a long and private phrase');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(hash).not.toContain('private');
    expect(await verifyPassword('a long and private phrase', hash)).toBe(true);
    expect(await verifyPassword('a long and private phrase ', hash)).toBe(false);
    expect(await hashPassword('a long and private phrase')).not.toBe(hash); // a new salt each time
  });

  it('when there is no stored hash (an unknown email), then nothing verifies', async () => {
    expect(await verifyPassword('', undefined)).toBe(false);
    expect(await verifyPassword('anything at all', undefined)).toBe(false);
  });

  it('when the same text is typed in another Unicode normal form, then it is the same password', async () => {
    const composed = 'caf\u00e9 au lait, bien chaud';
    expect(await verifyPassword(composed.normalize('NFD'), await hashPassword(composed))).toBe(true);
  });

  it.each([
    ['short', 'must be at least 12 characters'],
    ['x'.repeat(201), 'must be at most 200 characters'],
    ['twelve chars', undefined],
    ['', 'must not be blank'],
    [' \t\u00a0'.repeat(5), 'must not be blank'],
    ['qwertyuiop123', 'is one of the most common passwords; choose another'],
    [' Administrator ', 'is one of the most common passwords; choose another'],
  ])('when a new password is %j, then the problem is %j', (password, problem) => {
    expect(passwordProblem(password)).toBe(problem);
  });

  it('when one-time passwords are made, then each is 20 unambiguous characters in four groups and they differ', () => {
    const made = new Set(Array.from({ length: 50 }, oneTimePassword));
    expect(made.size).toBe(50);
    for (const password of made) expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{5}(-[a-km-zA-HJ-NP-Z2-9]{5}){3}$/);
  });
});
