import type { ValidationIssue } from '@tare/contracts';
import { Dec, decimalFromJson } from '../../domain/decimal.js';
import { splitForPlatform } from '../../domain/platform-split.js';
import { wholeUnitsOf } from '../../domain/sibling-units.js';
import { convertForStorage, typeOfUnit } from '../../domain/units.js';
import type { PlatformGateway } from '../../platform/gateway.js';
import type { Queryable } from '../../store/db.js';
import { findVariantsByIds } from '../../store/repositories/catalog.js';
import { lockLevel, setPlatformAvailable } from '../../store/repositories/inventory.js';
import { lockItemLevelsOfVariant } from '../../store/repositories/stock-items.js';
import { listVariantLevels, type StoredLevel, type VariantLevel } from '../../store/repositories/product-list.js';
import { followMovedLevels } from '../inventory/moved-levels.js';
import type { ImportProduct, ImportVariant } from './import-document.js';

/** The file would leave stock the API cannot read: nothing was written. Issues name JSON paths. */
export class ImportRefusedError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(`the import was refused: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
    this.name = 'ImportRefusedError';
  }
}

/** What the shop already holds for the file's variants: their stored settings and their levels. */
export interface StoredStock {
  variants: Awaited<ReturnType<typeof findVariantsByIds>>;
  levels: Map<string, VariantLevel[]>;
}

/**
 * What the shop holds for these products' variants (the import reads it a slice at a time, so
 * what it keeps stays small).
 */
export async function readStoredStock(tx: Queryable, shopId: string, products: ImportProduct[]): Promise<StoredStock> {
  const ids = products.flatMap((product) => product.variants.map((variant) => variant.id));
  if (ids.length === 0) return { variants: new Map(), levels: new Map() };
  const [variants, levels] = await Promise.all([
    findVariantsByIds(tx, shopId, ids),
    listVariantLevels(tx, shopId, ids),
  ]);
  const byVariant = new Map<string, VariantLevel[]>();
  for (const level of levels) byVariant.set(level.variantId, [...(byVariant.get(level.variantId) ?? []), level]);
  return { variants, levels: byVariant };
}

const restatedAt = (variant: ImportVariant) => new Set((variant.inventory ?? []).map((entry) => entry.locationId));

/**
 * Stock is kept in the unit it was counted in and read converted to the variant's unit; between
 * types nothing converts, so a level of another type than its variant cannot be read at all. A
 * file that would leave one (a product's type changed, or a variant moved to a product of
 * another type, while it holds a level, even at 0) is refused, unless the variant's inventory in
 * the file restates every such level in the new type.
 */
export function typeChangeIssues(
  products: ImportProduct[],
  at: string,
  stored: StoredStock,
  /** Index in the shop's products of `products[0]` (a slice's issues name the file's paths). */
  offset = 0,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  products.forEach((product, k) => {
    const i = offset + k;
    const type = product.measurementType;
    const stranded: StoredLevel[] = [];
    product.variants.forEach((variant, j) => {
      const restated = restatedAt(variant);
      const levels = (stored.levels.get(variant.id) ?? []).filter(
        (level) => typeOfUnit(level.unit) !== type && !restated.has(level.locationId),
      );
      if (levels.length === 0) return;
      const before = stored.variants.get(variant.id);
      if (before?.productId === product.id && before.measurementType !== type) {
        stranded.push(...levels);
        return;
      }
      // The variant was under another product (the import moves it) or its level is already astray.
      issues.push({
        path: `${at}/products/${i}/variants/${j}/unitMeasurement/unit`,
        message:
          `unit '${variant.unitMeasurement.unit}' cannot hold this variant's stock, counted in ` +
          `${typeOfUnit(levels[0]!.unit)} units (${countOf(levels)}, at location ` +
          `${levels.map((l) => l.locationId).join(', ')}; a level at 0 counts), and stock is not converted ` +
          `between types: restate it in the variant's inventory in ${type} units`,
      });
    });
    if (stranded.length === 0) return;
    const where = stranded.map((l) => `variant ${l.variantId} at location ${l.locationId}`).join(', ');
    issues.push({
      path: `${at}/products/${i}/measurementType`,
      message:
        `cannot change to ${type}: its variants hold stock counted in ${typeOfUnit(stranded[0]!.unit)} units ` +
        `(${countOf(stranded)}: ${where}; a level at 0 counts), and stock is not converted between types. ` +
        `Restate each of those levels in ${type} units in the variant's inventory, or create a new ${type} product.`,
    });
  });
  return issues;
}

const countOf = (list: unknown[]) => `${list.length} level${list.length === 1 ? '' : 's'}`;

/**
 * A variant whose unit or unit value changed keeps its levels as counted, but the platform's
 * whole units are counted in the new unit value (1250.5 g is 12 units of 100 g, 25 of 50 g):
 * each level the file does not restate is projected again, compare-and-set like any write (a
 * platform that moved meanwhile is followed by the inbox), in the import's transaction.
 * Returns whether anything was written.
 */
export async function reprojectLevels(
  tx: Queryable,
  gateway: PlatformGateway,
  shopId: string,
  variant: ImportVariant,
  stored: StoredStock,
): Promise<boolean> {
  const before = stored.variants.get(variant.id);
  const { unit, value } = variant.unitMeasurement;
  const unitValue = decimalFromJson(value);
  if (!before || (before.unit === unit && new Dec(before.unitValue).eq(unitValue))) return false;
  const restated = restatedAt(variant);
  // importLevel projects what the file states.
  const locations = (stored.levels.get(variant.id) ?? []).map((l) => l.locationId).filter((id) => !restated.has(id));
  // A linked variant shows its stock item's whole units: the item's levels are locked first, as
  // every write locks them (docs/operations.md, lock order), so a sale on a sibling can neither
  // change the item between this read and the projection nor wait on this variant's level while
  // holding the item's (a deadlock).
  const items = await lockItemLevelsOfVariant(tx, shopId, variant.id, locations);
  const projections = [];
  for (const locationId of locations) {
    const current = await lockLevel(tx, { shopId, locationId, variantId: variant.id });
    if (!current) continue;
    const item = items.get(locationId);
    const available = item
      ? wholeUnitsOf(new Dec(item.total), item.unit, unit, unitValue).toNumber()
      : splitForPlatform(convertForStorage(new Dec(current.total), current.unit, unit), unitValue).integer.toNumber();
    if (available === current.platformAvailable) continue;
    projections.push({ locationId, variantId: variant.id, available, expected: current.platformAvailable });
  }
  if (projections.length === 0) return false;
  const { projected, moved } = await gateway.projectLevels(tx, shopId, projections);
  await setPlatformAvailable(tx, shopId, projected);
  await followMovedLevels(tx, shopId, moved);
  return true;
}
