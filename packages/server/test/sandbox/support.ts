import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { call } from '../support/harness.js';

/** A `_svc_data` property value measuring `value` `unit` of `type`. */
export const svcData = (type: string, value: number, unit: string) =>
  JSON.stringify({ measurement: { type, dimensions: [{ unit, value }] } });

/** POST/PUT/GET with a JSON body (when given) and the shop's key. */
export function send(server: RunningServer, key: string, method: string, path: string, body?: unknown) {
  return call(server, path, {
    key,
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

/** A new cart's token. */
export async function newCart(server: RunningServer, key: string): Promise<string> {
  const res = await send(server, key, 'POST', '/sandbox/carts');
  if (res.status !== 201) throw new Error(`cart not created: ${res.status} ${res.text}`);
  return res.body.token as string;
}

/** Adds the items to a new cart and checks it out; returns the order of the answer. */
export async function buy(
  server: RunningServer,
  key: string,
  items: { id: number | string; quantity: number; properties?: unknown }[],
  checkout: { locationId?: string } = {},
): Promise<any> {
  const token = await newCart(server, key);
  const added = await send(server, key, 'POST', `/sandbox/carts/${token}/add`, { items });
  if (added.status !== 200) throw new Error(`not added: ${added.status} ${added.text}`);
  const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, checkout);
  if (res.status !== 201) throw new Error(`not checked out: ${res.status} ${res.text}`);
  return res.body.order;
}

/** Sets the platform's whole units of a level as a merchant would. */
export async function typeStock(server: RunningServer, key: string, variantId: string, available: number) {
  const res = await send(server, key, 'PUT', '/sandbox/inventory', { locationId: '70001', variantId, available });
  if (res.status !== 200) throw new Error(`stock not set: ${res.status} ${res.text}`);
}

/** The platform's whole units as the sandbox shows them. */
export async function platformShows(server: RunningServer, key: string, variantId: string, locationId = '70001') {
  const res = await call(server, `/sandbox/inventory?locationId=${locationId}&variantId=${variantId}`, { key });
  if (res.status !== 200) throw new Error(`stock not read: ${res.status} ${res.text}`);
  return res.body.available as number;
}

/** Tare's exact total of a level, as decimal text (undefined when it has none). */
export async function tareTotal(db: Db, shopId: string, variantId: string, locationId = '70001') {
  const { rows } = await db.query<{ total: string }>(
    `SELECT total::text AS total FROM inventory_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3`,
    [shopId, locationId, variantId],
  );
  return rows[0] === undefined ? undefined : Number(rows[0].total);
}

/** Processes every event of the inbox, including late ones (chaos delivery), until none is pending. */
export async function settle(server: RunningServer, db: Db, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await server.services.inbox.drainNow();
    const { rows } = await db.query<{ pending: string; failed: string | null }>(
      `SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
         max(last_error) FILTER (WHERE status = 'parked' OR last_error IS NOT NULL) AS failed
       FROM platform_events`,
    );
    // A failing event is retried with backoff: report it rather than wait for it.
    if (rows[0]!.failed) throw new Error(`an event failed: ${rows[0]!.failed}`);
    if (Number(rows[0]!.pending) === 0) return;
    if (Date.now() > until) throw new Error(`${rows[0]!.pending} event(s) still pending`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
