import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { requestFingerprint } from '../../src/domain/idempotency-key.js';
import { AppError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/main.js';
import { type PlatformGateway, PlatformUnavailableError } from '../../src/platform/gateway.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import { startIdempotencyReaper } from '../../src/services/idempotency-reaper.js';
import { createInventoryWriter, type InventoryWrite } from '../../src/services/inventory/write-inventory.js';
import type { Db } from '../../src/store/db.js';
import { reapKeys } from '../../src/store/repositories/idempotency.js';
import { testDrivers } from '../support/databases.js';
import { snapshot, total } from '../support/inventory-state.js';
import {
  call,
  expectErrorEnvelope,
  seedShop,
  shopFixture,
  startTestServer,
  variantFixture,
} from '../support/harness.js';

const ADJUSTMENTS = '/api/v1/inventory/adjustments';
const LEVELS = '/api/v1/inventory/levels';

const adjustments = (...entries: [string, number, string][]) => ({
  locationId: '70001',
  adjustments: entries.map(([variantId, value, unit]) => ({ variantId, delta: { value, unit } })),
});
const levels = (...entries: [string, number, string][]) => ({
  locationId: '70001',
  levels: entries.map(([variantId, value, unit]) => ({ variantId, quantity: { value, unit } })),
});

/** An inventory write; `payload` is sent as is when it is a string. */
function send(
  server: RunningServer,
  key: string,
  idempotencyKey: string,
  payload: unknown,
  options: { path?: string; headers?: Record<string, string> } = {},
) {
  const path = options.path ?? ADJUSTMENTS;
  return call(server, path, {
    key,
    method: path === LEVELS ? 'PUT' : 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey, ...options.headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

async function ledgerCount(db: Db, shopId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory_ledger WHERE shop_id = $1', [
    shopId,
  ]);
  return rows[0]!.n;
}

async function age(db: Db, shopId: string, key: string, hours: number) {
  const { rowCount } = await db.query(
    `UPDATE idempotency_keys SET created_at = now() - make_interval(hours => $3) WHERE shop_id = $1 AND key = $2`,
    [shopId, key, hours],
  );
  expect(rowCount).toBe(1);
}

/** Re-imports the shop exactly like `tare import`. */
async function reimport(db: Db, shop: ImportShop) {
  const checked = validateImport({ shops: [shop] });
  if (!checked.ok) throw new Error(`bad fixture: ${JSON.stringify(checked.issues)}`);
  return importCatalog({ db, gateway: createLocalGateway() }, checked.value);
}

/** The local gateway, except that `projectLevels` fails with PlatformUnavailableError while `failing` is set. */
function flakyGateway() {
  const local = createLocalGateway();
  const state = { failing: false, failures: 0 };
  const gateway: PlatformGateway = {
    ...local,
    name: 'flaky',
    async projectLevels(tx, shopId, levels) {
      if (state.failing) {
        state.failures++;
        throw new PlatformUnavailableError('the platform is down');
      }
      return local.projectLevels(tx, shopId, levels);
    },
  };
  return { gateway, state };
}

describe.each(testDrivers({ citus: true }))('Idempotency of inventory writes on $name', ({ create }) => {
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

  describe('replay', () => {
    it.each([
      ['POST /inventory/adjustments', ADJUSTMENTS, adjustments(['2001', 1.5, 'kg'], ['2002', 0.25, 'kg'])],
      ['PUT /inventory/levels', LEVELS, levels(['2001', 1.5, 'kg'], ['2002', 0.25, 'kg'])],
    ])(
      'when %s is retried with the same key and body, then the stored answer is replayed byte for byte and nothing is applied again',
      async (_label, path, payload) => {
        const { key, shopId } = await seedShop(db, shopFixture());
        const idempotencyKey = randomUUID();
        const first = await send(server, key, idempotencyKey, payload, { path });
        expect(first.status).toBe(200);
        expect(first.headers.get('idempotency-replayed')).toBeNull();
        const after = await snapshot(db, shopId);
        expect(after.ledger).toHaveLength(2);

        const retry = await send(server, key, idempotencyKey, payload, {
          path,
          headers: { 'x-request-id': 'retry-1' },
        });

        expect(retry.status).toBe(first.status);
        expect(retry.text).toBe(first.text);
        expect(retry.headers.get('idempotency-replayed')).toBe('true');
        expect(retry.headers.get('x-request-id')).toBe(first.body.requestId);
        expect(retry.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await snapshot(db, shopId)).toEqual(after);
        expect(after.keys).toEqual([
          { key: idempotencyKey, response_status: 200, response_body: first.text, request_id: first.body.requestId },
        ]);
      },
    );

    it('when the level changed since the first answer, then the replay still returns the original answer', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      const first = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']));
      expect((await send(server, key, randomUUID(), adjustments(['2001', 2, 'kg']))).status).toBe(200);

      const retry = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']));

      expect(retry.text).toBe(first.text);
      expect(retry.body.data.results[0].quantity).toEqual({ value: 1, unit: 'kg' });
      expect(await total(db, shopId, '2001')).toBe('3');
    });

    it('when the retry’s body differs only in key order and whitespace, then it is a replay', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      const first = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg'], ['2003', 2, 'lb']));
      const count = await ledgerCount(db, shopId);

      const reordered = `{
        "adjustments" : [ { "delta": { "unit": "kg", "value": 1.0 }, "variantId": "2001" },
                          {"delta":{"unit":"lb","value":2},"variantId":"2003"} ],
        "locationId" : "70001"
      }`;
      const retry = await send(server, key, idempotencyKey, reordered);

      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotency-replayed')).toBe('true');
      expect(retry.text).toBe(first.text);
      expect(await ledgerCount(db, shopId)).toBe(count);
      expect(await total(db, shopId, '2001')).toBe('1');
    });
  });

  describe('reuse', () => {
    it('when the same key comes with a different body, then 422 idempotency_key_reused and nothing is written', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      const first = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']));
      const before = await snapshot(db, shopId);

      const res = await send(server, key, idempotencyKey, adjustments(['2001', 2, 'kg']));

      const error = expectErrorEnvelope(res, 422, 'idempotency_key_reused');
      expect(error.details).toEqual({ idempotencyKey });
      expect(res.headers.get('idempotency-replayed')).toBeNull();
      expect(await snapshot(db, shopId)).toEqual(before);
      // The original answer is still there for the right request.
      expect((await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']))).text).toBe(first.text);
    });

    it.each([
      ['POST adjustments then PUT levels', ADJUSTMENTS, LEVELS],
      ['PUT levels then POST adjustments', LEVELS, ADJUSTMENTS],
    ])(
      'when the same key is used on the other endpoint (%s), then 422 and nothing is written',
      async (_label, firstPath, secondPath) => {
        const { key, shopId } = await seedShop(db, shopFixture());
        const idempotencyKey = randomUUID();
        const payload = (path: string) =>
          path === LEVELS ? levels(['2001', 1, 'kg']) : adjustments(['2001', 1, 'kg']);
        expect((await send(server, key, idempotencyKey, payload(firstPath), { path: firstPath })).status).toBe(200);
        const before = await snapshot(db, shopId);

        const res = await send(server, key, idempotencyKey, payload(secondPath), { path: secondPath });

        expectErrorEnvelope(res, 422, 'idempotency_key_reused');
        expect(await snapshot(db, shopId)).toEqual(before);
      },
    );

    it('when the same key comes with a body that fails (an unknown variant), then 422 idempotency_key_reused, not 404', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      expect((await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']))).status).toBe(200);
      const stored = await snapshot(db, shopId);

      const reused = await send(server, key, idempotencyKey, adjustments(['9999', 1, 'kg']));

      expectErrorEnvelope(reused, 422, 'idempotency_key_reused');
      expect(await snapshot(db, shopId)).toEqual(stored);
    });

    it('when another shop uses the same key for its own identical write, then it is applied for that shop', async () => {
      const a = await seedShop(db, shopFixture());
      const b = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      const first = await send(server, a.key, idempotencyKey, adjustments(['2001', 1, 'kg']));
      const aAfter = await snapshot(db, a.shopId);

      const res = await send(server, b.key, idempotencyKey, adjustments(['2001', 1, 'kg']));

      expect(res.status).toBe(200);
      expect(res.headers.get('idempotency-replayed')).toBeNull();
      expect(res.body.requestId).not.toBe(first.body.requestId);
      expect(await total(db, b.shopId, '2001')).toBe('1');
      const bState = await snapshot(db, b.shopId);
      expect(bState.ledger).toEqual([
        expect.objectContaining({ idempotency_key: idempotencyKey, request_id: res.body.requestId }),
      ]);
      expect(bState.keys).toEqual([expect.objectContaining({ key: idempotencyKey, request_id: res.body.requestId })]);
      expect(await snapshot(db, a.shopId)).toEqual(aAfter);
    });

    it('when another shop uses the same key for a different write, then it is applied (no 422 across shops)', async () => {
      const a = await seedShop(db, shopFixture());
      const b = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      expect((await send(server, a.key, idempotencyKey, adjustments(['2001', 1, 'kg']))).status).toBe(200);

      const res = await send(server, b.key, idempotencyKey, levels(['2002', 7, 'kg']), { path: LEVELS });

      expect(res.status).toBe(200);
      expect(await total(db, b.shopId, '2002')).toBe('7000');
      expect(await total(db, a.shopId, '2002')).toBeUndefined();
    });
  });

  describe('failures store nothing', () => {
    it('when a request fails with 404 for an unknown variant, then a retry with the same key after importing it runs afresh', async () => {
      const shop = shopFixture();
      const { key, shopId } = await seedShop(db, shop);
      const idempotencyKey = randomUUID();
      const payload = adjustments(['2001', 1, 'kg'], ['2004', 2, 'kg']);

      const failed = await send(server, key, idempotencyKey, payload);
      expectErrorEnvelope(failed, 404, 'not_found');
      expect(await snapshot(db, shopId)).toEqual({ levels: [], ledger: [], platform: [], keys: [] });

      const [coffee, ...rest] = shop.products!;
      await reimport(db, {
        ...shop,
        products: [{ ...coffee!, variants: [...coffee!.variants, variantFixture('2004', 'kg', 1)] }, ...rest],
      });
      const retry = await send(server, key, idempotencyKey, payload);

      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotency-replayed')).toBeNull();
      expect(retry.body.data.results.map((r: { variantId: string }) => r.variantId)).toEqual(['2001', '2004']);
      expect(await total(db, shopId, '2004')).toBe('2');
      const state = await snapshot(db, shopId);
      expect(state.ledger).toHaveLength(2);
      expect(state.keys).toEqual([expect.objectContaining({ key: idempotencyKey, response_body: retry.text })]);
    });

    it('when a request fails with 400 for a unit, then a retry with the same key and the corrected body is applied', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();

      const failed = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg'], ['2002', 5, 'm']));
      expectErrorEnvelope(failed, 400, 'bad_request');
      expect(await snapshot(db, shopId)).toEqual({ levels: [], ledger: [], platform: [], keys: [] });

      const retry = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg'], ['2002', 5, 'g']));

      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotency-replayed')).toBeNull();
      expect(await total(db, shopId, '2002')).toBe('5');
      expect(await ledgerCount(db, shopId)).toBe(2);
    });

    it('when a request fails schema validation, then a retry with the same key and a fixed body is applied', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();

      const failed = await send(
        server,
        key,
        idempotencyKey,
        '{"locationId":"70001","levels":[{"variantId":"2001","quantity":{"value":"1.5","unit":"kg"}}]}',
        { path: LEVELS },
      );
      expectErrorEnvelope(failed, 400, 'bad_request');

      const retry = await send(server, key, idempotencyKey, levels(['2001', 1.5, 'kg']), { path: LEVELS });

      expect(retry.status).toBe(200);
      expect(await total(db, shopId, '2001')).toBe('1.5');
    });
  });

  describe('concurrency', () => {
    it('when 10 requests with one key arrive at once, then the write is applied exactly once and every answer is that 200 or a 409', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      const payload = adjustments(['2001', 0.5, 'kg'], ['2002', 150, 'g']);

      const answers = await Promise.all(Array.from({ length: 10 }, () => send(server, key, idempotencyKey, payload)));

      const ok = answers.filter((a) => a.status === 200);
      const busy = answers.filter((a) => a.status === 409);
      expect(ok.length + busy.length).toBe(10);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(new Set(ok.map((a) => a.text)).size).toBe(1);
      expect(ok.filter((a) => a.headers.get('idempotency-replayed') === null)).toHaveLength(1);
      for (const answer of busy) {
        const error = expectErrorEnvelope(answer, 409, 'idempotency_key_in_use');
        expect(error.details).toEqual({ idempotencyKey });
        expect(answer.headers.get('retry-after')).toBe('1');
      }
      const state = await snapshot(db, shopId);
      expect(state.ledger.map((r) => r.variant_id)).toEqual(['2001', '2002']);
      expect(state.levels.map((l) => l.total)).toEqual(['0.5', '150']);
      expect(state.keys).toEqual([expect.objectContaining({ key: idempotencyKey, response_body: ok[0]!.text })]);
    });
  });

  describe('retention', () => {
    it('when the stored key is 23 hours old, then it still replays', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      const first = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']));
      await age(db, shopId, idempotencyKey, 23);

      const retry = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']));

      expect(retry.headers.get('idempotency-replayed')).toBe('true');
      expect(retry.text).toBe(first.text);
      expect(await ledgerCount(db, shopId)).toBe(1);
    });

    it('when the stored key is older than 24 hours, then the same key with a different body is applied as new', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      expect((await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']))).status).toBe(200);
      await age(db, shopId, idempotencyKey, 25);

      const res = await send(server, key, idempotencyKey, adjustments(['2001', 2, 'kg']));

      expect(res.status).toBe(200);
      expect(res.headers.get('idempotency-replayed')).toBeNull();
      expect(await total(db, shopId, '2001')).toBe('3');
      expect(await ledgerCount(db, shopId)).toBe(2);
      const { rows } = await db.query<{ request_id: string; fresh: boolean }>(
        `SELECT request_id, created_at > now() - interval '1 minute' AS fresh FROM idempotency_keys WHERE shop_id = $1`,
        [shopId],
      );
      expect(rows).toEqual([{ request_id: res.body.requestId, fresh: true }]);
    });

    it('when the stored key is older than 24 hours, then the same request is applied again', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();
      expect((await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']))).status).toBe(200);
      await age(db, shopId, idempotencyKey, 25);

      const res = await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']));

      expect(res.headers.get('idempotency-replayed')).toBeNull();
      expect(await total(db, shopId, '2001')).toBe('2');
    });

    it('when TARE_IDEMPOTENCY_RETENTION_HOURS is 1, then a 2-hour-old key is forgotten', async () => {
      const short = await startTestServer(db, { TARE_IDEMPOTENCY_RETENTION_HOURS: '1' });
      try {
        const { key, shopId } = await seedShop(db, shopFixture());
        const idempotencyKey = randomUUID();
        expect((await send(short, key, idempotencyKey, adjustments(['2001', 1, 'kg']))).status).toBe(200);
        await age(db, shopId, idempotencyKey, 2);
        expect(short.services.idempotencyRetentionHours).toBe(1);

        // The default server (24 h) still replays it; the 1-hour one applies it anew.
        expect(
          (await send(server, key, idempotencyKey, adjustments(['2001', 1, 'kg']))).headers.get('idempotency-replayed'),
        ).toBe('true');
        const res = await send(short, key, idempotencyKey, adjustments(['2001', 1, 'kg']));

        expect(res.headers.get('idempotency-replayed')).toBeNull();
        expect(await total(db, shopId, '2001')).toBe('2');
      } finally {
        await short.close();
      }
    });

    it('when keys are past the retention, then reapKeys and the reaper delete them and keep younger ones', async () => {
      const own = await create();
      try {
        const ownServer = await startTestServer(own);
        try {
          expect(ownServer.services.idempotencyRetentionHours).toBe(24);
          const { key, shopId } = await seedShop(own, shopFixture());
          const keys = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
          for (const [i, k] of keys.entries()) {
            expect((await send(ownServer, key, k, adjustments(['2001', i + 1, 'kg']))).status).toBe(200);
          }
          await age(own, shopId, keys[0]!, 25);
          await age(own, shopId, keys[1]!, 24 * 7);
          await age(own, shopId, keys[2]!, 23);

          expect(await reapKeys(own, 24)).toBe(2);

          const remaining = async () =>
            (await own.query<{ key: string }>('SELECT key FROM idempotency_keys ORDER BY created_at')).rows.map(
              (r) => r.key,
            );
          expect(await remaining()).toEqual([keys[2], keys[3]]);

          await age(own, shopId, keys[3]!, 30);
          const reaper = startIdempotencyReaper({ db: own, logger: createLogger('silent'), retentionHours: 24 });
          try {
            await reaper.run();
          } finally {
            reaper.stop();
          }
          expect(await remaining()).toEqual([keys[2]]);
          // Reaping touched no inventory: the ledger keeps all four writes.
          expect(await ledgerCount(own, shopId)).toBe(4);
        } finally {
          await ownServer.close();
        }
      } finally {
        await own.close();
      }
    });
  });

  describe('platform failure', () => {
    const flaky = flakyGateway();
    let flakyServer: RunningServer;

    beforeAll(async () => {
      flakyServer = await startServer({
        config: loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }),
        logger: createLogger('silent'),
        db,
        gateway: flaky.gateway,
      });
    });

    afterAll(async () => {
      flaky.state.failing = false;
      await flakyServer?.close();
    });

    it.each([
      ['POST /inventory/adjustments', ADJUSTMENTS, adjustments(['2001', 1, 'kg'], ['2002', 0.25, 'kg'])],
      ['PUT /inventory/levels', LEVELS, levels(['2001', 1, 'kg'], ['2002', 0.25, 'kg'])],
    ])(
      'when the gateway fails on %s, then 503 platform_unavailable, nothing is committed, and a retry after recovery applies once',
      async (_label, path, payload) => {
        const { key, shopId } = await seedShop(db, shopFixture());
        expect(
          (await send(flakyServer, key, randomUUID(), adjustments(['2001', 5, 'kg'], ['2002', 500, 'g']))).status,
        ).toBe(200);
        const before = await snapshot(db, shopId);
        const idempotencyKey = randomUUID();

        flaky.state.failing = true;
        const failuresBefore = flaky.state.failures;
        let failed;
        try {
          failed = await send(flakyServer, key, idempotencyKey, payload, { path });
        } finally {
          flaky.state.failing = false;
        }

        expect(flaky.state.failures).toBe(failuresBefore + 1);
        const error = expectErrorEnvelope(failed, 503, 'platform_unavailable');
        expect(error.message).toMatch(/nothing was changed/);
        expect(await snapshot(db, shopId)).toEqual(before);

        const retry = await send(flakyServer, key, idempotencyKey, payload, { path });
        expect(retry.status).toBe(200);
        expect(retry.headers.get('idempotency-replayed')).toBeNull();
        const after = await snapshot(db, shopId);
        expect(after.ledger).toHaveLength(before.ledger.length + 2);
        expect(after.keys).toHaveLength(before.keys.length + 1);
        expect(after.platform).toEqual([
          { location_id: '70001', variant_id: '2001', available: path === LEVELS ? '1' : '6' },
          { location_id: '70001', variant_id: '2002', available: path === LEVELS ? '2' : '7' },
        ]);

        const again = await send(flakyServer, key, idempotencyKey, payload, { path });
        expect(again.headers.get('idempotency-replayed')).toBe('true');
        expect(again.text).toBe(retry.text);
        expect(await snapshot(db, shopId)).toEqual(after);
      },
    );

    it.each([
      ['the same body', adjustments(['2001', 1, 'kg']), 200],
      ['another body', adjustments(['2001', 2, 'kg']), 422],
    ])(
      'when a stored answer’s key is retried with %s while the gateway fails, then the stored answer decides (replay or 422), not the failure',
      async (_label, payload, status) => {
        const { key, shopId } = await seedShop(db, shopFixture());
        const idempotencyKey = randomUUID();
        const first = await send(flakyServer, key, idempotencyKey, adjustments(['2001', 1, 'kg']));
        expect(first.status).toBe(200);
        const stored = await snapshot(db, shopId);

        flaky.state.failing = true;
        let retry;
        try {
          retry = await send(flakyServer, key, idempotencyKey, payload);
        } finally {
          flaky.state.failing = false;
        }

        if (status === 200) {
          expect(retry.status).toBe(200);
          expect(retry.headers.get('idempotency-replayed')).toBe('true');
          expect(retry.text).toBe(first.text);
        } else expectErrorEnvelope(retry, 422, 'idempotency_key_reused');
        expect(await snapshot(db, shopId)).toEqual(stored);
      },
    );

    it('when the gateway fails, then the service throws AppError platform_unavailable and commits nothing', async () => {
      const { shopId } = await seedShop(db, shopFixture());
      const service = flakyGateway();
      const writeInventory = createInventoryWriter({ db, gateway: service.gateway });
      const body = adjustments(['2003', 1, 'lb']);
      const write = (requestId: string): InventoryWrite => ({
        shopId,
        operation: 'adjustment',
        locationId: '70001',
        entries: [{ variantId: '2003', value: 1, unit: 'lb', path: '/adjustments/0', field: 'delta' }],
        requestId,
        actor: { type: 'api_key', id: 'idempotency-test' },
        idempotency: {
          shopId,
          key: 'service-key',
          fingerprint: requestFingerprint('POST', '/api/v1/inventory/adjustments', body),
          retentionHours: 24,
        },
      });
      const render = (data: unknown) => JSON.stringify(data);

      service.state.failing = true;
      const failure = await writeInventory(write('req_service_1'), render).catch((err: unknown) => err);

      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ code: 'platform_unavailable', status: 503 });
      expect(await snapshot(db, shopId)).toEqual({ levels: [], ledger: [], platform: [], keys: [] });

      service.state.failing = false;
      const ok = await writeInventory(write('req_service_2'), render);
      expect(ok).toMatchObject({ status: 200, replayed: false, requestId: 'req_service_2' });
      const replay = await writeInventory(write('req_service_3'), render);
      expect(replay).toEqual({ ...ok, replayed: true });
      expect(await total(db, shopId, '2003')).toBe('1');
      expect(await ledgerCount(db, shopId)).toBe(1);
    });
  });
});
