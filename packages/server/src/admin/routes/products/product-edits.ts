import { Dec } from '../../../domain/decimal.js';
import { convert, type MeasurementType, typeOfUnit } from '../../../domain/units.js';
import { errors } from '../../../errors.js';
import type { ImportDocument, ImportVariant } from '../../../services/catalog-import/import-document.js';
import { ImportRefusedError } from '../../../services/catalog-import/stored-stock.js';
import { validateImport } from '../../../services/catalog-import/validate-import.js';
import { toApiVariant } from '../../../services/catalog.js';
import type { Db } from '../../../store/db.js';
import {
  findProduct,
  findVariantsByIds,
  type ProductRecord,
  type VariantRecord,
} from '../../../store/repositories/catalog.js';
import { listAllVariants, listProductLevels, type StoredLevel } from '../../../store/repositories/product-list.js';
import { findShopById, type Shop } from '../../../store/repositories/shops.js';
import type { StockItemRecord } from '../../../store/repositories/stock-items.js';

/** A variant's measured settings as the admin's form sets them (numbers already parsed). */
export type VariantSettings = Pick<ImportVariant, 'unitMeasurement' | 'settings'>;

export interface ProductEdit {
  measurementType?: MeasurementType;
  /** One unit for every variant (with a type change, the new type's). */
  variantUnit?: string;
  /** Settings replacing a variant's stored ones, by variant id. */
  variants?: Map<string, VariantSettings>;
  /** A new variant, after the stored ones (the import numbers positions by index). */
  newVariant?: ImportVariant;
  /** Prices replacing a variant's stored one (decimal text as typed), by variant id. */
  prices?: Map<string, string>;
  /** A variant linked to a stock item (stated in the document with it) or unlinked (`null`). */
  link?: StockItemLink;
}

/**
 * A variant's stock item link as the import states it: the item itself (the import checks a link
 * against the file's items), and on unlinking the variant's own level at 0 wherever it has a row
 * (the row held the item's total: the import refuses an unlink that leaves it unstated).
 */
export interface StockItemLink {
  variantId: string;
  item: StockItemRecord | null;
  /** The locations (stated in the document too: a level names one of the file's) of the variant's levels. */
  zeroAt: { id: string; name: string }[];
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
        ...(edit.link?.item ? { stockItems: [edit.link.item] } : {}),
        ...(edit.link?.zeroAt.length ? { locations: edit.link.zeroAt } : {}),
        products: [
          {
            id: product.id,
            title: product.title,
            measurementType: edit.measurementType ?? product.measurementType,
            variants: [
              ...variants.map((record) => {
                const stored = importVariantOf(record);
                const price = edit.prices?.get(record.id);
                const changed = {
                  ...keepDimensions(stored, edit.variants?.get(record.id)),
                  ...(price === undefined ? {} : { price }),
                };
                const link = edit.link?.variantId === record.id ? linkOf(edit.link, record.unit) : {};
                if (!edit.variantUnit) return { ...changed, ...link };
                return { ...changed, ...link, unitMeasurement: { ...changed.unitMeasurement, unit: edit.variantUnit } };
              }),
              ...(edit.newVariant ? [edit.newVariant] : []),
            ],
          },
        ],
      },
    ],
  };
}

/** The variant's fields of a link: its `stockItemId`, and on unlinking its own level of 0 where it has one. */
function linkOf(link: StockItemLink, unit: string): Partial<ImportVariant> {
  if (link.item) return { stockItemId: link.item.id };
  const inventory = link.zeroAt.map((location) => ({ locationId: location.id, quantity: { value: 0, unit } }));
  return { stockItemId: null, ...(inventory.length ? { inventory } : {}) };
}

/**
 * A unit or unit value change keeps every level as it is, read converted to the new unit
 * (convertForStorage, as the API reads it), and the import projects the platform's whole units
 * of the new unit value. Refused when the conversion has more than 9 decimals: the stock would be
 * read rounded (as the import refuses a quantity it would round).
 */
export function stockIssues(levels: StoredLevel[], stored: VariantRecord[], edited: ImportVariant[]): EditIssue[] {
  const issues: EditIssue[] = [];
  for (const variant of edited) {
    const before = stored.find((v) => v.id === variant.id);
    const { unit } = variant.unitMeasurement;
    for (const level of levels.filter((l) => l.variantId === variant.id)) {
      if (!before || typeOfUnit(level.unit) !== typeOfUnit(unit)) continue;
      const total = new Dec(level.total);
      const exact = convert(total, level.unit, unit);
      if (exact.decimalPlaces() > 9) {
        issues.push({
          variantId: variant.id,
          path: '/unitMeasurement/unit',
          message:
            `would round the stock at location ${level.locationId}: ${total.toFixed()} ${level.unit} is ` +
            `${exact.toSignificantDigits(15).toFixed()}… ${unit}, more than 9 decimal places`,
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

export type ImportDeps = { db: Db; importCatalog: (doc: ImportDocument) => Promise<{ shops: { changes: number }[] }> };

/**
 * Applies an edit the way `tare import` would: the edited document is validated by the import's
 * validator, refused when it would misstate stock, then written by the import's own writer (which
 * announces CATALOG_CHANGED, dropping the catalog and app-settings caches of every instance, and
 * refuses a type change that would strand stock). Writing values already stored changes nothing,
 * so a form posted twice applies once.
 */
export async function applyProductEdit(
  deps: ImportDeps,
  shopId: string,
  productId: string,
  edit: ProductEdit,
): Promise<EditResult> {
  return importEdited(deps, shopId, await loadProduct(deps.db, shopId, productId), edit);
}

/**
 * Adds a variant at the end of a stored product or, with `product`, a new product with it as its
 * first variant: an import of the product with the variant appended. An id the shop already uses
 * is refused (the import's upsert would overwrite that product, or move that variant here);
 * posting the same new variant again finds it as sent and changes nothing.
 */
export async function addVariant(
  deps: ImportDeps,
  shopId: string,
  target: { productId: string } | { product: ProductRecord },
  variant: ImportVariant,
): Promise<EditResult> {
  const isNew = 'product' in target;
  // Another shop's product is not found, as in the API.
  const stored = isNew ? undefined : await loadProduct(deps.db, shopId, target.productId);
  const productId = isNew ? target.product.id : target.productId;
  const existing = isNew ? await findProduct(deps.db, shopId, productId) : stored!.product;
  const [used] = (await findVariantsByIds(deps.db, shopId, [variant.id])).values();
  const postedAgain =
    used?.productId === productId &&
    sameJson(importVariantOf(used), variant) &&
    (!isNew || sameJson(existing, target.product));
  if (postedAgain) return { ok: true, changed: false };
  const issues: EditIssue[] = [];
  if (isNew && existing) {
    issues.push({
      path: '/id',
      message: `'${productId}' is already used in this shop, by product “${existing.title}”`,
    });
  }
  if (used) {
    issues.push({
      variantId: variant.id,
      path: '/id',
      message: `'${variant.id}' is already used in this shop, by variant “${used.title}” of product ${used.productId}`,
    });
  }
  if (issues.length > 0) return { ok: false, status: 409, issues };
  if (!isNew) return importEdited(deps, shopId, stored!, { newVariant: variant });
  const shop = await findShopById(deps.db, shopId);
  if (!shop) throw errors.notFound('product', productId);
  return importEdited(deps, shopId, { shop, product: target.product, variants: [] }, { newVariant: variant });
}

async function importEdited(
  deps: ImportDeps,
  shopId: string,
  stored: StoredProduct,
  edit: ProductEdit,
): Promise<EditResult> {
  const levels = await listProductLevels(deps.db, shopId, stored.product.id);
  const doc = editedDocument(stored, edit);
  const ids = [...stored.variants.map((v) => v.id), ...(edit.newVariant ? [edit.newVariant.id] : [])];
  const checked = validateImport(doc);
  if (!checked.ok) {
    return { ok: false, status: 400, issues: checked.issues.map((i) => relativeIssue(i.path, i.message, ids)) };
  }
  const misstated = stockIssues(levels, stored.variants, checked.value.shops[0]!.products![0]!.variants);
  if (misstated.length > 0) return { ok: false, status: 409, issues: misstated };
  try {
    const summary = await deps.importCatalog(checked.value);
    return { ok: true, changed: summary.shops.some((shop) => shop.changes > 0) };
  } catch (error) {
    if (!(error instanceof ImportRefusedError)) throw error;
    return { ok: false, status: 409, issues: error.issues.map((i) => relativeIssue(i.path, i.message, ids)) };
  }
}

/** Equal as JSON whatever the order of keys (a stored variant against the one a form sends). */
function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([, v]) => v !== undefined)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/**
 * The stored variant with the form's settings. The dimensions and overage of PRODUCT.md §19 are
 * the form's when it has their fields (the key `dimensions` is there, undefined when every factor
 * was left blank); a form without them (the rules alone) keeps them as stored.
 */
function keepDimensions(stored: ImportVariant, edited: VariantSettings | undefined): ImportVariant {
  if (!edited) return stored;
  if ('dimensions' in edited.settings.onlineStore) {
    const onlineStore = Object.fromEntries(
      Object.entries(edited.settings.onlineStore).filter(([, value]) => value !== undefined),
    ) as ImportVariant['settings']['onlineStore'];
    return { ...stored, ...edited, settings: { onlineStore } };
  }
  const { dimensions, overagePercent } = stored.settings.onlineStore;
  const kept = {
    ...(dimensions ? { dimensions } : {}),
    ...(overagePercent === undefined ? {} : { overagePercent }),
  };
  return { ...stored, ...edited, settings: { onlineStore: { ...edited.settings.onlineStore, ...kept } } };
}
