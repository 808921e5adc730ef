import { renderTemplate, templateProblem } from '@tare/contracts';

/** One example a template is filled with: a quantity of the unit and, for a unit price, its price. */
export interface LabelExample {
  quantity: string;
  unit: string;
  price?: string;
  /** `{UnitPrice}`: a price per the reference quantity, as `formatUnitPrice` writes it. */
  unitPrice?: string;
}

/** The preview of one label text: what a customer reads for each example, or why it cannot be used. */
export interface LabelPreview {
  examples: LabelExample[];
  rendered: string[];
  problem?: string;
}

// A quantity of exactly 1 drops the number from {Quantity} (PRODUCT.md §8): both cases are shown.
const QUANTITIES = ['1', '1.5'];
const PRICE_PER_UNIT = 12.5;

/**
 * The examples a label key's template is previewed with, priced in the shop's currency as the cart
 * helpers format it for `locale`: none for a text shown as written (`tokens` empty or unknown).
 * @example labelExamples(['Price', 'Quantity'], { unit: 'kg', currency: 'EUR', locale: 'fr' })
 *   // [{ quantity: '1', unit: 'kg', price: '12,50 €' }, { quantity: '1.5', unit: 'kg', price: '18,75 €' }]
 */
export function labelExamples(
  tokens: readonly string[] | undefined,
  context: { unit: string; currency: string; locale: string },
): LabelExample[] {
  if (!tokens?.length) return [];
  const money = currencyFormat(context.locale, context.currency);
  return QUANTITIES.map((quantity) => ({
    quantity,
    unit: context.unit,
    ...(tokens.includes('Price') ? { price: money.format(PRICE_PER_UNIT * Number(quantity)) } : {}),
    ...(tokens.includes('UnitPrice') ? { unitPrice: `${money.format(PRICE_PER_UNIT)}/${context.unit}` } : {}),
  }));
}

/** Renders `text` with each example through the storefront's own renderTemplate, unless it is refused. */
export function previewLabel(
  text: string,
  tokens: readonly string[] | undefined,
  examples: LabelExample[],
): LabelPreview {
  const problem = tokens ? templateProblem(text, tokens) : undefined;
  if (problem) return { examples, rendered: [], problem };
  if (examples.length === 0) return { examples, rendered: [text] };
  return { examples, rendered: examples.map((example) => renderTemplate(text, example)) };
}

function currencyFormat(locale: string, currency: string): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency });
  } catch {
    // A tag Intl cannot format for (it is still a valid label locale): the runtime's default.
    return new Intl.NumberFormat(undefined, { style: 'currency', currency });
  }
}
