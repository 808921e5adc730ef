import type { Logger } from 'pino';
import { Dec } from '../../domain/decimal.js';
import { splitForPlatform } from '../../domain/platform-split.js';
import { convertForStorage } from '../../domain/units.js';
import { type PlatformGateway, PlatformUnavailableError } from '../../platform/gateway.js';
import type { Db } from '../../store/db.js';
import { listSkippedOrders, type SkippedLine } from '../../store/repositories/order-bookings.js';
import {
  type FailingEvent,
  inboxStats,
  type InboxStats,
  listFailingEvents,
} from '../../store/repositories/platform-events.js';
import { markReconciled } from '../../store/repositories/platform-sync.js';
import {
  claimReconciliation,
  listLevelsToReconcile,
  type ReconciledLevel,
  recordDrift,
  saveReconciliationReport,
} from '../../store/repositories/reconciliation.js';
import { findShopByDomain, listShops, type Shop } from '../../store/repositories/shops.js';
import { AppError } from '../../errors.js';
import { type FollowOutcome, followLevel } from './follow-level.js';
import { syncChangedOrders } from './sync-changed-orders.js';

/** A level whose platform figure is not Tare's projection. */
export interface Drift {
  variantId: string;
  locationId: string;
  /** What the platform shows. */
  platform: number;
  /** What Tare's exact total projects: floor(total / unit value). */
  expected: number;
  /** When reconciliation first saw it. */
  since: Date;
  /** With `fix`: what following the level did, or `failed` with the reason Tare refused it. */
  outcome?: FollowOutcome | 'failed';
  error?: string;
}

export interface ShopReconciliation {
  shop: string;
  levels: number;
  /** Orders the platform named since the last watermark (booked when fixing). */
  ordersSynced: number;
  drift: Drift[];
  /** Why the platform could not be compared now (a stopped sync, an outage); nothing else was done. */
  unavailable?: string;
  skippedOrders: { orderId: string; skipped: SkippedLine[] }[];
  inbox: InboxStats;
  /** Events that failed and are retrying or parked, each with the order it is about and its error. */
  failingEvents: FailingEvent[];
}

/**
 * Compares every level of the shops' measured variants with the platform (PRODUCT.md §14):
 * reports where the platform's whole units differ from Tare's projection; with `fix`, first
 * books the orders placed since the last watermark, then follows each drifting level by the
 * shop's rules (adopt or override).
 */
export async function reconcile(
  deps: { db: Db; gateway: PlatformGateway },
  options: { shopDomain?: string; fix: boolean },
): Promise<ShopReconciliation[]> {
  const shops = options.shopDomain ? [await shopByDomain(deps.db, options.shopDomain)] : await listShops(deps.db);
  const results: ShopReconciliation[] = [];
  for (const shop of shops) results.push(await reconcileOrReport(deps, shop, options.fix));
  return results;
}

/**
 * One shop's reconciliation; a platform that cannot be reached now (a stopped sync, an outage)
 * is reported as such, so that the other shops are reconciled all the same.
 */
async function reconcileOrReport(
  deps: { db: Db; gateway: PlatformGateway },
  shop: Shop,
  fix: boolean,
): Promise<ShopReconciliation> {
  try {
    return await reconcileShop(deps, shop, fix);
  } catch (err) {
    if (!(err instanceof PlatformUnavailableError)) throw err;
    const at = new Date().toISOString();
    const report = { at, levels: 0, ordersSynced: 0, fixed: fix, drift: [], unavailable: err.message };
    await saveReconciliationReport(deps.db, shop.id, report);
    return {
      shop: shop.domain,
      levels: 0,
      ordersSynced: 0,
      drift: [],
      ...(await problems(deps.db, shop.id)),
      unavailable: err.message,
    };
  }
}

async function shopByDomain(db: Db, domain: string): Promise<Shop> {
  const shop = await findShopByDomain(db, domain);
  if (!shop) throw new AppError('not_found', `No shop '${domain}'.`);
  return shop;
}

async function reconcileShop(deps: { db: Db; gateway: PlatformGateway }, shop: Shop, fix: boolean) {
  const { db, gateway } = deps;
  const now = new Date();
  const requestId = `reconcile:${now.toISOString()}`;
  const ordersSynced = fix
    ? (await db.transaction((tx) => syncChangedOrders(tx, gateway, { shopId: shop.id, requestId }))).checked
    : 0;
  const levels = await listLevelsToReconcile(db, shop.id);
  const shown = await gateway.readLevels(db, shop.id, levels);
  const drift: Drift[] = [];
  levels.forEach((level, i) => {
    const platform = shown[i]!.available;
    const expected = projection(level);
    if (platform !== expected) {
      drift.push({
        variantId: level.variantId,
        locationId: level.locationId,
        platform,
        expected,
        since: level.driftSince ?? now,
      });
    }
  });
  if (fix) {
    for (const found of drift) {
      try {
        found.outcome = await db.transaction((tx) =>
          followLevel(tx, gateway, {
            shopId: shop.id,
            locationId: found.locationId,
            variantId: found.variantId,
            cause: requestId,
            requestId,
          }),
        );
      } catch (error) {
        // A level Tare refuses to move (its total would leave the range it stores) is reported;
        // the shop's other levels are followed all the same.
        if (!(error instanceof AppError)) throw error;
        found.outcome = 'failed';
        found.error = error.message;
      }
    }
  }
  const drifting = new Set(fix ? [] : drift.map((d) => `${d.locationId}/${d.variantId}`));
  await recordDrift(
    db,
    shop.id,
    levels.map((l) => ({ ...l, drifting: drifting.has(`${l.locationId}/${l.variantId}`) })),
    now,
  );
  await markReconciled(db, shop.id);
  await saveReconciliationReport(db, shop.id, {
    at: now.toISOString(),
    levels: levels.length,
    ordersSynced,
    fixed: fix,
    drift: drift.map((d) => ({ ...d, since: d.since.toISOString() })),
  });
  return {
    shop: shop.domain,
    levels: levels.length,
    ordersSynced,
    drift,
    ...(await problems(db, shop.id)),
  };
}

/** What the shop's report lists besides drift: lines Tare could not book, and events that failed. */
async function problems(db: Db, shopId: string) {
  return {
    skippedOrders: await listSkippedOrders(db, shopId),
    inbox: await inboxStats(db, shopId),
    failingEvents: await listFailingEvents(db, shopId),
  };
}

/** Why a line was not booked, in words (the CLI's report and the admin say the same). */
export function describeSkippedLine(line: SkippedLine): string {
  switch (line.reason) {
    case 'unknown_variant':
      return `variant ${line.variantId} is not configured`;
    case 'unknown_location':
      return 'its location is not configured';
    case 'invalid_svc_data':
      return `its _svc_data is not a valid measurement (${line.detail ?? 'invalid'})`;
    case 'unbookable_measurement':
      return `its measurement cannot be booked exactly (${line.detail ?? 'out of range'})`;
  }
}

function projection(level: ReconciledLevel): number {
  const total = convertForStorage(new Dec(level.total), level.levelUnit, level.unit);
  return splitForPlatform(total, new Dec(level.unitValue)).integer.toNumber();
}

/**
 * Reconciles every shop every `everyMinutes` with `fix`, safe with several instances: each
 * shop's run is claimed through the database, so one instance does it per period.
 */
export function startReconciler(deps: { db: Db; gateway: PlatformGateway; logger: Logger; everyMinutes: number }) {
  if (deps.everyMinutes <= 0) return { stop() {} };
  const everyMs = deps.everyMinutes * 60_000;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const shop of await listShops(deps.db)) {
        if (!(await claimReconciliation(deps.db, shop.id, everyMs))) continue;
        const result = await reconcileOrReport(deps, shop, true);
        if (result.unavailable)
          deps.logger.warn({ shop: shop.domain, reason: result.unavailable }, 'reconciliation skipped');
        if (result.drift.length)
          deps.logger.warn({ shop: shop.domain, drift: result.drift }, 'reconciliation fixed drift');
      }
    } catch (err) {
      deps.logger.warn({ err }, 'reconciliation failed; retrying next period');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), Math.min(everyMs, 60_000));
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
