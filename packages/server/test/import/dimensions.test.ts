import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';

const RULES = { min: 0.01, increment: 0.01, defaultValue: 4.4, max: null };
const LENGTH_RULES = { min: 0.1, increment: 0.01, defaultValue: 1, max: 30 };
const CARPET_STORE = {
  displayStyle: 'number',
  rules: RULES,
  dimensions: [
    { name: 'length', unit: 'm', rules: LENGTH_RULES },
    { name: 'width', unit: 'm', fixed: 4 },
  ],
  overagePercent: 10,
};

/** PRODUCT.md §19's carpet (per m², off a 4 m roll, 10 % overage) beside a variant without factors. */
function carpetShop(onlineStore: unknown = CARPET_STORE): ImportShop {
  return shopFixture({
    products: [
      {
        id: '1101',
        title: 'Carpet',
        measurementType: 'area',
        variants: [
          { ...variantFixture('2101', 'm2', 1), settings: { onlineStore } } as ReturnType<typeof variantFixture>,
          variantFixture('2102', 'm2', 1),
        ],
      },
    ],
  });
}

describe('settings.onlineStore.dimensions and overagePercent in the import file', () => {
  it('when every factor is wrong in its own way, then each is reported at once, by its path', () => {
    const at = '/shops/0/products/0/variants/0/settings/onlineStore';
    const checked = validateImport({
      shops: [
        carpetShop({
          displayStyle: 'number',
          rules: RULES,
          dimensions: [
            { name: 'length', unit: 'kg', rules: { min: 1, increment: 1, defaultValue: 1.5, max: null } },
            { name: 'length', unit: 'm', fixed: 4, rules: LENGTH_RULES },
          ],
          overagePercent: 150,
        }),
      ],
    });
    expect(checked.ok ? [] : checked.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [`${at}/overagePercent`, expect.stringContaining('100')],
      [`${at}/dimensions/0/unit`, expect.stringContaining('must be a length unit')],
      [`${at}/dimensions/0/rules/defaultValue`, '1.5 is not a multiple of the increment 1 from 1'],
      [`${at}/dimensions/1/name`, "'length' names another dimension too"],
      [`${at}/dimensions/1`, 'must have exactly one of rules or fixed'],
    ]);
  });

  it('when a weight variant has dimensions, then the file is refused there', () => {
    const shop = carpetShop();
    shop.products![0]!.measurementType = 'weight';
    shop.products![0]!.variants = [
      { ...variantFixture('2101', 'kg', 1), settings: { onlineStore: CARPET_STORE } } as ReturnType<
        typeof variantFixture
      >,
    ];
    const checked = validateImport({ shops: [shop] });
    expect(checked.ok ? [] : checked.issues.map((issue) => issue.path)).toEqual([
      '/shops/0/products/0/variants/0/settings/onlineStore/dimensions',
    ]);
  });
});

describe.each(testDrivers())('dimensions in variant and product responses on $name', ({ create }) => {
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

  it('when a variant is imported with dimensions and an overage, then GET variant and product answer them as imported', async () => {
    const { key } = await seedShop(db, carpetShop());

    const variant = await call(server, '/api/v1/products/1101/variants/2101', { key });
    expect(variant.status).toBe(200);
    expect(variant.body.data.variant.settings).toEqual({ onlineStore: CARPET_STORE });
    expect(JSON.stringify(variant.body.data.variant.settings.onlineStore.dimensions[0])).toBe(
      JSON.stringify({ name: 'length', unit: 'm', rules: LENGTH_RULES }),
    );

    const product = await call(server, '/api/v1/products/1101', { key });
    expect(product.status).toBe(200);
    const [carpet, plain] = product.body.data.product.variants;
    expect(carpet.settings.onlineStore).toEqual(CARPET_STORE);
    expect(plain.settings.onlineStore).not.toHaveProperty('dimensions');
    expect(plain.settings.onlineStore).not.toHaveProperty('overagePercent');
  });
});
