import type { ValidationIssue } from '@tare/contracts';
import { Dec } from '../../domain/decimal.js';
import { convert, typeOfUnit } from '../../domain/units.js';
import type { Queryable } from '../../store/db.js';
import { type HeldLevel, readStoredItems, readStoredLinks } from '../../store/repositories/stock-item-guards.js';
import type { ImportShop } from './import-document.js';

const held = (levels: HeldLevel[]) =>
  levels
    .map((l) => `${new Dec(l.total).toFixed()} ${l.unit} at location ${l.locationId} (${l.locationName})`)
    .join(', ');

/**
 * What the file would do to stock the shop already holds through its stock items (PRODUCT.md §20;
 * decision in docs/decisions.md), refused in words before anything is written:
 * - linking a variant that holds stock of its own (a non-zero level): the item's level would
 *   replace it, and that stock would vanish from the platform unbooked;
 * - unlinking a variant without stating its own inventory at each location where it has a level
 *   (its row holds the item's total: read as its own, the stock would be counted twice);
 * - changing an item's measurement type while it has a level (none converts between types), or
 *   to a type some variant still linked to it is not of;
 * - changing an item's unit where a level would need more than 9 decimal places in the new one.
 */
export async function stockItemGuardIssues(tx: Queryable, shopId: string, shop: ImportShop, at: string) {
  const issues: ValidationIssue[] = [];
  const products = shop.products ?? [];
  const inFile = products.flatMap((product, i) =>
    product.variants.map((variant, j) => ({ product, variant, path: `${at}/products/${i}/variants/${j}` })),
  );
  const links = await readStoredLinks(
    tx,
    shopId,
    inFile.map(({ variant }) => variant.id),
  );
  for (const { variant, path } of inFile) {
    const stored = links.get(variant.id);
    const next = variant.stockItemId;
    if (!stored || next === undefined || next === stored.stockItemId) continue;
    if (next !== null && stored.stockItemId === null) {
      const own = stored.levels.filter((level) => !new Dec(level.total).isZero());
      if (own.length > 0) {
        issues.push({
          path: `${path}/stockItemId`,
          message:
            `variant ${variant.id} holds stock of its own (${held(own)}); set it to 0, or count it into ` +
            `stock item '${next}', before linking the variant to the item`,
        });
      }
    }
    if (next === null) {
      const stated = new Set((variant.inventory ?? []).map((entry) => entry.locationId));
      const missing = stored.levels.filter((level) => !stated.has(level.locationId));
      if (missing.length > 0) {
        issues.push({
          path: `${path}/inventory`,
          message:
            `variant ${variant.id} stops selling from stock item '${stored.stockItemId}': state its own ` +
            `inventory (0 or what it holds) at location ${missing.map((l) => l.locationId).join(', ')}`,
        });
      }
    }
  }

  const fileItems = shop.stockItems ?? [];
  const items = await readStoredItems(
    tx,
    shopId,
    fileItems.map((item) => item.id),
  );
  // The type each variant's product has after the file (the file's where it states the product).
  const typeInFile = new Map(inFile.map(({ product, variant }) => [variant.id, product.measurementType]));
  const linkInFile = new Map(inFile.map(({ variant }) => [variant.id, variant.stockItemId]));
  fileItems.forEach((item, i) => {
    const stored = items.get(item.id);
    if (!stored) return;
    const itemAt = `${at}/stockItems/${i}`;
    if (stored.measurementType !== item.measurementType) {
      if (stored.levels.length > 0) {
        issues.push({
          path: `${itemAt}/measurementType`,
          message:
            `stock item '${item.id}' holds stock counted in ${stored.measurementType} units (${held(stored.levels)}); ` +
            `its type cannot change to ${item.measurementType}: make a new stock item for it`,
        });
      }
      const staying = stored.linked.filter((v) => linkInFile.get(v.variantId) === undefined);
      const other = staying.filter((v) => (typeInFile.get(v.variantId) ?? v.measurementType) !== item.measurementType);
      if (other.length > 0) {
        issues.push({
          path: `${itemAt}/measurementType`,
          message:
            `stock item '${item.id}' is sold by ${other.map((v) => `variant ${v.variantId}`).join(', ')} ` +
            `(${other[0]!.measurementType}); unlink them before its type changes to ${item.measurementType}`,
        });
      }
      return;
    }
    if (stored.unit === item.unit) return;
    const rounded = stored.levels.find(
      (l) =>
        typeOfUnit(l.unit) === item.measurementType && convert(new Dec(l.total), l.unit, item.unit).decimalPlaces() > 9,
    );
    if (rounded) {
      issues.push({
        path: `${itemAt}/unit`,
        message:
          `would round the stock at location ${rounded.locationId}: ${new Dec(rounded.total).toFixed()} ${rounded.unit} ` +
          `has more than 9 decimal places in ${item.unit}`,
      });
    }
  });
  return issues;
}
