import type { InventoryLedgerEntry } from '@tare/contracts';
import { Dec, toJsonNumber } from '../../domain/decimal.js';
import { splitForPlatform } from '../../domain/platform-split.js';
import { convertForStorage } from '../../domain/units.js';
import type { StockRow } from '../../services/inventory/stock-overview.js';

/** What the level chart (web/assets/level-chart.js) draws, read from its element's `data-history`. */
export interface LevelHistory {
  /** The level's unit (the variant's), which every point is in. */
  unit: string;
  /** How much of `unit` one of the platform's whole units is; null for a stock item (no whole-units line). */
  unitValue: number | null;
  /** `[seconds since the epoch, exact level, the platform's whole units or null]`, oldest first. */
  points: [number, number, number | null][];
}

/**
 * The level before the oldest entry shown, then after each entry (newest first in `entries`):
 * a step chart of the ledger. An entry kept in another unit (the variant's unit changed since)
 * is converted as the level is; the whole units are those Tare projects for that level.
 */
export function levelHistory(row: StockRow, entries: readonly InventoryLedgerEntry[]): LevelHistory {
  const unit = row.level.quantity.unit;
  const unitValue = new Dec(row.unitValue);
  const point = (at: string, value: number, from: string): [number, number, number] => {
    const level = convertForStorage(new Dec(String(value)), from, unit);
    return [Date.parse(at) / 1000, toJsonNumber(level), splitForPlatform(level, unitValue).integer.toNumber()];
  };
  const oldest = entries.at(-1);
  return {
    unit,
    unitValue: toJsonNumber(unitValue),
    points: [
      ...(oldest ? [point(oldest.createdAt, oldest.quantityBefore, oldest.unit)] : []),
      ...entries
        .slice()
        .reverse()
        .map((entry) => point(entry.createdAt, entry.quantityAfter, entry.unit)),
    ],
  };
}

/**
 * A stock item's level before the oldest entry shown, then after each entry (newest first in
 * `entries`), in the item's unit: the exact level only. Its siblings' whole units are not drawn
 * (one line each would nearly cover the level's own; the page's table has them).
 */
export function itemLevelHistory(unit: string, entries: readonly InventoryLedgerEntry[]): LevelHistory {
  const point = (at: string, value: number, from: string): [number, number, null] => [
    Date.parse(at) / 1000,
    toJsonNumber(convertForStorage(new Dec(String(value)), from, unit)),
    null,
  ];
  const oldest = entries.at(-1);
  return {
    unit,
    unitValue: null,
    points: [
      ...(oldest ? [point(oldest.createdAt, oldest.quantityBefore, oldest.unit)] : []),
      ...entries
        .slice()
        .reverse()
        .map((entry) => point(entry.createdAt, entry.quantityAfter, entry.unit)),
    ],
  };
}
