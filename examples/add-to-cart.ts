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
 *
 * With `--checkout`, the line then goes through Tare's sandbox shop (a cart, the line, checkout
 * at the shop's first location) and the script prints the stock Tare holds once it has booked
 * the order: the exact total, the platform's whole units and the ledger entry naming the order.
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

export interface CheckedOut {
  orderId: string;
  /** The level after Tare booked the order, as `GET /inventory/levels` reads it. */
  level: { quantity: { value: number; unit: string }; platform: { available: number }; fraction: { value: number } };
  /** The ledger entry of the order's sale. */
  sale: { operation: string; delta: number; reference: { type: string; id: string | null } | null };
}

/**
 * Buys the line in the sandbox shop (PRODUCT.md §15) and waits until Tare has booked it: the
 * platform tells Tare with an event, which Tare books a moment later.
 */
export async function checkoutInSandbox(
  tare: TareClient,
  sandbox: { baseUrl: string; apiKey: string },
  item: Extract<CartLine, { ok: true }>['addToCartItem'],
  locationId: string,
): Promise<CheckedOut> {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${sandbox.baseUrl}/sandbox${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (!res.ok) throw new Error(`sandbox ${path}: ${answer.error?.message ?? res.status}`);
    return answer.data;
  };
  const cart = await call('/carts', {});
  await call(`/carts/${cart.token}/add`, { items: [item] });
  const { order } = await call(`/carts/${cart.token}/checkout`, { locationId });
  const variantId = String(item.id);
  for (let attempt = 0; attempt < 200; attempt++) {
    const { data } = await tare.inventory.ledgerPage({ locationId, variantId, limit: 10 });
    const sale = data.entries.find((e) => e.reference?.type === 'order' && e.reference.id === order.id);
    if (sale) {
      const { levels } = (await tare.inventory.levels({ locationId, variantIds: [variantId] })).data;
      return { orderId: order.id, level: levels[0]!, sale };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Tare did not book order ${order.id} within 20 s`);
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
      checkout: { type: 'boolean', default: false },
      location: { type: 'string', default: '70001' },
    },
  });
  const { product, variant, value, price } = values;
  if (!product || !variant || !value || !price) {
    throw new Error(
      'usage: add-to-cart.ts --product ID --variant ID --value N --price P [--currency C] [--locale L] [--checkout [--location ID]]',
    );
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
  if (!line.ok) {
    process.exitCode = 2;
    return;
  }
  if (values.checkout) {
    const sandbox = {
      baseUrl: process.env.TARE_URL ?? 'http://127.0.0.1:3000',
      apiKey: process.env.TARE_API_KEY ?? '',
    };
    const done = await checkoutInSandbox(tare, sandbox, line.addToCartItem, values.location);
    const { quantity, platform, fraction } = done.level;
    console.log(
      `order ${done.orderId} booked: ${done.sale.operation} ${done.sale.delta} ${quantity.unit}; ` +
        `Tare holds ${quantity.value} ${quantity.unit} (platform ${platform.available} whole, ${fraction.value} ${quantity.unit} kept)`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
