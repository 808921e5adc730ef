import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { unitPricedShop } from '../support/unit-priced-shop.js';

describe.each(testDrivers({ citus: true }))('unit prices on variant answers on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const product = async (key: string, id: string) => (await call(server, `/api/v1/products/${id}`, { key })).body;

  describe('happy', () => {
    it('when the shop has unit pricing on, then each variant answers its price per kg and per L', async () => {
      const { key } = await seedShop(db, unitPricedShop({ enabled: true }));

      const cheese = await product(key, '1001');
      expect(cheese.data.product.variants[0].unitPrice).toEqual({
        amount: '19.20',
        currency: 'EUR',
        reference: { value: 1, unit: 'kg' },
      });
      const syrup = await product(key, '1002');
      expect(syrup.data.product.variants[0].unitPrice).toEqual({
        amount: '11.24',
        currency: 'EUR',
        reference: { value: 1, unit: 'L' },
      });
    });

    it('when the shop states 100 g and 100 ml, then the unit prices are per 100 g and per 100 ml', async () => {
      const reference = { weight: { value: 100, unit: 'g' }, volume: { value: 100, unit: 'ml' } };
      const { key } = await seedShop(db, unitPricedShop({ enabled: true, reference }));

      const variant = await call(server, '/api/v1/products/1001/variants/2001', { key });
      expect(variant.status).toBe(200);
      expect(variant.body.data.variant.unitPrice).toEqual({
        amount: '1.92',
        currency: 'EUR',
        reference: { value: 100, unit: 'g' },
      });
      const syrup = await call(server, '/api/v1/products/1002/variants/2101', { key });
      expect(syrup.body.data.variant.unitPrice.amount).toBe('1.12');
    });

    it('when a preset has its own price, then it has its own unit price, and a preset without none', async () => {
      const { key } = await seedShop(db, unitPricedShop({ enabled: true }));

      const variant = (await call(server, '/api/v1/products/1001/variants/2002', { key })).body.data.variant;
      expect(variant.settings.onlineStore.presets).toEqual([
        { value: 250 },
        {
          value: 500,
          label: 'Big',
          price: '9.00',
          unitPrice: { amount: '18.00', currency: 'EUR', reference: { value: 1, unit: 'kg' } },
        },
      ]);
      expect(variant.unitPrice.amount).toBe('19.20');
    });

    it('when the currency has no minor unit, then the amount has no decimals', async () => {
      const shop = unitPricedShop({ enabled: true, reference: { weight: { value: 100, unit: 'g' } } }, 'JPY');
      shop.products![0]!.variants[0]!.price = '398';
      shop.products![0]!.variants[0]!.unitMeasurement = { unit: 'g', value: 300 };
      const { key } = await seedShop(db, shop);

      const cheese = await product(key, '1001');
      expect(cheese.data.product.variants[0].unitPrice.amount).toBe('133');
    });

    it('when the product is sold by time, or the shop has unit pricing off or unset, then there is no unit price', async () => {
      const on = await seedShop(db, unitPricedShop({ enabled: true }));
      expect((await product(on.key, '1003')).data.product.variants[0]).not.toHaveProperty('unitPrice');

      for (const unitPricing of [{ enabled: false }, undefined]) {
        const { key } = await seedShop(db, unitPricedShop(unitPricing));
        const cheese = await product(key, '1001');
        expect(cheese.data.product.variants[0]).not.toHaveProperty('unitPrice');
        expect(cheese.data.product.variants[1].settings.onlineStore.presets[1]).not.toHaveProperty('unitPrice');
      }
    });

    it('when the shop turns unit pricing on by an import, then the next request shows it (the cache is dropped)', async () => {
      const shop = unitPricedShop({ enabled: false });
      const { key } = await seedShop(db, shop);
      expect((await product(key, '1001')).data.product.variants[0]).not.toHaveProperty('unitPrice');

      await seedShop(db, { ...shop, settings: { unitPricing: { enabled: true } } });

      const deadline = Date.now() + 2000;
      let seen: unknown;
      do {
        seen = (await product(key, '1001')).data.product.variants[0].unitPrice;
      } while (seen === undefined && Date.now() < deadline && (await new Promise((r) => setTimeout(r, 25)), true));
      expect(seen, 'the new setting did not show within 2 s: the cache was not dropped').toMatchObject({
        amount: '19.20',
      });
    });

    it('when an import turns unit pricing on, then structured data and the app settings labels show it (the cached shop is dropped)', async () => {
      const shop = unitPricedShop({ enabled: false });
      const { key } = await seedShop(db, shop);
      const structured = async () =>
        (await call(server, '/api/v1/products/1001/variants/2001/structured-data', { key })).body.data;
      const labels = async () =>
        (await call(server, '/api/v1/app-settings?locale=de', { key })).body.data.settings.localizedLabels;
      expect((await structured()).merchantCenter).toBeNull();
      expect(await labels()).not.toHaveProperty('referenceUnitPrice');

      await seedShop(db, { ...shop, settings: { unitPricing: { enabled: true } } });

      const deadline = Date.now() + 2000;
      let seen: unknown;
      do {
        seen = (await structured()).unitPrice;
      } while (seen === undefined && Date.now() < deadline && (await new Promise((r) => setTimeout(r, 25)), true));
      expect(seen, 'the new setting did not show within 2 s: the cached shop was not dropped').toMatchObject({
        amount: '19.20',
      });
      expect(await labels()).toMatchObject({ referenceUnitPrice: 'Grundpreis' });
    });
  });

  describe('labels', () => {
    it('when unit pricing is on, then the app settings carry its label and {UnitPrice} template; off, neither', async () => {
      const on = await seedShop(db, unitPricedShop({ enabled: true }));
      const off = await seedShop(db, unitPricedShop({ enabled: false }));
      const labels = async (key: string) =>
        (await call(server, '/api/v1/app-settings?locale=de', { key })).body.data.settings.localizedLabels;

      expect(await labels(on.key)).toMatchObject({
        referenceUnitPrice: 'Grundpreis',
        referenceUnitPriceValue: '{UnitPrice}',
      });
      expect(await labels(off.key)).not.toHaveProperty('referenceUnitPrice');
    });
  });

  describe('error', () => {
    it('when the variant does not exist, then 404 as before', async () => {
      const { key } = await seedShop(db, unitPricedShop({ enabled: true }));
      expectErrorEnvelope(await call(server, '/api/v1/products/1001/variants/9999', { key }), 404, 'not_found');
    });
  });

  describe('security', () => {
    it("when another shop's key asks, then it sees neither the product nor its unit price", async () => {
      await seedShop(db, unitPricedShop({ enabled: true }));
      const other = await seedShop(db, shopFixture({ products: [] }));
      expectErrorEnvelope(await call(server, '/api/v1/products/1001', { key: other.key }), 404, 'not_found');
    });
  });
});
