/**
 * Add a measured line to the cart, as a mobile app does when the customer picks "2.5 kg":
 * the spec's "Adding a measured line item to the cart" flow with @tare/client.
 *
 *   TARE_URL=http://127.0.0.1:3000 TARE_API_KEY=apik_… node --import tsx examples/add-to-cart.ts \
 *     --product 1001 --variant 2001 --value 2.5 --price 24.00 --currency USD --locale en-US
 *
 * Prints the line in both forms a platform takes: for the cart API (variant gid, attributes)
 * and for the add-to-cart endpoint (numeric id, properties). The price and currency come from
 * the platform's storefront, which the app reads anyway; Tare supplies the measurement, the
 * rules and the shop's labels.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  TareClient,
  buildLineItemProperties,
  cartVariantId,
  checkMeasurementRules,
  numericVariantId,
  validateLineItemProperties,
  type LineItemProperty,
} from '@tare/client';

export interface MeasuredChoice {
  productId: string;
  variantId: string;
  /** What the customer picked, in the variant's unit (`unitMeasurement.unit`). */
  value: number;
  /** How many pieces of that size; 1 unless the customer wants several. */
  quantity?: number;
  /** The variant's price per unit measurement, as the storefront shows it (decimal text). */
  price: string;
  currency: string;
  /** The customer's locale: picks the label texts and formats the price. */
  locale: string;
  /** The `<platform>` of the cart API's `gid://<platform>/ProductVariant/<id>`. */
  platform?: string;
}

export type CartLine =
  | {
      ok: true;
      properties: LineItemProperty[];
      /** For the cart API (e.g. a Storefront `cartLinesAdd`). */
      cartApiLine: { merchandiseId: string; quantity: number; attributes: Array<{ key: string; value: string }> };
      /** For the add-to-cart endpoint (e.g. `POST /cart/add.js`). */
      addToCartItem: { id: number; quantity: number; properties: Record<string, string> };
    }
  | { ok: false; reasons: string[] };

export async function measuredCartLine(tare: TareClient, choice: MeasuredChoice): Promise<CartLine> {
  // 1. The variant: its unit, unit measurement, rules, and the product's measurement type.
  const { variant } = (await tare.variants.get(choice.productId, choice.variantId)).data;
  const measurement = { value: choice.value, unit: variant.unitMeasurement.unit };

  // The variant's rules (min, max, increment or presets): tell the customer, never round.
  const reasons = checkMeasurementRules(choice.value, variant);
  if (reasons.length > 0) return { ok: false, reasons };

  // 2. The shop's labels for the customer's locale (cached by the client for max-age).
  const labels = (await tare.settings.get({ locale: choice.locale })).data.settings.localizedLabels;

  // 3 and 4. `_svc_data` and the customer-visible properties, from those labels only.
  const properties = buildLineItemProperties({
    product: variant.product,
    variant,
    labels,
    measurement,
    price: choice.price,
    currency: choice.currency,
    locale: choice.locale,
  });
  const problems = validateLineItemProperties(properties, variant);
  if (problems.length > 0) return { ok: false, reasons: problems };

  // 5. The line for the platform's cart, in its two id forms.
  const quantity = choice.quantity ?? 1;
  return {
    ok: true,
    properties,
    cartApiLine: {
      merchandiseId: cartVariantId(choice.platform ?? 'shopify', variant.id),
      quantity,
      attributes: properties.map(({ name, value }) => ({ key: name, value })),
    },
    addToCartItem: {
      id: Number(numericVariantId(variant.id)),
      quantity,
      properties: Object.fromEntries(properties.map(({ name, value }) => [name, value])),
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      product: { type: 'string' },
      variant: { type: 'string' },
      value: { type: 'string' },
      quantity: { type: 'string', default: '1' },
      price: { type: 'string' },
      currency: { type: 'string', default: 'USD' },
      locale: { type: 'string', default: 'en-US' },
      platform: { type: 'string', default: 'shopify' },
    },
  });
  const { product, variant, value, price } = values;
  if (!product || !variant || !value || !price) {
    throw new Error('usage: add-to-cart.ts --product ID --variant ID --value N --price P [--currency C] [--locale L]');
  }
  const tare = new TareClient({
    apiKey: process.env.TARE_API_KEY ?? '',
    baseUrl: process.env.TARE_URL ?? 'http://127.0.0.1:3000',
  });
  const line = await measuredCartLine(tare, {
    productId: product,
    variantId: variant,
    value: Number(value),
    quantity: Number(values.quantity),
    price,
    currency: values.currency,
    locale: values.locale,
    platform: values.platform,
  });
  console.log(JSON.stringify(line, null, 2));
  if (!line.ok) process.exitCode = 2;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
