import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import {
  call,
  expectErrorEnvelope,
  seedShop,
  shopFixture,
  startTestServer,
  variantFixture,
} from '../support/harness.js';

/**
 * Two shops built from the same ids on purpose: products 1001 and 1002, variants 2001–2003.
 * Shop A sells coffee by weight, shop B sells cable by length; each has ids the other lacks
 * (A: product 1003 / variant 2004; B: product 1004 / variant 2005) and its own label overrides.
 */
function shopA(): ImportShop {
  return shopFixture({
    defaultLocale: 'en',
    settings: { mergeMatchingLineItems: true },
    labels: { en: { unitPrice: 'Price (A)' }, fr: { netWeight: 'Poids A' } },
    products: [
      {
        id: '1001',
        title: 'Coffee',
        measurementType: 'weight',
        variants: [variantFixture('2001', 'kg', 1), variantFixture('2002', 'g', 250)],
      },
      { id: '1002', title: 'Tea', measurementType: 'weight', variants: [variantFixture('2003', 'oz', 4)] },
      { id: '1003', title: 'Only in A', measurementType: 'weight', variants: [variantFixture('2004', 'lb', 1)] },
    ],
  });
}

function shopB(): ImportShop {
  return shopFixture({
    defaultLocale: 'de',
    settings: { mergeMatchingLineItems: false },
    labels: { en: { unitPrice: 'Price (B)' }, fr: { netLength: 'Longueur B' } },
    products: [
      {
        id: '1001',
        title: 'Cable',
        measurementType: 'length',
        variants: [
          {
            ...variantFixture('2001', 'm', 5),
            settings: {
              onlineStore: { displayStyle: 'pills', presets: [{ value: 1, label: 'One roll' }, { value: 2 }] },
            },
          },
        ],
      },
      {
        id: '1002',
        title: 'Hose',
        measurementType: 'length',
        variants: [variantFixture('2002', 'ft', 10), variantFixture('2003', 'yd', 1)],
      },
      { id: '1004', title: 'Only in B', measurementType: 'volume', variants: [variantFixture('2005', 'L', 1)] },
    ],
  });
}

const RULES = { min: 0.25, increment: 0.25, defaultValue: 1, max: null };
const numberVariant = (id: string, unit: string, value: number) => ({
  id,
  unitMeasurement: { unit, value },
  settings: { onlineStore: { displayStyle: 'number', rules: RULES } },
});

describe.each(testDrivers({ citus: true }))(
  'tenant isolation across app-settings, products and variants on $name',
  ({ create }) => {
    let db: Db;
    let server: RunningServer;
    let a: Awaited<ReturnType<typeof seedShop>>;
    let b: Awaited<ReturnType<typeof seedShop>>;

    beforeAll(async () => {
      db = await create();
      server = await startTestServer(db);
      a = await seedShop(db, shopA());
      b = await seedShop(db, shopB());
    });

    afterAll(async () => {
      await server?.close();
      await db?.close();
    });

    /** Each path asked by A, then B, then A again: a cache shared across shops would show. */
    async function both(path: string) {
      const first = await call(server, path, { key: a.key });
      const second = await call(server, path, { key: b.key });
      const third = await call(server, path, { key: a.key });
      expect(third.status).toBe(first.status);
      expect(third.body?.data).toEqual(first.body?.data);
      return { a: first, b: second };
    }

    describe('happy', () => {
      it('when both shops read product 1001, then each gets its own product and variants', async () => {
        const res = await both('/api/v1/products/1001');

        expect(res.a.body.data.product).toEqual({
          id: '1001',
          measurementType: 'weight',
          variants: [numberVariant('2001', 'kg', 1), numberVariant('2002', 'g', 250)],
        });
        expect(res.b.body.data.product).toEqual({
          id: '1001',
          measurementType: 'length',
          variants: [
            {
              id: '2001',
              unitMeasurement: { unit: 'm', value: 5 },
              settings: {
                onlineStore: { displayStyle: 'pills', presets: [{ value: 1, label: 'One roll' }, { value: 2 }] },
              },
            },
          ],
        });
      });

      it('when both shops read product 1002 a page at a time, then each walks only its own variants', async () => {
        const walk = async (key: string) => {
          const seen: string[] = [];
          let cursor: string | null = null;
          do {
            const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
            const res = await call(server, `/api/v1/products/1002?limit=1${query}`, { key });
            expect(res.status).toBe(200);
            seen.push(
              ...res.body.data.product.variants.map(
                (v: { id: string; unitMeasurement: { unit: string } }) => `${v.id}:${v.unitMeasurement.unit}`,
              ),
            );
            cursor = res.body.meta.nextCursor;
          } while (cursor !== null && seen.length < 10);
          return seen;
        };

        expect(await walk(a.key)).toEqual(['2003:oz']);
        expect(await walk(b.key)).toEqual(['2002:ft', '2003:yd']);
      });

      it('when both shops read the same variant ids, then each gets its own variant and parent', async () => {
        const v2001 = await both('/api/v1/products/1001/variants/2001');
        expect(v2001.a.body.data.variant).toEqual({
          ...numberVariant('2001', 'kg', 1),
          product: { id: '1001', measurementType: 'weight' },
        });
        expect(v2001.b.body.data.variant).toEqual({
          id: '2001',
          unitMeasurement: { unit: 'm', value: 5 },
          settings: {
            onlineStore: { displayStyle: 'pills', presets: [{ value: 1, label: 'One roll' }, { value: 2 }] },
          },
          product: { id: '1001', measurementType: 'length' },
        });

        const v2003 = await both('/api/v1/products/1002/variants/2003');
        expect(v2003.a.body.data.variant).toEqual({
          ...numberVariant('2003', 'oz', 4),
          product: { id: '1002', measurementType: 'weight' },
        });
        expect(v2003.b.body.data.variant).toEqual({
          ...numberVariant('2003', 'yd', 1),
          product: { id: '1002', measurementType: 'length' },
        });
      });

      it('when both shops read app settings, then each gets its own overrides, units and settings', async () => {
        const en = await both('/api/v1/app-settings?locale=en');
        expect(en.a.body.data.settings).toEqual({
          localizedLabels: {
            netMeasurementLabel: 'Net quantity',
            netMeasurementValue: '{Value} {Unit}',
            netWeight: 'Net weight',
            netWeight_value_g: '{Value} {Unit}',
            netWeight_value_kg: '{Value} {Unit}',
            netWeight_value_lb: '{Value} {Unit}',
            netWeight_value_oz: '{Value} {Unit}',
            unitPrice: 'Price (A)',
            unitPricePropertyName: 'Unit price',
            unitPricePropertyValue: '{Price}/{Quantity}',
            unitPrice_weight_value_g: '{Price}/{Quantity}',
            unitPrice_weight_value_kg: '{Price}/{Quantity}',
            unitPrice_weight_value_lb: '{Price}/{Quantity}',
            unitPrice_weight_value_oz: '{Price}/{Quantity}',
          },
          mergeMatchingLineItems: true,
        });
        expect(en.b.body.data.settings).toEqual({
          localizedLabels: {
            // Shop B sells volume, which may be made from dimensions (PRODUCT.md §19).
            dimensions: 'Dimensions',
            dimensions_value: '{Dimensions}',
            overage: 'Overage',
            overage_value: 'Includes {Percent}% extra',
            netLength: 'Length',
            netLength_value_ft: '{Value} {Unit}',
            netLength_value_m: '{Value} {Unit}',
            netLength_value_yd: '{Value} {Unit}',
            netMeasurementLabel: 'Net quantity',
            netMeasurementValue: '{Value} {Unit}',
            netVolume: 'Volume',
            netVolume_value_L: '{Value} {Unit}',
            unitPrice: 'Price (B)',
            unitPricePropertyName: 'Unit price',
            unitPricePropertyValue: '{Price}/{Quantity}',
            unitPrice_length_value_ft: '{Price}/{Quantity}',
            unitPrice_length_value_m: '{Price}/{Quantity}',
            unitPrice_length_value_yd: '{Price}/{Quantity}',
            unitPrice_volume_value_L: '{Price}/{Quantity}',
          },
          mergeMatchingLineItems: false,
        });

        const fr = await both('/api/v1/app-settings?locale=fr');
        expect(fr.a.body.data.settings.localizedLabels.netWeight).toBe('Poids A');
        expect(fr.a.body.data.settings.localizedLabels).not.toHaveProperty('netLength');
        expect(fr.b.body.data.settings.localizedLabels.netLength).toBe('Longueur B');
        expect(fr.b.body.data.settings.localizedLabels).not.toHaveProperty('netWeight');
        expect(JSON.stringify(fr.a.body)).not.toContain('Longueur B');
        expect(JSON.stringify(fr.b.body)).not.toContain('Poids A');
      });

      it('when an unknown locale is asked for, then each shop falls back to its own default locale', async () => {
        const res = await both('/api/v1/app-settings?locale=xx');

        expect(res.a.body.meta).toEqual({ locale: 'en' });
        expect(res.a.body.data.settings.localizedLabels.netWeight).toBe('Net weight');
        expect(res.b.body.meta).toEqual({ locale: 'de' });
        expect(res.b.body.data.settings.localizedLabels.netLength).toBe('Länge');
      });
    });

    describe('errors', () => {
      it('when a shop asks for a product only the other shop has, then 404 as for an id nobody has', async () => {
        const onlyB = await call(server, '/api/v1/products/1004', { key: a.key });
        const onlyA = await call(server, '/api/v1/products/1003', { key: b.key });
        const nobody = await call(server, '/api/v1/products/1999', { key: a.key });

        for (const [res, id] of [
          [onlyB, '1004'],
          [onlyA, '1003'],
          [nobody, '1999'],
        ] as const) {
          const error = expectErrorEnvelope(res, 404, 'not_found');
          expect(error).toEqual({
            code: 'not_found',
            message: `No product with id '${id}' was found.`,
            details: { resource: 'product', id },
          });
        }
      });

      it('when a shop asks for a variant only the other shop has, under a product both have, then 404 not_found', async () => {
        // Variant 2002 is under product 1001 in A, under product 1002 in B.
        const res = await call(server, '/api/v1/products/1002/variants/2002', { key: a.key });
        const error = expectErrorEnvelope(res, 404, 'not_found');
        expect(error.details).toEqual({ resource: 'variant', id: '2002', productId: '1002' });

        const resB = await call(server, '/api/v1/products/1001/variants/2002', { key: b.key });
        expect(expectErrorEnvelope(resB, 404, 'not_found').details).toEqual({
          resource: 'variant',
          id: '2002',
          productId: '1001',
        });
      });

      it('when a shop asks for the other shop’s product-only variant, then 404 on the product', async () => {
        const res = await call(server, '/api/v1/products/1004/variants/2005', { key: a.key });

        expect(expectErrorEnvelope(res, 404, 'not_found').details).toEqual({ resource: 'product', id: '1004' });
      });
    });

    describe('security', () => {
      it('when a cursor issued to one shop is replayed by the other for the same product, then 400', async () => {
        const fromB = await call(server, '/api/v1/products/1002?limit=1', { key: b.key });
        expect(fromB.body.meta.nextCursor).toEqual(expect.any(String));

        const res = await call(
          server,
          `/api/v1/products/1002?limit=1&cursor=${encodeURIComponent(fromB.body.meta.nextCursor)}`,
          {
            key: a.key,
          },
        );

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details.errors).toEqual([{ path: '/cursor', message: expect.any(String) }]);
      });

      it('when the ETag of one shop is sent by the other, then it gets its own full answer, not a 304', async () => {
        const fromA = await call(server, '/api/v1/app-settings', { key: a.key });

        const res = await call(server, '/api/v1/app-settings', {
          key: b.key,
          headers: { 'if-none-match': fromA.headers.get('etag')! },
        });

        expect(res.status).toBe(200);
        expect(res.body.data.settings.localizedLabels.unitPrice).toBe('Price (B)');
        expect(res.headers.get('vary')).toMatch(/authorization/i);
      });
    });
  },
);
