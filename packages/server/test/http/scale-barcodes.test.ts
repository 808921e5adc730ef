import { ean13CheckDigit, priceVerifierDigit } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { testDrivers } from '../support/databases.js';
import {
  call,
  expectErrorEnvelope,
  seedShop,
  shopFixture,
  startTestServer,
  variantFixture,
} from '../support/harness.js';

/** A label as a scale prints it: the body, then its EAN-13 check digit. */
const label = (body: string) => `${body}${ean13CheckDigit(body)}`;
const priceLabel = (prefix: string, item: string, price: string) =>
  label(`${prefix}${item}${priceVerifierDigit(price)}${price}`);

const FORMATS: NonNullable<ImportShop['settings']>['scaleBarcodes'] = [
  { prefix: '21', itemDigits: 5, value: 'weight', valueDigits: 5, decimals: 3, unit: 'kg' },
  { prefix: '28', itemDigits: 6, value: 'weight', valueDigits: 4, decimals: 0, unit: 'g' },
  { prefix: '22', itemDigits: 5, value: 'price', valueDigits: 4, decimals: 2, priceCheckDigit: true },
];

/** Coffee per kg (item 10001), per 100 g (10002) and per lb (123456); ribbon by the yard (10003). */
function scaleShop(overrides: Partial<ImportShop> = {}) {
  return shopFixture({
    settings: { scaleBarcodes: FORMATS },
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: [
          { ...variantFixture('2001', 'kg', 1), scaleItem: '10001' },
          { ...variantFixture('2002', 'g', 100), scaleItem: '10002' },
          { ...variantFixture('2003', 'lb', 1), scaleItem: '123456' },
        ],
      },
      {
        id: '1002',
        title: 'Ribbon',
        measurementType: 'length',
        variants: [{ ...variantFixture('2101', 'yd', 1), scaleItem: '10003' }],
      },
    ],
    ...overrides,
  });
}

describe.each(testDrivers({ citus: true }))('GET /api/v1/scale-barcodes/{code} on $name', ({ create }) => {
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

  const scan = (code: string, key?: string) =>
    call(server, `/api/v1/scale-barcodes/${encodeURIComponent(code)}`, { key });

  describe('happy', () => {
    it.each([
      ['a 1.234 kg label of a per-kg variant', label('211000101234'), '2001', { value: 1.234, unit: 'kg' }],
      ['a 1.234 kg label of a per-100 g variant', label('211000201234'), '2002', { value: 1234, unit: 'g' }],
      ['a 250 g label of a per-lb variant', label('281234560250'), '2003', { value: 0.551155655, unit: 'lb' }],
    ])(
      'when %s is scanned, then it answers the variant and the weight in its unit',
      async (_, code, variantId, measurement) => {
        const { key } = await seedShop(db, scaleShop());

        const res = await scan(code, key);

        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: true,
          data: { productId: '1001', variantId, measurement, derivedFrom: 'weight' },
          error: null,
          meta: {},
          requestId: res.headers.get('x-request-id'),
        });
      },
    );

    it.each([
      ['a per-kg variant at 24.00', '10001', '2001', { value: 0.514166667, unit: 'kg' }],
      ['a per-100 g variant at 24.00', '10002', '2002', { value: 51.416666667, unit: 'g' }],
    ])(
      'when a 12.34 price label of %s is scanned, then the measurement is the price over the unit price, to 9 decimals',
      async (_, item, variantId, measurement) => {
        const { key } = await seedShop(db, scaleShop());

        const res = await scan(priceLabel('22', item, '1234'), key);

        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({
          productId: '1001',
          variantId,
          measurement,
          price: { amount: '12.34', currency: 'USD' },
          derivedFrom: 'price',
        });
      },
    );
  });

  describe('error', () => {
    const weight = label('211000101234');
    const wrongCheck = `${weight.slice(0, 12)}${(Number(weight[12]) + 1) % 10}`;
    const wrongVerifier = label(`2210001${(priceVerifierDigit('1234') + 1) % 10}1234`);
    it.each([
      ['12 digits', weight.slice(0, 12), "'211000101234' is not 13 digits (an EAN-13 scale label)"],
      ['letters', 'abcdefghijklm', "'abcdefghijklm' is not 13 digits (an EAN-13 scale label)"],
      [
        'a wrong check digit',
        wrongCheck,
        `the check digit is ${wrongCheck[12]}, but the other digits make it ${weight[12]}`,
      ],
      [
        'a wrong price verifier digit',
        wrongVerifier,
        `the price verifier digit is ${wrongVerifier[7]}, but 1234 makes it ${priceVerifierDigit('1234')}`,
      ],
      ['a prefix no format claims', label('251000101234'), 'no scale label format of the shop claims prefix 25'],
    ])('when the code has %s, then 400 bad_request names the reason at /code', async (_, code, message) => {
      const { key } = await seedShop(db, scaleShop());

      const error = expectErrorEnvelope(await scan(code, key), 400, 'bad_request');

      expect(error.details).toEqual({ in: 'params', errors: [{ path: '/code', message }] });
      expect(error.message).toBe(`The request is invalid: /code ${message}.`);
    });

    it('when no variant carries the item, then 404 not_found names it', async () => {
      const { key } = await seedShop(db, scaleShop());

      const error = expectErrorEnvelope(await scan(label('219999901234'), key), 404, 'not_found');

      expect(error.details).toEqual({ resource: 'scale item', id: '99999' });
    });

    it('when a weight label carries the item of a length variant, then 422 says it cannot measure it', async () => {
      const { key } = await seedShop(db, scaleShop());

      const error = expectErrorEnvelope(await scan(label('211000301234'), key), 422, 'unprocessable');

      expect(error.message).toBe('A weight label cannot measure a length variant.');
    });

    it('when the label carries a weight of 0, then 422 says so', async () => {
      const { key } = await seedShop(db, scaleShop());

      const error = expectErrorEnvelope(await scan(label('211000100000'), key), 422, 'unprocessable');

      expect(error.message).toBe('The label carries a weight of 0.');
    });
  });

  describe('security', () => {
    it('when no key is sent, then 401 unauthorized', async () => {
      await seedShop(db, scaleShop());

      const res = await scan(label('211000101234'));

      expectErrorEnvelope(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it("when the item is another shop's, then 404 exactly as for an unknown item", async () => {
      const a = await seedShop(db, scaleShop());
      await seedShop(
        db,
        scaleShop({
          products: [
            {
              id: '1001',
              title: 'Other',
              measurementType: 'weight',
              variants: [{ ...variantFixture('6001', 'kg', 1), scaleItem: '55555' }],
            },
          ],
        }),
      );

      const theirs = await scan(label('215555501234'), a.key);
      const unknown = await scan(label('219999901234'), a.key);

      expectErrorEnvelope(theirs, 404, 'not_found');
      expect(theirs.body.error.message).toBe("No scale item with id '55555' was found.");
      expect(unknown.body.error.message).toBe("No scale item with id '99999' was found.");
    });

    it("when the shop has no formats, then another shop's format does not read its labels", async () => {
      await seedShop(db, scaleShop());
      const bare = await seedShop(db, shopFixture());

      const error = expectErrorEnvelope(await scan(label('211000101234'), bare.key), 400, 'bad_request');

      expect(error.details.errors).toEqual([
        { path: '/code', message: 'no scale label format of the shop claims prefix 21' },
      ]);
    });
  });
});
