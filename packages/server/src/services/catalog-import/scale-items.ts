import type { ValidationIssue } from '@tare/contracts';
import type { Queryable } from '../../store/db.js';
import {
  findScaleItemHolders,
  readScaleFormats,
  writeScaleFormats,
  writeScaleItems,
} from '../../store/repositories/scale-barcodes.js';
import type { ImportShop } from './import-document.js';
import { itemLengthProblem } from './scale-barcode-checks.js';

interface StatedItem {
  variantId: string;
  scaleItem: string | null;
  path: string;
}

/** The scale items the file states (a string sets one, null clears it; absent keeps what is stored). */
function statedItems(shop: ImportShop, at: string): StatedItem[] {
  return (shop.products ?? []).flatMap((product, i) =>
    product.variants.flatMap((variant, j) =>
      variant.scaleItem === undefined
        ? []
        : [
            {
              variantId: variant.id,
              scaleItem: variant.scaleItem,
              path: `${at}/products/${i}/variants/${j}/scaleItem`,
            },
          ],
    ),
  );
}

/**
 * What the validator cannot see: an item whose length no stored format takes (when the file
 * leaves the formats as they are), and an item another variant of the shop keeps.
 */
export async function scaleItemIssues(
  tx: Queryable,
  shopId: string,
  shop: ImportShop,
  at: string,
): Promise<ValidationIssue[]> {
  const all = statedItems(shop, at);
  const stated = all.filter((s): s is StatedItem & { scaleItem: string } => s.scaleItem !== null);
  if (stated.length === 0) return [];
  const issues: ValidationIssue[] = [];
  if (shop.settings?.scaleBarcodes === undefined) {
    const lengths = new Set((await readScaleFormats(tx, shopId)).map((f) => f.itemDigits));
    for (const { scaleItem, path } of stated) {
      const problem = itemLengthProblem(scaleItem, lengths);
      if (problem) issues.push({ path, message: problem });
    }
  }
  // A holder gives its item up only if the file states that variant's item too.
  const restated = new Set(all.map((s) => s.variantId));
  const holders = await findScaleItemHolders(
    tx,
    shopId,
    stated.map((s) => s.scaleItem),
  );
  for (const { scaleItem, path, variantId } of stated) {
    const holder = holders.get(scaleItem);
    if (holder && holder !== variantId && !restated.has(holder)) {
      issues.push({ path, message: `scale item '${scaleItem}' is variant ${holder}'s` });
    }
  }
  return issues;
}

/** Writes the formats and items the file states, after its variants; returns how many rows changed. */
export async function importScaleBarcodes(tx: Queryable, shopId: string, shop: ImportShop): Promise<number> {
  const formats = shop.settings?.scaleBarcodes;
  const formatsChanged = formats !== undefined && (await writeScaleFormats(tx, shopId, formats));
  const items = await writeScaleItems(tx, shopId, statedItems(shop, ''));
  return items + (formatsChanged ? 1 : 0);
}
