import { Dec, decimalFromJson } from '../domain/decimal.js';
import { splitForPlatform } from '../domain/platform-split.js';
import { convert, convertForStorage, type MeasurementType, typeOfUnit } from '../domain/units.js';
import { errors } from '../errors.js';
import type { ImportDocument, ImportVariant } from '../services/catalog-import/import-document.js';
import { validateImport } from '../services/catalog-import/validate-import.js';
import { toApiVariant } from '../services/catalog.js';
import type { Db } from '../store/db.js';
import { findProduct, type ProductRecord, type VariantRecord } from '../store/repositories/catalog.js';
import { listAllVariants, listProductLevels, type StoredLevel } from '../store/repositories/product-list.js';
import { findShopById, type Shop } from '../store/repositories/shops.js';

/** A variant's measured settings as the admin's form sets them (numbers already parsed). */
export type VariantSettings = Pick<ImportVariant, 'unitMeasurement' | 'settings'>;

export interface ProductEdit {
  measurementType?: MeasurementType;
  /** One unit for every variant (with a type change, the new type's). */
  variantUnit?: string;
  /** Settings replacing a variant's stored ones, by variant id. */
  variants?: Map<string, VariantSettings>;
}

/** An issue of the edit, relative to the product: `/measurementType`, `/variants/{j}/…`. */
export interface EditIssue {
  /** The variant it is about (the `j` of its path), when it is about one. */
  variantId?: string;
  /** The path below the variant (`/settings/onlineStore/rules/min`), or below the product. */
  path: string;
  message: string;
}

export type EditResult = { ok: true; changed: boolean } | { ok: false; status: 400 | 409; issues: EditIssue[] };

export interface StoredProduct {
  shop: Shop;
  product: ProductRecord;
  variants: VariantRecord[];
}

/** The product with every variant as stored; another shop's product is not found, as in the API. */
export async function loadProduct(db: Db, shopId: string, productId: string): Promise<StoredProduct> {
  const product = await findProduct(db, shopId, productId);
  if (!product) throw errors.notFound('product', productId);
  const shop = await findShopById(db, shopId);
  if (!shop) throw errors.notFound('product', productId);
  return { shop, product, variants: await listAllVariants(db, shopId, productId) };
}

/** A stored variant as the import file states it, without `inventory` (so its stock is not touched). */
export function importVariantOf(record: VariantRecord): ImportVariant {
  const { unitMeasurement, settings } = toApiVariant(record);
  return { id: record.id, title: record.title, price: record.price, unitMeasurement, settings };
}

/**
 * The one-shop import document of the stored product with the edit applied: every variant in
 * its stored order (the import numbers positions by index), titles and prices as stored.
 */
export function editedDocument({ shop, product, variants }: StoredProduct, edit: ProductEdit): ImportDocument {
  return {
    shops: [
      {
        domain: shop.domain,
        currency: shop.currency,
        products: [
          {
            id: product.id,
            title: product.title,
            measurementType: edit.measurementType ?? product.measurementType,
            variants: variants.map((record) => {
              const stored = importVariantOf(record);
              const changed = { ...stored, ...edit.variants?.get(record.id) };
              if (!edit.variantUnit) return changed;
              return { ...changed, unitMeasurement: { ...changed.unitMeasurement, unit: edit.variantUnit } };
            }),
          },
        ],
      },
    ],
  };
}

/**
 * Stock is kept per level in the unit it was written in and read in the variant's unit, converted
 * (PRODUCT.md §6). Between types there is no conversion: a product whose variants hold levels
 * (a level at 0 too) keeps its type, or every read of those levels would fail.
 */
export function typeChangeIssue(levels: StoredLevel[], newType: MeasurementType): EditIssue | undefined {
  const other = levels.filter((level) => typeOfUnit(level.unit) !== newType);
  if (other.length === 0) return undefined;
  const type = typeOfUnit(other[0]!.unit);
  const count = `${other.length} level${other.length === 1 ? '' : 's'}`;
  return {
    path: '/measurementType',
    message:
      `cannot change to ${newType}: its variants hold stock counted in ${type} units (${count}, a level at 0 ` +
      `included), and stock is not converted between types. Create a new ${newType} product instead.`,
  };
}

/**
 * A unit or unit value change keeps every level as it is, read converted to the new unit
 * (convertForStorage, as the API reads it). Refused when that would show other stock than was
 * counted: a conversion with more than 9 decimals (read rounded, as the import refuses a quantity
 * it would round), or other whole units on the platform than it shows (a catalog edit does not
 * re-project levels; `tare import` with the variant's inventory changes both together).
 */
export function stockIssues(levels: StoredLevel[], stored: VariantRecord[], edited: ImportVariant[]): EditIssue[] {
  const issues: EditIssue[] = [];
  for (const variant of edited) {
    const before = stored.find((v) => v.id === variant.id);
    const { unit, value } = variant.unitMeasurement;
    for (const level of levels.filter((l) => l.variantId === variant.id)) {
      if (!before || typeOfUnit(level.unit) !== typeOfUnit(unit)) continue;
      const total = new Dec(level.total);
      const counted = `${total.toFixed()} ${level.unit}`;
      const exact = convert(total, level.unit, unit);
      if (exact.decimalPlaces() > 9) {
        issues.push({
          variantId: variant.id,
          path: '/unitMeasurement/unit',
          message:
            `would round the stock at location ${level.locationId}: ${counted} is ` +
            `${exact.toSignificantDigits(15).toFixed()}… ${unit}, more than 9 decimal places`,
        });
        break;
      }
      const shown = splitForPlatform(convertForStorage(total, level.unit, before.unit), new Dec(before.unitValue));
      const next = splitForPlatform(exact, decimalFromJson(value));
      if (!shown.integer.eq(next.integer)) {
        issues.push({
          variantId: variant.id,
          path: '/unitMeasurement/value',
          message:
            `would change the platform's whole units of the stock at location ${level.locationId} ` +
            `(${counted} is ${shown.integer.toFixed()} units of ${before.unitValue} ${before.unit} but ` +
            `${next.integer.toFixed()} of ${value} ${unit}); change it with the stock through tare import`,
        });
        break;
      }
    }
  }
  return issues;
}

const PRODUCT_PREFIX = '/shops/0/products/0';

/** An import issue relative to the product, tied to its variant when it is about one. */
function relativeIssue(path: string, message: string, variantIds: string[]): EditIssue {
  const below = path.startsWith(PRODUCT_PREFIX) ? path.slice(PRODUCT_PREFIX.length) : path;
  const match = /^\/variants\/(\d+)(\/.*)?$/.exec(below);
  if (!match) return { path: below, message };
  return { variantId: variantIds[Number(match[1])], path: match[2] ?? '', message };
}

/**
 * Applies an edit the way `tare import` would: the edited document is validated by the import's
 * validator, refused when it would misstate stock, then written by the import's own writer (which
 * announces CATALOG_CHANGED, dropping the catalog and app-settings caches of every instance).
 * Writing values already stored changes nothing, so a form posted twice applies once.
 */
export async function applyProductEdit(
  deps: { db: Db; importCatalog: (doc: ImportDocument) => Promise<{ shops: { changes: number }[] }> },
  shopId: string,
  productId: string,
  edit: ProductEdit,
): Promise<EditResult> {
  const stored = await loadProduct(deps.db, shopId, productId);
  const levels = await listProductLevels(deps.db, shopId, productId);
  if (edit.measurementType && edit.measurementType !== stored.product.measurementType) {
    const refused = typeChangeIssue(levels, edit.measurementType);
    if (refused) return { ok: false, status: 409, issues: [refused] };
  }
  const doc = editedDocument(stored, edit);
  const ids = stored.variants.map((v) => v.id);
  const checked = validateImport(doc);
  if (!checked.ok) {
    return { ok: false, status: 400, issues: checked.issues.map((i) => relativeIssue(i.path, i.message, ids)) };
  }
  const misstated = stockIssues(levels, stored.variants, checked.value.shops[0]!.products![0]!.variants);
  if (misstated.length > 0) return { ok: false, status: 409, issues: misstated };
  const summary = await deps.importCatalog(checked.value);
  return { ok: true, changed: summary.shops.some((shop) => shop.changes > 0) };
}
