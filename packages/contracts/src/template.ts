/**
 * Fills a label template; shared by the server (label tests, order texts) and the client's
 * cart helpers so both render tokens identically. `{Price}` → price (kept as is when absent);
 * `{Unit}` → unit id; `{Value}` → the quantity, always; `{Quantity}` / `{Quantity_With_Space}`
 * → quantity and unit without / with a space, the number dropped when the quantity is
 * numerically 1. A plain decimal quantity is printed without leading or trailing zeros;
 * unknown tokens are kept.
 * @example renderTemplate('{Price}/{Quantity}', { price: '€2.50', quantity: '1.000', unit: 'kg' }) // '€2.50/kg'
 */
export function renderTemplate(template: string, tokens: { price?: string; quantity: string; unit: string }): string {
  const value = plainDecimal(tokens.quantity);
  const isOne = value === '1';
  const { unit } = tokens;
  // One pass, so substituted text that happens to contain a token is not expanded again.
  return template.replace(/\{(\w+)\}/g, (match, name: string) => {
    switch (name) {
      case 'Price':
        return tokens.price ?? match;
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
