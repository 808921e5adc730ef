/**
 * examples/add-to-cart.ts run as an integrator runs it, against `tare serve` with the demo shop;
 * then the line it built goes through a (local-platform) order to prove Tare reads it as a
 * measured line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TareClient } from '@tare/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TareProcess, startTare } from './support/tare-process.js';

describe('examples/add-to-cart.ts', () => {
  let tare: TareProcess;
  let work: string;

  beforeAll(async () => {
    tare = await startTare();
    work = await mkdtemp(join(tmpdir(), 'tare-cart-'));
  }, 60_000);

  afterAll(async () => {
    await tare?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function addToCart(args: string[]): Promise<{ code: number | null; line: any; stderr: string }> {
    const { code, stdout, stderr } = await tare.example('add-to-cart.ts', args);
    return { code, line: stdout ? JSON.parse(stdout) : undefined, stderr };
  }

  it('when a customer picks 2.5 kg in English, then the line carries _svc_data and the labelled properties in both id forms', async () => {
    const { code, line } = await addToCart([
      '--product',
      '1001',
      '--variant',
      '2001',
      '--value',
      '2.5',
      '--price',
      '24.00',
    ]);
    expect(code).toBe(0);
    const svcData = {
      measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 2.5 }] },
      unitMeasurement: { unit: 'kg', value: 1 },
      properties: { 'Unit price': '$24.00/kg', 'Net weight': '2.5 kg' },
    };
    expect(line.ok).toBe(true);
    expect(line.properties.map((p: { name: string }) => p.name)).toEqual(['_svc_data', 'Unit price', 'Net weight']);
    expect(JSON.parse(line.properties[0].value)).toEqual(svcData);
    expect(line.cartApiLine).toMatchObject({
      merchandiseId: 'gid://shopify/ProductVariant/2001',
      quantity: 1,
      attributes: [
        { key: '_svc_data', value: line.properties[0].value },
        { key: 'Unit price', value: '$24.00/kg' },
        { key: 'Net weight', value: '2.5 kg' },
      ],
    });
    expect(line.addToCartItem).toEqual({
      id: 2001,
      quantity: 1,
      properties: { _svc_data: line.properties[0].value, 'Unit price': '$24.00/kg', 'Net weight': '2.5 kg' },
    });
  });

  it("when the customer's locale is French, then the shop's French labels name the properties and the price is formatted for it", async () => {
    const args = ['--product', '1001', '--variant', '2002', '--value', '250', '--price', '1.80', '--locale', 'fr'];
    const { code, line } = await addToCart([...args, '--quantity', '2', '--platform', 'local']);
    expect(code).toBe(0);
    // The demo shop overrides `unitPrice` in French; the other labels are the built-in ones. With
    // unit pricing on, the price per 1 kg follows the price per 100 g.
    expect(line.properties.slice(1)).toEqual([
      { name: 'Prix unitaire', value: '1,80\u00a0$US/100g' }, // Intl puts a no-break space there
      { name: 'Prix à l’unité de mesure', value: '18,00\u00a0$US/kg' },
      { name: 'Poids net', value: '250 g' },
    ]);
    expect(line.cartApiLine.merchandiseId).toBe('gid://local/ProductVariant/2002');
    expect(line.addToCartItem.quantity).toBe(2);
  });

  it('when the value breaks the variant rules, then the script reports why and builds no line', async () => {
    const offGrid = await addToCart(['--product', '1001', '--variant', '2001', '--value', '2.3', '--price', '24.00']);
    expect(offGrid).toMatchObject({
      code: 2,
      line: { ok: false, reasons: ['2.3 is not a multiple of the increment 0.25 from 0.25'] },
    });
    const notAPreset = await addToCart(['--product', '1001', '--variant', '2002', '--value', '300', '--price', '1.80']);
    expect(notAPreset.code).toBe(2);
    expect(notAPreset.line.reasons).toHaveLength(1);
    expect(notAPreset.line.reasons[0]).toMatch(/300.*250, 500, 1000/);
    const unknown = await addToCart(['--product', '1001', '--variant', '9999', '--value', '1', '--price', '24.00']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No variant with id '9999'/);
  });

  it('when the platform turns that cart line into an order, then Tare lists it as a measured line', async () => {
    const { line } = await addToCart(['--product', '1004', '--variant', '2301', '--value', '3', '--price', '14.00']);
    const order = {
      id: '5101',
      status: 'open',
      locationId: '70001',
      lineItems: [
        {
          id: '9101',
          productId: '1004',
          variantId: '2301',
          quantity: line.addToCartItem.quantity,
          price: '42.00',
          fulfilled: false,
          properties: line.properties,
        },
      ],
    };
    const file = join(work, 'order.json');
    const shop = { domain: 'demo-shop.example', currency: 'USD', locations: [{ id: '70001', name: 'Main store' }] };
    await writeFile(file, JSON.stringify({ shops: [{ ...shop, orders: [order] }] }));
    const imported = await tare.cli(['import', file]);
    expect(imported.code, imported.stderr).toBe(0);

    const client = new TareClient({ apiKey: tare.apiKey, baseUrl: tare.url });
    const { data } = await client.orders.get('5101');
    expect(data.items).toEqual([
      {
        lineItemId: '9101',
        productId: '1004',
        variantId: '2301',
        quantity: 1,
        measurement: { type: 'volume', value: 3, unit: 'L' },
        unitPrice: expect.stringContaining('$14.00'),
      },
    ]);
  });

  it('when the customer checks out in the sandbox, then Tare books the order and holds the exact rest', async () => {
    const run = await tare.example('add-to-cart.ts', [
      ...['--product', '1001', '--variant', '2001', '--value', '2.5', '--price', '24.00', '--checkout'],
    ]);
    expect(run.code, run.stderr).toBe(0);
    // The demo coffee had 12.75 kg: the platform took one whole unit, Tare the exact 2.5 kg.
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^order \d+ booked: sale -2\.5 kg; Tare holds 10\.25 kg \(platform 10 whole, 0\.25 kg kept\)$/,
    );
  });
});
