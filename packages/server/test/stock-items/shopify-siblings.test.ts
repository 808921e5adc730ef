/**
 * PRODUCT.md §20 on the fake Shopify, both stores: a sale on a stock item of 20 linked variants
 * whose whole units all move reaches Shopify as one `inventorySetQuantities` holding every
 * sibling Shopify did not move itself, each with its own `changeFromQuantity` (what Shopify showed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Dec } from '../../src/domain/decimal.js';
import { wholeUnitsOf } from '../../src/domain/sibling-units.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { shopWithSiblings } from '../support/sibling-sale-shopify.js';
import { siblingUnit } from '../support/sibling-item.js';

describe.each(testDrivers())('a sale on 20 siblings on the fake Shopify on %s', (driver) => {
  let db: Db | undefined;
  let close: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await close?.();
    await db?.close();
  });

  it('one inventorySetQuantities carries the 19 siblings the sale moved, each compared with what Shopify showed', async () => {
    db = await driver.create();
    const item = await shopWithSiblings(db, 20, 100);
    close = item.close;
    const shownBefore = item.ids.map((id) => item.shop.shown(id));
    const units = (kg: string) =>
      item.ids.map((_, i) => wholeUnitsOf(new Dec(kg), 'kg', siblingUnit(i).unit, new Dec(siblingUnit(i).value)));
    expect(shownBefore).toEqual(units('100').map((u) => u.toNumber()));

    const calls = await item.sell();

    const pushes = calls.filter((c) => c.rootFields.includes('inventorySetQuantities') && c.status === 'ok');
    expect(pushes).toHaveLength(1);
    const { quantities } = pushes[0]!.variables.input as {
      quantities: { inventoryItemId: string; quantity: number; changeFromQuantity: number }[];
    };
    // The sold variant (per 1 kg) moved on Shopify by itself with the order: 100 → 99, nothing to push.
    const after = units('99');
    expect(quantities.map((q) => [q.inventoryItemId, q.changeFromQuantity, q.quantity]).sort()).toEqual(
      item.ids
        .slice(1)
        .map((id, k) => [
          `gid://shopify/InventoryItem/${item.shop.fake.inventoryItemId(id)}`,
          shownBefore[k + 1],
          after[k + 1]!.toNumber(),
        ])
        .sort(),
    );
    expect(item.ids.map((id) => item.shop.shown(id))).toEqual(after.map((u) => u.toNumber()));
  });
});
