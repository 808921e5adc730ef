import type { SandboxStock } from '@tare/contracts';
import { errors } from '../../../errors.js';
import type { Queryable } from '../../../store/db.js';
import { findVariantsByIds } from '../../../store/repositories/catalog.js';
import { locationExists } from '../../../store/repositories/locations.js';
import { projectLocalLevels, readLocalLevels } from '../levels-repository.js';
import type { Emit } from './event-delivery.js';

type LevelKey = { locationId: string; variantId: string };

/** The location and variant must be the shop's: anything else is 404, as in the API. */
async function checkLevel(tx: Queryable, shopId: string, level: LevelKey): Promise<void> {
  if (!(await locationExists(tx, shopId, level.locationId))) throw errors.notFound('location', level.locationId);
  const variants = await findVariantsByIds(tx, shopId, [level.variantId]);
  if (!variants.has(level.variantId)) throw errors.notFound('variant', level.variantId);
}

/** The platform's whole units of a level (0 for one it never stocked). */
export async function readStock(tx: Queryable, shopId: string, level: LevelKey): Promise<SandboxStock> {
  await checkLevel(tx, shopId, level);
  const [read] = await readLocalLevels(tx, shopId, [level]);
  return { locationId: level.locationId, variantId: level.variantId, available: read!.available };
}

/**
 * The merchant types a number into the platform's admin: the level becomes `available`
 * whatever it showed, and *stock changed* is emitted (Tare adopts or overrides it, §14).
 */
export async function setStock(tx: Queryable, emit: Emit, shopId: string, level: SandboxStock): Promise<SandboxStock> {
  await checkLevel(tx, shopId, level);
  // A projection expecting nothing writes unconditionally: the merchant's own statement of stock.
  await projectLocalLevels(tx, shopId, [{ ...level, expected: null }]);
  await emit(shopId, 'stock_changed', level);
  return { ...level };
}
