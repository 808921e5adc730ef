import { describeSkippedLine, type ShopReconciliation, reconcile } from '../services/events/reconcile.js';
import { parseCommandArgs } from './args.js';
import { type StoreCommand, UsageError } from './command.js';

const USAGE = 'usage: tare reconcile [--shop DOMAIN] [--fix] [--json]';

/**
 * `tare reconcile`: compares every level with the platform and reports the drift, the orders
 * Tare could not book and the inbox's failures; `--fix` books what the platform placed since the
 * last run and follows each drifting level (PRODUCT.md §14).
 */
export const reconcileCommand: StoreCommand = async (ctx, args) => {
  const { values, positionals } = parseCommandArgs('reconcile', args, ['shop'], USAGE, ['fix', 'json']);
  if (positionals.length) throw new UsageError(`reconcile: unexpected argument '${positionals[0]}'`, USAGE);
  const fix = values.fix ?? false;
  const report = await reconcile({ db: ctx.db, gateway: ctx.gateway }, { shopDomain: values.shop, fix });
  if (fix) ctx.changed();
  if (values.json) ctx.io.out(JSON.stringify(report, null, 2));
  else for (const shop of report) for (const line of describe(shop, fix)) ctx.io.out(line);
  // After what was compared: a shop the platform could not be compared with is a failure, so a
  // script or cron job never reads "no drift" into a comparison that did not happen.
  const notCompared = report.filter((shop) => shop.unavailable !== undefined);
  if (notCompared.length === 0) return 0;
  const which = notCompared.map((shop) => `${shop.shop} (${shop.unavailable})`).join('; ');
  ctx.io.err(`error: could not compare ${notCompared.length} shop(s) with their platform: ${which}`);
  return 1;
};

function describe(shop: ShopReconciliation, fix: boolean): string[] {
  const lines = [
    `${shop.shop}: ${shop.levels} level${shop.levels === 1 ? '' : 's'}, ${shop.drift.length} drifting` +
      (fix ? `, ${shop.ordersSynced} order${shop.ordersSynced === 1 ? '' : 's'} checked` : ''),
  ];
  if (shop.unavailable) lines.push(`  not compared: ${shop.unavailable}`);
  for (const d of shop.drift) {
    const outcome = d.outcome ? ` → ${d.outcome}${d.error ? `: ${d.error}` : ''}` : '';
    lines.push(
      `  variant ${d.variantId} at ${d.locationId}: platform shows ${d.platform}, Tare projects ${d.expected}` +
        ` (since ${d.since.toISOString()})${outcome}`,
    );
  }
  for (const order of shop.skippedOrders) {
    for (const line of order.skipped)
      lines.push(`  order ${order.orderId}, line ${line.lineItemId}: not booked, ${describeSkippedLine(line)}`);
  }
  const { pending, parked } = shop.inbox;
  if (pending || parked) lines.push(`  events: ${pending} waiting, ${parked} failed and parked`);
  for (const event of shop.failingEvents) {
    const about = event.orderId ? `order ${event.orderId}` : event.topic;
    const state = event.status === 'parked' ? 'parked' : 'retrying';
    lines.push(
      `  event ${event.eventId} (${about}): ${state} after ${event.attempts} attempt${event.attempts === 1 ? '' : 's'}: ${event.lastError ?? 'no error recorded'}`,
    );
  }
  if (shop.drift.length && !fix)
    lines.push('  run `tare reconcile --fix` to book missing orders and follow the platform');
  return lines;
}
