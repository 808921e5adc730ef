import type { ValidationIssue } from '@tare/contracts';
import { MEASUREMENT_TYPES, UNIT_CATALOGUE } from '../../../domain/units.js';
import { errors } from '../../../errors.js';
import { issueAtPlace, issueInWords } from '../../../messages/issue-words.js';
import { ImportRefusedError } from '../../../services/catalog-import/stored-stock.js';
import { validateImport } from '../../../services/catalog-import/validate-import.js';
import { findShopById } from '../../../store/repositories/shops.js';
import { findStockItems } from '../../../store/repositories/stock-items.js';
import type { AdminContext } from '../../admin-app.js';
import { field } from '../../forms.js';

/** The item form's fields, as typed; named apart from the stock forms' on the item page. */
export type ItemValues = { itemId: string; itemTitle: string; itemType: string; itemUnit: string };

const FIELD_OF: Record<string, keyof ItemValues> = {
  id: 'itemId',
  title: 'itemTitle',
  measurementType: 'itemType',
  unit: 'itemUnit',
};
const LABELS: Record<keyof ItemValues, string> = {
  itemId: 'Item id',
  itemTitle: 'Title',
  itemType: 'Measurement type',
  itemUnit: 'Unit',
};

/** Every unit of every type, for the unit select (grouped by type). */
export const UNIT_GROUPS = MEASUREMENT_TYPES.map((type) => ({
  type,
  units: UNIT_CATALOGUE[type].units.map((u) => u.id),
}));

export function postedItem(body: unknown): ItemValues {
  return {
    itemId: field(body, 'itemId').trim(),
    itemTitle: field(body, 'itemTitle'),
    itemType: field(body, 'itemType'),
    itemUnit: field(body, 'itemUnit'),
  };
}

export type ItemSaved =
  | { ok: true; changed: boolean }
  | { ok: false; status: number; issues: Partial<Record<keyof ItemValues, string>>; other: string[] };

/** Import issues at `/shops/0/stockItems/0/<field>` beside their fields; the others said at the top. */
function onFields(issues: ValidationIssue[], status: number): ItemSaved {
  const fields: Partial<Record<keyof ItemValues, string>> = {};
  const other: string[] = [];
  for (const issue of issues) {
    const name = FIELD_OF[/^\/shops\/0\/stockItems\/0\/(\w+)$/.exec(issue.path)?.[1] ?? ''];
    if (!name) {
      other.push(`${issueAtPlace(issue)}.`);
      continue;
    }
    // The guards' messages are sentences naming the item (`stock item '6001' holds …`).
    fields[name] ??= issue.message.startsWith('stock item ')
      ? `${LABELS[name]}: ${issue.message}`
      : issueInWords(LABELS[name], issue.message);
  }
  return { ok: false, status, issues: fields, other };
}

/**
 * Creates a stock item or changes one (title, type, unit) as an import of the shop stating it:
 * the import's checks (a unit of the type) and guards (no type change while it holds a level,
 * no unit that would round it) decide, each refusal beside its field. A new item's id already
 * used is refused (the import would change that item).
 */
export async function saveStockItem(ctx: AdminContext, shopId: string, values: ItemValues, isNew: boolean) {
  const shop = await findShopById(ctx.db, shopId);
  if (!shop) throw errors.notFound('stock item', values.itemId);
  const stored = (await findStockItems(ctx.db, shopId, [values.itemId])).get(values.itemId);
  if (isNew && stored) {
    return onFields(
      [
        {
          path: '/shops/0/stockItems/0/id',
          message: `'${values.itemId}' is already used, by stock item “${stored.title}”`,
        },
      ],
      409,
    );
  }
  if (!isNew && !stored) throw errors.notFound('stock item', values.itemId);
  const item = {
    id: values.itemId,
    title: values.itemTitle,
    // As typed: the import's validation names a type that is none.
    measurementType: values.itemType,
    unit: values.itemUnit,
  };
  const checked = validateImport({ shops: [{ domain: shop.domain, currency: shop.currency, stockItems: [item] }] });
  if (!checked.ok) return onFields(checked.issues, 400);
  try {
    const summary = await ctx.importCatalog(checked.value);
    return { ok: true, changed: summary.shops.some((s) => s.changes > 0) } satisfies ItemSaved;
  } catch (error) {
    if (error instanceof ImportRefusedError) return onFields(error.issues, 409);
    throw error;
  }
}
