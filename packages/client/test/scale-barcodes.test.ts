import * as contracts from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/main.js';
import type { Db } from '../../server/src/store/db.js';
import { testDrivers } from '../../server/test/support/databases.js';
import { seedShop, shopFixture, startTestServer, variantFixture } from '../../server/test/support/harness.js';
import {
  BadRequestError,
  CartInputError,
  decodeScaleBarcode,
  ean13CheckDigit,
  priceVerifierDigit,
  type ScaleBarcode,
  scannedLineItem,
  TareClient,
} from '../src/index.js';

const label = (body: string) => `${body}${ean13CheckDigit(body)}`;
const LABELS = { netWeight: 'Net weight', netWeight_value_kg: '{Quantity_With_Space}' };
const product = { id: '1001', measurementType: 'weight' };
const variant = { id: '2001', unitMeasurement: { unit: 'kg', value: 1 } };
const line = { product, variant, labels: LABELS, price: '24.00', currency: 'USD', locale: 'en-US' };

describe('scale labels in @tare/client', () => {
  const format = { prefix: '21', itemDigits: 5, value: 'weight', valueDigits: 5, decimals: 3, unit: 'kg' } as const;
  const price = {
    prefix: '02',
    itemDigits: 4,
    value: 'price',
    valueDigits: 5,
    decimals: 2,
    priceCheckDigit: true,
  } as const;
  it.each([
    ['a 1.234 kg label', label('211000101234')],
    ['a price label', label(`020042${priceVerifierDigit('14685')}14685`)],
    ['a wrong verifier digit', label(`020042${(priceVerifierDigit('14685') + 1) % 10}14685`)],
    ['a wrong check digit', '2110001012340'],
    ['an unclaimed prefix', label('251000101234')],
    ['12 digits', '211000101234'],
  ])('when the client decodes %s, then it answers as the service decoder does', (_, code) => {
    expect(decodeScaleBarcode(code, [format, price])).toEqual(contracts.decodeScaleBarcode(code, [format, price]));
  });

  it('when the client decodes the demo label, then it gives the item and 1.234', () => {
    expect(decodeScaleBarcode(label('211000101234'), [format])).toEqual({
      ok: true,
      label: { format, item: '10001', value: '1.234' },
    });
  });

  it('when a scan is turned into a line, then it is one line of quantity 1 measuring the label', () => {
    const scan: ScaleBarcode = {
      productId: '1001',
      variantId: '2001',
      measurement: { value: 1.234, unit: 'kg' },
      derivedFrom: 'weight',
    };

    const built = scannedLineItem({ ...line, scan });

    expect(built.variantId).toBe('2001');
    expect(built.quantity).toBe(1);
    expect(JSON.parse(built.properties[0]!.value).measurement).toEqual({
      type: 'weight',
      dimensions: [{ unit: 'kg', value: 1.234 }],
    });
    expect(built.properties[1]).toEqual({ name: 'Net weight', value: '1.234 kg' });
  });

  it('when the scan is of another variant, then the line is refused with both ids', () => {
    const scan: ScaleBarcode = {
      productId: '1001',
      variantId: '2002',
      measurement: { value: 1.234, unit: 'kg' },
      derivedFrom: 'weight',
    };

    expect(() => scannedLineItem({ ...line, scan })).toThrow(CartInputError);
    expect(() => scannedLineItem({ ...line, scan })).toThrow('the label is of variant 2002, not 2001');
  });
});

describe('client.scaleBarcodes against a real server', () => {
  let db: Db;
  let server: RunningServer;
  let client: TareClient;

  beforeAll(async () => {
    db = await testDrivers()[0]!.create();
    server = await startTestServer(db);
    const { key } = await seedShop(
      db,
      shopFixture({
        settings: {
          scaleBarcodes: [{ prefix: '21', itemDigits: 5, value: 'weight', valueDigits: 5, decimals: 3, unit: 'kg' }],
        },
        products: [
          {
            id: '1001',
            title: 'Coffee beans',
            measurementType: 'weight',
            variants: [{ ...variantFixture('2001', 'kg', 1), scaleItem: '10001' }],
          },
        ],
      }),
    );
    client = new TareClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it('when a POS scans a 1.234 kg label, then one call reads it and one call makes the cart line', async () => {
    const { data: scan } = await client.scaleBarcodes.get(label('211000101234'));

    expect(scan).toEqual({
      productId: '1001',
      variantId: '2001',
      measurement: { value: 1.234, unit: 'kg' },
      derivedFrom: 'weight',
    });
    expect(scannedLineItem({ ...line, scan }).properties[1]).toEqual({ name: 'Net weight', value: '1.234 kg' });
  });

  it('when the check digit is wrong, then a BadRequestError names it at /code', async () => {
    const code = label('211000101234');
    const wrong = `${code.slice(0, 12)}${(Number(code[12]) + 1) % 10}`;

    const error = await client.scaleBarcodes.get(wrong).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain('/code the check digit is');
  });
});
