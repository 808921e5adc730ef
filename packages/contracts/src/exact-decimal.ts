/**
 * Exact decimal helpers for the measurement rules and the cart helpers, on the server and in the
 * client alike (no dependency, so the client stays dependency-free): a JS number is taken in its
 * shortest string form (`String(n)`) and scaled to an integer, so `0.3` on a `0.1` grid is exact
 * (no float modulo).
 */

export interface Scaled {
  /** The number times 10^scale, exactly. */
  int: bigint;
  /** Count of decimals. */
  scale: number;
}

/**
 * Exact decimal form of a finite number's shortest string, or of decimal text (a price, a NUMERIC
 * read from the database) as written.
 * @example toScaled(0.35) // { int: 35n, scale: 2 }
 * @example toScaled('24.00') // { int: 2400n, scale: 2 }
 */
export function toScaled(n: number | string): Scaled {
  if (typeof n === 'number' && !Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(n));
  if (!m) throw new RangeError(`cannot read number: ${n}`);
  const [, sign = '', whole = '0', frac = '', exp = '0'] = m;
  let scale = frac.length - Number(exp);
  let int = BigInt(`${sign}${whole}${frac}`);
  if (scale < 0) {
    int *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { int, scale };
}

/**
 * `value` exactly (`toScaled`), or a RangeError naming `what` it is.
 * @example exactDecimal('1,5', 'the price') // throws RangeError: the price is not a decimal number: 1,5
 */
export function exactDecimal(value: number | string, what: string): Scaled {
  try {
    return toScaled(value);
  } catch {
    throw new RangeError(`${what} is not a decimal number: ${String(value)}`);
  }
}

/** 10^n as a BigInt (`n >= 0`). */
export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Whether two exact decimals are the same number, whatever their scales (`1.0` and `1`). */
export function sameScaled(a: Scaled, b: Scaled): boolean {
  return a.int * pow10(b.scale) === b.int * pow10(a.scale);
}

/** `a` rescaled to `scale` decimals (scale >= a.scale). */
function rescale(a: Scaled, scale: number): bigint {
  return a.int * pow10(scale - a.scale);
}

/** The numbers as integers at one common scale (the largest count of decimals). */
export function align(...numbers: number[]): bigint[] {
  const scaled = numbers.map(toScaled);
  const scale = Math.max(0, ...scaled.map((s) => s.scale));
  return scaled.map((s) => rescale(s, scale));
}

/** Plain decimal text of a number, never exponent notation. @example plainNumber(1e-7) // '0.0000001' */
export function plainNumber(n: number): string {
  const { int, scale } = toScaled(n);
  const negative = int < 0n;
  const digits = (negative ? -int : int).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** `n ÷ d` rounded half to even (`d > 0`). */
export function divideHalfEven(n: bigint, d: bigint): bigint {
  const quotient = n / d; // truncates toward zero
  const remainder = n % d;
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  if (twice < d || (twice === d && quotient % 2n === 0n)) return quotient;
  return n < 0n ? quotient - 1n : quotient + 1n;
}

/** `minor` minor units as decimal text with exactly `digits` decimals. */
export function formatMinor(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits > 0 ? `.${text.slice(text.length - digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
