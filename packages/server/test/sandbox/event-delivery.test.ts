import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createEventDelivery } from '../../src/platform/local/sandbox/event-delivery.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';

const logger = createLogger('silent');

describe.each(testDrivers())('sandbox event delivery on $name', ({ create }) => {
  let db: Db;
  let shopId: string;

  beforeAll(async () => {
    db = await create();
    ({ shopId } = await seedShop(db));
  });

  afterAll(async () => {
    await db?.close();
  });

  const stored = async (eventId: string) =>
    (
      await db.query<{ topic: string; payload: unknown; late_ms: string }>(
        `SELECT topic, payload, (extract(epoch FROM next_attempt_at - received_at) * 1000)::int::text AS late_ms
         FROM platform_events WHERE event_id = $1`,
        [eventId],
      )
    ).rows;

  /** Runs one emitting transaction and returns the id the event got. */
  async function emitOne(delivery: ReturnType<typeof createEventDelivery>, orderId: string): Promise<string> {
    await delivery.transaction((tx, emit) => emit(shopId, 'order_placed', { orderId }));
    const { rows } = await db.query<{ event_id: string }>(
      `SELECT event_id FROM platform_events WHERE payload->>'orderId' = $1`,
      [orderId],
    );
    return rows[0]!.event_id;
  }

  it('when delivery is orderly, then the event is stored once, due at once, with a sandbox id', async () => {
    const delivery = createEventDelivery({ db, mode: 'orderly', logger });

    const eventId = await emitOne(delivery, '1');

    expect(eventId).toMatch(/^sandbox:[0-9a-f-]{36}$/);
    expect(await stored(eventId)).toEqual([{ topic: 'order_placed', payload: { orderId: '1' }, late_ms: '0' }]);
    await delivery.stop();
  });

  it('when delivery is chaos, then the event is due late and its duplicate after commit is kept once', async () => {
    // The store as it is, counting the statements sent outside a transaction: the duplicate's.
    let redelivered = 0;
    const counting: Db = {
      ...db,
      query: (sql, params) => {
        if (sql.includes('INSERT INTO platform_events')) redelivered++;
        return db.query(sql, params);
      },
    };
    const delivery = createEventDelivery({ db: counting, mode: 'chaos', logger, random: () => 0.5 });

    const eventId = await emitOne(delivery, '2');
    expect(redelivered).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect(redelivered).toBe(1);
    const rows = await stored(eventId);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.late_ms)).toBeGreaterThanOrEqual(600);
    expect(Number(rows[0]!.late_ms)).toBeLessThanOrEqual(1500);
    await delivery.stop();
  });

  it('when the transaction rolls back, then no event is stored and no duplicate is sent', async () => {
    const delivery = createEventDelivery({ db, mode: 'chaos', logger, random: () => 0 });

    await expect(
      delivery.transaction(async (_tx, emit) => {
        await emit(shopId, 'order_placed', { orderId: '3' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await new Promise((resolve) => setTimeout(resolve, 50));

    const { rows } = await db.query(`SELECT 1 FROM platform_events WHERE payload->>'orderId' = '3'`);
    expect(rows).toEqual([]);
    await delivery.stop();
  });

  it('when the database aborts an attempt to break a deadlock, then the change is tried again and its event stored once', async () => {
    const delivery = createEventDelivery({ db, mode: 'orderly', logger });
    let attempts = 0;

    const result = await delivery.transaction(async (_tx, emit) => {
      attempts++;
      await emit(shopId, 'order_placed', { orderId: '4' });
      if (attempts === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      return 'done';
    });

    expect(result).toBe('done');
    expect(attempts).toBe(2);
    const { rows } = await db.query(`SELECT 1 FROM platform_events WHERE payload->>'orderId' = '4'`);
    expect(rows).toHaveLength(1);
    await delivery.stop();
  });

  it('when an error is not a deadlock, then it is not tried again', async () => {
    const delivery = createEventDelivery({ db, mode: 'orderly', logger });
    let attempts = 0;

    await expect(
      delivery.transaction(async () => {
        attempts++;
        throw Object.assign(new Error('unique violation'), { code: '23505' });
      }),
    ).rejects.toThrow('unique violation');
    expect(attempts).toBe(1);
    await delivery.stop();
  });
});
