import { scaleFormatProblems } from '@tare/contracts';
import type { ImportShop } from './import-document.js';
import type { SoundParts } from './sound-parts.js';

/**
 * The import's checks of scale labels (PRODUCT.md §22) beyond the schema: each format adds up to
 * 13 digits with a weight unit where it needs one, no prefix is claimed twice, and each variant's
 * `scaleItem` is unique in the file and, when the file states the formats, as long as a format's
 * item. Against the stored formats and items, `scaleItemIssues` checks at import time.
 */
export function checkScaleBarcodes(
  shop: ImportShop,
  at: string,
  sound: SoundParts,
  report: (path: string, message: string) => void,
) {
  const formatsAt = `${at}/settings/scaleBarcodes`;
  const formats = sound.readable(formatsAt) ? shop.settings?.scaleBarcodes : undefined;
  const prefixes = new Set<string>();
  formats?.forEach((format, i) => {
    const formatAt = `${formatsAt}/${i}`;
    if (!sound.clean(formatAt)) return;
    for (const { field, message } of scaleFormatProblems(format)) report(`${formatAt}/${field}`, message);
    if (prefixes.has(format.prefix)) report(`${formatAt}/prefix`, `prefix '${format.prefix}' appears twice`);
    prefixes.add(format.prefix);
  });
  const lengths = formats && sound.clean(formatsAt) ? new Set(formats.map((f) => f.itemDigits)) : undefined;
  if (!sound.readable(`${at}/products`)) return;
  const seen = new Set<string>();
  (shop.products ?? []).forEach((product, i) => {
    const variantsAt = `${at}/products/${i}/variants`;
    if (!sound.readable(variantsAt)) return;
    product.variants.forEach((variant, j) => {
      const itemAt = `${variantsAt}/${j}/scaleItem`;
      if (!sound.readable(`${variantsAt}/${j}`) || !sound.clean(itemAt)) return;
      const item = variant.scaleItem;
      if (typeof item !== 'string') return;
      const problem = lengths && itemLengthProblem(item, lengths);
      if (problem) report(itemAt, problem);
      if (seen.has(item)) report(itemAt, `scale item '${item}' appears twice`);
      seen.add(item);
    });
  });
}

/** Why an item cannot appear on the shop's labels, whose formats take items of `lengths` digits. */
export function itemLengthProblem(item: string, lengths: Set<number>): string | undefined {
  if (lengths.size === 0) return 'the shop has no scale label format (settings.scaleBarcodes) to print it';
  if (lengths.has(item.length)) return undefined;
  return `has ${item.length} digits; the shop's scale label formats take ${[...lengths].join(' or ')}`;
}
