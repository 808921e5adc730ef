import type { ValidationIssue } from '@tare/contracts';
import { normalizeLocale } from '../../domain/labels.js';
import { errors } from '../../errors.js';
import type { Db } from '../../store/db.js';
import { findShopById } from '../../store/repositories/shops.js';
import type { ImportOptions, ImportSummary } from '../catalog-import/import-catalog.js';
import type { ImportDocument } from '../catalog-import/import-document.js';
import { validateImport } from '../catalog-import/validate-import.js';

export interface SaveLabelsDeps {
  db: Db;
  importCatalog: (doc: ImportDocument, options?: ImportOptions) => Promise<ImportSummary>;
}

/**
 * Saves a shop's labels at one locale as an import of them: a text becomes the override, an empty
 * one (blank) removes it. The import's validation refuses a bad locale or template, with the
 * paths of the import's `labels` object (`/labels/fr/unitPrice`), and nothing is written; the
 * upserts and removals commit in the import's one transaction, which announces the change.
 * @throws AppError bad_request naming each field at fault.
 */
export async function saveLabels(
  deps: SaveLabelsDeps,
  input: { shopId: string; locale: string; texts: Record<string, string> },
): Promise<{ changed: boolean }> {
  const shop = await findShopById(deps.db, input.shopId);
  if (!shop) throw errors.notFound('shop', input.shopId);
  const upserts: Record<string, string> = {};
  const removals: string[] = [];
  for (const [key, text] of Object.entries(input.texts)) {
    if (text.trim() === '') removals.push(key);
    else upserts[key] = text;
  }
  // The canonical tag when there is one (the import stores that), so issues name it as the page does.
  const locale = normalizeLocale(input.locale) ?? input.locale;
  const checked = validateImport({
    shops: [{ domain: shop.domain, currency: shop.currency, labels: { [locale]: upserts } }],
  });
  if (!checked.ok) throw errors.validation(checked.issues.map(withinShop));
  const summary = await deps.importCatalog(checked.value, { removeLabels: { [shop.domain]: { [locale]: removals } } });
  return { changed: summary.shops.some((s) => s.changes > 0) };
}

/** `/shops/0/labels/fr/unitPrice` → `/labels/fr/unitPrice`: the document is the form's, not a file. */
function withinShop(issue: ValidationIssue): ValidationIssue {
  return { ...issue, path: issue.path.replace(/^\/shops\/0(?=\/|$)/, '') };
}
