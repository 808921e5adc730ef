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
  checkout: { locationId?: string; customer?: { name?: string; email?: string } } = {},
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

/**
 * Processes every event of the inbox, including late ones (chaos delivery) and those retried
 * after a failure (a deadlock lost to a concurrent platform change), until none is pending.
 */
export async function settle(server: RunningServer, db: Db, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await server.services.inbox.drainNow();
    const { rows } = await db.query<{ pending: string; parked: string | null; failing: string | null }>(
      `SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
         max(last_error) FILTER (WHERE status = 'parked') AS parked,
         max(last_error) FILTER (WHERE status = 'pending') AS failing
       FROM platform_events`,
    );
    const { pending, parked, failing } = rows[0]!;
    if (parked) throw new Error(`an event was parked: ${parked}`);
    if (Number(pending) === 0) return;
    if (Date.now() > until) throw new Error(`${pending} event(s) still pending${failing ? `: ${failing}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Holds the inbox back, as a platform whose webhooks are late: events are stored as usual but
 * fall due only in an hour, so what the platform did on its own can be seen before Tare acts.
 * `releaseDeliveries` makes every held event due now (then `settle` applies them).
 */
export async function holdDeliveries(db: Db): Promise<void> {
  await db.query(`CREATE OR REPLACE FUNCTION test_hold_platform_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN NEW.next_attempt_at := now() + interval '1 hour'; RETURN NEW; END $$`);
  await db.query(`CREATE OR REPLACE TRIGGER test_hold_platform_events BEFORE INSERT ON platform_events
    FOR EACH ROW EXECUTE FUNCTION test_hold_platform_events()`);
}

export async function releaseDeliveries(db: Db): Promise<void> {
  await db.query('DROP TRIGGER IF EXISTS test_hold_platform_events ON platform_events');
  await db.query(`UPDATE platform_events SET next_attempt_at = now() WHERE status = 'pending'`);
}

/** A browser of the storefront: keeps the `cart` cookie it is given, as a browser does. */
export function visitor(server: RunningServer, domain: string) {
  let cookie: string | undefined;
  const root = `/sandbox/storefront/${domain}/`;
  const request = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const res = await call(server, `${root}${path}`, { ...init, headers });
    const set = res.headers.get('set-cookie');
    if (set) cookie = /Max-Age=0/.test(set) ? undefined : set.split(';')[0];
    return res;
  };
  const json = (path: string, body: unknown) =>
    request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return {
    root,
    request,
    add: (items: unknown[]) => json('cart/add.js', { items }),
    change: (key: string, quantity: number) => json('cart/change.js', { key, quantity }),
    /** Posts the cart page's checkout form, with the customer's name and e-mail when typed. */
    checkout: (typed: { name?: string; email?: string } = {}) =>
      request('checkout', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(typed).toString(),
      }),
    get cookie() {
      return cookie;
    },
    set cookie(value) {
      cookie = value;
    },
  };
}
