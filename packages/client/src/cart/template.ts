import { plainNumber } from './decimal.js';

/**
 * Fills a label template (same rules as the server's `renderTemplate`; not shared code).
 * `{Price}` → the formatted price (kept as is when absent); `{Quantity}` → quantity then unit
 * without a space, `{Quantity_With_Space}` → with a space, the number dropped when the quantity
 * is exactly 1; `{Unit}` → unit id; `{Value}` → the number, always. Unknown tokens are kept.
 * @example renderTemplate('{Price}/{Quantity}', { price: '$24.00', quantity: 1, unit: 'kg' }) // '$24.00/kg'
 */
export function renderTemplate(template: string, tokens: { price?: string; quantity: number; unit: string }): string {
  const value = plainNumber(tokens.quantity);
  const isOne = tokens.quantity === 1;
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
