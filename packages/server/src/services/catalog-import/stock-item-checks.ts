import { decimalFromJson } from '../../domain/decimal.js';
import { exactQuantity } from '../../domain/quantity.js';
import { isUnitOfType, type MeasurementType, unitsOf } from '../../domain/units.js';
import type { ImportShop } from './import-document.js';
import { levelLocationCheck } from './level-locations.js';
import type { SoundParts } from './sound-parts.js';

type Report = (path: string, message: string) => void;

/**
 * The shop's stock items and the variants' links to them, beyond the schema (PRODUCT.md §20):
 * each item's unit of its type, its levels once per known location, exact in its unit; each link
 * to an item of the file of the variant's product type; and no level stated on a linked variant
 * (the item's level is the variant's stock). Parts the schema found at fault are skipped.
 */
export function checkStockItems(
  shop: ImportShop,
  at: string,
  locations: Set<string> | undefined,
  sound: SoundParts,
  report: Report,
) {
  const items = new Map<string, MeasurementType | undefined>();
  if (sound.readable(`${at}/stockItems`)) {
    (shop.stockItems ?? []).forEach((item, i) => {
      const itemAt = `${at}/stockItems/${i}`;
      if (!sound.readable(itemAt) || !sound.clean(`${itemAt}/id`)) return;
      if (items.has(item.id)) report(`${itemAt}/id`, `stock item id '${item.id}' appears twice`);
      const type = sound.clean(`${itemAt}/measurementType`) ? item.measurementType : undefined;
      items.set(item.id, type);
      const unitFits = (path: string, unit: string) => {
        if (type === undefined || !sound.clean(path)) return false;
        if (isUnitOfType(unit, type)) return true;
        report(path, `unit '${unit}' is not a ${type} unit; use one of ${unitsOf(type).join(', ')}`);
        return false;
      };
      const unitOk = unitFits(`${itemAt}/unit`, item.unit);
      if (!sound.readable(`${itemAt}/inventory`)) return;
      const checkLocation = levelLocationCheck(locations, sound, report);
      (item.inventory ?? []).forEach((entry, k) => {
        const path = `${itemAt}/inventory/${k}`;
        if (!sound.readable(path)) return;
        checkLocation(path, entry.locationId);
        if (!sound.clean(`${path}/quantity`)) return;
        const { value, unit } = entry.quantity;
        if (!Number.isFinite(value) || value < 0) {
          report(`${path}/quantity/value`, 'must be a finite number of at least 0');
          return;
        }
        if (unitFits(`${path}/quantity/unit`, unit) && unitOk) {
          const checked = exactQuantity(decimalFromJson(value), unit, item.unit);
          if (!checked.ok) report(`${path}/quantity/value`, checked.message);
        }
      });
    });
  }
  if (!sound.readable(`${at}/products`)) return;
  (shop.products ?? []).forEach((product, i) => {
    const productAt = `${at}/products/${i}`;
    if (!sound.readable(`${productAt}/variants`)) return;
    const type = sound.clean(`${productAt}/measurementType`) ? product.measurementType : undefined;
    product.variants.forEach((variant, j) => {
      const variantAt = `${productAt}/variants/${j}`;
      if (!sound.readable(variantAt) || !sound.clean(`${variantAt}/stockItemId`)) return;
      const itemId = variant.stockItemId;
      if (itemId === undefined || itemId === null) return;
      if (!items.has(itemId)) {
        report(`${variantAt}/stockItemId`, `stock item '${itemId}' is not in this shop's stockItems`);
        return;
      }
      const itemType = items.get(itemId);
      if (type && itemType && type !== itemType) {
        report(
          `${variantAt}/stockItemId`,
          `stock item '${itemId}' is counted in ${itemType} units; a ${type} variant cannot sell from it`,
        );
      }
      if (sound.readable(`${variantAt}/inventory`) && variant.inventory?.length) {
        report(
          `${variantAt}/inventory`,
          `the variant sells from stock item '${itemId}': state its levels once, on the item's inventory`,
        );
      }
    });
  });
}
