/**
 * The gateway port's contract (src/platform/gateway.ts), run the same against every adapter: the
 * embedded platform (`local`) and Shopify (on the fake Shopify), on both stores. The driver acts
 * as the platform and `settle()` lets everything land, so that an adapter writing in Tare's
 * transaction and one pushing through the outbox are held to the same checks.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dec } from '../../src/domain/decimal.js';
import type { LevelProjection, PlatformGateway, PlatformOrder, ProjectionResult } from '../../src/platform/gateway.js';
import { syncOrder } from '../../src/services/events/sync-order.js';
import { createInventoryWriter } from '../../src/services/inventory/write-inventory.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import {
  EMPTY_LOC,
  LOC,
  PLATFORM_KINDS,
  type PlatformDriver,
  type ShopOptions,
  startPlatformDriver,
} from '../support/platform-drivers.js';

/** A `_svc_data` property measuring `value` `unit` of weight. */
const svcData = (value: number, unit: string) =>
  JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit, value }] } });

describe.each(testDrivers({ citus: true }))('The gateway contract on $name', (store) => {
  describe.each(PLATFORM_KINDS)('for the %s adapter', (kind) => {
    // A database of its own for each test: the running Tare of one test never sees another's
    // shop (whose fake Shopify is gone).
    let db: Db;
    let platform: PlatformDriver | undefined;
    const open = async (options: ShopOptions = { stock: { kg: 20.5, g: 2050 } }) =>
      (platform = await startPlatformDriver(kind, db, options));
    beforeEach(async () => {
      db = await store.create();
    });
    afterEach(async () => {
      await platform?.close();
      platform = undefined;
      await db?.close();
    });

    /**
     * Adjusts Tare's exact total of a variant by `kg` through the ordinary inventory write, which
     * projects the new whole units with the figure Tare expects the platform to show; returns
     * what the write asked of the adapter and what the adapter answered.
     */
    async function adjust(p: PlatformDriver, variantId: string, kg: number) {
      const calls: { levels: LevelProjection[]; result: ProjectionResult }[] = [];
      const recording: PlatformGateway = {
        ...p.gateway,
        async projectLevels(tx, shopId, levels, cause) {
          const result = await p.gateway.projectLevels(tx, shopId, levels, cause);
          calls.push({ levels, result });
          return result;
        },
      };
      const write = createInventoryWriter({ db, gateway: recording });
      await write(
        {
          shopId: p.shopId,
          operation: 'adjustment',
          locationId: LOC,
          requestId: `contract-${randomUUID()}`,
          actor: { type: 'api_key', id: 'contract-test' },
          entries: [{ variantId, value: kg, unit: 'kg', path: '/adjustments/0', field: 'delta' }],
        },
        JSON.stringify,
      );
      return calls;
    }
    const readOrder = (p: PlatformDriver, orderId: string) =>
      db.transaction((tx) => p.gateway.readOrder(tx, p.shopId, orderId));
    const level = (available: number, expected: number | null) => ({
      locationId: LOC,
      variantId: '2001',
      available,
      expected,
    });
    const shown2001 = { locationId: LOC, variantId: '2001' };

    describe('projectLevels', () => {
      it('when the platform still shows what Tare expects, then it shows the projected figure once settled', async () => {
        const p = await open();
        expect(await p.shown('2001')).toBe(20);
        expect(await adjust(p, '2001', -3.5)).toEqual([
          { levels: [level(17, 20)], result: { projected: [{ ...shown2001, available: 17 }], moved: [] } },
        ]);
        await p.settle();
        expect(await p.shown('2001')).toBe(17);
        expect(await p.total('2001')).toBe('17');
      });

      it("when the merchant changed the figure unseen, then a projection expecting the old one never overwrites it and adopt keeps the merchant's figure", async () => {
        const p = await open();
        await p.hold();
        await p.typeStock('2001', 7);
        const [call] = await adjust(p, '2001', -3);
        expect(call!.levels).toEqual([level(17, 20)]);
        if (p.projection === 'in-transaction') {
          expect(call!.result).toEqual({ projected: [], moved: [{ ...shown2001, available: 7 }] });
        } else {
          // Queued: the push will find the platform moved, and settle the level by §14's rules.
          expect(call!.result).toEqual({ projected: [{ ...shown2001, available: 17 }], moved: [] });
        }
        expect(await p.shown('2001')).toBe(7);
        await p.settle();
        // The merchant's 7 stands; Tare's fraction (17.5 − 17) is kept.
        expect(await p.shown('2001')).toBe(7);
        expect(await p.total('2001')).toBe('7.5');
      });

      it("when the shop overrides platform changes, then after a stale projection Tare's own whole units stand", async () => {
        const p = await open({ stock: { kg: 20.5 }, platformStockChanges: 'override' });
        await p.hold();
        await p.typeStock('2001', 7);
        await adjust(p, '2001', -3);
        await p.settle();
        expect(await p.total('2001')).toBe('17.5');
        expect(await p.shown('2001')).toBe(17);
      });

      it('when Tare has never projected a level (expected null), then the figure is written whatever the platform shows', async () => {
        const p = await open();
        await db.query(
          `UPDATE inventory_levels SET platform_available = NULL WHERE shop_id = $1 AND variant_id = '2001'`,
          [p.shopId],
        );
        await p.hold();
        await p.typeStock('2001', 7);
        const [call] = await adjust(p, '2001', -3);
        expect(call!.levels).toEqual([level(17, null)]);
        expect(call!.result).toEqual({ projected: [{ ...shown2001, available: 17 }], moved: [] });
        await p.settle();
        expect(await p.shown('2001')).toBe(17);
        expect(await p.total('2001')).toBe('17.5');
      });
    });

    it('readLevels: the whole units of each level in the order asked; a level the platform does not stock reads 0', async () => {
      const p = await open();
      const asked = [
        { locationId: LOC, variantId: '2002' },
        { locationId: EMPTY_LOC, variantId: '2001' },
        { locationId: LOC, variantId: '2001' },
        { locationId: LOC, variantId: '2999' },
      ];
      const read = await db.transaction((tx) => p.gateway.readLevels(tx, p.shopId, asked));
      expect(read).toEqual([
        { locationId: LOC, variantId: '2002', available: 20 },
        { locationId: EMPTY_LOC, variantId: '2001', available: 0 },
        { locationId: LOC, variantId: '2001', available: 20 },
        { locationId: LOC, variantId: '2999', available: 0 },
      ]);
    });

    describe('readOrder', () => {
      it('maps lines, edits on the platform, refunds with their restock types and a restocking cancel', async () => {
        const p = await open();
        const measured = svcData(1.25, 'kg');
        const { orderId, lineIds } = await p.placeOrder([
          { variantId: '2001', quantity: 3, price: '30.00', properties: { _svc_data: measured } },
          { variantId: '2002', quantity: 2, price: '24.00' },
        ]);
        const [kgLine, plainLine] = lineIds as [string, string];

        const placed = await readOrder(p, orderId);
        expect(placed).toMatchObject({ id: orderId, status: 'open', locationId: LOC, refunds: [] });
        expect(placed!.createdAt).toBeInstanceOf(Date);
        expect(lines(placed!)).toEqual([
          {
            id: kgLine,
            productId: '1001',
            variantId: '2001',
            quantity: 3,
            price: '30',
            fulfilled: false,
            properties: [{ name: '_svc_data', value: measured }],
          },
          {
            id: plainLine,
            productId: '1001',
            variantId: '2002',
            quantity: 2,
            price: '24',
            fulfilled: false,
            properties: [],
          },
        ]);

        await p.editOnPlatform(orderId, [{ lineItemId: kgLine, quantity: 2 }]);
        await p.refund(orderId, [
          { lineItemId: kgLine, quantity: 1, restockType: 'return' },
          { lineItemId: plainLine, quantity: 1, restockType: 'no_restock' },
        ]);
        const refunded = await readOrder(p, orderId);
        // A line's quantity is what it sold after edits; refunded units are counted in `refunds`.
        expect(lines(refunded!).map((l) => [l.id, l.quantity])).toEqual([
          [kgLine, 2],
          [plainLine, 2],
        ]);
        expect(refunded!.refunds).toEqual([
          {
            id: expect.any(String),
            lines: [
              { lineItemId: kgLine, quantity: 1, restockType: 'return' },
              { lineItemId: plainLine, quantity: 1, restockType: 'no_restock' },
            ],
          },
        ]);

        await p.cancel(orderId, { restock: true });
        const cancelled = await readOrder(p, orderId);
        expect(cancelled!.status).toBe('cancelled');
        expect(cancelled!.refunds[1]!.lines).toEqual([
          { lineItemId: kgLine, quantity: 1, restockType: 'cancel' },
          { lineItemId: plainLine, quantity: 1, restockType: 'cancel' },
        ]);

        // Tare followed all of it: 3 × 1.25 kg sold, 1 edited away, 1 returned, 1 restocked by the cancel.
        await p.settle();
        expect(await p.total('2001')).toBe('20.5');
        expect(await p.shown('2001')).toBe(20);
      });

      it('names the order as the platform shows it, numbered per shop, and says who placed it when asked; a guest is no customer', async () => {
        const p = await open();
        const line = [{ variantId: '2002', quantity: 1, price: '24.00' }];
        const ada = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
        const { orderId: placed } = await p.placeOrder(line, ada);
        const { orderId: guest } = await p.placeOrder(line);
        const read = (orderId: string, customer?: boolean) =>
          db.transaction((tx) => p.gateway.readOrder(tx, p.shopId, orderId, { customer }));

        const named = await read(placed, true);
        expect(named!.name).toMatch(/^#1\d{3}$/);
        expect(named!.customer).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
        const unnamed = await read(guest, true);
        // The shop's next order has the next number.
        expect(unnamed!.name).toBe(`#${Number(named!.name.slice(1)) + 1}`);
        expect(unnamed!.customer).toBeNull();
        // Unasked, a remote platform spends no call on it; the embedded one reads it anyway.
        const unasked = await read(placed);
        expect(unasked!.name).toBe(named!.name);
        expect([undefined, named!.customer]).toContainEqual(unasked!.customer);
      });

      it('an order the platform does not have is undefined', async () => {
        const p = await open();
        expect(await readOrder(p, '987654321')).toBeUndefined();
      });
    });

    it('ordersChangedSince: every order when null, else those created or changed since, least recently changed first', async () => {
      const p = await open();
      const line = { variantId: '2001', quantity: 1, price: '30.00', properties: { _svc_data: svcData(1.25, 'kg') } };
      const a = await p.placeOrder([line]);
      const b = await p.placeOrder([line]);
      const since = await p.now();
      const c = await p.placeOrder([line]);
      await p.refund(a.orderId, [{ lineItemId: a.lineIds[0]!, quantity: 1, restockType: 'return' }]);

      const changed = (at: Date | null) => db.transaction((tx) => p.gateway.ordersChangedSince(tx, p.shopId, at));
      expect(await changed(null)).toEqual([b.orderId, c.orderId, a.orderId]);
      expect(await changed(since)).toEqual([c.orderId, a.orderId]);
    });

    it('editOrder: a quantity changed and a line removed as one edit, the platform restocking what left', async () => {
      const p = await open();
      const measured = svcData(1.25, 'kg');
      const { orderId, lineIds } = await p.placeOrder([
        { variantId: '2001', quantity: 3, price: '30.00', properties: { _svc_data: measured } },
        { variantId: '2002', quantity: 2, price: '24.00' },
      ]);
      const [kgLine, plainLine] = lineIds as [string, string];
      await p.settle();
      expect(await p.total('2001')).toBe('16.75');

      // As PATCH /orders does: the edit, then what it changed booked in the same transaction.
      await db.transaction(async (tx) => {
        await p.gateway.editOrder(
          tx,
          p.shopId,
          orderId,
          [
            {
              lineItemId: kgLine,
              variantId: '2001',
              quantity: 1,
              price: '30.00',
              properties: [{ name: '_svc_data', value: measured }],
            },
            { lineItemId: plainLine, remove: true },
          ],
          { notifyCustomer: false, staffNote: 'contract' },
        );
        await syncOrder(tx, p.gateway, { shopId: p.shopId, orderId, requestId: 'contract-edit' });
      });
      const edited = await readOrder(p, orderId);
      expect(lines(edited!).map((l) => [l.id, l.variantId, l.quantity])).toEqual([[kgLine, '2001', 1]]);

      await p.settle();
      expect(await p.total('2001')).toBe('19.25');
      expect(await p.shown('2001')).toBe(19);
    });
  });
});

/** The order's lines with prices normalised to exact decimals (text on every platform). */
function lines(order: PlatformOrder) {
  return order.lineItems.map((line) => {
    expect(typeof line.price).toBe('string');
    return { ...line, price: new Dec(line.price).toString() };
  });
}
