import { IMPORT } from '../../domain/actor.js';
import type { ValidationIssue } from '@tare/contracts';
import { Dec, decimalFromJson, toPlainString } from '../../domain/decimal.js';
import { normalizeLocale } from '../../domain/labels.js';
import { convertForStorage, typeOfUnit } from '../../domain/units.js';
import type { PlatformGateway } from '../../platform/gateway.js';
import type { Keyring } from '../../secrets/keyring.js';
import { upsertLineItem, upsertOrder } from '../../platform/local/orders-repository.js';
import { retryConflicts } from '../../store/conflict-retry.js';
import type { Db, Queryable } from '../../store/db.js';
import {
  findProductsByIds,
  sameVariant,
  upsertProducts,
  upsertVariants,
  type VariantRecord,
} from '../../store/repositories/catalog.js';
import { appendLedgerRows, lockLevelsForImport, writeLevels } from '../../store/repositories/import-levels.js';
import { type LedgerEntry, type LevelKey, setPlatformAvailable } from '../../store/repositories/inventory.js';
import { deleteLabel, upsertLabel } from '../../store/repositories/labels.js';
import { upsertLocation } from '../../store/repositories/locations.js';
import { upsertShop } from '../../store/repositories/shops.js';
import { linkVariants, upsertStockItems } from '../../store/repositories/stock-items.js';
import { importItemLevels } from '../stock-items/import-item-levels.js';
import { CATALOG_CHANGED } from '../change-channels.js';
import { syncOrder } from '../events/sync-order.js';
import { connectShopToShopify } from '../shopify-connection.js';
import { queueStorefrontMetafields } from '../storefront/storefront-metafields.js';
import type { ImportDocument, ImportProduct, ImportShop, ImportVariant } from './import-document.js';
import { importScaleBarcodes, scaleItemIssues } from './scale-items.js';
import { stockItemGuardIssues } from './stock-item-guards.js';
import { importUnitPricing } from './unit-pricing.js';
import {
  differing,
  levelKeyOf,
  platformUnitsOf,
  statedLevels,
  type UnsettledLevels,
  unsettledLevels,
} from './stated-levels.js';
import {
  ImportRefusedError,
  readStoredStock,
  reprojectLevels,
  type StoredStock,
  typeChangeIssues,
} from './stored-stock.js';

export interface ImportSummary {
  shops: { domain: string; id: string; changes: number }[];
}

/** What an import file cannot say but the admin's forms can, written in the import's transaction. */
export interface ImportOptions {
  /** Label overrides to remove, by shop domain, then locale: the fields a staff member cleared. */
  removeLabels?: Record<string, Record<string, string[]>>;
  /** Called after each slice of variants is written (`tare import` shows it on a terminal). */
  onProgress?: (progress: ImportProgress) => void;
}

/** How far the import of one shop's catalog is: products, variants and levels written of the file's. */
export interface ImportProgress {
  domain: string;
  rows: number;
  total: number;
}

/** Variants written per slice: a few statements each, parameters of a few hundred kB. */
const SLICE_VARIANTS = 2000;

/**
 * Writes a validated import document in one transaction. Every write is an upsert that only
 * touches rows whose values differ, so importing the same file twice changes nothing (no
 * ledger rows, no timestamps). Shops that changed are announced on CATALOG_CHANGED at commit.
 * A file that would leave stock unreadable (a type change stranding levels) is refused with
 * ImportRefusedError, its issues at JSON paths like the validator's, and nothing is written.
 */
export async function importCatalog(
  deps: { db: Db; gateway: PlatformGateway; keyring?: Keyring },
  doc: ImportDocument,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  // The file states whole values and everything is written in this one transaction (a remote
  // platform's share is queued in it), so one that a deadlock aborted runs again.
  const summary = await retryConflicts(() =>
    deps.db.transaction(async (tx) => {
      const shops: ImportSummary['shops'] = [];
      const refused: ValidationIssue[] = [];
      for (const [s, shop] of doc.shops.entries()) {
        const { issues, ...result } = await importShop(
          tx,
          deps,
          shop,
          `/shops/${s}`,
          options.removeLabels?.[shop.domain],
          options.onProgress,
        );
        refused.push(...issues);
        shops.push({ domain: shop.domain, ...result });
        if (result.changes > 0) {
          await tx.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED, result.id]);
          // A shop on Shopify: the storefront metafields whose documents changed go with it.
          await queueStorefrontMetafields(tx, result.id);
        }
      }
      // Thrown inside the transaction, so every shop's writes roll back.
      if (refused.length > 0) throw new ImportRefusedError(refused);
      return { shops };
    }),
  );
  // Fresh statistics after a bulk load: without them the planner scans a whole location's
  // levels on every inventory write (measured: ~2 ms per write on 800 variants). Autovacuum
  // may be off, and PGlite has none.
  if (summary.shops.some((shop) => shop.changes > 0)) {
    await deps.db.query('ANALYZE shops, products, variants, locations, inventory_levels, local_platform_levels');
  }
  return summary;
}

async function importShop(
  tx: Queryable,
  deps: { gateway: PlatformGateway; keyring?: Keyring },
  shop: ImportShop,
  at: string,
  removeLabels: Record<string, string[]> = {},
  onProgress?: ImportOptions['onProgress'],
): Promise<{ id: string; changes: number; issues: ValidationIssue[] }> {
  const { gateway } = deps;
  const { id, changed } = await upsertShop(tx, {
    domain: shop.domain,
    currency: shop.currency,
    defaultLocale: normalizeLocale(shop.defaultLocale),
    addonActive: shop.addonActive,
    mergeMatchingLineItems: shop.settings?.mergeMatchingLineItems,
    rateLimit: shop.settings?.rateLimit,
    platformStockChanges: shop.settings?.platformStockChanges,
    storefrontEnabled: shop.settings?.storefront?.enabled,
  });
  let changes = changed ? 1 : 0;
  const products = shop.products ?? [];
  // Every pass walks the same slices; the compare pass's findings are kept by slice.
  const sliced = [...slices(products, SLICE_VARIANTS)];
  const { stored, changedProducts, changedVariants, unsettled, issues } = await compareStored(tx, id, sliced, at);
  issues.push(...(await scaleItemIssues(tx, id, shop, at)));
  issues.push(...(await stockItemGuardIssues(tx, id, shop, at)));
  if (issues.length > 0) return { id, changes, issues };
  const count = (didChange: boolean) => {
    if (didChange) changes++;
  };
  // Before the stock: the shop's levels are projected onto the platform it sells on.
  if (shop.platform) {
    if (!deps.keyring) throw new Error('importing a shop connected to Shopify needs the secrets keyring');
    const { kind: _, ...connection } = shop.platform;
    count((await connectShopToShopify(tx, deps.keyring, id, connection)).changed);
  }
  for (const [locale, labels] of Object.entries(shop.labels ?? {})) {
    for (const [key, value] of Object.entries(labels)) {
      count(await upsertLabel(tx, id, { locale: normalizeLocale(locale) ?? locale, key, value }));
    }
  }
  for (const [locale, keys] of Object.entries(removeLabels)) {
    for (const key of keys) count(await deleteLabel(tx, id, { locale: normalizeLocale(locale) ?? locale, key }));
  }
  for (const location of shop.locations ?? []) count(await upsertLocation(tx, id, location));
  // Set-based, a slice at a time: a few statements per slice whatever its size, so the cost
  // grows with the file (row by row, 100k variants took 20 minutes on PostgreSQL). Products,
  // then variants, then stock, each pass complete before the next: the foreign-key checks of a
  // pass then find the table they check complete, and analyzed when the file is large.
  const variantCount = products.reduce((sum, product) => sum + product.variants.length, 0);
  const levelCount = products.reduce(
    (sum, product) => product.variants.reduce((n, variant) => n + (variant.inventory?.length ?? 0), sum),
    0,
  );
  const progress = { domain: shop.domain, rows: 0, total: products.length + variantCount + levelCount };
  const large = variantCount > SLICE_VARIANTS;
  const advance = (rows: number) => {
    progress.rows += rows;
    onProgress?.({ ...progress });
  };
  let written = 0;
  for (const slice of sliced) {
    written += await upsertProducts(
      tx,
      id,
      slice.filter((product) => changedProducts.has(product.id)),
    );
    advance(slice.length);
  }
  changes += written;
  // Foreign-key checks keep the plan they got first in a connection: planned on a table that
  // looked empty, one walked every variant of the shop for each level (quadratic). Statistics
  // that include this file's rows (a transaction's ANALYZE sees its own) get them planned anew.
  if (large && written > 0) await tx.query('ANALYZE products');
  // Stock items before the variants that link to them.
  changes += await upsertStockItems(
    tx,
    id,
    (shop.stockItems ?? []).map(({ inventory: _, ...item }) => item),
  );
  written = 0;
  for (const slice of sliced) {
    const records = slice.flatMap((product) =>
      product.variants.flatMap((variant, position) =>
        changedVariants.has(variant.id) ? [toVariantRecord(product.id, position, variant)] : [],
      ),
    );
    written += await upsertVariants(tx, id, records);
    advance(slice.reduce((n, product) => n + product.variants.length, 0));
  }
  changes += written;
  if (large && written > 0) await tx.query('ANALYZE variants');
  changes += await linkVariants(
    tx,
    id,
    products.flatMap((product) =>
      product.variants.flatMap((variant) =>
        variant.stockItemId === undefined ? [] : [{ variantId: variant.id, stockItemId: variant.stockItemId }],
      ),
    ),
  );
  changes += await importScaleBarcodes(tx, id, shop);
  changes += await importUnitPricing(tx, id, shop);
  for (const [i, slice] of sliced.entries()) {
    const variants = slice.flatMap((product) => product.variants);
    changes += await importLevels(tx, gateway, id, variants, unsettled[i]!);
    for (const variant of variants) count(await reprojectLevels(tx, gateway, id, variant, stored));
    advance(variants.reduce((n, variant) => n + (variant.inventory?.length ?? 0), 0));
  }
  changes += await importItemLevels(tx, gateway, id, shop.stockItems ?? []);
  for (const order of shop.orders ?? []) {
    count(await upsertOrder(tx, id, order));
    for (const [position, line] of order.lineItems.entries()) {
      count(
        await upsertLineItem(tx, id, {
          ...line,
          orderId: order.id,
          position,
          fulfilled: line.fulfilled ?? false,
          properties: line.properties ?? [],
        }),
      );
    }
    // The file's stock already has its orders taken off: they are recorded as booked.
    await syncOrder(tx, gateway, { shopId: id, orderId: order.id, requestId: 'import', baseline: true });
  }
  return { id, changes, issues: [] };
}

/**
 * Compares the file with what the shop holds, a slice at a time (one read of its products, one of
 * its variants and one of their levels): the refusals of a type change, the products and variants
 * that differ (only those go to the upserts), the stored stock of the variants whose unit changes
 * (their levels are projected again), and per slice the levels Tare does not hold as stated (the
 * levels pass reads no level again for the others). Nothing is locked: a row read here as unchanged
 * may be changed by a concurrent write right after, and the import then leaves that write's
 * value, as the import committed before the write would have (see the import's decision).
 * What is kept outlives the slice only for rows that change.
 */
async function compareStored(
  tx: Queryable,
  shopId: string,
  sliced: ImportProduct[][],
  at: string,
): Promise<{
  stored: StoredStock;
  changedProducts: Set<string>;
  changedVariants: Set<string>;
  unsettled: UnsettledLevels[];
  issues: ValidationIssue[];
}> {
  const stored: StoredStock = { variants: new Map(), levels: new Map() };
  const changedProducts = new Set<string>();
  const changedVariants = new Set<string>();
  const unsettled: UnsettledLevels[] = [];
  const issues: ValidationIssue[] = [];
  let offset = 0;
  for (const slice of sliced) {
    const found = await readStoredStock(tx, shopId, slice);
    const storedProducts = await findProductsByIds(
      tx,
      shopId,
      slice.map((product) => product.id),
    );
    // Every slice is checked, so a refusal names every stranded level of the file.
    issues.push(...typeChangeIssues(slice, at, found, offset));
    offset += slice.length;
    if (issues.length > 0) continue;
    for (const product of slice) {
      const before = storedProducts.get(product.id);
      if (before?.title !== product.title || before.measurementType !== product.measurementType) {
        changedProducts.add(product.id);
      }
      for (const [position, variant] of product.variants.entries()) {
        const was = found.variants.get(variant.id);
        if (!was || !sameVariant(was, toVariantRecord(product.id, position, variant))) changedVariants.add(variant.id);
        const { unit, value } = variant.unitMeasurement;
        if (was && (was.unit !== unit || !new Dec(was.unitValue).eq(decimalFromJson(value)))) {
          stored.variants.set(variant.id, was);
          stored.levels.set(variant.id, found.levels.get(variant.id) ?? []);
        }
      }
    }
    unsettled.push(
      unsettledLevels(
        statedLevels(
          shopId,
          slice.flatMap((product) => product.variants),
        ),
        found.levels,
      ),
    );
  }
  return { stored, changedProducts, changedVariants, unsettled, issues };
}

function toVariantRecord(productId: string, position: number, variant: ImportVariant): VariantRecord {
  const store = variant.settings.onlineStore;
  return {
    id: variant.id,
    productId,
    position,
    title: variant.title,
    price: variant.price,
    unit: variant.unitMeasurement.unit,
    unitValue: toPlainString(decimalFromJson(variant.unitMeasurement.value)),
    displayStyle: store.displayStyle,
    rules: store.displayStyle === 'number' ? (store.rules ?? null) : null,
    presets: store.displayStyle === 'number' ? null : (store.presets ?? null),
    dimensions: store.dimensions ?? null,
    overagePercent: store.overagePercent === undefined ? null : toPlainString(decimalFromJson(store.overagePercent)),
  };
}

/**
 * Sets each level the file states to its total (a ledger row `import` when it differs) and the
 * platform's integer, for one slice of variants, in a fixed number of statements. Returns how
 * many levels changed.
 */
async function importLevels(
  tx: Queryable,
  gateway: PlatformGateway,
  shopId: string,
  variants: ImportVariant[],
  unsettled: UnsettledLevels,
): Promise<number> {
  const stated = await differing(tx, gateway, shopId, statedLevels(shopId, variants), unsettled);
  if (stated.length === 0) return 0;
  const locked = await lockLevelsForImport(
    tx,
    shopId,
    stated.map((s) => s.key),
  );
  const currents = new Map(locked.map((level) => [levelKeyOf(level), level]));
  const ledger: LedgerEntry[] = [];
  const ledgerRow = (key: LevelKey, from: Dec, to: Dec, counted: string) =>
    ledger.push({
      ...key,
      operation: 'import',
      before: toPlainString(from),
      after: toPlainString(to),
      delta: toPlainString(to.minus(from)),
      unit: counted,
      idempotencyKey: null,
      requestId: null,
      reference: { type: 'import', id: null },
      actor: IMPORT,
    });
  const writes: { locationId: string; variantId: string; total: string; unit: string }[] = [];
  const changed = new Set<string>();
  for (const { key, variant, target } of stated) {
    const unit = variant.unitMeasurement.unit;
    const current = currents.get(levelKeyOf(key));
    let before = new Dec(0);
    if (current && typeOfUnit(current.unit) !== typeOfUnit(unit)) {
      // The file restates a level of another type (the product's type changed). Nothing converts
      // between types: the stock counted in the old type is cleared in its own unit, then counted
      // afresh in the new one, so each unit's ledger rows still add up to what it held.
      ledgerRow(key, new Dec(current.total), new Dec(0), current.unit);
    } else if (current) before = convertForStorage(new Dec(current.total), current.unit, unit);
    if (!current || current.unit !== unit || !before.eq(target)) {
      writes.push({ locationId: key.locationId, variantId: key.variantId, total: toPlainString(target), unit });
      ledgerRow(key, before, target, unit);
      changed.add(levelKeyOf(key));
    }
  }
  await writeLevels(tx, shopId, writes);
  await appendLedgerRows(tx, shopId, ledger);
  // The file states the stock: the platform shows its whole units, whatever it showed before.
  const shown = await gateway.readLevels(
    tx,
    shopId,
    stated.map((s) => s.key),
  );
  const projections = [];
  for (const [i, level] of stated.entries()) {
    const { key } = level;
    const available = platformUnitsOf(level);
    if (shown[i]?.available !== available || currents.get(levelKeyOf(key))?.platformAvailable !== available) {
      projections.push({ locationId: key.locationId, variantId: key.variantId, available, expected: null });
      changed.add(levelKeyOf(key));
    }
  }
  if (projections.length > 0) {
    const { projected } = await gateway.projectLevels(tx, shopId, projections);
    await setPlatformAvailable(tx, shopId, projected);
  }
  return changed.size;
}

/** Consecutive runs of products holding about `variants` variants each (a product is never split). */
function* slices(products: ImportProduct[], variants: number): Generator<ImportProduct[]> {
  let slice: ImportProduct[] = [];
  let size = 0;
  for (const product of products) {
    slice.push(product);
    size += Math.max(1, product.variants.length);
    if (size >= variants) {
      yield slice;
      slice = [];
      size = 0;
    }
  }
  if (slice.length > 0) yield slice;
}
