// The stock-item figures (bench/stock-items.ts, bench/stock-items-shopify.ts) as the README's table.
import { type CallsOfSale, SHOPIFY_SIBLINGS, type SiblingPush } from './stock-items-shopify.js';
import { ITEMS_CHUNK, type ItemsResults, type SaleKind } from './stock-items.js';

export const ITEMS_HEADING = '### Stock items';

const rows = (kind: SaleKind) => kind.trace.rowWrites;

export function itemsTable(r: ItemsResults, shopify: SiblingPush[]): string {
  const lines = ['| Measurement | Result |', '|---|---|'];
  for (const store of r.stores) {
    const [base, ...items] = store.kinds;
    lines.push(
      `| ${store.store}: a sale on a variant with its own stock (\`order_placed\` of 1 measured line, \`drainNow()\` of ${ITEMS_CHUNK} placed orders) | ` +
        `**${base!.msEach.toFixed(2)}** ms (${base!.sales} sales; CPU ${base!.cpuUsEach.toFixed(0)} µs; ` +
        `${base!.trace.statements.toFixed(1)} statements; row versions: variant levels ${rows(base!).inventory_levels.toFixed(1)}) |`,
    );
    for (const kind of items) {
      const cpuOf =
        store.store === 'PostgreSQL'
          ? ` (of which PostgreSQL ${kind.backendCpuUsEach.toFixed(0)} / ${base!.backendCpuUsEach.toFixed(0)})`
          : '';
      lines.push(
        `| ${store.store}: the same sale on a variant linked to an item of ${kind.siblings} variant${kind.siblings === 1 ? '' : 's'} ÷ on its own stock | ` +
          `${kind.msEach.toFixed(2)} / ${base!.msEach.toFixed(2)} ms = **${kind.ratio.toFixed(2)}×** (per round median ` +
          `${kind.perRound.median.toFixed(2)}×, ${kind.perRound.min.toFixed(2)}–${kind.perRound.max.toFixed(2)}; CPU ` +
          `${kind.cpuUsEach.toFixed(0)} / ${base!.cpuUsEach.toFixed(0)} µs = ${kind.cpuRatio.toFixed(2)}×${cpuOf}; statements ` +
          `${kind.trace.statements.toFixed(1)} / ${base!.trace.statements.toFixed(1)}; row versions: item level ` +
          `${rows(kind).stock_item_levels.toFixed(1)}, variant levels ${rows(kind).inventory_levels.toFixed(1)}, platform levels ` +
          `${rows(kind).local_platform_levels.toFixed(1)}) |`,
      );
    }
  }
  const described = (calls: CallsOfSale) =>
    calls.operations
      .map(
        (op) =>
          `\`${op.name}\` × ${op.calls}${op.levels ? ` (${op.levels} levels)` : ''}: ${op.requested} points requested, ${op.actual} charged`,
      )
      .join('; ') + `; **${calls.operations.reduce((sum, op) => sum + op.actual, 0)}** points in all`;
  for (const push of shopify) {
    lines.push(
      `| ${push.store}: one Shopify order of 1 kg of a variant with its own stock, webhook to booked (fake Shopify) | ${described(push.ownStock)} |`,
      `| ${push.store}: the same order on a variant linked to an item of ${SHOPIFY_SIBLINGS} variants, every sibling's whole units moving | ${described(push.item)} |`,
    );
  }
  return lines.join('\n');
}
