/**
 * Fills a label template; shared by the server (label tests, order texts) and the client's
 * cart helpers so both render tokens identically. `{Price}` → price (kept as is when absent);
 * `{Unit}` → unit id; `{Value}` → the quantity, always; `{Quantity}` / `{Quantity_With_Space}`
 * → quantity and unit without / with a space, the number dropped when the quantity is
 * numerically 1; `{UnitPrice}` → the price per the shop's reference quantity as
 * `formatUnitPrice` writes it (`€19.20/kg`; kept as is when absent); `{Dimensions}` → the factors
 * as the customer gave them (`2.35 m × 4 m`, PRODUCT.md §19) and `{Percent}` → the overage (both
 * kept as is when absent). A plain decimal quantity is
 * printed without leading or trailing zeros; unknown tokens are kept.
 * @example renderTemplate('{Price}/{Quantity}', { price: '€2.50', quantity: '1.000', unit: 'kg' }) // '€2.50/kg'
 */
export function renderTemplate(
  template: string,
  tokens: {
    price?: string;
    unitPrice?: string;
    quantity: string;
    unit: string;
    dimensions?: string;
    percent?: string;
  },
): string {
  const value = plainDecimal(tokens.quantity);
  const isOne = value === '1';
  const { unit } = tokens;
  // One pass, so substituted text that happens to contain a token is not expanded again.
  return template.replace(/\{(\w+)\}/g, (match, name: string) => {
    switch (name) {
      case 'Price':
        return tokens.price ?? match;
      case 'UnitPrice':
        return tokens.unitPrice ?? match;
      case 'Dimensions':
        return tokens.dimensions ?? match;
      case 'Percent':
        return tokens.percent ?? match;
      case 'Quantity':
        return isOne ? unit : `${value}${unit}`;
      case 'Quantity_With_Space':
        return isOne ? unit : `${value} ${unit}`;
      case 'Unit':
        return unit;
      case 'Value':
        return value;
      default:
        return match;
    }
  });
}

/** `-007.2500` → `-7.25`, `1.000` → `1`, `-0.0` → `0`; text that is not a plain decimal as is. */
function plainDecimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return text;
  const whole = m[2]!.replace(/^0+(?=\d)/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const digits = fraction ? `${whole}.${fraction}` : whole;
  return /^0(\.0*)?$/.test(digits) ? '0' : `${m[1]}${digits}`;
}

/** Every token a label template may hold (PRODUCT.md §8), in the order messages list them. */
export const TEMPLATE_TOKENS = [
  'Price',
  'Quantity',
  'Quantity_With_Space',
  'Unit',
  'Value',
  'UnitPrice',
  'Dimensions',
  'Percent',
] as const;

const listed = (names: readonly string[]) => {
  const tokens = names.map((name) => `{${name}}`);
  return tokens.length > 1 ? `${tokens.slice(0, -1).join(', ')} or ${tokens.at(-1)}` : (tokens[0] ?? '');
};

/**
 * Why `text` cannot serve as a label whose renderer fills the `allowed` tokens, or undefined when
 * it can: a token outside `allowed` (none for a label shown as written, such as a property name)
 * or a brace that opens or closes no token. renderTemplate keeps such text as written, so a
 * customer would read it; the import and the admin refuse it, naming the first problem.
 * @example templateProblem('{Prce}/{Quantity}', TEMPLATE_TOKENS) // 'has an unknown token {Prce}; use {Price}, …'
 */
export function templateProblem(text: string, allowed: readonly string[]): string | undefined {
  for (const match of text.matchAll(/\{(\w+)\}|[{}]/g)) {
    const name = match[1];
    if (name === undefined) return `has a '${match[0]}' at character ${match.index + 1} that is not part of a token`;
    if (allowed.includes(name)) continue;
    if (allowed.length === 0) return `is shown as written and takes no tokens, but has {${name}}`;
    const known = (TEMPLATE_TOKENS as readonly string[]).includes(name);
    return `${known ? `cannot use {${name}} here` : `has an unknown token {${name}}`}; use ${listed(allowed)}`;
  }
  return undefined;
}
