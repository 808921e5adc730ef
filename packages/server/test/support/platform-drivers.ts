import { randomUUID } from 'node:crypto';
import type { RunningServer } from '../../src/main.js';
import type { PlatformGateway, RestockType } from '../../src/platform/gateway.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { moveLocalLevels } from '../../src/platform/local/levels-repository.js';
import { deleteLineItem, touchOrder, updateLineItem } from '../../src/platform/local/orders-repository.js';
import { lockOrder } from '../../src/platform/local/sandbox/shop-actions.js';
import { createShopifyGateway } from '../../src/platform/shopify/shopify-gateway.js';
import { createApiKey } from '../../src/services/api-keys.js';
import type { Db } from '../../src/store/db.js';
import { storeEvent } from '../../src/store/repositories/platform-events.js';
import { call, seedShop, startTestServer } from './harness.js';
import { coffeeShop } from './platform-simulator.js';
import { startShopifyShop } from './shopify-shop.js';

/**
 * One shop on a platform, followed by a running Tare, driven the same way whatever the platform
 * is: the coffee shop of `coffeeShop` (variant 2001 by the kg, 2002 by 100 g, stocked at 70001;
 * 70002 is a location where the platform stocks nothing). The driver acts as the platform (its
 * customers and its merchant), reads the platform's whole units, and `settle()` lets every
 * event, inbox entry and push land, which hides how the adapters differ in timing (the embedded
 * platform writes in Tare's transaction, Shopify through the outbox).
 */
export interface PlatformDriver {
  readonly kind: PlatformKind;
  /** How projections reach the platform: in Tare's transaction, or later through the outbox. */
  readonly projection: 'in-transaction' | 'outbox';
  readonly db: Db;
  readonly server: RunningServer;
  readonly shopId: string;
  readonly domain: string;
  readonly apiKey: string;
  readonly keyId: string;
  /** The adapter under test, behind the gateway port. */
  readonly gateway: PlatformGateway;

  /**
   * A customer checks out at 70001; each line costs `price` a unit (the platform is told, or
   * checked to charge it). Without `customer`, a guest who gives neither name nor e-mail.
   */
  placeOrder(lines: OrderLine[], customer?: OrderCustomerInput): Promise<{ orderId: string; lineIds: string[] }>;
  /** The merchant refunds units of lines; `return` and `cancel` put them back on the shelf. */
  refund(orderId: string, lines: { lineItemId: string; quantity: number; restockType: RestockType }[]): Promise<void>;
  /** The merchant cancels the order; with `restock` what is left goes back (refund lines of type `cancel`). */
  cancel(orderId: string, options: { restock: boolean }): Promise<void>;
  /** The merchant types a whole number of units for a variant at 70001 in the platform's admin. */
  typeStock(variantId: string, available: number): Promise<void>;
  /** The merchant edits the order on the platform (not through Tare): lines without refunds get a new quantity, restocked. */
  editOnPlatform(orderId: string, lines: { lineItemId: string; quantity: number }[]): Promise<void>;
  /** The platform's whole units of a variant (0 where it stocks nothing). */
  shown(variantId: string, locationId?: string): Promise<number>;
  /** The platform's clock now (what order timestamps are compared with). */
  now(): Promise<Date>;

  /** Tare's exact total of a variant at 70001, as decimal text. */
  total(variantId: string): Promise<string>;
  /** Keeps the platform's notices to Tare back from now on. */
  hold(): Promise<void>;
  /** Sends what was held in a shuffled order, each `duplicate` more times; Tare may process them or not yet. */
  release(options: { seed: number; duplicate: number }): Promise<void>;
  /** Sends anything held, then lets every event, inbox entry and push land until nothing moves. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export type PlatformKind = 'local' | 'shopify';
export const PLATFORM_KINDS: PlatformKind[] = ['local', 'shopify'];

export interface OrderLine {
  variantId: string;
  quantity: number;
  /** Unit price as decimal text. */
  price: string;
  properties?: Record<string, string>;
}

/** Who checks out: Shopify keeps a first and a last name, the sandbox one name (the two joined). */
export interface OrderCustomerInput {
  firstName: string;
  lastName: string;
  email: string;
}

export interface ShopOptions {
  stock: { kg: number; g?: number };
  platformStockChanges?: 'adopt' | 'override';
}

export const LOC = '70001';
/** A location of the shop where the platform stocks nothing. */
export const EMPTY_LOC = '70002';

export function startPlatformDriver(kind: PlatformKind, db: Db, options: ShopOptions): Promise<PlatformDriver> {
  return kind === 'local' ? startLocalDriver(db, options) : startShopifyDriver(db, options);
}

async function tareTotal(db: Db, shopId: string, variantId: string): Promise<string> {
  const { rows } = await db.query<{ total: string }>(
    'SELECT total::text AS total FROM inventory_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3',
    [shopId, LOC, variantId],
  );
  if (!rows[0]) throw new Error(`Tare has no level of ${variantId} at ${LOC}`);
  return rows[0].total;
}

async function startShopifyDriver(db: Db, options: ShopOptions): Promise<PlatformDriver> {
  const shop = await startShopifyShop(db, options);
  const { fake, shopId } = shop;
  fake.addLocation({ id: EMPTY_LOC, name: 'Back room' });
  const { keyId } = await createApiKey(db, { shopDomain: shop.domain });
  const ordered = (orderId: string) => fake.state.orders.get(orderId)!;
  // The fake stamps orders with whole milliseconds of Date.now: each action starts in a later
  // millisecond than the one the last action ended in, so that actions' times keep their order.
  let lastAction = 0;
  async function act<T>(action: () => T): Promise<T> {
    while (Date.now() <= lastAction) await new Promise((resolve) => setTimeout(resolve, 1));
    const result = action();
    lastAction = Date.now();
    return result;
  }
  return {
    kind: 'shopify',
    projection: 'outbox',
    db,
    get server() {
      return shop.server;
    },
    shopId,
    domain: shop.domain,
    apiKey: shop.apiKey,
    keyId,
    gateway: createShopifyGateway({ db, keyring: shop.keyring }).gateway,
    async placeOrder(lines, customer) {
      const orderId = await act(() =>
        fake.placeOrder({
          locationId: LOC,
          ...(customer ? { customer } : {}),
          lines: lines.map((l) => ({
            variantId: l.variantId,
            quantity: l.quantity,
            price: l.price,
            customAttributes: l.properties,
          })),
        }),
      );
      return { orderId, lineIds: ordered(orderId).lines.map((l) => l.id) };
    },
    async refund(orderId, lines) {
      await act(() => fake.refund(orderId, { lines }));
    },
    async cancel(orderId, { restock }) {
      await act(() => fake.cancelOrder(orderId, { restock }));
    },
    async typeStock(variantId, available) {
      await act(() => fake.merchantSetsStock(LOC, variantId, available));
    },
    async editOnPlatform(orderId, lines) {
      await act(() => fake.editOrderOnShopify(orderId, { setQuantity: lines.map((l) => ({ ...l, restock: true })) }));
    },
    async shown(variantId, locationId = LOC) {
      return fake.available(locationId, variantId) ?? 0;
    },
    async now() {
      return new Date(await act(() => Date.now()));
    },
    total: (variantId) => tareTotal(db, shopId, variantId),
    async hold() {
      fake.webhooks.hold();
    },
    async release({ seed, duplicate }) {
      await fake.webhooks.release({ shuffle: seed, duplicate });
      fake.webhooks.hold();
    },
    async settle() {
      await fake.webhooks.release();
      await shop.settle();
    },
    close: () => shop.close(),
  };
}

async function startLocalDriver(db: Db, options: ShopOptions): Promise<PlatformDriver> {
  const fixture = coffeeShop(options.stock, { platformStockChanges: options.platformStockChanges });
  const { shopId, domain, key, keyId } = await seedShop(db, {
    ...fixture,
    locations: [...(fixture.locations ?? []), { id: EMPTY_LOC, name: 'Back room' }],
  });
  const server = await startTestServer(db);
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await call(server, path, {
      key,
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new Error(`sandbox ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const holding = `test_hold_${shopId}`;
  let held = false;

  /** Held events of this shop's platform are those it stored due in an hour. */
  async function releaseHeld(order: (ids: string[]) => string[]): Promise<string[]> {
    if (!held) return [];
    await db.query(`DROP TRIGGER IF EXISTS ${holding} ON platform_events`);
    held = false;
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM platform_events WHERE shop_id = $1 AND status = 'pending'
         AND next_attempt_at > now() + interval '30 minutes' ORDER BY id`,
      [shopId],
    );
    const ids = order(rows.map((r) => r.id));
    // The inbox takes due events oldest first: each gets its turn in the order asked, one
    // millisecond apart in the past. The times are made here, not from now() in the UPDATE
    // (Citus refuses a stable function beside a column there).
    const start = Date.now() - 60_000;
    await db.query(
      `UPDATE platform_events e SET next_attempt_at = o.due
         FROM unnest($2::bigint[], $3::timestamptz[]) AS o(id, due) WHERE e.shop_id = $1 AND e.id = o.id`,
      [shopId, ids, ids.map((_, n) => new Date(start + n).toISOString())],
    );
    return ids;
  }

  const driver: PlatformDriver = {
    kind: 'local',
    projection: 'in-transaction',
    db,
    server,
    shopId,
    domain,
    apiKey: key,
    keyId,
    gateway: createLocalGateway(),
    async placeOrder(lines, customer) {
      const { token } = await send('POST', '/sandbox/carts');
      await send('POST', `/sandbox/carts/${token}/add`, {
        items: lines.map((l) => ({ id: l.variantId, quantity: l.quantity, properties: l.properties ?? {} })),
      });
      const { order } = await send('POST', `/sandbox/carts/${token}/checkout`, {
        locationId: LOC,
        ...(customer
          ? { customer: { name: `${customer.firstName} ${customer.lastName}`, email: customer.email } }
          : {}),
      });
      const charged: { id: string; price: number }[] = order.line_items;
      if (charged.length !== lines.length) throw new Error(`the sandbox merged lines: ${JSON.stringify(charged)}`);
      lines.forEach((line, i) => {
        // The sandbox prices lines by its own rule (PRODUCT.md §15): the test must ask for that price.
        const asked = Math.round(Number(line.price) * 100);
        if (charged[i]!.price !== asked) throw new Error(`the sandbox charged ${charged[i]!.price}, not ${asked}`);
      });
      return { orderId: order.id, lineIds: charged.map((l) => l.id) };
    },
    async refund(orderId, lines) {
      await send('POST', `/sandbox/orders/${orderId}/refunds`, { lines });
    },
    async cancel(orderId, { restock }) {
      await send('POST', `/sandbox/orders/${orderId}/cancel`, { restock });
    },
    async typeStock(variantId, available) {
      await send('PUT', '/sandbox/inventory', { locationId: LOC, variantId, available });
    },
    async editOnPlatform(orderId, lines) {
      // The embedded platform has no edit endpoint: its tables are written as it would write them.
      await db.transaction(async (tx) => {
        const order = await lockOrder(tx, shopId, orderId);
        const moves = [];
        for (const change of lines) {
          const line = order.lineItems.find((l) => l.id === change.lineItemId);
          if (!line?.variantId) throw new Error(`order ${orderId} has no stocked line ${change.lineItemId}`);
          if (change.quantity === 0) await deleteLineItem(tx, shopId, line.id);
          else await updateLineItem(tx, shopId, { ...line, quantity: change.quantity });
          moves.push({ locationId: order.locationId, variantId: line.variantId, by: line.quantity - change.quantity });
        }
        await moveLocalLevels(tx, shopId, moves);
        await touchOrder(tx, shopId, orderId);
        await storeEvent(tx, {
          shopId,
          eventId: `sandbox:${randomUUID()}`,
          topic: 'order_edited',
          payload: { orderId },
        });
      });
    },
    async shown(variantId, locationId = LOC) {
      const stock = await send('GET', `/sandbox/inventory?locationId=${locationId}&variantId=${variantId}`);
      return stock.available as number;
    },
    async now() {
      const { rows } = await db.query<{ now: Date }>('SELECT now() AS now');
      return new Date(rows[0]!.now);
    },
    total: (variantId) => tareTotal(db, shopId, variantId),
    async hold() {
      // The platform's own notices (ids `sandbox:…`) are stored due in an hour; Tare's are not held.
      await db.query(`CREATE OR REPLACE FUNCTION ${holding}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.shop_id = ${Number(shopId)} AND NEW.event_id LIKE 'sandbox:%' THEN
            NEW.next_attempt_at := now() + interval '1 hour';
          END IF;
          RETURN NEW;
        END $$`);
      await db.query(`CREATE OR REPLACE TRIGGER ${holding} BEFORE INSERT ON platform_events
        FOR EACH ROW EXECUTE FUNCTION ${holding}()`);
      held = true;
    },
    async release({ seed, duplicate }) {
      const ids = await releaseHeld((all) => seededShuffle(all, seed));
      // A duplicate is the same event id delivered again.
      const { rows } = await db.query<{ event_id: string; topic: never; payload: never }>(
        'SELECT event_id, topic, payload FROM platform_events WHERE shop_id = $1 AND id = ANY($2::bigint[])',
        [shopId, ids],
      );
      for (let copy = 0; copy < duplicate; copy++) {
        for (const row of rows) {
          await storeEvent(db, { shopId, eventId: row.event_id, topic: row.topic, payload: row.payload });
        }
      }
      await driver.hold();
    },
    async settle() {
      await releaseHeld((ids) => ids);
      for (let round = 0; round < 30; round++) {
        await server.services.inbox.drainNow();
        const due = await db.query(
          `UPDATE platform_events SET next_attempt_at = now() WHERE shop_id = $1 AND status = 'pending'`,
          [shopId],
        );
        if (due.rowCount === 0) return;
      }
      const { rows } = await db.query(
        `SELECT topic, last_error FROM platform_events WHERE shop_id = $1 AND status = 'pending'`,
        [shopId],
      );
      throw new Error(`the sandbox shop did not settle: ${JSON.stringify(rows)}`);
    },
    async close() {
      if (held) await db.query(`DROP TRIGGER IF EXISTS ${holding} ON platform_events`);
      await server.close();
    },
  };
  return driver;
}

/** A deterministic shuffle (mulberry32), so that a failing order of deliveries can be replayed. */
export function seededShuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
