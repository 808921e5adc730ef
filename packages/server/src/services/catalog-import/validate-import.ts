import { templateProblem, type ValidationIssue } from '@tare/contracts';
import { decimalFromJson } from '../../domain/decimal.js';
import { labelTokens, normalizeLocale } from '../../domain/labels.js';
import { exactQuantity } from '../../domain/quantity.js';
import { isUnitOfType, type MeasurementType, unitsOf } from '../../domain/units.js';
import { compileChecker, escapePointer } from '../../domain/validation.js';
import { shopifyConnectionProblems } from '../shopify-connection.js';
import { ImportDocument, type ImportShop, type ImportVariant } from './import-document.js';

const checkShape = compileChecker<ImportDocument>(ImportDocument);
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * Validates the whole import file before anything is written: first its shape, then every
 * cross-reference. Each issue names the JSON pointer of the offending value.
 */
export function validateImport(
  raw: unknown,
): { ok: true; value: ImportDocument } | { ok: false; issues: ValidationIssue[] } {
  const shape = checkShape(raw);
  if (!shape.ok) return shape;
  const issues: ValidationIssue[] = [];
  const report = (path: string, message: string) => issues.push({ path, message });
  const domains = new Set<string>();
  const stores = new Map<string, string>();
  shape.value.shops.forEach((shop, s) => {
    const at = `/shops/${s}`;
    if (domains.has(shop.domain)) report(`${at}/domain`, `shop '${shop.domain}' appears twice`);
    domains.add(shop.domain);
    checkShop(shop, at, report);
    const store = shop.platform?.store.toLowerCase();
    if (store && stores.has(store)) report(`${at}/platform/store`, `store '${store}' is also ${stores.get(store)}'s`);
    if (store) stores.set(store, shop.domain);
  });
  return issues.length ? { ok: false, issues } : shape;
}

type Report = (path: string, message: string) => void;

function checkShop(shop: ImportShop, at: string, report: Report) {
  if (shop.platform) {
    for (const { field, message } of shopifyConnectionProblems(shop.platform))
      report(`${at}/platform/${field}`, message);
    // Orders on Shopify are Shopify's: Tare reads them there (§16) and has none of its own to import.
    if (shop.orders?.length) report(`${at}/orders`, "a Shopify shop's orders are read from Shopify, not imported");
  }
  if (!CURRENCIES.has(shop.currency)) report(`${at}/currency`, `unknown ISO 4217 currency '${shop.currency}'`);
  if (shop.defaultLocale !== undefined && !normalizeLocale(shop.defaultLocale)) {
    report(`${at}/defaultLocale`, `'${shop.defaultLocale}' is not a valid locale`);
  }
  for (const [locale, labels] of Object.entries(shop.labels ?? {})) {
    if (!normalizeLocale(locale)) report(`${at}/labels/${locale}`, `'${locale}' is not a valid locale`);
    // A template the storefront cannot fill (a typo in a token, a stray brace) would reach
    // customers as written; like any other typo in the file, it is refused.
    for (const [key, text] of Object.entries(labels)) {
      const tokens = labelTokens(key);
      const problem = tokens && templateProblem(text, tokens);
      if (problem) report(`${at}/labels/${locale}/${escapePointer(key)}`, problem);
    }
  }
  const locations = uniqueIds(shop.locations ?? [], `${at}/locations`, 'location', report);
  uniqueIds(shop.products ?? [], `${at}/products`, 'product', report);
  const variants = (shop.products ?? []).flatMap((p, i) =>
    p.variants.map((v, j) => ({ id: v.id, path: `${at}/products/${i}/variants/${j}` })),
  );
  uniqueIds(variants, '', 'variant', report, (_, i) => variants[i]!.path);
  (shop.products ?? []).forEach((product, i) => {
    product.variants.forEach((variant, j) => {
      checkVariant(variant, product.measurementType, `${at}/products/${i}/variants/${j}`, locations, report);
    });
  });
  const orders = shop.orders ?? [];
  uniqueIds(orders, `${at}/orders`, 'order', report);
  const lines = orders.flatMap((o, i) =>
    o.lineItems.map((l, j) => ({ id: l.id, path: `${at}/orders/${i}/lineItems/${j}` })),
  );
  uniqueIds(lines, '', 'line item', report, (_, i) => lines[i]!.path);
  orders.forEach((order, i) => {
    if (!locations.has(order.locationId)) {
      report(`${at}/orders/${i}/locationId`, `location '${order.locationId}' is not in this shop's locations`);
    }
  });
}

function checkVariant(
  variant: ImportVariant,
  type: MeasurementType,
  at: string,
  locations: Set<string>,
  report: Report,
) {
  const unitsHint = `one of ${unitsOf(type).join(', ')}`;
  const unit = variant.unitMeasurement.unit;
  const unitOk = isUnitOfType(unit, type);
  if (!unitOk) {
    report(`${at}/unitMeasurement/unit`, `unit '${unit}' is not a ${type} unit; use ${unitsHint}`);
  }
  // Stock and its whole-unit split are kept to 9 decimals of the unit: so is the unit measurement.
  const exact = (value: number, from: string) => exactQuantity(decimalFromJson(value), from, unit);
  if (unitOk && Number.isFinite(variant.unitMeasurement.value)) {
    const checked = exact(variant.unitMeasurement.value, unit);
    if (!checked.ok) report(`${at}/unitMeasurement/value`, checked.message);
  }
  const store = variant.settings.onlineStore;
  if (store.displayStyle === 'number') {
    const rules = store.rules;
    if (!rules) report(`${at}/settings/onlineStore/rules`, "required when displayStyle is 'number'");
    else {
      if (rules.defaultValue < rules.min)
        report(`${at}/settings/onlineStore/rules/defaultValue`, 'must be at least min');
      if (rules.max !== null && rules.max < rules.min)
        report(`${at}/settings/onlineStore/rules/max`, 'must be at least min');
      if (rules.max !== null && rules.defaultValue > rules.max) {
        report(`${at}/settings/onlineStore/rules/defaultValue`, 'must be at most max');
      }
    }
  } else if (!store.presets) {
    report(`${at}/settings/onlineStore/presets`, `required when displayStyle is '${store.displayStyle}'`);
  }
  const seen = new Set<string>();
  (variant.inventory ?? []).forEach((entry, k) => {
    const path = `${at}/inventory/${k}`;
    if (!locations.has(entry.locationId))
      report(`${path}/locationId`, `location '${entry.locationId}' is not in this shop's locations`);
    if (seen.has(entry.locationId)) report(`${path}/locationId`, `location '${entry.locationId}' appears twice`);
    seen.add(entry.locationId);
    const { value, unit: from } = entry.quantity;
    const valueOk = Number.isFinite(value) && value >= 0;
    if (!valueOk) report(`${path}/quantity/value`, 'must be a finite number of at least 0');
    const fromOk = isUnitOfType(from, type);
    if (!fromOk) report(`${path}/quantity/unit`, `unit '${from}' is not a ${type} unit; use ${unitsHint}`);
    if (valueOk && fromOk && unitOk) {
      const checked = exact(value, from);
      if (!checked.ok) report(`${path}/quantity/value`, checked.message);
    }
  });
}

function uniqueIds(
  items: { id: string }[],
  at: string,
  what: string,
  report: Report,
  pathOf: (item: { id: string }, index: number) => string = (_, i) => `${at}/${i}`,
): Set<string> {
  const ids = new Set<string>();
  items.forEach((item, i) => {
    if (ids.has(item.id)) report(`${pathOf(item, i)}/id`, `${what} id '${item.id}' appears twice`);
    ids.add(item.id);
  });
  return ids;
}
