// The least an order event can cost against an adjustment in the database, on Tare's own schema
// (`npm run bench:floor`, about a minute): each is done as one PL/pgSQL call that writes the rows
// Tare writes for it and reads only what it must, so no round trip, no JavaScript and no
// statement overhead is left, only the database's work for those rows.
//   adjustment  claim the key (Tare's function), lock the level, update it, one ledger row,
//               the embedded platform's level, the stored answer;
//   order event claim the event, the shop's and the order's locks, read the order and its
//               lines, track the order, read its bookings, then per line (three): lock the
//               level, update it, one ledger row, the platform's level, one booking.
// Orders are placed by the sandbox's checkout as in bench/events.ts (20, then drained). The
// event leaves out work Tare does (refunds, variants, location and since-when reads, measures
// parsed from `_svc_data`), so its figure is a lower bound; the ratio is the floor under Tare's
// event ÷ adjustment target. PGlite always, PostgreSQL when BENCH_PG_URL is set.
// Env: BENCH_FLOOR_SECONDS (measured time of each per store, default 3).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Db } from '../packages/server/src/store/db.js';
import { CHUNK, LOCATION, seed, shopper, VARIANTS } from './events.js';
import { median } from './report.js';
import { onEachStore } from './stores.js';

const SECONDS = Number(process.env.BENCH_FLOOR_SECONDS ?? 3);
const BODY = 'x'.repeat(250); // about the size of Tare's stored answer

const FUNCTIONS = `
CREATE FUNCTION floor_adjust(p_shop bigint, p_loc text, p_variant text, p_delta numeric, p_key text, p_body text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE c record; lvl record; after numeric;
BEGIN
  SELECT * INTO c FROM tare_claim_idempotency_key(p_shop, p_key, 24);
  SELECT l.total, l.unit, v.unit_value INTO lvl FROM inventory_levels l
    JOIN variants v ON v.shop_id = l.shop_id AND v.id = l.variant_id
    WHERE l.shop_id = p_shop AND l.location_id = p_loc AND l.variant_id = p_variant FOR UPDATE OF l;
  after := lvl.total + p_delta;
  UPDATE inventory_levels SET total = after, platform_available = floor(after / lvl.unit_value), updated_at = now()
    WHERE shop_id = p_shop AND location_id = p_loc AND variant_id = p_variant;
  INSERT INTO inventory_ledger (shop_id, location_id, variant_id, operation, quantity_before, quantity_after, delta,
      unit, idempotency_key, request_id, reference_type, reference_id)
    VALUES (p_shop, p_loc, p_variant, 'adjustment', lvl.total, after, p_delta, lvl.unit, p_key, 'floor',
      'idempotency_key', p_key);
  UPDATE local_platform_levels SET available = floor(after / lvl.unit_value), updated_at = now()
    WHERE shop_id = p_shop AND location_id = p_loc AND variant_id = p_variant;
  INSERT INTO idempotency_keys (shop_id, key, fingerprint, response_status, response_body, request_id)
    VALUES (p_shop, p_key, '\\x00', 200, p_body, 'floor');
END $$;

CREATE FUNCTION floor_event() RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE e record; o record; line record; lvl record; after numeric; delta numeric;
BEGIN
  UPDATE platform_events pe SET status = 'processed', processed_at = now(), attempts = attempts + 1, last_error = NULL
    WHERE id = (SELECT id FROM platform_events WHERE status = 'pending' AND next_attempt_at <= now()
                ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING pe.shop_id, pe.payload->>'orderId' AS order_id INTO e;
  IF NOT FOUND THEN RETURN false; END IF;
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('tare:orders:' || e.shop_id, 0)),
    pg_advisory_xact_lock(hashtextextended('tare:order:' || e.shop_id || ':' || e.order_id, 0));
  SELECT * INTO o FROM local_platform_orders WHERE shop_id = e.shop_id AND id = e.order_id;
  INSERT INTO tracked_orders (shop_id, order_id) VALUES (e.shop_id, e.order_id) ON CONFLICT DO NOTHING;
  PERFORM 1 FROM order_bookings WHERE shop_id = e.shop_id AND order_id = e.order_id;
  FOR line IN SELECT * FROM local_platform_line_items WHERE shop_id = e.shop_id AND order_id = e.order_id
      ORDER BY variant_id COLLATE "C" LOOP
    SELECT l.total, l.unit, v.unit_value INTO lvl FROM inventory_levels l
      JOIN variants v ON v.shop_id = l.shop_id AND v.id = l.variant_id
      WHERE l.shop_id = e.shop_id AND l.location_id = o.location_id AND l.variant_id = line.variant_id
      FOR UPDATE OF l;
    delta := -0.5 * line.quantity;
    after := lvl.total + delta;
    UPDATE inventory_levels SET total = after, platform_available = floor(after / lvl.unit_value), updated_at = now()
      WHERE shop_id = e.shop_id AND location_id = o.location_id AND variant_id = line.variant_id;
    INSERT INTO inventory_ledger (shop_id, location_id, variant_id, operation, quantity_before, quantity_after, delta,
        unit, idempotency_key, request_id, reference_type, reference_id)
      VALUES (e.shop_id, o.location_id, line.variant_id, 'sale', lvl.total, after, delta, lvl.unit, NULL, 'floor',
        'order', e.order_id);
    UPDATE local_platform_levels SET available = floor(after / lvl.unit_value), updated_at = now()
      WHERE shop_id = e.shop_id AND location_id = o.location_id AND variant_id = line.variant_id;
    INSERT INTO order_bookings (shop_id, order_id, line_item_id, variant_id, cause, amount, unit, units)
      VALUES (e.shop_id, e.order_id, line.id, line.variant_id, 'sale', -delta, lvl.unit, line.quantity);
  END LOOP;
  RETURN true;
END $$;`;

const log = (line: string) => console.error(`[floor] ${line}`);

async function measure(store: string, db: Db, analyze: boolean): Promise<void> {
  const shop = await seed(db);
  await db.query(FUNCTIONS);
  const buyer = shopper(db, shop);
  const run = randomBytes(4).toString('hex');
  let n = 0;
  const adjust = () => {
    const i = n++;
    return db.query('SELECT floor_adjust($1, $2, $3, $4, $5, $6)', [
      shop.id,
      LOCATION,
      VARIANTS[i % VARIANTS.length]!.id,
      i % 2 ? '0.25' : '-0.125',
      `${run}-${i}`,
      BODY,
    ]);
  };
  const placeChunk = async () => {
    for (let slot = 0; slot < CHUNK; slot++) await buyer.buy(slot);
  };
  const drain = async () => {
    let done = 0;
    while ((await db.query<{ floor_event: boolean }>('SELECT floor_event()')).rows[0]!.floor_event) done++;
    if (done !== CHUNK) throw new Error(`drained ${done} events, placed ${CHUNK}`);
  };
  try {
    for (let i = 0; i < 50; i++) await adjust();
    for (let i = 0; i < 2; i++) {
      await placeChunk();
      await drain();
    }
    if (analyze) await db.query('ANALYZE');
    const a = { count: 0, ms: 0 };
    const b = { count: 0, ms: 0 };
    const rounds: number[] = [];
    while (a.ms < SECONDS * 1000 || b.ms < SECONDS * 1000) {
      await placeChunk();
      const t0 = performance.now();
      await drain();
      const drained = performance.now() - t0;
      b.ms += drained;
      b.count += CHUNK;
      // Adjustments for as long as the drain took, as in bench/events.ts.
      const start = performance.now();
      let count = 0;
      while (performance.now() - start < drained) {
        await adjust();
        count++;
      }
      const took = performance.now() - start;
      a.ms += took;
      a.count += count;
      rounds.push(drained / CHUNK / (took / count));
    }
    // The floor must have done the work it stands for: three sale rows per event, one row per adjustment.
    const { rows } = await db.query<{ sales: string; adjustments: string }>(
      `SELECT count(*) FILTER (WHERE operation = 'sale')::text AS sales,
         count(*) FILTER (WHERE operation = 'adjustment')::text AS adjustments
       FROM inventory_ledger WHERE request_id = 'floor'`,
    );
    const events = b.count + 2 * CHUNK;
    if (Number(rows[0]!.sales) !== 3 * events || Number(rows[0]!.adjustments) !== n) {
      throw new Error(`ledger holds ${rows[0]!.sales} sale and ${rows[0]!.adjustments} adjustment rows`);
    }
    const event = b.ms / b.count;
    const adjustment = a.ms / a.count;
    log(
      `${store}: order event ${event.toFixed(2)} ms, adjustment ${adjustment.toFixed(2)} ms, ` +
        `floor ratio ${(event / adjustment).toFixed(2)}× (${rounds.length} rounds: median ${median(rounds).toFixed(2)}, ` +
        `${Math.min(...rounds).toFixed(2)}–${Math.max(...rounds).toFixed(2)})`,
    );
  } finally {
    await buyer.stop();
  }
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'tare-floor-'));
try {
  await onEachStore(tmp, 'pglite', (store, db) => measure(store, db, store === 'PostgreSQL'), log);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
