import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * scrypt parameters: N=2^15, r=8, p=1 is the cost OWASP's password storage cheat sheet lists
 * for scrypt (32 MiB of memory per hash). They are stored in each hash, so raising them later
 * leaves earlier hashes verifiable.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
const maxmem = (N: number, r: number) => 256 * N * r; // twice what scrypt needs (128·N·r)

function derive(password: string, salt: Buffer, cost: typeof COST): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...cost, maxmem: maxmem(cost.N, cost.r) }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$<salt base64>$<hash base64>`: the password itself is never kept. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** A hash no password has: an unknown email costs the same scrypt as a wrong password. */
const DECOY = `scrypt$${COST.N}$${COST.r}$${COST.p}$${randomBytes(SALT_BYTES).toString('base64')}$${randomBytes(KEY_LENGTH).toString('base64')}`;

/** Whether `password` matches `stored` (constant-time comparison); undefined `stored` never matches. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? DECOY).split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== undefined;
}

const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/l/I

/** A one-time password: 20 characters of a 56-letter alphabet (116 bits), easy to read aloud. */
export function oneTimePassword(): string {
  let out = '';
  for (let i = 0; i < 20; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return `${out.slice(0, 5)}-${out.slice(5, 10)}-${out.slice(10, 15)}-${out.slice(15)}`;
}

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

/** zxcvbn's list of the most common passwords (49k, lower-case), as a set on first use. */
let common: Set<string> | undefined;
function isCommon(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.normalize('NFC').trim().toLowerCase());
}

/**
 * Why a new password is refused (undefined: accepted). Length is what matters (NIST SP 800-63B),
 * with the checks the same guideline asks for: not blank, and not one of the passwords tried first.
 * @example passwordProblem('qwertyuiop123') // 'is one of the most common passwords; choose another'
 */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (/^\s*$/u.test(password)) return 'must not be blank';
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (isCommon(password)) return 'is one of the most common passwords; choose another';
  return undefined;
}
