import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec } from '../../src/domain/decimal.js';
import { type PlatformGateway, PlatformUnavailableError } from '../../src/platform/gateway.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { ImportRefusedError } from '../../src/services/catalog-import/stored-stock.js';
import { applyInventoryWrite } from '../../src/services/inventory/write-inventory.js';
import { ImportDocument } from '../../src/services/catalog-import/import-document.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { pointerOf, stringLocations, withText } from '../support/schema-walk.js';

const WEIGHT_UNITS = 'one of mg, g, kg, t, oz, lb, st';

/** The PRODUCT.md §11 sample, verbatim but for a unique domain. Plain JSON, as `tare import` reads it. */
function sample(domain = `fresh-${randomUUID().slice(0, 8)}.example`): any {
  return {
    shops: [
      {
        domain,
        currency: 'USD',
        defaultLocale: 'en',
        addonActive: true,
        settings: { mergeMatchingLineItems: true, rateLimit: { enabled: true, requestsPerMinute: 600 } },
        labels: { fr: { unitPrice: 'Prix unitaire', unitPrice_weight_value_kg: '{Price}/{Quantity}' } },
        locations: [{ id: '70001', name: 'Main store' }],
        products: [
          {
            id: '1001',
            title: 'Coffee beans',
            measurementType: 'weight',
            variants: [
              {
                id: '2001',
                title: 'Arabica',
                price: '24.00',
                unitMeasurement: { unit: 'kg', value: 1 },
                settings: {
                  onlineStore: {
                    displayStyle: 'number',
                    rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
                  },
                },
                inventory: [{ locationId: '70001', quantity: { value: 12.75, unit: 'kg' } }],
              },
            ],
          },
        ],
        orders: [
          {
            id: '5001',
            status: 'open',
            locationId: '70001',
            lineItems: [
              {
                id: '9001',
                productId: '1001',
                variantId: '2001',
                quantity: 2,
                price: '30.00',
                fulfilled: false,
                properties: [
                  {
                    name: '_svc_data',
                    value: '{"measurement":{"type":"weight","dimensions":[{"unit":"kg","value":1.25}]}}',
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

/** A number-style variant with stock at 70001, for the conversion cases. */
function stockedVariant(id: string, unit: string, unitValue: number, quantity: { value: number; unit: string }) {
  return {
    id,
    title: `Variant ${id}`,
    price: '1.00',
    unitMeasurement: { unit, value: unitValue },
    settings: { onlineStore: { displayStyle: 'number', rules: { min: 1, increment: 1, defaultValue: 1, max: null } } },
    inventory: [{ locationId: '70001', quantity }],
  };
}

const clone = <T>(value: T): T => structuredClone(value);

describe.each(testDrivers())('Catalog import on $name', ({ create }) => {
  let db: Db;
  const gateway = createLocalGateway();

  beforeAll(async () => {
    db = await create();
  });

  afterAll(async () => {
    await db?.close();
  });

  /** What `tare import` does: validate the whole document, write only when it is valid. */
  async function importFile(doc: unknown) {
    const checked = validateImport(doc);
    if (!checked.ok) return { ok: false as const, issues: checked.issues };
    return { ok: true as const, summary: await importCatalog({ db, gateway }, checked.value) };
  }

  async function importValid(doc: unknown, via: PlatformGateway = gateway) {
    const checked = validateImport(doc);
    if (!checked.ok) throw new Error(`fixture is invalid: ${JSON.stringify(checked.issues)}`);
    return importCatalog({ db, gateway: via }, checked.value);
  }

  /** Every row of every table, in a stable order: two equal dumps mean nothing was written. */
  async function dump(): Promise<Record<string, unknown[]>> {
    const { rows: tables } = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const out: Record<string, unknown[]> = {};
    for (const { table_name: table } of tables) {
      out[table] = (await db.query(`SELECT * FROM ${table} t ORDER BY t::text`)).rows;
    }
    return out;
  }

  const rowsOf = async (table: string, shopId: string) =>
    (await db.query(`SELECT * FROM ${table} t WHERE shop_id = $1 ORDER BY t::text`, [shopId])).rows;

  const level = async (shopId: string, variantId: string) => {
    const { rows } = await db.query<{ total: string; unit: string }>(
      `SELECT total, unit FROM inventory_levels WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2`,
      [shopId, variantId],
    );
    return rows[0];
  };

  const platformLevel = async (shopId: string, variantId: string) => {
    const { rows } = await db.query<{ available: string }>(
      `SELECT available FROM local_platform_levels WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2`,
      [shopId, variantId],
    );
    return rows[0]?.available;
  };

  const ledger = async (shopId: string, variantId: string) =>
    (
      await db.query<Record<string, unknown>>(
        `SELECT operation, quantity_before, quantity_after, delta, unit, idempotency_key, request_id
         FROM inventory_ledger WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2 ORDER BY id`,
        [shopId, variantId],
      )
    ).rows;

  describe('happy', () => {
    it('when the PRODUCT.md §11 sample is imported, then every entity is stored as written', async () => {
      const doc = sample();
      const domain = doc.shops[0].domain;
      const summary = await importValid(doc);
      const shopId = summary.shops[0]!.id;
      // shop, 2 labels, location, product, variant, inventory level, order, line item
      expect(summary).toEqual({ shops: [{ domain, id: shopId, changes: 9 }] });

      const { rows: shops } = await db.query(
        `SELECT domain, currency, default_locale, addon_active, merge_matching_line_items, rate_limit_enabled,
           rate_limit_per_minute FROM shops WHERE id = $1`,
        [shopId],
      );
      expect(shops).toEqual([
        {
          domain,
          currency: 'USD',
          default_locale: 'en',
          addon_active: true,
          merge_matching_line_items: true,
          rate_limit_enabled: true,
          rate_limit_per_minute: 600,
        },
      ]);
      expect(await rowsOf('shop_labels', shopId)).toEqual([
        { shop_id: shopId, locale: 'fr', key: 'unitPrice', value: 'Prix unitaire' },
        { shop_id: shopId, locale: 'fr', key: 'unitPrice_weight_value_kg', value: '{Price}/{Quantity}' },
      ]);
      expect(await rowsOf('locations', shopId)).toEqual([{ shop_id: shopId, id: '70001', name: 'Main store' }]);
      expect(await rowsOf('products', shopId)).toEqual([
        { shop_id: shopId, id: '1001', title: 'Coffee beans', measurement_type: 'weight' },
      ]);
      expect(await rowsOf('variants', shopId)).toEqual([
        {
          shop_id: shopId,
          id: '2001',
          product_id: '1001',
          position: 0,
          title: 'Arabica',
          price: '24.00',
          unit: 'kg',
          unit_value: '1',
          display_style: 'number',
          rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
          presets: null,
          scale_item: null,
          dimensions: null,
          overage_percent: null,
          stock_item_id: null,
        },
      ]);
      expect(await level(shopId, '2001')).toEqual({ total: '12.75', unit: 'kg' });
      expect(await platformLevel(shopId, '2001')).toBe('12');
      expect(await ledger(shopId, '2001')).toEqual([
        {
          operation: 'import',
          quantity_before: '0',
          quantity_after: '12.75',
          delta: '12.75',
          unit: 'kg',
          idempotency_key: null,
          request_id: null,
        },
      ]);
      const { rows: orders } = await db.query(
        'SELECT id, status, location_id FROM local_platform_orders WHERE shop_id = $1',
        [shopId],
      );
      expect(orders).toEqual([{ id: '5001', status: 'open', location_id: '70001' }]);
      const { rows: lines } = await db.query(
        `SELECT order_id, id, position, product_id, variant_id, quantity, price, fulfilled, properties
         FROM local_platform_line_items WHERE shop_id = $1`,
        [shopId],
      );
      expect(lines).toEqual([
        {
          order_id: '5001',
          id: '9001',
          position: 0,
          product_id: '1001',
          variant_id: '2001',
          quantity: 2,
          price: '30.00',
          fulfilled: false,
          properties: doc.shops[0].orders[0].lineItems[0].properties,
        },
      ]);
    });

    it('when stock is given in another unit of the type, then the total is stored exactly in the variant unit', async () => {
      const doc = sample();
      doc.shops[0].products[0].variants.push(
        stockedVariant('2002', 'g', 100, { value: 1.25, unit: 'kg' }),
        stockedVariant('2003', 'kg', 1, { value: 3.3, unit: 'lb' }),
        stockedVariant('2004', 'lb', 1, { value: 0.90718474, unit: 'kg' }),
      );
      const shopId = (await importValid(doc)).shops[0]!.id;

      expect(await level(shopId, '2002')).toEqual({ total: '1250', unit: 'g' });
      expect(await platformLevel(shopId, '2002')).toBe('12'); // floor(1250 / 100)
      expect(await ledger(shopId, '2002')).toEqual([
        expect.objectContaining({ quantity_before: '0', quantity_after: '1250', delta: '1250', unit: 'g' }),
      ]);
      // 3.3 lb = 1.496854821 kg and 0.90718474 kg = 2 lb, exactly: nothing to round.
      expect(await level(shopId, '2003')).toEqual({ total: '1.496854821', unit: 'kg' });
      expect(await platformLevel(shopId, '2003')).toBe('1');
      expect(await level(shopId, '2004')).toEqual({ total: '2', unit: 'lb' });
      expect(await platformLevel(shopId, '2004')).toBe('2');
    });

    it('when stock in another unit needs more than 9 decimals of the variant unit, then it is rounded half-even at the 9th', async () => {
      const doc = sample();
      doc.shops[0].products[0].variants.push(
        stockedVariant('2005', 'kg', 1, { value: 1, unit: 'oz' }), // 0.028349523125 kg
        stockedVariant('2006', 'kg', 1, { value: 4, unit: 'oz' }), // 0.1133980925 kg: even 9th kept
        stockedVariant('2007', 'kg', 1, { value: 12, unit: 'oz' }), // 0.3401942775 kg: odd 9th up
        stockedVariant('2008', 'lb', 1, { value: 1, unit: 'kg' }), // 2.2046226218… lb
        stockedVariant('2009', 'g', 100, { value: 0.0000035, unit: 'mg' }), // 0.0000000035 g
      );
      const shopId = (await importValid(doc)).shops[0]!.id;

      const expected: [string, string, string, string][] = [
        ['2005', '0.028349523', 'kg', '0'],
        ['2006', '0.113398092', 'kg', '0'],
        ['2007', '0.340194278', 'kg', '0'],
        ['2008', '2.204622622', 'lb', '2'],
        ['2009', '0.000000004', 'g', '0'],
      ];
      for (const [variantId, total, unit, platform] of expected) {
        expect(await level(shopId, variantId)).toEqual({ total, unit });
        expect(await platformLevel(shopId, variantId)).toBe(platform);
        expect(await ledger(shopId, variantId)).toEqual([
          expect.objectContaining({ quantity_before: '0', quantity_after: total, delta: total, unit }),
        ]);
      }
    });

    it('when stock is given in the variant unit with 9 decimals, then it is stored exactly', async () => {
      const doc = sample();
      doc.shops[0].products[0].variants[0].inventory[0].quantity.value = 12.000000001;
      const shopId = (await importValid(doc)).shops[0]!.id;
      expect(await level(shopId, '2001')).toEqual({ total: '12.000000001', unit: 'kg' });
      expect(await platformLevel(shopId, '2001')).toBe('12');
    });

    it('when the same file is imported again, then it reports no change and not one row differs', async () => {
      const doc = sample();
      doc.shops[0].products[0].variants.push(stockedVariant('2002', 'g', 100, { value: 1.25, unit: 'kg' }));
      const first = await importValid(doc);
      const before = await dump();
      const second = await importValid(clone(doc));
      expect(second).toEqual({ shops: [{ domain: doc.shops[0].domain, id: first.shops[0]!.id, changes: 0 }] });
      expect(await dump()).toEqual(before);
    });

    it('when a later file leaves the shop settings out, then they keep their values and nothing is written', async () => {
      const doc = sample();
      doc.shops[0].defaultLocale = 'fr';
      doc.shops[0].settings.rateLimit = { enabled: false, requestsPerMinute: 120 };
      const first = await importValid(doc);
      const shopRow = async () => (await db.query('SELECT * FROM shops WHERE id = $1', [first.shops[0]!.id])).rows[0];
      const before = await shopRow();
      const { domain, currency, locations } = doc.shops[0];

      const partial = await importValid({ shops: [{ domain, currency, locations }] });

      expect(partial.shops[0]!.changes).toBe(0);
      expect(await shopRow()).toEqual(before);
      expect(before).toMatchObject({
        default_locale: 'fr',
        addon_active: true,
        merge_matching_line_items: true,
        rate_limit_enabled: false,
        rate_limit_per_minute: 120,
      });
    });

    it('when a later file gives only some settings, then only those change', async () => {
      const doc = sample();
      const first = await importValid(doc);
      const { domain, currency } = doc.shops[0];

      const partial = await importValid({
        shops: [{ domain, currency, settings: { rateLimit: { requestsPerMinute: 60 } } }],
      });

      expect(partial.shops[0]!.changes).toBe(1);
      const { rows } = await db.query('SELECT * FROM shops WHERE id = $1', [first.shops[0]!.id]);
      expect(rows[0]).toMatchObject({
        default_locale: 'en',
        addon_active: true,
        merge_matching_line_items: true,
        rate_limit_enabled: true,
        rate_limit_per_minute: 60,
      });
    });

    it('when a new shop leaves its settings out, then it gets the defaults', async () => {
      const domain = `bare-${randomUUID().slice(0, 8)}.example`;
      const summary = await importValid({ shops: [{ domain, currency: 'EUR' }] });
      const { rows } = await db.query('SELECT * FROM shops WHERE id = $1', [summary.shops[0]!.id]);
      expect(rows[0]).toMatchObject({
        currency: 'EUR',
        default_locale: 'en',
        addon_active: false,
        merge_matching_line_items: null,
        rate_limit_enabled: true,
        rate_limit_per_minute: 600,
      });
    });

    it('when one stock value changes, then only that level, its ledger row and its platform level are written', async () => {
      const doc = sample();
      doc.shops[0].products[0].variants.push(stockedVariant('2002', 'g', 100, { value: 1.25, unit: 'kg' }));
      const shopId = (await importValid(doc)).shops[0]!.id;
      const before = await dump();

      const changed = clone(doc);
      changed.shops[0].products[0].variants[0].inventory[0].quantity.value = 13.5;
      expect(await importValid(changed)).toEqual({
        shops: [{ domain: doc.shops[0].domain, id: shopId, changes: 1 }],
      });
      const after = await dump();

      const untouched = Object.keys(before).filter(
        (t) => !['inventory_levels', 'inventory_ledger', 'local_platform_levels'].includes(t),
      );
      for (const table of untouched) expect(after[table], table).toEqual(before[table]);

      const isTarget = (row: any) => row.shop_id === shopId && row.variant_id === '2001';
      for (const table of ['inventory_levels', 'local_platform_levels']) {
        expect(
          after[table]!.filter((r) => !isTarget(r)),
          table,
        ).toEqual(before[table]!.filter((r) => !isTarget(r)));
      }
      expect(await level(shopId, '2001')).toEqual({ total: '13.5', unit: 'kg' });
      expect(await platformLevel(shopId, '2001')).toBe('13');
      const known = new Set(before.inventory_ledger!.map((r: any) => r.id));
      expect(after.inventory_ledger!.filter((r: any) => known.has(r.id))).toEqual(before.inventory_ledger);
      expect(after.inventory_ledger!.length).toBe(before.inventory_ledger!.length + 1);
      expect(await ledger(shopId, '2001')).toEqual([
        expect.objectContaining({ quantity_before: '0', quantity_after: '12.75', delta: '12.75' }),
        {
          operation: 'import',
          quantity_before: '12.75',
          quantity_after: '13.5',
          delta: '0.75',
          unit: 'kg',
          idempotency_key: null,
          request_id: null,
        },
      ]);
    });

    // An unchanged level is skipped on what the compare pass read (Tare's total, unit and expected
    // whole units), then on the platform's own count: a difference in any of them is restated.
    it('when the platform’s count was typed by hand, then the same file shows the file’s whole units again', async () => {
      const doc = sample();
      const shopId = (await importValid(doc)).shops[0]!.id;
      await db.query(`UPDATE local_platform_levels SET available = 99 WHERE shop_id = $1 AND variant_id = '2001'`, [
        shopId,
      ]);
      const ledgerBefore = await ledger(shopId, '2001');

      expect((await importValid(clone(doc))).shops[0]!.changes).toBe(1);
      expect(await platformLevel(shopId, '2001')).toBe('12');
      expect(await level(shopId, '2001')).toEqual({ total: '12.75', unit: 'kg' });
      expect(await ledger(shopId, '2001')).toEqual(ledgerBefore);
    });

    it('when Tare lost what it expects the platform to show, then the same file records it again', async () => {
      const doc = sample();
      const shopId = (await importValid(doc)).shops[0]!.id;
      await db.query(`UPDATE inventory_levels SET platform_available = NULL WHERE shop_id = $1`, [shopId]);

      expect((await importValid(clone(doc))).shops[0]!.changes).toBe(1);
      const { rows } = await db.query<{ platform_available: string }>(
        `SELECT platform_available FROM inventory_levels WHERE shop_id = $1 AND variant_id = '2001'`,
        [shopId],
      );
      expect(rows).toEqual([{ platform_available: '12' }]);
    });

    it('when most levels change, then the unchanged ones among them still get no ledger row', async () => {
      const doc = sample();
      doc.shops[0].orders = [];
      const ids = ['3001', '3002', '3003'];
      doc.shops[0].products[0].variants = ids.map((id) => stockedVariant(id, 'kg', 1, { value: 10, unit: 'kg' }));
      const shopId = (await importValid(doc)).shops[0]!.id;
      const changed = clone(doc);
      changed.shops[0].products[0].variants[0].inventory[0].quantity.value = 11;
      changed.shops[0].products[0].variants[1].inventory[0].quantity.value = 12;

      expect((await importValid(changed)).shops[0]!.changes).toBe(2);
      expect((await ledger(shopId, '3001')).map((row: any) => row.delta)).toEqual(['10', '1']);
      expect((await ledger(shopId, '3002')).map((row: any) => row.delta)).toEqual(['10', '2']);
      expect((await ledger(shopId, '3003')).map((row: any) => row.delta)).toEqual(['10']);
      expect(await platformLevel(shopId, '3003')).toBe('10');
    });

    it('when only a price changes, then only that variant row changes and no ledger row is added', async () => {
      const doc = sample();
      const shopId = (await importValid(doc)).shops[0]!.id;
      const before = await dump();
      const changed = clone(doc);
      changed.shops[0].products[0].variants[0].price = '25.50';
      expect((await importValid(changed)).shops[0]!.changes).toBe(1);
      const after = await dump();
      for (const table of Object.keys(before).filter((t) => t !== 'variants')) {
        expect(after[table], table).toEqual(before[table]);
      }
      const variant = (rows: unknown[]) => rows.filter((r: any) => r.shop_id === shopId);
      expect(variant(after.variants!)).toEqual(variant(before.variants!).map((r: any) => ({ ...r, price: '25.50' })));
    });

    it('when stock is re-imported up and down, then the ledger deltas always sum to the total', async () => {
      const doc = sample();
      const shopId = (await importValid(doc)).shops[0]!.id;
      for (const value of [13.5, 0.25, 0.25, 7]) {
        const next = clone(doc);
        next.shops[0].products[0].variants[0].inventory[0].quantity.value = value;
        await importValid(next);
      }
      const rows = await ledger(shopId, '2001');
      // 12.75 → 13.5 → 0.25 → (unchanged) → 7
      expect(rows.map((r) => r.delta)).toEqual(['12.75', '0.75', '-13.25', '6.75']);
      const { rows: sums } = await db.query<{ sum: string; total: string }>(
        `SELECT (SELECT sum(delta) FROM inventory_ledger l WHERE l.shop_id = v.shop_id AND l.variant_id = v.variant_id
                 AND l.location_id = v.location_id)::text AS sum, total::text AS total
         FROM inventory_levels v WHERE shop_id = $1`,
        [shopId],
      );
      expect(sums).toEqual([{ sum: '7.00', total: '7' }]);
      expect(new Dec(sums[0]!.sum).eq(new Dec(sums[0]!.total))).toBe(true);
      expect(await platformLevel(shopId, '2001')).toBe('7');
    });
  });

  describe('concurrent writes', () => {
    // The import locks and writes only the levels that differ from the file, read without a lock
    // first; a level read as unchanged may be adjusted right after. Whatever the interleaving, every
    // ledger row starts from the total the level held, so each level's deltas sum to its total.
    it('when adjustments run during re-imports that change half the levels, then every level’s ledger sums to its total', async () => {
      const doc = sample();
      doc.shops[0].orders = [];
      const ids = Array.from({ length: 40 }, (_, n) => String(3000 + n));
      doc.shops[0].products[0].variants = ids.map((id) => stockedVariant(id, 'kg', 1, { value: 10, unit: 'kg' }));
      const shopId = (await importValid(doc)).shops[0]!.id;
      const file = (round: number) => {
        const next = clone(doc);
        next.shops[0].products[0].variants.forEach((variant: any, n: number) => {
          if (n % 2 === 0) variant.inventory[0].quantity.value = 10 + round;
        });
        return next;
      };
      const adjustments = Array.from({ length: 60 }, (_, i) =>
        db.transaction((tx) =>
          applyInventoryWrite(tx, gateway, {
            shopId,
            operation: 'adjustment',
            locationId: '70001',
            requestId: `adjust-${i}`,
            actor: { type: 'api_key', id: 'import-test' },
            entries: [{ variantId: ids[(i * 7) % ids.length]!, value: 0.25, unit: 'kg', path: '/adjustments/0' }],
          }),
        ),
      );
      const imports = [1, 2, 3, 2, 1].map((round) => importValid(file(round)));
      await Promise.all([...adjustments, ...imports]);
      const { rows } = await db.query<{ sum: string; total: string }>(
        `SELECT (SELECT sum(delta) FROM inventory_ledger l WHERE l.shop_id = v.shop_id AND l.variant_id = v.variant_id
                 AND l.location_id = v.location_id)::text AS sum, total::text AS total
         FROM inventory_levels v WHERE shop_id = $1`,
        [shopId],
      );
      expect(rows).toHaveLength(ids.length);
      for (const row of rows) expect(new Dec(row.sum).eq(new Dec(row.total)), JSON.stringify(row)).toBe(true);
    });
  });

  describe('stock kept across unit changes', () => {
    /** The §11 sample with a second variant holding 1250.5 g at 70001, counted in units of 100 g. */
    const stocked = () => {
      const doc = sample();
      doc.shops[0].orders = [];
      doc.shops[0].products[0].variants.push(stockedVariant('2002', 'g', 100, { value: 1250.5, unit: 'g' }));
      return doc;
    };
    const platformShown = async (shopId: string, variantId: string) => ({
      tare: (
        await db.query<{ platform_available: string }>(
          `SELECT platform_available FROM inventory_levels WHERE shop_id = $1 AND location_id = '70001' AND variant_id = $2`,
          [shopId, variantId],
        )
      ).rows[0]?.platform_available,
      platform: await platformLevel(shopId, variantId),
    });
    const refusal = async (doc: unknown) => {
      const error = await importValid(doc).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportRefusedError);
      return (error as ImportRefusedError).issues;
    };

    it('when a file without inventory changes the unit value (100 g to 50 g), then the platform shows the whole units of the new one', async () => {
      const doc = stocked();
      const shopId = (await importValid(doc)).shops[0]!.id;
      expect(await platformShown(shopId, '2002')).toEqual({ tare: '12', platform: '12' });

      const calls: unknown[] = [];
      const watched: PlatformGateway = {
        ...gateway,
        projectLevels: (tx, id, levels, cause) => {
          calls.push(levels);
          return gateway.projectLevels(tx, id, levels, cause);
        },
      };
      const changed = clone(doc);
      for (const variant of changed.shops[0].products[0].variants) delete variant.inventory;
      changed.shops[0].products[0].variants[1].unitMeasurement.value = 50;
      expect((await importValid(changed, watched)).shops[0]!.changes).toBe(2); // the variant, its projection
      // 1250.5 g is 25 units of 50 g and 0.5 g over; the level itself is untouched, no ledger row.
      expect(await platformShown(shopId, '2002')).toEqual({ tare: '25', platform: '25' });
      expect(await level(shopId, '2002')).toEqual({ total: '1250.5', unit: 'g' });
      expect((await ledger(shopId, '2002')).length).toBe(1);
      // Compare-and-set like any write: on Shopify this is a queued push, never a blind overwrite.
      expect(calls).toEqual([[{ locationId: '70001', variantId: '2002', available: 25, expected: 12 }]]);

      // To kg at 0.1 kg: the same 12 units as at 100 g; importing it again changes nothing.
      changed.shops[0].products[0].variants[1].unitMeasurement = { unit: 'kg', value: 0.1 };
      await importValid(changed);
      expect(await platformShown(shopId, '2002')).toEqual({ tare: '12', platform: '12' });
      const before = await dump();
      expect((await importValid(changed)).shops[0]!.changes).toBe(0);
      expect(await dump()).toEqual(before);
    });

    it('when the product’s type changes while its variants hold stock, then the import is refused at measurementType and nothing is written', async () => {
      const doc = stocked();
      await importValid(doc);
      const before = await dump();
      const changed = clone(doc);
      const product = changed.shops[0].products[0];
      product.measurementType = 'length';
      for (const variant of product.variants) {
        variant.unitMeasurement.unit = 'm';
        delete variant.inventory;
      }
      product.variants[0].inventory = [{ locationId: '70001', quantity: { value: 3, unit: 'm' } }];
      expect(await refusal(changed)).toEqual([
        {
          path: '/shops/0/products/0/measurementType',
          message:
            'cannot change to length: its variants hold stock counted in weight units (1 level: variant 2002 at ' +
            'location 70001; a level at 0 counts), and stock is not converted between types. Restate each of ' +
            "those levels in length units in the variant's inventory, or create a new length product.",
        },
      ]);
      expect(await dump()).toEqual(before);
    });

    it('when the type changes and the file restates every level in the new type, then the old stock is cleared in its unit and the new one counted', async () => {
      const doc = stocked();
      const shopId = (await importValid(doc)).shops[0]!.id;
      const changed = clone(doc);
      const product = changed.shops[0].products[0];
      product.measurementType = 'length';
      product.variants[0].unitMeasurement.unit = 'm';
      product.variants[0].inventory = [{ locationId: '70001', quantity: { value: 3, unit: 'm' } }];
      product.variants[1].unitMeasurement = { unit: 'cm', value: 50 };
      product.variants[1].inventory = [{ locationId: '70001', quantity: { value: 1.255, unit: 'm' } }];
      await importValid(changed);
      expect(await level(shopId, '2002')).toEqual({ total: '125.5', unit: 'cm' });
      expect(await platformShown(shopId, '2002')).toEqual({ tare: '2', platform: '2' });
      expect((await ledger(shopId, '2002')).map((r) => [r.quantity_before, r.quantity_after, r.delta, r.unit])).toEqual(
        [
          ['0', '1250.5', '1250.5', 'g'],
          ['1250.5', '0', '-1250.5', 'g'],
          ['0', '125.5', '125.5', 'cm'],
        ],
      );
    });

    it('when a variant holding stock moves to a product of another type, then the import is refused at its unit', async () => {
      const doc = stocked();
      await importValid(doc);
      const before = await dump();
      const changed = clone(doc);
      const [moved] = changed.shops[0].products[0].variants.splice(1, 1);
      delete moved.inventory;
      changed.shops[0].products.push({
        id: '1002',
        title: 'Ribbon',
        measurementType: 'length',
        variants: [{ ...moved, unitMeasurement: { unit: 'm', value: 1 } }],
      });
      expect(await refusal(changed)).toEqual([
        {
          path: '/shops/0/products/1/variants/0/unitMeasurement/unit',
          message:
            "unit 'm' cannot hold this variant's stock, counted in weight units (1 level, at location 70001; a " +
            "level at 0 counts), and stock is not converted between types: restate it in the variant's inventory " +
            'in length units',
        },
      ]);
      expect(await dump()).toEqual(before);
    });
  });

  describe('errors', () => {
    const at = '/shops/0/products/0/variants/0';
    const MORE_DECIMALS = 'has more than 9 decimal places; Tare keeps 9 decimal places of a unit';
    const cases: [string, (doc: any) => void, { path: string; message: string }[]][] = [
      [
        'an unknown field',
        (d) => {
          d.shops[0].products[0].variants[0].colour = 'red';
        },
        [{ path: `${at}/colour`, message: "unknown field 'colour'" }],
      ],
      [
        'an unknown top-level field',
        (d) => {
          d.version = 2;
        },
        [{ path: '/version', message: "unknown field 'version'" }],
      ],
      [
        'a length unit on a weight variant',
        (d) => {
          d.shops[0].products[0].variants[0].unitMeasurement.unit = 'm';
        },
        [{ path: `${at}/unitMeasurement/unit`, message: `unit 'm' is not a weight unit; use ${WEIGHT_UNITS}` }],
      ],
      [
        'stock in a volume unit on a weight variant',
        (d) => {
          d.shops[0].products[0].variants[0].inventory[0].quantity.unit = 'L';
        },
        [{ path: `${at}/inventory/0/quantity/unit`, message: `unit 'L' is not a weight unit; use ${WEIGHT_UNITS}` }],
      ],
      [
        'a unit id in the wrong case',
        (d) => {
          d.shops[0].products[0].variants[0].unitMeasurement.unit = 'KG';
        },
        [{ path: `${at}/unitMeasurement/unit`, message: `unit 'KG' is not a weight unit; use ${WEIGHT_UNITS}` }],
      ],
      [
        'a duplicate variant id in one product',
        (d) => {
          d.shops[0].products[0].variants.push(clone(d.shops[0].products[0].variants[0]));
        },
        [{ path: '/shops/0/products/0/variants/1/id', message: "variant id '2001' appears twice" }],
      ],
      [
        'a duplicate variant id across products',
        (d) => {
          d.shops[0].products.push({ ...clone(d.shops[0].products[0]), id: '1002' });
        },
        [{ path: '/shops/0/products/1/variants/0/id', message: "variant id '2001' appears twice" }],
      ],
      [
        'a duplicate product id',
        (d) => {
          d.shops[0].products.push({ ...clone(d.shops[0].products[0]), variants: [] });
        },
        [{ path: '/shops/0/products/1/id', message: "product id '1001' appears twice" }],
      ],
      [
        'a duplicate location id',
        (d) => {
          d.shops[0].locations.push({ id: '70001', name: 'Again' });
        },
        [{ path: '/shops/0/locations/1/id', message: "location id '70001' appears twice" }],
      ],
      [
        'a duplicate shop domain',
        (d) => {
          d.shops.push(clone(d.shops[0]));
        },
        [{ path: '/shops/1/domain', message: `shop '${'DOMAIN'}' appears twice` }],
      ],
      [
        'stock at a location the shop does not declare',
        (d) => {
          d.shops[0].products[0].variants[0].inventory[0].locationId = '70002';
        },
        [{ path: `${at}/inventory/0/locationId`, message: "location '70002' is not in this shop's locations" }],
      ],
      [
        'stock listed twice for one location',
        (d) => {
          d.shops[0].products[0].variants[0].inventory.push(clone(d.shops[0].products[0].variants[0].inventory[0]));
        },
        [{ path: `${at}/inventory/1/locationId`, message: "location '70001' appears twice" }],
      ],
      [
        'an order at a location the shop does not declare',
        (d) => {
          d.shops[0].orders[0].locationId = '70009';
        },
        [{ path: '/shops/0/orders/0/locationId', message: "location '70009' is not in this shop's locations" }],
      ],
      [
        'negative stock',
        (d) => {
          d.shops[0].products[0].variants[0].inventory[0].quantity.value = -0.5;
        },
        [{ path: `${at}/inventory/0/quantity/value`, message: 'must be a finite number of at least 0' }],
      ],
      [
        'stock as a numeric string',
        (d) => {
          d.shops[0].products[0].variants[0].inventory[0].quantity.value = '12.75';
        },
        [{ path: `${at}/inventory/0/quantity/value`, message: 'must be number' }],
      ],
      [
        'an unknown currency',
        (d) => {
          d.shops[0].currency = 'XYZ';
        },
        [{ path: '/shops/0/currency', message: "unknown ISO 4217 currency 'XYZ'" }],
      ],
      [
        'a lower-case currency',
        (d) => {
          d.shops[0].currency = 'usd';
        },
        [{ path: '/shops/0/currency', message: 'must match pattern "^[A-Z]{3}$"' }],
      ],
      [
        'a non-numeric product id',
        (d) => {
          d.shops[0].products[0].id = 'coffee';
        },
        [{ path: '/shops/0/products/0/id', message: 'must be a numeric id string of 1 to 20 digits' }],
      ],
      [
        'a numeric variant id (a JSON number, not a string)',
        (d) => {
          d.shops[0].products[0].variants[0].id = 2001;
        },
        [{ path: `${at}/id`, message: 'must be string' }],
      ],
      [
        'a 21-digit location id',
        (d) => {
          d.shops[0].locations[0].id = '1'.repeat(21);
        },
        // The locations list is at fault, so the stock and the order are not checked against it.
        [{ path: '/shops/0/locations/0/id', message: 'must be a numeric id string of 1 to 20 digits' }],
      ],
      [
        'a missing required field',
        (d) => {
          delete d.shops[0].products[0].variants[0].price;
        },
        [{ path: `${at}/price`, message: 'is required' }],
      ],
      [
        'an unknown measurement type',
        (d) => {
          d.shops[0].products[0].measurementType = 'mass';
        },
        [
          {
            path: '/shops/0/products/0/measurementType',
            message: 'must be one of "weight", "length", "area", "volume", "time"',
          },
        ],
      ],
      [
        'a money amount written as a number',
        (d) => {
          d.shops[0].products[0].variants[0].price = 24;
        },
        [{ path: `${at}/price`, message: 'must be string' }],
      ],
      [
        'a unit measurement of zero',
        (d) => {
          d.shops[0].products[0].variants[0].unitMeasurement.value = 0;
        },
        [{ path: `${at}/unitMeasurement/value`, message: 'must be > 0' }],
      ],
      [
        'stock with more than 9 decimal places',
        (d) => {
          d.shops[0].products[0].variants[0].inventory[0].quantity.value = 12.0000000001;
        },
        [{ path: `${at}/inventory/0/quantity/value`, message: MORE_DECIMALS }],
      ],
      [
        'stock whose conversion into the variant unit is a tie rounded to the even 0 (it would be booked as 0)',
        (d) => {
          d.shops[0].products[0].variants[0].inventory[0].quantity = { value: 0.0000005, unit: 'g' };
        },
        [
          {
            path: `${at}/inventory/0/quantity/value`,
            message:
              "0.0000005 g is 0.0000000005 kg, below what Tare keeps in the variant's unit (9 decimal places of kg): " +
              'it would be booked as 0',
          },
        ],
      ],
      [
        'stock far below what Tare keeps of the variant unit',
        (d) => {
          d.shops[0].products[0].variants[0].unitMeasurement.unit = 't';
          d.shops[0].products[0].variants[0].inventory[0].quantity = { value: 0.000001, unit: 'mg' };
        },
        [
          {
            path: `${at}/inventory/0/quantity/value`,
            message:
              "0.000001 mg is 0.000000000000001 t, below what Tare keeps in the variant's unit (9 decimal places of t): " +
              'it would be booked as 0',
          },
        ],
      ],
      [
        'a unit measurement with more than 9 decimal places',
        (d) => {
          d.shops[0].products[0].variants[0].unitMeasurement.value = 0.0000000001;
        },
        [{ path: `${at}/unitMeasurement/value`, message: MORE_DECIMALS }],
      ],
      [
        'number display style without rules',
        (d) => {
          delete d.shops[0].products[0].variants[0].settings.onlineStore.rules;
        },
        [{ path: `${at}/settings/onlineStore/rules`, message: "required when displayStyle is 'number'" }],
      ],
      [
        'a default below the minimum',
        (d) => {
          d.shops[0].products[0].variants[0].settings.onlineStore.rules.defaultValue = 0.1;
        },
        [
          { path: `${at}/settings/onlineStore/rules/defaultValue`, message: '0.1 is below the minimum 0.25' },
          {
            path: `${at}/settings/onlineStore/rules/defaultValue`,
            message: '0.1 is not a multiple of the increment 0.25 from 0.25',
          },
        ],
      ],
      [
        'a default off the increment grid (225 from 100 by 50), which the cart helpers would refuse',
        (d) => {
          d.shops[0].products[0].variants[0].settings.onlineStore.rules = {
            min: 100,
            increment: 50,
            defaultValue: 225,
            max: null,
          };
        },
        [
          {
            path: `${at}/settings/onlineStore/rules/defaultValue`,
            message: '225 is not a multiple of the increment 50 from 100',
          },
        ],
      ],
      [
        'a default above the maximum',
        (d) => {
          d.shops[0].products[0].variants[0].settings.onlineStore.rules.max = 0.75;
        },
        [{ path: `${at}/settings/onlineStore/rules/defaultValue`, message: '1 is above the maximum 0.75' }],
      ],
      [
        'the same preset value twice',
        (d) => {
          d.shops[0].products[0].variants[0].settings.onlineStore = {
            displayStyle: 'pills',
            presets: [{ value: 0.5 }, { value: 1 }, { value: 0.5, label: 'Half' }],
          };
        },
        [{ path: `${at}/settings/onlineStore/presets/2/value`, message: "0.5 is also preset 1's value" }],
      ],
      [
        'schema problems and problems beyond the schema (all reported in one answer)',
        (d) => {
          d.shops[0].products[0].variants[0].price = 24;
          d.shops[0].orders[0].lineItems[0].colour = 'red';
          d.shops[0].currency = 'XYZ';
          d.shops[0].products[0].variants[0].unitMeasurement.unit = 'm';
          d.shops[0].products[0].variants[0].inventory[0].locationId = '70002';
          d.shops[0].products[0].variants[0].inventory.push({
            locationId: '70001',
            quantity: { value: -1, unit: 'L' },
          });
          d.shops[0].orders[0].locationId = '70009';
        },
        [
          { path: `${at}/price`, message: 'must be string' },
          { path: '/shops/0/orders/0/lineItems/0/colour', message: "unknown field 'colour'" },
          { path: '/shops/0/currency', message: "unknown ISO 4217 currency 'XYZ'" },
          { path: `${at}/unitMeasurement/unit`, message: `unit 'm' is not a weight unit; use ${WEIGHT_UNITS}` },
          { path: `${at}/inventory/0/locationId`, message: "location '70002' is not in this shop's locations" },
          { path: `${at}/inventory/1/quantity/value`, message: 'must be a finite number of at least 0' },
          { path: `${at}/inventory/1/quantity/unit`, message: `unit 'L' is not a weight unit; use ${WEIGHT_UNITS}` },
          { path: '/shops/0/orders/0/locationId', message: "location '70009' is not in this shop's locations" },
        ],
      ],
      [
        'rules the schema refuses and a unit beyond it (the rules are not checked further, the unit is)',
        (d) => {
          d.shops[0].products[0].variants[0].settings.onlineStore.rules = {
            min: 100,
            increment: -50,
            defaultValue: 225,
            max: null,
          };
          d.shops[0].products[0].variants[0].unitMeasurement.unit = 'm';
        },
        [
          { path: `${at}/settings/onlineStore/rules/increment`, message: 'must be > 0' },
          { path: `${at}/unitMeasurement/unit`, message: `unit 'm' is not a weight unit; use ${WEIGHT_UNITS}` },
        ],
      ],
      [
        'a product whose type the schema refuses (its units are not checked against it, the rest is)',
        (d) => {
          d.shops[0].products[0].measurementType = 'mass';
          d.shops[0].products[0].variants[0].unitMeasurement.unit = 'm';
          d.shops[0].products[0].variants[0].inventory[0].locationId = '70002';
        },
        [
          {
            path: '/shops/0/products/0/measurementType',
            message: 'must be one of "weight", "length", "area", "volume", "time"',
          },
          { path: `${at}/inventory/0/locationId`, message: "location '70002' is not in this shop's locations" },
        ],
      ],
      [
        'several problems at once',
        (d) => {
          d.shops[0].currency = 'XYZ';
          d.shops[0].products[0].variants[0].unitMeasurement.unit = 'm';
          d.shops[0].products[0].variants[0].inventory[0].locationId = '70002';
        },
        [
          { path: '/shops/0/currency', message: "unknown ISO 4217 currency 'XYZ'" },
          { path: `${at}/unitMeasurement/unit`, message: `unit 'm' is not a weight unit; use ${WEIGHT_UNITS}` },
          { path: `${at}/inventory/0/locationId`, message: "location '70002' is not in this shop's locations" },
        ],
      ],
      [
        'no shops at all',
        (d) => {
          d.shops = [];
        },
        [{ path: '/shops', message: 'must not have fewer than 1 items' }],
      ],
    ];

    it.each(cases)(
      'when the file has %s, then the issues name the exact JSON paths and nothing is written',
      async (_, mutate, expected) => {
        const doc = sample();
        mutate(doc);
        const domain = doc.shops[0]?.domain;
        const before = await dump();
        const result = await importFile(doc);
        expect(result).toEqual({
          ok: false,
          issues: expected.map((issue) => ({ ...issue, message: issue.message.replace('DOMAIN', domain) })),
        });
        expect(await dump()).toEqual(before);
      },
    );

    // Every string the file can carry, found from the file's schema (so a field added later is
    // tried too), with text PostgreSQL cannot store as sent: the issue names it, nothing is written.
    const textCases = stringLocations(ImportDocument).flatMap((location) =>
      [
        ['a NUL character', 'a\u0000b', 'must not contain the NUL character (U+0000)'],
        ['a lone surrogate', 'a\ud800b', 'must be well-formed Unicode (it contains a lone surrogate)'],
      ].map(
        ([label, text, message]) =>
          [`${pointerOf(location, text!)} (${location.kind})`, label!, location, text!, message!] as const,
      ),
    );

    it('when the file schema is walked, then every free-text field is among the text cases', () => {
      const tried = textCases.map(([where]) => where);
      for (const where of [
        '/shops/0/products/0/title (value)',
        '/shops/0/products/0/variants/0/title (value)',
        '/shops/0/products/0/variants/0/settings/onlineStore/presets/0/label (value)',
        '/shops/0/locations/0/name (value)',
        '/shops/0/orders/0/lineItems/0/properties/0/name (value)',
        '/shops/0/orders/0/lineItems/0/properties/0/value (value)',
        '/shops/0/labels/key/key (value)',
        '/shops/0/labels/a\u0000b (key)',
        '/shops/0/labels/key/a\u0000b (key)',
      ]) {
        expect(tried).toContain(where);
      }
    });

    it.each(textCases)(
      'when %s carries %s, then the issue names it and nothing is written',
      async (_, __, location, text, message) => {
        const doc = withText(sample(), ImportDocument, location, text);
        const before = await dump();

        const result = await importFile(doc);

        const path = pointerOf(location, text);
        const expected = location.kind === 'key' ? `has a field name that ${message}` : message;
        expect(result).toEqual({
          ok: false,
          issues: [{ path, message: location.constrained ? expect.any(String) : expected }],
        });
        expect(await dump()).toEqual(before);
      },
    );

    it.each([
      ['null', null],
      ['an array', []],
      ['a string', 'shops'],
    ])('when the document is %s, then it is one issue at the root', (_, doc) => {
      expect(validateImport(doc)).toEqual({ ok: false, issues: [{ path: '/', message: 'must be object' }] });
    });

    it('when the platform fails while a valid file is written, then the whole import rolls back', async () => {
      const doc = sample();
      doc.shops.push(sample().shops[0]); // a second, valid shop: its write must roll back too
      let calls = 0;
      const failing: PlatformGateway = {
        ...gateway,
        async projectLevels(tx, shopId, levels) {
          calls += 1;
          // The first shop's level goes through; the second shop's fails.
          if (calls === 2) throw new PlatformUnavailableError('the platform is down');
          return gateway.projectLevels(tx, shopId, levels);
        },
      };
      const before = await dump();
      await expect(importValid(doc, failing)).rejects.toThrow('the platform is down');
      expect(calls).toBe(2);
      expect(await dump()).toEqual(before);
    });
  });
});
