import { Dec, decimalFromJson } from '../../domain/decimal.js';
import { splitForPlatform } from '../../domain/platform-split.js';
import { convertForStorage } from '../../domain/units.js';
import type { PlatformGateway } from '../../platform/gateway.js';
import type { Queryable } from '../../store/db.js';
import type { LevelKey } from '../../store/repositories/inventory.js';
import type { VariantLevel } from '../../store/repositories/product-list.js';
import type { ImportVariant } from './import-document.js';

/** A level the file states, its total converted to the variant's unit. */
export interface StatedLevel {
  key: LevelKey;
  variant: ImportVariant;
  target: Dec;
}

export const levelKeyOf = (k: { locationId: string; variantId: string }) => `${k.locationId}/${k.variantId}`;

/** The levels these variants' inventory states. */
export function statedLevels(shopId: string, variants: ImportVariant[]): StatedLevel[] {
  return variants.flatMap((variant) =>
    (variant.inventory ?? []).map((entry) => ({
      key: { shopId, locationId: entry.locationId, variantId: variant.id },
      variant,
      target: convertForStorage(
        decimalFromJson(entry.quantity.value),
        entry.quantity.unit,
        variant.unitMeasurement.unit,
      ),
    })),
  );
}

/** The whole units the platform shows for a stated level. */
export const platformUnitsOf = (level: StatedLevel): number =>
  splitForPlatform(level.target, decimalFromJson(level.variant.unitMeasurement.value)).integer.toNumber();

/** Keys of the levels of a slice that may differ from what Tare holds, or `all` of them. */
export type UnsettledLevels = Set<string> | 'all';

/**
 * The levels of a slice that Tare does not already hold as the file states them (total, unit,
 * and the whole units it expects the platform to show); `all` when that is most of them, so what
 * the import keeps from its compare pass to its levels pass stays small (one word per slice for
 * a first import, nothing for an unchanged file). A superset is always safe: the levels pass
 * locks and compares again what it is given.
 */
export function unsettledLevels(stated: StatedLevel[], stored: Map<string, VariantLevel[]>): UnsettledLevels {
  const unsettled = new Set<string>();
  for (const level of stated) {
    const current = stored.get(level.key.variantId)?.find((l) => l.locationId === level.key.locationId);
    const settled =
      current?.unit === level.variant.unitMeasurement.unit &&
      new Dec(current.total).eq(level.target) &&
      current.platformAvailable === platformUnitsOf(level);
    if (!settled) unsettled.add(levelKeyOf(level.key));
  }
  return unsettled.size * 2 > stated.length ? 'all' : unsettled;
}

/**
 * The stated levels that may differ from what is stored: all but those Tare already held as the
 * file states them when the compare pass read them and whose platform shows the same count. Those
 * skipped take no lock and write nothing (a re-import of an unchanged file locks no level, so it
 * never waits on the shop's writes); those returned are locked and compared again under the lock.
 * A level changed by a write after it was read as unchanged keeps that write's total: the order
 * import-then-write gives the same.
 */
export async function differing(
  tx: Queryable,
  gateway: PlatformGateway,
  shopId: string,
  stated: StatedLevel[],
  unsettled: UnsettledLevels,
): Promise<StatedLevel[]> {
  if (unsettled === 'all') return stated;
  const candidates = stated.filter((level) => !unsettled.has(levelKeyOf(level.key)));
  if (candidates.length === 0) return stated;
  const shown = await gateway.readLevels(
    tx,
    shopId,
    candidates.map((level) => level.key),
  );
  const unchanged = new Set(candidates.filter((level, i) => shown[i]?.available === platformUnitsOf(level)));
  return unchanged.size === 0 ? stated : stated.filter((level) => !unchanged.has(level));
}
