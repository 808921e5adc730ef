import type { Queryable } from '../db.js';

/** A shop's label overrides: locale → key → text. */
export type LabelOverrides = Record<string, Record<string, string>>;

export async function listLabelOverrides(db: Queryable, shopId: string): Promise<LabelOverrides> {
  const { rows } = await db.query<{ locale: string; key: string; value: string }>(
    'SELECT locale, key, value FROM shop_labels WHERE shop_id = $1 ORDER BY locale, key',
    [shopId],
  );
  const overrides: LabelOverrides = {};
  for (const row of rows) {
    overrides[row.locale] ??= {};
    overrides[row.locale]![row.key] = row.value;
  }
  return overrides;
}

export async function upsertLabel(
  db: Queryable,
  shopId: string,
  label: { locale: string; key: string; value: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO shop_labels (shop_id, locale, key, value) VALUES ($1, $2, $3, $4)
     ON CONFLICT (shop_id, locale, key) DO UPDATE SET value = EXCLUDED.value
     WHERE shop_labels.value IS DISTINCT FROM EXCLUDED.value`,
    [shopId, label.locale, label.key, label.value],
  );
  return rowCount > 0;
}

/** Removes one override (the key falls back to the next locale of the chain); true when there was one. */
export async function deleteLabel(
  db: Queryable,
  shopId: string,
  label: { locale: string; key: string },
): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM shop_labels WHERE shop_id = $1 AND locale = $2 AND key = $3', [
    shopId,
    label.locale,
    label.key,
  ]);
  return rowCount > 0;
}
