import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import {
  bulkShop,
  inventorySender,
  otherShop,
  primedShop as sharedPrimedShop,
  result,
} from '../support/inventory-requests.js';
import { ledgerOf, platformLevel, snapshot, total } from '../support/inventory-state.js';
import { call, expectErrorEnvelope, seedShop, shopFixture, startTestServer } from '../support/harness.js';

const PATH = '/api/v1/inventory/levels';
const WEIGHT_UNITS = 'mg, g, kg, t, oz, lb, st';

type Entry = { variantId: string; quantity: { value: number; unit: string } };
const entry = (variantId: string, value: number, unit: string): Entry => ({ variantId, quantity: { value, unit } });
const body = (...levels: Entry[]) => ({ locationId: '70001', levels });

const setLevels = inventorySender(PATH, 'PUT');

/** For every level of the shop: does the sum of its ledger deltas equal its total exactly? */
async function ledgerMatchesTotals(db: Db, shopId: string): Promise<boolean[]> {
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT l.total = (SELECT sum(delta) FROM inventory_ledger g
       WHERE g.shop_id = l.shop_id AND g.location_id = l.location_id AND g.variant_id = l.variant_id) AS ok
     FROM inventory_levels l WHERE l.shop_id = $1 ORDER BY l.variant_id`,
    [shopId],
  );
  return rows.map((r) => r.ok);
}

describe.each(testDrivers({ citus: true }))('PUT /api/v1/inventory/levels on $name', ({ create }) => {
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

  /** Seeds a shop holding 5 kg of 2001, 500 g of 2002 and 2 lb of 2003, and snapshots it. */
  const primedShop = () =>
    sharedPrimedShop(
      db,
      server,
      setLevels,
      body(entry('2001', 5, 'kg'), entry('2002', 500, 'g'), entry('2003', 2, 'lb')),
    );

  describe('happy', () => {
    it('when three levels are set, then the exact envelope lists them in request order, in each variant’s unit', async () => {
      const { key } = await primedShop();

      // 1.36077711 kg is exactly 3 lb.
      const res = await setLevels(
        server,
        key,
        body(entry('2003', 1.36077711, 'kg'), entry('2001', 12.75, 'kg'), entry('2002', 0.3, 'kg')),
      );

      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('idempotency-replayed')).toBeNull();
      expect(res.body).toEqual({
        success: true,
        data: {
          operation: 'set',
          locationId: '70001',
          results: [result('2003', 2, 3, 'lb'), result('2001', 5, 12.75, 'kg'), result('2002', 500, 300, 'g')],
        },
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
      });
      expect(res.body.requestId).toMatch(/^req_/);
    });

    it('when three levels are set, then one ledger row per entry, exact totals and the platform floor are written', async () => {
      const { key, shopId } = await primedShop();
      const idempotencyKey = randomUUID();

      const res = await setLevels(
        server,
        key,
        body(entry('2003', 1.36077711, 'kg'), entry('2001', 12.75, 'kg'), entry('2002', 0.3, 'kg')),
        {
          idempotencyKey,
        },
      );

      expect(res.status).toBe(200);
      const ledgerRow = (variantId: string, before: string, after: string, delta: string, unit: string) => ({
        variant_id: variantId,
        operation: 'set',
        before,
        after,
        delta,
        unit,
        idempotency_key: idempotencyKey,
        request_id: res.body.requestId,
      });
      expect(await ledgerOf(db, shopId, res.body.requestId)).toEqual([
        ledgerRow('2003', '2', '3', '1', 'lb'),
        ledgerRow('2001', '5', '12.75', '7.75', 'kg'),
        ledgerRow('2002', '500', '300', '-200', 'g'),
      ]);
      const state = await snapshot(db, shopId);
      expect(state.levels).toEqual([
        { location_id: '70001', variant_id: '2001', total: '12.75', unit: 'kg' },
        { location_id: '70001', variant_id: '2002', total: '300', unit: 'g' },
        { location_id: '70001', variant_id: '2003', total: '3', unit: 'lb' },
      ]);
      expect(state.platform).toEqual([
        { location_id: '70001', variant_id: '2001', available: '12' },
        { location_id: '70001', variant_id: '2002', available: '3' },
        { location_id: '70001', variant_id: '2003', available: '3' },
      ]);
      expect(state.keys.find((k) => k.key === idempotencyKey)).toEqual({
        key: idempotencyKey,
        response_status: 200,
        response_body: res.text,
        request_id: res.body.requestId,
      });
      expect(await ledgerMatchesTotals(db, shopId)).toEqual([true, true, true]);
    });

    it('when a level did not exist, then it starts at zero', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      const res = await setLevels(server, key, body(entry('2001', 3.5, 'kg')));

      expect(res.body.data.results).toEqual([result('2001', 0, 3.5, 'kg')]);
      expect(await ledgerOf(db, shopId, res.body.requestId)).toEqual([
        expect.objectContaining({ before: '0', after: '3.5', delta: '3.5', unit: 'kg' }),
      ]);
      expect(await total(db, shopId, '2001')).toBe('3.5');
      expect(await platformLevel(db, shopId, '2001')).toBe('3');
    });

    it('when a 100 g variant is set to 1250 g, then the platform shows 12 and 50 g stay fractional', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      const res = await setLevels(server, key, body(entry('2002', 1250, 'g')));

      expect(res.body.data.results).toEqual([result('2002', 0, 1250, 'g')]);
      expect(await total(db, shopId, '2002')).toBe('1250');
      expect(await platformLevel(db, shopId, '2002')).toBe('12');
      const { rows } = await db.query<{ fraction: string }>(
        `SELECT (l.total - p.available * 100)::text AS fraction FROM inventory_levels l
         JOIN local_platform_levels p USING (shop_id, location_id, variant_id)
         WHERE l.shop_id = $1 AND l.variant_id = '2002'`,
        [shopId],
      );
      expect(rows).toEqual([{ fraction: '50' }]);
    });

    it('when a 100 g variant is set to 1.25 kg, then it is stored as 1250 g', async () => {
      const { key, shopId } = await primedShop();

      const res = await setLevels(server, key, body(entry('2002', 1.25, 'kg')));

      expect(res.body.data.results).toEqual([result('2002', 500, 1250, 'g')]);
      expect(await total(db, shopId, '2002')).toBe('1250');
      expect(await platformLevel(db, shopId, '2002')).toBe('12');
      expect(await ledgerOf(db, shopId, res.body.requestId)).toEqual([
        expect.objectContaining({ before: '500', after: '1250', delta: '750', unit: 'g' }),
      ]);
    });

    it('when a kg variant is set to 1 lb, then it holds exactly 0.45359237 kg', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      const res = await setLevels(server, key, body(entry('2001', 1, 'lb')));

      expect(res.body.data.results).toEqual([result('2001', 0, 0.45359237, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('0.45359237');
      expect(await platformLevel(db, shopId, '2001')).toBe('0');
    });

    it.each([
      // [quantity, booked]: a 10th decimal of exactly 5 goes to the even 9th (PRODUCT.md §6).
      ['1 kg on a lb variant (2.2046226218… lb)', entry('2003', 1, 'kg'), '2.204622622', 'lb', '2'],
      ['4 oz on a kg variant (0.1133980925 kg, even 9th digit kept)', entry('2001', 4, 'oz'), '0.113398092', 'kg', '0'],
      ['12 oz on a kg variant (0.3401942775 kg, odd 9th digit up)', entry('2001', 12, 'oz'), '0.340194278', 'kg', '0'],
      ['1234.5678925 g on a kg variant (1.2345678925 kg)', entry('2001', 1234.5678925, 'g'), '1.234567892', 'kg', '1'],
      ['1234.5678935 g on a kg variant (1.2345678935 kg)', entry('2001', 1234.5678935, 'g'), '1.234567894', 'kg', '1'],
    ])(
      'when a level is set to %s, then it is rounded half-even to 9 decimals of the variant’s unit and exactly that is kept',
      async (_label, sent, booked, unit, platform) => {
        const { key, shopId } = await seedShop(db, shopFixture());

        const res = await setLevels(server, key, body(sent));

        expect(res.status).toBe(200);
        expect(res.body.data.results).toEqual([result(sent.variantId, 0, Number(booked), unit)]);
        expect(await total(db, shopId, sent.variantId)).toBe(booked);
        expect(await platformLevel(db, shopId, sent.variantId)).toBe(platform);
        expect(await ledgerOf(db, shopId, res.body.requestId)).toEqual([
          expect.objectContaining({ before: '0', after: booked, delta: booked, unit }),
        ]);
      },
    );

    it('when a level is set to 0, then the total and the platform are 0 and the ledger books the whole decrease', async () => {
      const { key, shopId } = await primedShop();

      const res = await setLevels(server, key, body(entry('2001', 0, 'kg')));

      expect(res.status).toBe(200);
      expect(res.body.data.results).toEqual([result('2001', 5, 0, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('0');
      expect(await platformLevel(db, shopId, '2001')).toBe('0');
      expect(await ledgerOf(db, shopId, res.body.requestId)).toEqual([
        expect.objectContaining({ operation: 'set', before: '5', after: '0', delta: '-5' }),
      ]);
    });

    it('when a level is set to its current value, then a ledger row with delta 0 is written', async () => {
      const { key, shopId } = await primedShop();

      const res = await setLevels(server, key, body(entry('2002', 0.5, 'kg')));

      expect(res.body.data.results).toEqual([result('2002', 500, 500, 'g')]);
      expect(await ledgerOf(db, shopId, res.body.requestId)).toEqual([
        expect.objectContaining({ before: '500', after: '500', delta: '0' }),
      ]);
      expect(await platformLevel(db, shopId, '2002')).toBe('5');
    });

    it('when a level is set after adjustments took it below zero, then the ledger still sums to the total', async () => {
      const { key, shopId } = await primedShop();
      const adjusted = await call(server, '/api/v1/inventory/adjustments', {
        key,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({
          locationId: '70001',
          adjustments: [{ variantId: '2001', delta: { value: -7.3, unit: 'kg' } }],
        }),
      });
      expect(adjusted.body.data.results).toEqual([result('2001', 5, -2.3, 'kg')]);
      expect(await platformLevel(db, shopId, '2001')).toBe('-3');

      const res = await setLevels(server, key, body(entry('2001', 0.1, 'kg')));

      expect(res.body.data.results).toEqual([result('2001', -2.3, 0.1, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('0.1');
      expect(await platformLevel(db, shopId, '2001')).toBe('0');
      expect(await ledgerMatchesTotals(db, shopId)).toEqual([true, true, true]);
    });

    it('when a batch has 100 entries, then all are applied in request order', async () => {
      const { key, shopId } = await seedShop(db, bulkShop());
      const ids = Array.from({ length: 100 }, (_, i) => String(4100 - i)); // descending: not the lock order

      const res = await setLevels(server, key, body(...ids.map((id, i) => entry(id, i * 1000 + 0.5, 'g'))));

      expect(res.status).toBe(200);
      expect(res.body.data.results).toEqual(ids.map((id, i) => result(id, 0, Number(`${i}.0005`), 'kg')));
      const state = await snapshot(db, shopId);
      expect(state.ledger.map((r) => r.variant_id)).toEqual(ids);
      expect(state.platform).toHaveLength(100);
      expect(await total(db, shopId, '4001')).toBe('99.0005');
      expect(await platformLevel(db, shopId, '4001')).toBe('99');
      expect(await platformLevel(db, shopId, '4100')).toBe('0');
    });
  });

  describe('errors', () => {
    it('when the Idempotency-Key header is missing, then 400 names the header and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, body(entry('2001', 1, 'kg')), { idempotencyKey: null });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({ header: 'Idempotency-Key' });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['non-ASCII', 'caf\u00e9'],
    ])(
      'when the Idempotency-Key is %s, then 400 names the header and nothing is written',
      async (_label, idempotencyKey) => {
        const { key, shopId, before } = await primedShop();

        const res = await setLevels(server, key, body(entry('2001', 1, 'kg')), { idempotencyKey });

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details).toEqual({ header: 'Idempotency-Key' });
        expect(await snapshot(db, shopId)).toEqual(before);
      },
    );

    it('when the Idempotency-Key is quoted "abc", then it is stored as abc and an unquoted retry replays', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      const first = await setLevels(server, key, body(entry('2001', 2, 'kg')), { idempotencyKey: '"abc"' });
      const retry = await setLevels(server, key, body(entry('2001', 2, 'kg')), { idempotencyKey: 'abc' });

      expect(first.status).toBe(200);
      expect(retry.headers.get('idempotency-replayed')).toBe('true');
      expect(retry.text).toBe(first.text);
      const state = await snapshot(db, shopId);
      expect(state.keys.map((k) => k.key)).toEqual(['abc']);
      expect(state.ledger).toHaveLength(1);
    });

    it.each([
      ['a locationId with letters', { locationId: 'main', levels: [entry('2001', 1, 'kg')] }, '/locationId'],
      ['a numeric locationId', { locationId: 70001, levels: [entry('2001', 1, 'kg')] }, '/locationId'],
      ['a variantId with letters', body(entry('2001', 1, 'kg'), entry('2002x', 1, 'kg')), '/levels/1/variantId'],
      [
        'a numeric variantId',
        { locationId: '70001', levels: [{ variantId: 2001, quantity: { value: 1, unit: 'kg' } }] },
        '/levels/0/variantId',
      ],
    ])('when the body has %s, then 400 names its path and nothing is written', async (_label, payload, path) => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, payload);

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details.errors.map((e: { path: string }) => e.path)).toEqual([path]);
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the location is unknown, then 404 names it and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, { locationId: '70009', levels: [entry('2001', 1, 'kg')] });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'location', id: '70009' });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the last of three variants is unknown, then 404 names it and the other two are not applied', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(
        server,
        key,
        body(entry('2001', 9, 'kg'), entry('2002', 9, 'kg'), entry('2004', 9, 'kg')),
      );

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'variant', ids: ['2004'] });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the last of three variants belongs to another shop, then 404 names it and the other two are not applied', async () => {
      const other = await seedShop(db, otherShop());
      const otherBefore = await snapshot(db, other.shopId);
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(
        server,
        key,
        body(entry('2001', 9, 'kg'), entry('2002', 9, 'kg'), entry('5001', 9, 'kg')),
      );

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'variant', ids: ['5001'] });
      expect(await snapshot(db, shopId)).toEqual(before);
      expect(await snapshot(db, other.shopId)).toEqual(otherBefore);
    });

    it.each([
      ['no entries', 0, 'must NOT have fewer than 1 items'],
      ['101 entries', 101, 'must NOT have more than 100 items'],
    ])('when the request has %s, then 400 names /levels and nothing is written', async (_label, count, message) => {
      const { key, shopId, before } = await primedShop();
      const entries = Array.from({ length: count }, (_, i) => entry(String(4001 + i), 1, 'kg'));

      const res = await setLevels(server, key, body(...entries));

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({ in: 'body', errors: [{ path: '/levels', message }] });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when a variant appears twice, then 400 names /levels/1/variantId and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, body(entry('2002', 1, 'kg'), entry('2002', 2, 'kg')));

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({
        in: 'body',
        errors: [{ path: '/levels/1/variantId', message: "variant '2002' already appears at /levels/0" }],
      });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      [
        'a numeric string',
        '{"locationId":"70001","levels":[{"variantId":"2001","quantity":{"value":"1.5","unit":"kg"}}]}',
        'must be number',
      ],
      [
        'null',
        '{"locationId":"70001","levels":[{"variantId":"2001","quantity":{"value":null,"unit":"kg"}}]}',
        'must be number',
      ],
      ['missing', '{"locationId":"70001","levels":[{"variantId":"2001","quantity":{"unit":"kg"}}]}', 'is required'],
      [
        '1e999 (Infinity)',
        '{"locationId":"70001","levels":[{"variantId":"2001","quantity":{"value":1e999,"unit":"kg"}}]}',
        'must be a finite number',
      ],
      [
        'negative',
        '{"locationId":"70001","levels":[{"variantId":"2001","quantity":{"value":-0.001,"unit":"kg"}}]}',
        'must be >= 0',
      ],
      [
        '-1e999 (-Infinity)',
        '{"locationId":"70001","levels":[{"variantId":"2001","quantity":{"value":-1e999,"unit":"kg"}}]}',
        'must be >= 0',
      ],
    ])(
      'when quantity.value is %s, then 400 names /levels/0/quantity/value and nothing is written',
      async (_label, raw, message) => {
        const { key, shopId, before } = await primedShop();

        const res = await setLevels(server, key, raw);

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details.errors).toContainEqual({ path: '/levels/0/quantity/value', message });
        expect(error.details.errors.every((e: { path: string }) => e.path === '/levels/0/quantity/value')).toBe(true);
        expect(await snapshot(db, shopId)).toEqual(before);
      },
    );

    const MORE_DECIMALS = 'has more than 9 decimal places; Tare keeps 9 decimal places of a unit';
    it.each([
      ['1e-100 kg', entry('2001', 1e-100, 'kg'), MORE_DECIMALS],
      ['12.0000000001 kg (10 decimals)', entry('2001', 12.0000000001, 'kg'), MORE_DECIMALS],
      [
        '1e-7 mg on a kg variant, which would round to 0',
        entry('2001', 0.0000001, 'mg'),
        "0.0000001 mg is 0.0000000000001 kg, below what Tare keeps in the variant's unit (9 decimal places of kg): " +
          'it would be booked as 0',
      ],
      [
        '1e-6 mg on a lb variant, which would round to 0',
        entry('2003', 0.000001, 'mg'),
        "0.000001 mg is 0.0000000000022046226218487758072… lb, below what Tare keeps in the variant's unit " +
          '(9 decimal places of lb): it would be booked as 0',
      ],
    ])(
      'when the quantity is %s, then 400 names its value and nothing is written',
      async (_label, rejected, message) => {
        const { key, shopId, before } = await primedShop();

        const res = await setLevels(server, key, body(entry('2002', 1, 'kg'), rejected));

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details).toEqual({ in: 'body', errors: [{ path: '/levels/1/quantity/value', message }] });
        expect(await snapshot(db, shopId)).toEqual(before);
      },
    );

    it('when a level is too large for the platform’s integer, then 400 names it and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, body(entry('2001', 1e300, 't')));

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details.errors.map((e: { path: string }) => e.path)).toEqual(['/levels/0/quantity/value']);
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when quantity.unit is missing, then 400 names /levels/0/quantity/unit and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, {
        locationId: '70001',
        levels: [{ variantId: '2001', quantity: { value: 1 } }],
      });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({
        in: 'body',
        errors: [{ path: '/levels/0/quantity/unit', message: 'is required' }],
      });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      ['unknown', 'kgs'],
      ['of another measurement type', 'm'],
    ])('when quantity.unit is %s, then 400 lists the valid units and nothing is written', async (_label, unit) => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, body(entry('2002', 1, 'kg'), entry('2003', 1, unit)));

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      const message = `unit '${unit}' is not valid for variant 2003 (weight); use one of ${WEIGHT_UNITS}`;
      expect(error.details).toEqual({ in: 'body', errors: [{ path: '/levels/1/quantity/unit', message }] });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      ['the body', { ...body(entry('2001', 1, 'kg')), dryRun: true }, '/dryRun'],
      [
        'an entry',
        { locationId: '70001', levels: [{ ...entry('2001', 1, 'kg'), delta: { value: 1, unit: 'kg' } }] },
        '/levels/0/delta',
      ],
      [
        'a quantity',
        { locationId: '70001', levels: [{ variantId: '2001', quantity: { value: 1, unit: 'kg', u: 1 } }] },
        '/levels/0/quantity/u',
      ],
    ])('when %s has an unknown field, then 400 names it and nothing is written', async (_label, payload, path) => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, payload);

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      const field = path.split('/').pop();
      expect(error.details).toEqual({ in: 'body', errors: [{ path, message: `unknown field '${field}'` }] });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the body is malformed JSON, then 400 and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, "{'locationId':'70001'}");

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.message).toBe('The request body is not valid JSON.');
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the body is not JSON, then 415 and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, key, JSON.stringify(body(entry('2001', 1, 'kg'))), {
        contentType: 'text/plain',
      });

      expectErrorEnvelope(res, 415, 'unsupported_media_type');
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each(['POST', 'DELETE'])('when the path is called with %s, then 405 allows PUT and the read', async (method) => {
      const { key } = await seedShop(db, shopFixture());

      const res = await setLevels(server, key, body(entry('2001', 1, 'kg')), { method });

      // GET (and HEAD) read the levels (GET /inventory/levels); PUT sets them.
      const error = expectErrorEnvelope(res, 405, 'method_not_allowed');
      expect([...error.details.allowed].sort()).toEqual(['GET', 'HEAD', 'PUT']);
      expect(res.headers.get('allow')!.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'PUT']);
    });
  });

  describe('security', () => {
    it('when no API key is sent, then 401 and nothing is written', async () => {
      const { shopId, before } = await primedShop();

      const res = await setLevels(server, undefined, body(entry('2001', 1, 'kg')));

      expectErrorEnvelope(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when an unknown API key is sent, then 401 and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await setLevels(server, `${key.slice(0, -4)}AAAA`, body(entry('2001', 1, 'kg')));

      expectErrorEnvelope(res, 401, 'unauthorized');
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when another shop’s key names this shop’s variant, then 404 and neither shop changes', async () => {
      const other = await seedShop(db, otherShop());
      const otherBefore = await snapshot(db, other.shopId);
      const { shopId, before } = await primedShop();

      const res = await setLevels(server, other.key, body(entry('2002', 0, 'kg')));

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'variant', ids: ['2002'] });
      expect(await snapshot(db, shopId)).toEqual(before);
      expect(await snapshot(db, other.shopId)).toEqual(otherBefore);
    });
  });
});
