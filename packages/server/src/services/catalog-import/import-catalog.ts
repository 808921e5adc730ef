import type { ValidationIssue } from '@tare/contracts';
import { Dec, decimalFromJson, toPlainString } from '../../domain/decimal.js';
import { normalizeLocale } from '../../domain/labels.js';
import { splitForPlatform } from '../../domain/platform-split.js';
import { convertForStorage, typeOfUnit } from '../../domain/units.js';
import type { PlatformGateway } from '../../platform/gateway.js';
import type { Keyring } from '../../secrets/keyring.js';
import { upsertLineItem, upsertOrder } from '../../platform/local/orders-repository.js';
import type { Db, Queryable } from '../../store/db.js';
import { upsertProduct, upsertVariant } from '../../store/repositories/catalog.js';
import { appendLedger, lockLevel, setPlatformAvailable, writeLevel } from '../../store/repositories/inventory.js';
import { deleteLabel, upsertLabel } from '../../store/repositories/labels.js';
import { upsertLocation } from '../../store/repositories/locations.js';
import { upsertShop } from '../../store/repositories/shops.js';
import { CATALOG_CHANGED } from '../change-channels.js';
import { syncOrder } from '../events/sync-order.js';
import { connectShopToShopify } from '../shopify-connection.js';
import type { ImportDocument, ImportShop, ImportVariant } from './import-document.js';
import { ImportRefusedError, readStoredStock, reprojectLevels, typeChangeIssues } from './stored-stock.js';

export interface ImportSummary {
  shops: { domain: string; id: string; changes: number }[];
}

/** What an import file cannot say but the admin's forms can, written in the import's transaction. */
export interface ImportOptions {
  /** Label overrides to remove, by shop domain, then locale: the fields a staff member cleared. */
  removeLabels?: Record<string, Record<string, string[]>>;
}

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
  const summary = await deps.db.transaction(async (tx) => {
    const shops: ImportSummary['shops'] = [];
    const refused: ValidationIssue[] = [];
    for (const [s, shop] of doc.shops.entries()) {
      const { issues, ...result } = await importShop(
        tx,
        deps,
        shop,
        `/shops/${s}`,
        options.removeLabels?.[shop.domain],
      );
      refused.push(...issues);
      shops.push({ domain: shop.domain, ...result });
      if (result.changes > 0) await tx.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED, result.id]);
    }
    // Thrown inside the transaction, so every shop's writes roll back.
    if (refused.length > 0) throw new ImportRefusedError(refused);
    return { shops };
  });
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
  });
  let changes = changed ? 1 : 0;
  const stored = await readStoredStock(tx, id, shop);
  const issues = typeChangeIssues(shop, at, stored);
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
  for (const product of shop.products ?? []) {
    count(await upsertProduct(tx, id, product));
    for (const [position, variant] of product.variants.entries()) {
      count(await upsertVariant(tx, id, toVariantRecord(product.id, position, variant)));
      for (const entry of variant.inventory ?? []) {
        count(await importLevel(tx, gateway, id, variant, entry));
      }
      count(await reprojectLevels(tx, gateway, id, variant, stored));
    }
  }
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

function toVariantRecord(productId: string, position: number, variant: ImportVariant) {
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
  };
}

/** Sets the level to the file's total (a ledger row `import` when it differs) and the platform's integer. */
async function importLevel(
  tx: Queryable,
  gateway: PlatformGateway,
  shopId: string,
  variant: ImportVariant,
  entry: NonNullable<ImportVariant['inventory']>[number],
): Promise<boolean> {
  const unit = variant.unitMeasurement.unit;
  const key = { shopId, locationId: entry.locationId, variantId: variant.id };
  const target = convertForStorage(decimalFromJson(entry.quantity.value), entry.quantity.unit, unit);
  const current = await lockLevel(tx, key);
  const ledgerRow = (from: Dec, to: Dec, counted: string) =>
    appendLedger(tx, {
      ...key,
      operation: 'import',
      before: toPlainString(from),
      after: toPlainString(to),
      delta: toPlainString(to.minus(from)),
      unit: counted,
      idempotencyKey: null,
      requestId: null,
      reference: { type: 'import', id: null },
    });
  let before = new Dec(0);
  if (current && typeOfUnit(current.unit) !== typeOfUnit(unit)) {
    // The file restates a level of another type (the product's type changed). Nothing converts
    // between types: the stock counted in the old type is cleared in its own unit, then counted
    // afresh in the new one, so each unit's ledger rows still add up to what it held.
    await ledgerRow(new Dec(current.total), new Dec(0), current.unit);
  } else if (current) before = convertForStorage(new Dec(current.total), current.unit, unit);
  let changed = false;
  if (!current || current.unit !== unit || !before.eq(target)) {
    await writeLevel(tx, key, toPlainString(target), unit);
    await ledgerRow(before, target, unit);
    changed = true;
  }
  // The file states the stock: the platform shows its whole units, whatever it showed before.
  const available = splitForPlatform(target, decimalFromJson(variant.unitMeasurement.value)).integer.toNumber();
  const [shown] = await gateway.readLevels(tx, shopId, [key]);
  if (shown?.available !== available || current?.platformAvailable !== available) {
    const { projected } = await gateway.projectLevels(tx, shopId, [{ ...key, available, expected: null }]);
    await setPlatformAvailable(tx, shopId, projected);
    changed = true;
  }
  return changed;
}
