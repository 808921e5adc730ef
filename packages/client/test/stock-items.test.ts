import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/main.js';
import type { Db } from '../../server/src/store/db.js';
import { cheeseShop, KILO, LOOSE, PACK, WHEEL } from '../../server/test/support/cheese-shop.js';
import { testDrivers } from '../../server/test/support/databases.js';
import { seedShop, startTestServer } from '../../server/test/support/harness.js';
import { NotFoundError, TareClient } from '../src/index.js';

describe.each(testDrivers())('client.stockItems against a real server on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;
  let client: TareClient;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    const shop = await seedShop(db, cheeseShop(1));
    client = new TareClient({ apiKey: shop.key, baseUrl: server.url, maxRetries: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it('reads the wheel after a 250 g pack is taken off through the same client', async () => {
    await client.inventory.adjust(
      { locationId: '70001', adjustments: [{ variantId: PACK, delta: { value: -250, unit: 'g' } }] },
      { idempotencyKey: 'pack-1' },
    );
    const { data } = await client.stockItems.levels({ stockItemId: WHEEL, locationId: '70001' });
    expect(data.quantity).toEqual({ value: 0.75, unit: 'kg' });
    expect(data.variants.map((v) => [v.variantId, v.platform.available])).toEqual([
      [LOOSE, 7],
      [PACK, 3],
      [KILO, 0],
    ]);
  });

  it('throws NotFoundError for an unknown stock item', async () => {
    await expect(client.stockItems.levels({ stockItemId: '9999', locationId: '70001' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
