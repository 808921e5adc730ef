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

const PATH = '/api/v1/inventory/adjustments';
const WEIGHT_UNITS = 'mg, g, kg, t, oz, lb, st';

type Entry = { variantId: string; delta: { value: number; unit: string } };
const entry = (variantId: string, value: number, unit: string): Entry => ({ variantId, delta: { value, unit } });
const body = (...adjustments: Entry[]) => ({ locationId: '70001', adjustments });

const adjust = inventorySender(PATH, 'POST');

describe.each(testDrivers({ citus: true }))('POST /api/v1/inventory/adjustments on $name', ({ create }) => {
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
    sharedPrimedShop(db, server, adjust, body(entry('2001', 5, 'kg'), entry('2002', 500, 'g'), entry('2003', 2, 'lb')));

  describe('happy', () => {
    it('when three variants are adjusted, then the exact envelope lists them in request order, in each variant’s unit', async () => {
      const { key } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();

      const res = await adjust(
        server,
        key,
        body(entry('2003', 2, 'lb'), entry('2001', 250, 'g'), entry('2002', 1.25, 'kg')),
        {
          idempotencyKey,
        },
      );

      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('idempotency-replayed')).toBeNull();
      expect(res.body).toEqual({
        success: true,
        data: {
          operation: 'adjustment',
          locationId: '70001',
          results: [result('2003', 0, 2, 'lb'), result('2001', 0, 0.25, 'kg'), result('2002', 0, 1250, 'g')],
        },
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
      });
      expect(res.body.requestId).toMatch(/^req_/);
    });

    it('when three variants are adjusted, then one ledger row per entry, exact totals and floor(total / unitValue) on the platform are written', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = randomUUID();

      const res = await adjust(
        server,
        key,
        body(entry('2003', 2, 'lb'), entry('2001', 250, 'g'), entry('2002', 1.25, 'kg')),
        {
          idempotencyKey,
        },
      );

      expect(res.status).toBe(200);
      const ledgerRow = (variantId: string, after: string, unit: string) => ({
        variant_id: variantId,
        operation: 'adjustment',
        before: '0',
        after,
        delta: after,
        unit,
        idempotency_key: idempotencyKey,
        request_id: res.body.requestId,
      });
      expect(await ledgerOf(db, shopId, res.body.requestId)).toEqual([
        ledgerRow('2003', '2', 'lb'),
        ledgerRow('2001', '0.25', 'kg'),
        ledgerRow('2002', '1250', 'g'),
      ]);
      const state = await snapshot(db, shopId);
      expect(state.levels).toEqual([
        { location_id: '70001', variant_id: '2001', total: '0.25', unit: 'kg' },
        { location_id: '70001', variant_id: '2002', total: '1250', unit: 'g' },
        { location_id: '70001', variant_id: '2003', total: '2', unit: 'lb' },
      ]);
      expect(state.platform).toEqual([
        { location_id: '70001', variant_id: '2001', available: '0' },
        { location_id: '70001', variant_id: '2002', available: '12' },
        { location_id: '70001', variant_id: '2003', available: '2' },
      ]);
      expect(state.keys).toEqual([
        { key: idempotencyKey, response_status: 200, response_body: res.text, request_id: res.body.requestId },
      ]);
    });

    it('when a level already exists, then the adjustment starts from its total', async () => {
      const { key, shopId } = await primedShop();

      const res = await adjust(server, key, body(entry('2001', -1.5, 'kg')));

      expect(res.body.data.results).toEqual([result('2001', 5, 3.5, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('3.5');
      expect(await platformLevel(db, shopId, '2001')).toBe('3');
    });

    it('when +1 lb and then −1 lb are applied to a kg variant, then the total returns exactly to the start', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      expect((await adjust(server, key, body(entry('2001', 0.3, 'kg')))).status).toBe(200);

      const up = await adjust(server, key, body(entry('2001', 1, 'lb')));
      expect(up.body.data.results).toEqual([result('2001', 0.3, 0.75359237, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('0.75359237');

      const down = await adjust(server, key, body(entry('2001', -1, 'lb')));
      expect(down.body.data.results).toEqual([result('2001', 0.75359237, 0.3, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('0.3');
      expect((await ledgerOf(db, shopId, down.body.requestId)).map((r) => r.delta)).toEqual(['-0.45359237']);

      const again = await adjust(server, key, body(entry('2001', 1, 'lb')));
      expect(again.status).toBe(200);
      await adjust(server, key, body(entry('2001', -0.45359237, 'kg')));
      expect(await total(db, shopId, '2001')).toBe('0.3');
    });

    it('when ten 0.1 kg adjustments are applied, then exactly 1 kg is added', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      let last: Awaited<ReturnType<typeof adjust>> | undefined;
      for (let i = 0; i < 10; i++) last = await adjust(server, key, body(entry('2001', 0.1, 'kg')));

      expect(last!.body.data.results).toEqual([result('2001', 0.9, 1, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('1');
      expect(await platformLevel(db, shopId, '2001')).toBe('1');
      const { rows } = await db.query<{ delta: string }>(
        `SELECT delta::text AS delta FROM inventory_ledger WHERE shop_id = $1 AND variant_id = '2001' ORDER BY id`,
        [shopId],
      );
      expect(rows.map((r) => r.delta)).toEqual(Array(10).fill('0.1'));
    });

    it('when a 100 g variant receives 1250 g, then the platform shows 12 and 50 g stay fractional', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      const res = await adjust(server, key, body(entry('2002', 1250, 'g')));

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

    it('when a 100 g variant receives 1.25 kg, then it is stored as 1250 g', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      const res = await adjust(server, key, body(entry('2002', 1.25, 'kg')));

      expect(res.body.data.results).toEqual([result('2002', 0, 1250, 'g')]);
      expect(await total(db, shopId, '2002')).toBe('1250');
      expect(await platformLevel(db, shopId, '2002')).toBe('12');
    });

    it('when a conversion is exact to 9 decimals of the variant’s unit, then exactly that is booked', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      // 3.3 lb = 1.496854821 kg exactly (9 decimals).
      const res = await adjust(server, key, body(entry('2001', 3.3, 'lb')));

      expect(res.body.data.results).toEqual([result('2001', 0, 1.496854821, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('1.496854821');
      expect(await platformLevel(db, shopId, '2001')).toBe('1');
    });

    it.each([
      // [delta, variant, booked]: a 10th decimal of exactly 5 goes to the even 9th (PRODUCT.md §6).
      ['1 oz on a kg variant (0.028349523125 kg)', entry('2001', 1, 'oz'), '0.028349523', 'kg'],
      ['4 oz on a kg variant (0.1133980925 kg, even 9th digit kept)', entry('2001', 4, 'oz'), '0.113398092', 'kg'],
      ['12 oz on a kg variant (0.3401942775 kg, odd 9th digit up)', entry('2001', 12, 'oz'), '0.340194278', 'kg'],
      ['-4 oz on a kg variant (-0.1133980925 kg)', entry('2001', -4, 'oz'), '-0.113398092', 'kg'],
      ['-12 oz on a kg variant (-0.3401942775 kg)', entry('2001', -12, 'oz'), '-0.340194278', 'kg'],
      ['1 g on a lb variant (0.0022046226218… lb)', entry('2003', 1, 'g'), '0.002204623', 'lb'],
      ['0.0000025 mg on a g variant (0.0000000025 g)', entry('2002', 0.0000025, 'mg'), '0.000000002', 'g'],
      ['0.0000035 mg on a g variant (0.0000000035 g)', entry('2002', 0.0000035, 'mg'), '0.000000004', 'g'],
    ])(
      'when the delta is %s, then it is rounded half-even to 9 decimals of the variant’s unit and exactly that is booked',
      async (_label, sent, booked, unit) => {
        const { key, shopId } = await seedShop(db, shopFixture());

        const res = await adjust(server, key, body(sent));

        expect(res.status).toBe(200);
        expect(res.body.data.results).toEqual([result(sent.variantId, 0, Number(booked), unit)]);
        expect(await total(db, shopId, sent.variantId)).toBe(booked);
        const [row] = await ledgerOf(db, shopId, res.body.requestId);
        expect(row).toMatchObject({ before: '0', after: booked, delta: booked, unit });
      },
    );

    it('when an adjustment takes the total below zero, then it is applied and the platform shows the floor', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      const res = await adjust(server, key, body(entry('2001', -0.25, 'kg')));

      expect(res.status).toBe(200);
      expect(res.body.data.results).toEqual([result('2001', 0, -0.25, 'kg')]);
      expect(await total(db, shopId, '2001')).toBe('-0.25');
      expect(await platformLevel(db, shopId, '2001')).toBe('-1');
    });

    it('when the delta is zero, then a ledger row with delta 0 is written and the total is unchanged', async () => {
      const { key, shopId } = await primedShop();

      const res = await adjust(server, key, body(entry('2002', 0, 'kg')));

      expect(res.body.data.results).toEqual([result('2002', 500, 500, 'g')]);
      expect(await ledgerOf(db, shopId, res.body.requestId)).toEqual([
        expect.objectContaining({ variant_id: '2002', before: '500', after: '500', delta: '0', unit: 'g' }),
      ]);
      expect(await total(db, shopId, '2002')).toBe('500');
      expect(await platformLevel(db, shopId, '2002')).toBe('5');
    });

    it('when a batch has 100 entries, then all are applied in request order', async () => {
      const { key, shopId } = await seedShop(db, bulkShop());
      const ids = Array.from({ length: 100 }, (_, i) => String(4100 - i)); // descending: not the lock order

      const res = await adjust(server, key, body(...ids.map((id, i) => entry(id, i + 0.5, 'kg'))));

      expect(res.status).toBe(200);
      expect(res.body.data.results).toEqual(ids.map((id, i) => result(id, 0, i + 0.5, 'kg')));
      const state = await snapshot(db, shopId);
      expect(state.ledger).toHaveLength(100);
      expect(state.ledger.map((r) => r.variant_id)).toEqual(ids);
      expect(state.platform).toHaveLength(100);
      expect(await platformLevel(db, shopId, '4100')).toBe('0');
      expect(await platformLevel(db, shopId, '4001')).toBe('99');
      expect(await total(db, shopId, '4001')).toBe('99.5');
    });

    it('when the Idempotency-Key has 255 printable ASCII characters, then it is accepted', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      const idempotencyKey = `${'! ~'.repeat(84)}abc`; // 255 characters, inner spaces included

      const res = await adjust(server, key, body(entry('2001', 1, 'kg')), { idempotencyKey });

      expect(res.status).toBe(200);
      expect((await snapshot(db, shopId)).keys.map((k) => k.key)).toEqual([idempotencyKey]);
    });

    it('when the Idempotency-Key is quoted "abc", then it is the key abc and an unquoted retry replays it', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());

      const first = await adjust(server, key, body(entry('2001', 1, 'kg')), { idempotencyKey: '"abc"' });
      const retry = await adjust(server, key, body(entry('2001', 1, 'kg')), { idempotencyKey: 'abc' });

      expect(first.status).toBe(200);
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotency-replayed')).toBe('true');
      expect(retry.text).toBe(first.text);
      const state = await snapshot(db, shopId);
      expect(state.keys.map((k) => k.key)).toEqual(['abc']);
      expect(state.ledger).toHaveLength(1);
      expect(state.ledger[0]!.idempotency_key).toBe('abc');
      expect(await total(db, shopId, '2001')).toBe('1');
    });
  });

  describe('errors', () => {
    it('when the Idempotency-Key header is missing, then 400 names the header and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, body(entry('2001', 1, 'kg')), { idempotencyKey: null });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({ header: 'Idempotency-Key' });
      expect(error.message).toMatch(/Idempotency-Key header is required/);
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['non-ASCII', 'caf\u00e9'],
      ['a control character', 'a\tb'],
      ['empty in quotes', '""'],
    ])(
      'when the Idempotency-Key is %s, then 400 names the header and nothing is written',
      async (_label, idempotencyKey) => {
        const { key, shopId, before } = await primedShop();

        const res = await adjust(server, key, body(entry('2001', 1, 'kg')), { idempotencyKey });

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error).toEqual({
          code: 'bad_request',
          message: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
          details: { header: 'Idempotency-Key' },
        });
        expect(await snapshot(db, shopId)).toEqual(before);
      },
    );

    it.each([
      ['a locationId with letters', { locationId: '70a01', adjustments: [entry('2001', 1, 'kg')] }, '/locationId'],
      ['a numeric locationId', { locationId: 70001, adjustments: [entry('2001', 1, 'kg')] }, '/locationId'],
      ['an empty locationId', { locationId: '', adjustments: [entry('2001', 1, 'kg')] }, '/locationId'],
      ['a 21-digit locationId', { locationId: '1'.repeat(21), adjustments: [entry('2001', 1, 'kg')] }, '/locationId'],
      ['a variantId with letters', body(entry('2001', 1, 'kg'), entry('v2002', 1, 'kg')), '/adjustments/1/variantId'],
      ['a negative variantId', body(entry('-2001', 1, 'kg')), '/adjustments/0/variantId'],
    ])('when the body has %s, then 400 names its path and nothing is written', async (_label, payload, path) => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, payload);

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details.errors.map((e: { path: string }) => e.path)).toEqual([path]);
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the location is unknown, then 404 names it and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, { locationId: '70009', adjustments: [entry('2001', 1, 'kg')] });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'location', id: '70009' });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the last of three variants is unknown, then 404 names it and the other two are not applied', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(
        server,
        key,
        body(entry('2001', 1, 'kg'), entry('2002', 1, 'kg'), entry('9999', 1, 'kg')),
      );

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'variant', ids: ['9999'] });
      expect(error.message).toContain("'9999'");
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the last of three variants belongs to another shop, then 404 names it and the other two are not applied', async () => {
      const other = await seedShop(db, otherShop());
      const otherBefore = await snapshot(db, other.shopId);
      const { key, shopId, before } = await primedShop();

      const res = await adjust(
        server,
        key,
        body(entry('2001', 1, 'kg'), entry('2002', 1, 'kg'), entry('5001', 1, 'kg')),
      );

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'variant', ids: ['5001'] });
      expect(await snapshot(db, shopId)).toEqual(before);
      expect(await snapshot(db, other.shopId)).toEqual(otherBefore);
    });

    it.each([
      ['no entries', 0, 'must NOT have fewer than 1 items'],
      ['101 entries', 101, 'must NOT have more than 100 items'],
    ])(
      'when the request has %s, then 400 names /adjustments and nothing is written',
      async (_label, count, message) => {
        const { key, shopId, before } = await primedShop();
        const entries = Array.from({ length: count }, (_, i) => entry(String(4001 + i), 1, 'kg'));

        const res = await adjust(server, key, body(...entries));

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details).toEqual({ in: 'body', errors: [{ path: '/adjustments', message }] });
        expect(await snapshot(db, shopId)).toEqual(before);
      },
    );

    it('when a variant appears twice, then 400 names /adjustments/1/variantId and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, body(entry('2001', 1, 'kg'), entry('2001', 2, 'kg')));

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({
        in: 'body',
        errors: [{ path: '/adjustments/1/variantId', message: "variant '2001' already appears at /adjustments/0" }],
      });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      [
        'a numeric string',
        '{"locationId":"70001","adjustments":[{"variantId":"2001","delta":{"value":"1.5","unit":"kg"}}]}',
        'must be number',
      ],
      [
        'null',
        '{"locationId":"70001","adjustments":[{"variantId":"2001","delta":{"value":null,"unit":"kg"}}]}',
        'must be number',
      ],
      ['missing', '{"locationId":"70001","adjustments":[{"variantId":"2001","delta":{"unit":"kg"}}]}', 'is required'],
      [
        '1e999 (Infinity)',
        '{"locationId":"70001","adjustments":[{"variantId":"2001","delta":{"value":1e999,"unit":"kg"}}]}',
        'must be a finite number',
      ],
      [
        '-1e999 (-Infinity)',
        '{"locationId":"70001","adjustments":[{"variantId":"2001","delta":{"value":-1e999,"unit":"kg"}}]}',
        'must be a finite number',
      ],
    ])(
      'when delta.value is %s, then 400 names /adjustments/0/delta/value and nothing is written',
      async (_label, raw, message) => {
        const { key, shopId, before } = await primedShop();

        const res = await adjust(server, key, raw);

        const error = expectErrorEnvelope(res, 400, 'bad_request');
        expect(error.details).toEqual({ in: 'body', errors: [{ path: '/adjustments/0/delta/value', message }] });
        expect(await snapshot(db, shopId)).toEqual(before);
      },
    );

    const MORE_DECIMALS = 'has more than 9 decimal places; Tare keeps 9 decimal places of a unit';
    const roundsToZero = (conversion: string, unit: string) =>
      `${conversion}, below what Tare keeps in the variant's unit (9 decimal places of ${unit}): it would be booked as 0`;
    it.each([
      ['1e-100 kg, which used to answer updated and book 0', entry('2001', 1e-100, 'kg'), MORE_DECIMALS],
      ['0.0000000001 kg (10 decimals)', entry('2001', 0.0000000001, 'kg'), MORE_DECIMALS],
      ['12.0000000001 kg', entry('2001', 12.0000000001, 'kg'), MORE_DECIMALS],
      ['1e-10 t, more decimals in its own unit though 0.0000001 kg', entry('2001', 1e-10, 't'), MORE_DECIMALS],
      [
        '1e-7 mg on a per-100 g variant, which would round to 0',
        entry('2002', 0.0000001, 'mg'),
        roundsToZero('0.0000001 mg is 0.0000000001 g', 'g'),
      ],
      [
        '5e-7 mg on a g variant, a tie rounded to the even 0',
        entry('2002', 0.0000005, 'mg'),
        roundsToZero('0.0000005 mg is 0.0000000005 g', 'g'),
      ],
      [
        '-1e-6 mg on a kg variant',
        entry('2001', -0.000001, 'mg'),
        roundsToZero('-0.000001 mg is -0.000000000001 kg', 'kg'),
      ],
    ])('when the delta is %s, then 400 names its value and nothing is written', async (_label, rejected, message) => {
      const { key, shopId, before } = await primedShop();

      const valid = entry(rejected.variantId === '2003' ? '2001' : '2003', 1, 'lb');
      const res = await adjust(server, key, body(valid, rejected));

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({ in: 'body', errors: [{ path: '/adjustments/1/delta/value', message }] });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when a delta would take the platform level beyond a safe integer, then 400 names it and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, body(entry('2001', 1, 'kg'), entry('2002', 1e20, 'kg')));

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details.errors.map((e: { path: string }) => e.path)).toEqual(['/adjustments/1/delta/value']);
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when delta.unit is missing, then 400 names /adjustments/0/delta/unit and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, {
        locationId: '70001',
        adjustments: [{ variantId: '2001', delta: { value: 1 } }],
      });

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.details).toEqual({
        in: 'body',
        errors: [{ path: '/adjustments/0/delta/unit', message: 'is required' }],
      });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      ['unknown', 'kgs'],
      ['of another measurement type', 'm'],
    ])('when delta.unit is %s, then 400 lists the valid units and nothing is written', async (_label, unit) => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, body(entry('2001', 1, 'kg'), entry('2002', 1, unit)));

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      const message = `unit '${unit}' is not valid for variant 2002 (weight); use one of ${WEIGHT_UNITS}`;
      expect(error.details).toEqual({ in: 'body', errors: [{ path: '/adjustments/1/delta/unit', message }] });
      expect(error.message).toContain(WEIGHT_UNITS);
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it.each([
      ['the body', { ...body(entry('2001', 1, 'kg')), note: 'x' }, '/note'],
      [
        'an entry',
        { locationId: '70001', adjustments: [{ ...entry('2001', 1, 'kg'), reason: 'x' }] },
        '/adjustments/0/reason',
      ],
      [
        'a delta',
        { locationId: '70001', adjustments: [{ variantId: '2001', delta: { value: 1, unit: 'kg', kind: 'x' } }] },
        '/adjustments/0/delta/kind',
      ],
    ])('when %s has an unknown field, then 400 names it and nothing is written', async (_label, payload, path) => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, payload);

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      const field = path.split('/').pop();
      expect(error.details).toEqual({ in: 'body', errors: [{ path, message: `unknown field '${field}'` }] });
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the body is malformed JSON, then 400 and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, '{"locationId":"70001","adjustments":[');

      const error = expectErrorEnvelope(res, 400, 'bad_request');
      expect(error.message).toBe('The request body is not valid JSON.');
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the body is not JSON, then 415 and nothing is written', async () => {
      const { key, shopId, before } = await primedShop();

      const res = await adjust(server, key, 'locationId=70001', { contentType: 'application/x-www-form-urlencoded' });

      expectErrorEnvelope(res, 415, 'unsupported_media_type');
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when the path is called with GET, then 405 allows POST', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await call(server, PATH, { key });

      const error = expectErrorEnvelope(res, 405, 'method_not_allowed');
      expect(error.details).toEqual({ allowed: ['POST'] });
      expect(res.headers.get('allow')).toBe('POST');
    });
  });

  describe('security', () => {
    it('when no API key is sent, then 401 and nothing is written', async () => {
      const { shopId, before } = await primedShop();

      const res = await adjust(server, undefined, body(entry('2001', 1, 'kg')));

      expectErrorEnvelope(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await snapshot(db, shopId)).toEqual(before);
    });

    it('when another shop’s key names this shop’s variant, then 404 and neither shop changes', async () => {
      const other = await seedShop(db, otherShop());
      const otherBefore = await snapshot(db, other.shopId);
      const { shopId, before } = await primedShop();

      const res = await adjust(server, other.key, body(entry('2001', 1, 'kg')));

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'variant', ids: ['2001'] });
      expect(await snapshot(db, shopId)).toEqual(before);
      expect(await snapshot(db, other.shopId)).toEqual(otherBefore);
    });

    it('when another shop’s key names a location only this shop has, then 404 and nothing changes', async () => {
      const other = await seedShop(db, { ...otherShop(), locations: [{ id: '70002', name: 'Elsewhere' }] });
      const { shopId, before } = await primedShop();

      const res = await adjust(server, other.key, { locationId: '70001', adjustments: [entry('5001', 1, 'kg')] });

      const error = expectErrorEnvelope(res, 404, 'not_found');
      expect(error.details).toEqual({ resource: 'location', id: '70001' });
      expect(await snapshot(db, shopId)).toEqual(before);
      expect((await snapshot(db, other.shopId)).ledger).toEqual([]);
    });
  });
});
