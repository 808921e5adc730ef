import { formatMoney } from '@tare/contracts';
import { Dec, toPlainString } from '../../domain/decimal.js';
import type { PlatformLineItem } from '../../platform/gateway.js';

/** An order's money as its page shows it, in the shop's currency and exactly (decimal.js). */
export interface OrderMoney {
  /** Each line's price as charged: its unit price × its quantity, by line id. */
  linePrices: Map<string, string>;
  /** The measured lines' prices added up. */
  measuredTotal: string;
  /** Every line of the order added up (measured or not), as the platform charged them. */
  orderTotal: string;
  lineCount: number;
}

/** Line prices and totals of an order's lines; `measured` are the ids of the lines Tare manages. */
export function orderMoney(
  lines: readonly PlatformLineItem[],
  measured: ReadonlySet<string>,
  currency: string,
): OrderMoney {
  const money = (amount: Dec) => formatMoney(toPlainString(amount), currency);
  const linePrices = new Map<string, string>();
  let measuredTotal = new Dec(0);
  let orderTotal = new Dec(0);
  for (const line of lines) {
    const price = new Dec(line.price).times(line.quantity);
    linePrices.set(line.id, money(price));
    orderTotal = orderTotal.plus(price);
    if (measured.has(line.id)) measuredTotal = measuredTotal.plus(price);
  }
  return { linePrices, measuredTotal: money(measuredTotal), orderTotal: money(orderTotal), lineCount: lines.length };
}
