/**
 * A number as a person types it into an admin field, read into the API's form (`4.20`) or
 * refused with what to type instead (decision 95). A dot alone is always the decimal mark, as
 * in the API. A comma alone is the decimal mark when it cannot be a thousands separator
 * (`4,20`, `0,5`, `12,5`); with exactly three digits after it (`1,200`) it could be either, so it
 * is refused with a hint rather than guessed. With both marks the last one is the decimal mark
 * (`1,200.50`, `1.200,50`), and two or more groups of three are thousands (`1,200,000`); spaces between groups of three digits are thousands separators
 * (`1 200,5`). Quantities are exact, so nothing is rounded: the digits come back as typed.
 */
export type TypedNumber =
  | { ok: true; text: string }
  /** `ambiguous`: a number, but which one is unclear (`1,200`); else no number at all. */
  | { ok: false; hint: string; ambiguous: boolean };

const PLAIN = /^-?\d+(\.\d+)?$/;
/** Spaces a keyboard or a copied figure puts between thousands (space, no-break, narrow no-break). */
const GROUP_SPACE = /[ \u00A0\u202F]/g;

export function readTypedNumber(typed: string): TypedNumber {
  const text = typed.trim();
  if (PLAIN.test(text)) return { ok: true, text };
  const sign = text.startsWith('-') ? '-' : '';
  const body = sign ? text.slice(1) : text;
  const spaced = /^\d{1,3}([ \u00A0\u202F]\d{3})+([.,]\d+)?$/.test(body);
  const digits = spaced ? body.replace(GROUP_SPACE, '') : body;
  if (/^\d{1,3}([.,])\d{3}(\1\d{3})+$/.test(digits)) return { ok: true, text: `${sign}${digits.replace(/[.,]/g, '')}` };
  const both = /^(\d{1,3}([.,])\d{3}(?:\2\d{3})*)([.,])(\d+)$/.exec(digits);
  if (both && both[2] !== both[3]) return { ok: true, text: `${sign}${both[1]!.replace(/[.,]/g, '')}.${both[4]}` };
  const comma = /^(\d+),(\d+)$/.exec(digits);
  if (comma && (comma[2]!.length !== 3 || spaced)) return { ok: true, text: `${sign}${comma[1]}.${comma[2]}` };
  if (comma) {
    const whole = `${comma[1]}${comma[2]}`;
    const decimal = `${comma[1]}.${comma[2]}`;
    return {
      ok: false,
      ambiguous: true,
      hint: `could be ${whole} or ${decimal}: type ${whole} without the comma, or use a dot for decimals: ${decimal}`,
    };
  }
  if (PLAIN.test(`${sign}${digits}`)) return { ok: true, text: `${sign}${digits}` };
  return { ok: false, ambiguous: false, hint: 'must be a number, like 4.20 (use a dot for decimals)' };
}
