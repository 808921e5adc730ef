import { plainNumber, renderTemplate as renderShared } from '@tare/contracts';

/**
 * The shared template renderer of `@tare/contracts`, taking the quantity as a JSON number (the
 * cart's inputs) in its exact shortest decimal form.
 * @example renderTemplate('{Price}/{Quantity}', { price: '$24.00', quantity: 1, unit: 'kg' }) // '$24.00/kg'
 */
export function renderTemplate(
  template: string,
  tokens: {
    price?: string;
    unitPrice?: string;
    quantity: number;
    unit: string;
    dimensions?: string;
    percent?: string;
  },
): string {
  return renderShared(template, { ...tokens, quantity: plainNumber(tokens.quantity) });
}
