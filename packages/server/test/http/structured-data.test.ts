import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { unitPricedShop } from '../support/unit-priced-shop.js';

const path = (productId: string, variantId: string) =>
  `/api/v1/products/${productId}/variants/${variantId}/structured-data`;

describe.each(testDrivers())(
  'GET …/variants/{variantId}/structured-data and GET /api/v1/units on $name',
  ({ create }) => {
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

    describe('happy', () => {
      it('when cheese is €4.80 per 250 g in a per-kg shop, then the Offer, its unit price and Google’s attributes', async () => {
        const { key } = await seedShop(db, unitPricedShop({ enabled: true }));

        const res = await call(server, path('1001', '2001'), { key });

        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({
          jsonLd: {
            '@context': 'https://schema.org',
            '@type': 'Offer',
            price: '4.80',
            priceCurrency: 'EUR',
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              price: '4.80',
              priceCurrency: 'EUR',
              referenceQuantity: {
                '@type': 'QuantitativeValue',
                value: 250,
                unitCode: 'GRM',
                valueReference: { '@type': 'QuantitativeValue', value: 1, unitCode: 'KGM' },
              },
            },
          },
          merchantCenter: { unit_pricing_measure: '250 g', unit_pricing_base_measure: '1 kg' },
          unitPrice: { amount: '19.20', currency: 'EUR', reference: { value: 1, unit: 'kg' } },
        });
      });

      it('when syrup is sold per 12 fl oz in a per-100 ml shop, then OZA and MLT and 12 floz per 100 ml', async () => {
        const reference = { volume: { value: 100, unit: 'ml' } };
        const { key } = await seedShop(db, unitPricedShop({ enabled: true, reference }, 'USD'));

        const { data } = (await call(server, path('1002', '2101'), { key })).body;

        expect(data.jsonLd.priceSpecification.referenceQuantity).toMatchObject({
          value: 12,
          unitCode: 'OZA',
          valueReference: { value: 100, unitCode: 'MLT' },
        });
        expect(data.merchantCenter).toEqual({ unit_pricing_measure: '12 floz', unit_pricing_base_measure: '100 ml' });
        expect(data.unitPrice).toEqual({ amount: '1.12', currency: 'USD', reference: { value: 100, unit: 'ml' } });
      });

      it('when the shop has unit pricing off, or the product is sold by time, then the Offer has its price alone', async () => {
        const off = await seedShop(db, unitPricedShop({ enabled: false }));
        const on = await seedShop(db, unitPricedShop({ enabled: true }));
        const bare = (price: string) => ({
          jsonLd: { '@context': 'https://schema.org', '@type': 'Offer', price, priceCurrency: 'EUR' },
          merchantCenter: null,
        });

        expect((await call(server, path('1001', '2001'), { key: off.key })).body.data).toEqual(bare('4.80'));
        expect((await call(server, path('1003', '2201'), { key: on.key })).body.data).toEqual(bare('12.00'));
      });

      it('when the units are listed, then every unit has its type, exact factor and Rec 20 code', async () => {
        const { key } = await seedShop(db, shopFixture());

        const res = await call(server, '/api/v1/units', { key });

        expect(res.status).toBe(200);
        expect(res.body.data.units).toHaveLength(46);
        expect(res.body.data.units).toEqual(
          expect.arrayContaining([
            { id: 'kg', type: 'weight', factor: '1', rec20: 'KGM' },
            { id: 'oz', type: 'weight', factor: '0.028349523125', rec20: 'ONZ' },
            { id: 'pt', type: 'volume', factor: '0.473176473', rec20: 'PTL' },
            { id: 'imp_pt', type: 'volume', factor: '0.56826125', rec20: 'PTI' },
            { id: 'm2', type: 'area', factor: '1', rec20: 'MTK' },
            { id: 'week', type: 'time', factor: '604800', rec20: 'WEE' },
          ]),
        );
      });
    });

    describe('error', () => {
      it('when the variant or the product does not exist, then 404 naming it', async () => {
        const { key } = await seedShop(db, unitPricedShop({ enabled: true }));

        expectErrorEnvelope(await call(server, path('1001', '9999'), { key }), 404, 'not_found');
        expectErrorEnvelope(await call(server, path('9999', '2001'), { key }), 404, 'not_found');
        // A variant of another product is not this product's.
        expectErrorEnvelope(await call(server, path('1002', '2001'), { key }), 404, 'not_found');
      });

      it('when an id is not a platform id, then 400', async () => {
        const { key } = await seedShop(db, unitPricedShop({ enabled: true }));
        expectErrorEnvelope(await call(server, path('1001', 'abc%20def'), { key }), 400, 'bad_request');
      });
    });

    describe('security', () => {
      it('when there is no key, then 401 for both', async () => {
        expectErrorEnvelope(await call(server, path('1001', '2001')), 401, 'unauthorized');
        expectErrorEnvelope(await call(server, '/api/v1/units'), 401, 'unauthorized');
      });

      it("when another shop's key asks for this shop's variant, then 404 and nothing of it", async () => {
        await seedShop(db, unitPricedShop({ enabled: true }));
        const other = await seedShop(db, shopFixture({ products: [] }));

        const res = await call(server, path('1001', '2001'), { key: other.key });
        expectErrorEnvelope(res, 404, 'not_found');
        expect(res.text).not.toContain('4.80');
      });
    });
  },
);
