import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec, decimalFromJson, toPlainString } from '../../src/domain/decimal.js';
import { requestFingerprint } from '../../src/domain/idempotency-key.js';
import type { InventoryOperation } from '../../src/domain/inventory.js';
import { convert } from '../../src/domain/units.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import { createInventoryWriter, type InventoryResult } from '../../src/services/inventory/write-inventory.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { shopFixture, variantFixture } from '../support/harness.js';

const LOCATION = '70001';
const WEIGHT_UNITS = ['mg', 'g', 'kg', 't', 'oz', 'lb', 'st'] as const;

/** The variants a property run may touch: inventory unit and unitMeasurement.value. */
const VARIANTS = [
  { id: '2001', unit: 'kg', unitValue: '1' },
  { id: '2002', unit: 'g', unitValue: '100' },
  { id: '2003', unit: 'lb', unitValue: '0.5' },
] as const;
type Variant = (typeof VARIANTS)[number];

/** A decimal text with up to 6 decimals, e.g. `-12.034`, `0`, `98765.5`. */
const decimalText = (signed: boolean) =>
  fc
    .tuple(
      signed ? fc.boolean() : fc.constant(false),
      fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 99_999 })),
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 6 }),
    )
    .map(([negative, int, frac]) => `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`);

interface Step {
  operation: InventoryOperation;
  /**
   * Indexes into the run's variants (distinct), with a value text and a compatible unit (null:
   * the variant's own, so that many steps convert nothing and are kept).
   */
  entries: { variant: number; value: string; unit: string | null }[];
}

const stepArb = (variantCount: number): fc.Arbitrary<Step> =>
  fc.constantFrom<InventoryOperation>('adjustment', 'set').chain((operation) =>
    fc
      .uniqueArray(
        fc.record({
          variant: fc.integer({ min: 0, max: variantCount - 1 }),
          value: decimalText(operation === 'adjustment'),
          unit: fc.option(fc.constantFrom(...WEIGHT_UNITS), { freq: 2 }),
        }),
        { minLength: 1, maxLength: variantCount, selector: (e) => e.variant },
      )
      .map((entries) => ({ operation, entries })),
  );

const runArb = fc
  .uniqueArray(fc.constantFrom(...VARIANTS), { minLength: 1, maxLength: 2, selector: (v) => v.id })
  .chain((variants) =>
    fc.record({
      variants: fc.constant(variants as Variant[]),
      steps: fc.array(stepArb(variants.length), { minLength: 1, maxLength: 15 }),
    }),
  );

async function seedVariants(db: Db): Promise<string> {
  const shop = shopFixture({
    domain: `prop-${randomUUID()}.example`,
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: VARIANTS.map((v) => variantFixture(v.id, v.unit, Number(v.unitValue))),
      },
    ],
  });
  const checked = validateImport({ shops: [shop] });
  if (!checked.ok) throw new Error(`bad fixture: ${JSON.stringify(checked.issues)}`);
  const summary = await importCatalog({ db, gateway: createLocalGateway() }, checked.value);
  return summary.shops[0]!.id;
}

async function readState(db: Db, shopId: string, variantId: string) {
  const level = await db.query<{ total: string }>(
    'SELECT total FROM inventory_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3',
    [shopId, LOCATION, variantId],
  );
  const platform = await db.query<{ available: string }>(
    'SELECT available FROM local_platform_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3',
    [shopId, LOCATION, variantId],
  );
  const ledger = await db.query<{ sum: string | null; n: string }>(
    `SELECT sum(delta)::text AS sum, count(*)::text AS n FROM inventory_ledger
     WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3`,
    [shopId, LOCATION, variantId],
  );
  return {
    total: level.rows[0]?.total,
    available: platform.rows[0]?.available,
    ledgerSum: ledger.rows[0]?.sum ?? null,
    ledgerRows: Number(ledger.rows[0]?.n ?? 0),
  };
}

describe.each(testDrivers())('inventory properties on $name', ({ name, create }) => {
  let db: Db;
  const numRuns = name === 'pglite' ? 25 : 100;

  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('when random adjustments and levels in compatible units are applied, then totals, platform split, ledger and response match an exact model after every step, and a value that would round to 0 refuses its whole step', async () => {
    const writeInventory = createInventoryWriter({ db, gateway: createLocalGateway() });

    await fc.assert(
      fc.asyncProperty(runArb, async ({ variants, steps }) => {
        const shopId = await seedVariants(db);
        const model = new Map<string, Dec>(variants.map((v) => [v.id, new Dec(0)]));
        const touched = new Set<string>();

        for (const [index, step] of steps.entries()) {
          const field = step.operation === 'adjustment' ? 'delta' : 'quantity';
          const entries = step.entries.map((e, i) => ({
            variantId: variants[e.variant]!.id,
            value: Number(e.value),
            unit: e.unit ?? variants[e.variant]!.unit,
            path: `/${step.operation === 'adjustment' ? 'adjustments' : 'levels'}/${i}`,
            field: field as 'delta' | 'quantity',
          }));
          // The model (PRODUCT.md §6, decision 34): a value in another unit is converted and
          // rounded half-even to 9 decimals of the variant's unit; a non-zero one that rounds to 0
          // there refuses the whole step, unchanged. (Values here have at most 6 decimals.)
          const exact = entries.map((entry) => {
            const variant = variants.find((v) => v.id === entry.variantId)!;
            const sent = decimalFromJson(entry.value);
            const converted = convert(sent, entry.unit, variant.unit);
            const value = entry.unit === variant.unit ? converted : converted.toDecimalPlaces(9, Dec.ROUND_HALF_EVEN);
            return { variant, value, kept: sent.isZero() || !value.isZero() };
          });
          const refused = entries.filter((_, i) => !exact[i]!.kept);
          const key = `prop-${index}-${randomUUID()}`;
          const write = writeInventory(
            {
              shopId,
              operation: step.operation,
              locationId: LOCATION,
              entries,
              requestId: `req-${key}`,
              actor: { type: 'api_key', id: 'property-test' },
              idempotency: {
                shopId,
                key,
                fingerprint: requestFingerprint('POST', '/property', { entries }),
                retentionHours: 24,
              },
            },
            (data) => JSON.stringify(data),
          );
          if (refused.length > 0) {
            await expect(write).rejects.toMatchObject({
              code: 'bad_request',
              details: {
                errors: refused.map((e) => ({ path: `${e.path}/${field}/value`, message: expect.any(String) })),
              },
            });
          } else {
            const response = await write;
            expect(response.status).toBe(200);
            expect(response.replayed).toBe(false);
            const results = JSON.parse(response.body).results as InventoryResult[];
            expect(results.map((r) => r.variantId)).toEqual(entries.map((e) => e.variantId));

            for (const [i, { variant, value }] of exact.entries()) {
              const before = model.get(variant.id)!;
              const after = step.operation === 'adjustment' ? before.plus(value) : value;
              model.set(variant.id, after);
              touched.add(variant.id);
              const result = results[i]!;
              expect(result.status).toBe('updated');
              expect(result.previousQuantity).toEqual({ value: Number(toPlainString(before)), unit: variant.unit });
              expect(result.quantity).toEqual({ value: Number(toPlainString(after)), unit: variant.unit });
            }
          }

          // Every variant of the run, touched in this step or not.
          for (const variant of variants) {
            const state = await readState(db, shopId, variant.id);
            const expected = model.get(variant.id)!;
            if (!touched.has(variant.id)) {
              expect(state).toEqual({ total: undefined, available: undefined, ledgerSum: null, ledgerRows: 0 });
              continue;
            }
            const context = `variant ${variant.id} (${variant.unit}/${variant.unitValue}) after step ${index}`;
            expect(state.total, context).toBeDefined();
            const total = new Dec(state.total!);
            expect(toPlainString(total), context).toBe(toPlainString(expected));

            const unitValue = new Dec(variant.unitValue);
            const integer = expected.div(unitValue).floor();
            expect(state.available, context).toBe(toPlainString(integer));
            const fraction = total.minus(new Dec(state.available!).times(unitValue));
            expect(fraction.gte(0) && fraction.lt(unitValue), `${context}: fraction ${fraction}`).toBe(true);

            expect(state.ledgerSum, context).not.toBeNull();
            expect(new Dec(state.ledgerSum!).eq(total), `${context}: ledger sum ${state.ledgerSum}`).toBe(true);
          }
        }
      }),
      { numRuns },
    );
  }, 120_000);
});
