import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { findShopById } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { shopFixture } from '../support/harness.js';

type UnitPricing = NonNullable<NonNullable<ImportShop['settings']>['unitPricing']>;
const withPricing = (unitPricing: unknown) => shopFixture({ settings: { unitPricing: unitPricing as UnitPricing } });

describe('settings.unitPricing in the import file', () => {
  it('when every reference is wrong in its own way, then each is reported at once, by its path', () => {
    const checked = validateImport({
      shops: [
        withPricing({
          enabled: true,
          reference: {
            weight: { value: 100, unit: 'ml' },
            volume: { value: 0, unit: 'L' },
            length: { value: 1, unit: 'metre' },
            time: { value: 1, unit: 'h' },
          },
        }),
      ],
    });
    expect(checked.ok).toBe(false);
    const paths = checked.ok ? [] : checked.issues.map((issue) => [issue.path, issue.message]);
    const at = '/shops/0/settings/unitPricing/reference';
    expect(paths).toEqual(
      expect.arrayContaining([
        [`${at}/weight/unit`, "unit 'ml' is not a weight unit; use one of mg, g, kg, t, oz, lb, st"],
        [`${at}/volume/value`, expect.stringContaining('0')],
        [`${at}/length/unit`, expect.stringContaining("unit 'metre' is not a length unit")],
        [`${at}/time`, expect.any(String)],
      ]),
    );
    expect(paths).toHaveLength(4);
  });

  it('when enabled is left out, then the file is refused there', () => {
    const checked = validateImport({ shops: [withPricing({ reference: {} })] });
    expect(checked.ok ? [] : checked.issues.map((issue) => issue.path)).toEqual([
      '/shops/0/settings/unitPricing/enabled',
    ]);
  });
});

describe.each(testDrivers({ citus: true }))('settings.unitPricing stored on $name', ({ create }) => {
  let db: Db;
  const gateway = createLocalGateway();

  beforeAll(async () => {
    db = await create();
  });

  afterAll(async () => {
    await db?.close();
  });

  async function importShop(shop: ImportShop) {
    const checked = validateImport({ shops: [shop] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    const summary = await importCatalog({ db, gateway }, checked.value);
    return summary.shops[0]!;
  }

  it('when a file states unit pricing, then it is stored; the same file again changes nothing', async () => {
    const shop = withPricing({ enabled: true, reference: { volume: { value: 100, unit: 'ml' } } });
    const first = await importShop(shop);

    const stored = await findShopById(db, first.id);
    expect(stored?.currency).toBe('USD');
    expect(stored?.unitPricing).toEqual({ enabled: true, reference: { volume: { value: 100, unit: 'ml' } } });
    expect((await importShop(shop)).changes).toBe(0);
  });

  it('when a file restates the same unit pricing with its keys in another order, then nothing changes', async () => {
    const shop = withPricing({
      enabled: true,
      reference: { weight: { value: 100, unit: 'g' }, volume: { value: 1, unit: 'L' } },
    });
    await importShop(shop);

    const unitPricing = {
      reference: { volume: { unit: 'L', value: 1 }, weight: { unit: 'g', value: 100 } },
      enabled: true,
    } as UnitPricing;
    expect((await importShop({ ...shop, settings: { ...shop.settings, unitPricing } })).changes).toBe(0);
  });

  it('when a later file leaves unit pricing out, then the stored one stays; when it states one, it replaces it', async () => {
    const shop = withPricing({ enabled: true, reference: { weight: { value: 100, unit: 'g' } } });
    const { id } = await importShop(shop);

    await importShop({ ...shop, settings: {} });
    expect((await findShopById(db, id))?.unitPricing?.reference).toEqual({ weight: { value: 100, unit: 'g' } });

    expect((await importShop({ ...shop, settings: { unitPricing: { enabled: false } } })).changes).toBe(1);
    expect((await findShopById(db, id))?.unitPricing).toEqual({ enabled: false, reference: {} });
  });
});
