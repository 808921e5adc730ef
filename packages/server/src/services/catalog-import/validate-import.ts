import { dimensionsSettingsIssues, onlineStoreIssues, templateProblem, type ValidationIssue } from '@tare/contracts';
import { decimalFromJson } from '../../domain/decimal.js';
import { labelTokens, normalizeLocale } from '../../domain/labels.js';
import { exactQuantity } from '../../domain/quantity.js';
import { isUnitOfType, type MeasurementType, unitsOf } from '../../domain/units.js';
import { compileChecker, escapePointer } from '../../domain/validation.js';
import { shopifyConnectionProblems } from '../shopify-connection.js';
import { ImportDocument, type ImportShop, type ImportVariant } from './import-document.js';
import { levelLocationCheck } from './level-locations.js';
import { checkScaleBarcodes } from './scale-barcode-checks.js';
import { checkStockItems } from './stock-item-checks.js';
import { type SoundParts, soundParts } from './sound-parts.js';
import { checkUnitPricing } from './unit-pricing.js';

const checkShape = compileChecker<ImportDocument>(ImportDocument);
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * Validates the whole import file before anything is written, and reports every problem it has
 * in one answer: the schema's issues, and those of every cross-reference and rule beyond it
 * (units, locations, quantities, measurement rules, duplicates). A check beyond the schema runs
 * on each part the schema found sound and skips the parts at fault, so it never reports a
 * consequence of a schema issue. Each issue names the JSON pointer of the offending value.
 */
export function validateImport(
  raw: unknown,
): { ok: true; value: ImportDocument } | { ok: false; issues: ValidationIssue[] } {
  const shape = checkShape(raw);
  const issues: ValidationIssue[] = shape.ok ? [] : [...shape.issues];
  const sound = soundParts(issues);
  const report: Report = (path, message) => issues.push({ path, message });
  // Below, a value is read only where `sound` says the schema found it well-formed: the typed
  // view of `raw` holds only there.
  const doc = raw as ImportDocument;
  if (sound.readable('/shops')) {
    const domains = new Set<string>();
    const stores = new Map<string, string>();
    doc.shops.forEach((shop, s) => {
      const at = `/shops/${s}`;
      if (!sound.readable(at)) return;
      if (sound.clean(`${at}/domain`)) {
        if (domains.has(shop.domain)) report(`${at}/domain`, `shop '${shop.domain}' appears twice`);
        domains.add(shop.domain);
      }
      checkShop(shop, at, sound, report);
      const store = sound.clean(`${at}/platform`) ? shop.platform?.store.toLowerCase() : undefined;
      if (store && stores.has(store)) report(`${at}/platform/store`, `store '${store}' is also ${stores.get(store)}'s`);
      if (store) stores.set(store, shop.domain ?? '');
    });
  }
  return issues.length ? { ok: false, issues } : { ok: true, value: doc };
}

type Report = (path: string, message: string) => void;

function checkShop(shop: ImportShop, at: string, sound: SoundParts, report: Report) {
  const clean = (path: string) => sound.clean(`${at}${path}`);
  const readable = (path: string) => sound.readable(`${at}${path}`);
  if (shop.platform && clean('/platform')) {
    for (const { field, message } of shopifyConnectionProblems(shop.platform))
      report(`${at}/platform/${field}`, message);
    // Orders on Shopify are Shopify's: Tare reads them there (§16) and has none of its own to import.
    if (shop.orders?.length && readable('/orders')) {
      report(`${at}/orders`, "a Shopify shop's orders are read from Shopify, not imported");
    }
  }
  if (clean('/currency') && !CURRENCIES.has(shop.currency)) {
    report(`${at}/currency`, `unknown ISO 4217 currency '${shop.currency}'`);
  }
  if (shop.defaultLocale !== undefined && clean('/defaultLocale') && !normalizeLocale(shop.defaultLocale)) {
    report(`${at}/defaultLocale`, `'${shop.defaultLocale}' is not a valid locale`);
  }
  if (readable('/labels')) {
    for (const [locale, labels] of Object.entries(shop.labels ?? {})) {
      const localeAt = `/labels/${escapePointer(locale)}`;
      if (!readable(localeAt)) continue;
      if (!normalizeLocale(locale)) report(`${at}${localeAt}`, `'${locale}' is not a valid locale`);
      // A template the storefront cannot fill (a typo in a token, a stray brace) would reach
      // customers as written; like any other typo in the file, it is refused.
      for (const [key, text] of Object.entries(labels)) {
        const keyAt = `${localeAt}/${escapePointer(key)}`;
        const tokens = labelTokens(key);
        const problem = tokens && clean(keyAt) && templateProblem(text, tokens);
        if (problem) report(`${at}${keyAt}`, problem);
      }
    }
  }
  // Stock and orders are checked against the locations only when the whole list is sound.
  const locations = readable('/locations')
    ? uniqueIds(listed(shop.locations ?? [], `${at}/locations`), 'location', sound, report)
    : undefined;
  const knownLocations = clean('/locations') ? locations : undefined;
  const products = readable('/products') ? (shop.products ?? []) : [];
  uniqueIds(listed(products, `${at}/products`), 'product', sound, report);
  const variants = products.flatMap((p, i) => {
    const variantsAt = `${at}/products/${i}/variants`;
    return sound.readable(variantsAt) ? listed(p.variants, variantsAt) : [];
  });
  uniqueIds(variants, 'variant', sound, report);
  products.forEach((product, i) => {
    const productAt = `${at}/products/${i}`;
    if (!sound.readable(`${productAt}/variants`)) return;
    const type = sound.clean(`${productAt}/measurementType`) ? product.measurementType : undefined;
    product.variants.forEach((variant, j) => {
      const variantAt = `${productAt}/variants/${j}`;
      if (sound.readable(variantAt)) checkVariant(variant, type, variantAt, knownLocations, sound, report);
    });
  });
  checkStockItems(shop, at, knownLocations, sound, report);
  checkScaleBarcodes(shop, at, sound, report);
  checkUnitPricing(shop, at, sound, report);
  const orders = readable('/orders') ? (shop.orders ?? []) : [];
  uniqueIds(listed(orders, `${at}/orders`), 'order', sound, report);
  const lines = orders.flatMap((o, i) => {
    const linesAt = `${at}/orders/${i}/lineItems`;
    return sound.readable(linesAt) ? listed(o.lineItems, linesAt) : [];
  });
  uniqueIds(lines, 'line item', sound, report);
  orders.forEach((order, i) => {
    const locationAt = `${at}/orders/${i}/locationId`;
    if (knownLocations && sound.clean(locationAt) && !knownLocations.has(order.locationId)) {
      report(locationAt, `location '${order.locationId}' is not in this shop's locations`);
    }
  });
}

/** One variant's parts beyond the schema; `type` and `locations` are undefined when not sound. */
function checkVariant(
  variant: ImportVariant,
  type: MeasurementType | undefined,
  at: string,
  locations: Set<string> | undefined,
  sound: SoundParts,
  report: Report,
) {
  const clean = (path: string) => sound.clean(`${at}${path}`);
  // Whether the unit at `path` is sound and of the product's type; one that is sound and is not, is reported.
  const unitFits = (path: string, unit: string) => {
    if (type === undefined || !sound.clean(path)) return false;
    if (isUnitOfType(unit, type)) return true;
    report(path, `unit '${unit}' is not a ${type} unit; use one of ${unitsOf(type).join(', ')}`);
    return false;
  };
  const unit = variant.unitMeasurement?.unit;
  const unitOk = unitFits(`${at}/unitMeasurement/unit`, unit);
  // Stock and its whole-unit split are kept to 9 decimals of the unit: so is the unit measurement.
  const exact = (value: number, from: string) => exactQuantity(decimalFromJson(value), from, unit);
  if (unitOk && clean('/unitMeasurement/value') && Number.isFinite(variant.unitMeasurement.value)) {
    const checked = exact(variant.unitMeasurement.value, unit);
    if (!checked.ok) report(`${at}/unitMeasurement/value`, checked.message);
  }
  // The rules every reader of the settings applies (the admin's preview, the client's cart helpers).
  if (clean('/settings/onlineStore')) {
    for (const issue of onlineStoreIssues(variant.settings.onlineStore)) {
      report(`${at}/settings/onlineStore${issue.path}`, issue.message);
    }
    if (type !== undefined) {
      for (const issue of dimensionsSettingsIssues(variant.settings.onlineStore, type)) {
        report(`${at}/settings/onlineStore${issue.path}`, issue.message);
      }
    }
  }
  if (!sound.readable(`${at}/inventory`)) return;
  const checkLocation = levelLocationCheck(locations, sound, report);
  (variant.inventory ?? []).forEach((entry, k) => {
    const path = `${at}/inventory/${k}`;
    if (!sound.readable(path)) return;
    checkLocation(path, entry.locationId);
    const { value, unit: from } = sound.readable(`${path}/quantity`) ? entry.quantity : { value: NaN, unit: '' };
    const valueSound = sound.clean(`${path}/quantity/value`);
    const valueOk = valueSound && Number.isFinite(value) && value >= 0;
    if (valueSound && !valueOk) report(`${path}/quantity/value`, 'must be a finite number of at least 0');
    const fromOk = unitFits(`${path}/quantity/unit`, from);
    if (valueOk && fromOk && unitOk) {
      const checked = exact(value, from);
      if (!checked.ok) report(`${path}/quantity/value`, checked.message);
    }
  });
}

/**
 * The ids of the entries whose id is sound, each reported at its second and later appearances.
 * An entry's id is read only once its path is known sound (the entry may not be an object).
 */
function uniqueIds(
  entries: { item: { id: string }; path: string }[],
  what: string,
  sound: SoundParts,
  report: Report,
): Set<string> {
  const ids = new Set<string>();
  for (const { item, path } of entries) {
    if (!sound.clean(`${path}/id`)) continue;
    if (ids.has(item.id)) report(`${path}/id`, `${what} id '${item.id}' appears twice`);
    ids.add(item.id);
  }
  return ids;
}

/** Each item of a list with its JSON pointer. */
const listed = <T>(items: T[], at: string) => items.map((item, i) => ({ item, path: `${at}/${i}` }));
