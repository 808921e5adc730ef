import type { ShopifyUnitPriceIssue } from '../domain/shopify-unit-price.js';
import { errors } from '../errors.js';
import { metafieldStats } from '../store/repositories/metafield-outbox.js';
import { outboxStats } from '../store/repositories/projection-outbox.js';
import { inboxStats } from '../store/repositories/platform-events.js';
import type { ShopifyConnectionStatus } from '../platform/shopify/connection.js';
import { loadShopifyConnection, type ShopifyConnectionDetails } from '../store/repositories/shopify-connections.js';
import { findShopByDomain, listShops, type Shop } from '../store/repositories/shops.js';
import type { Queryable } from '../store/db.js';
import { shopifyCheckoutPricing } from '../store/repositories/storefront-config.js';
import { shopifyUnitPriceIssues } from '../services/storefront/shopify-unit-prices.js';
import type { CommandContext } from './command.js';

/**
 * A secret shown without giving it away: its kind prefix (`shpat_`) and, for a long one, its
 * last four characters, so an operator can tell which token is in use.
 *
 * @example maskSecret('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') // 'shpat_…e1f0'
 */
export function maskSecret(secret: string): string {
  const prefix = /^[a-z]{2,8}_/.exec(secret)?.[0] ?? '';
  const tail = secret.length - prefix.length >= 16 ? secret.slice(-4) : '';
  return `${prefix}…${tail}`;
}

/** `tare platform show`: each shop's platform, connection and sync backlog; secrets masked. */
export async function showPlatform(ctx: CommandContext, options: { shop?: string; json?: boolean }): Promise<number> {
  let shops: Shop[];
  if (options.shop) {
    const shop = await findShopByDomain(ctx.db, options.shop);
    if (!shop) throw errors.notFound('shop', options.shop);
    shops = [shop];
  } else {
    shops = await listShops(ctx.db);
  }
  const reports = [];
  for (const shop of shops) reports.push(await describePlatform(ctx, shop));
  if (options.json) ctx.io.out(JSON.stringify(reports, null, 2));
  else for (const report of reports) for (const line of lines(report)) ctx.io.out(line);
  return 0;
}

export type PlatformReport = Awaited<ReturnType<typeof describePlatform>>;

/**
 * One shop's platform and sync backlog, without its connection: what the admin still shows when
 * the connection's credentials cannot be opened.
 */
export async function platformBacklog(db: Queryable, shop: Shop) {
  const inbox = await inboxStats(db, shop.id);
  const outbox = await outboxStats(db, shop.id);
  return {
    shop: shop.domain,
    platform: shop.platform,
    inbox: { pending: inbox.pending, parked: inbox.parked, oldestPendingAt: inbox.oldestPendingAt },
    outbox: { pending: outbox.pending, oldestQueuedAt: outbox.oldestQueuedAt, lastError: outbox.lastError },
    /** Storefront metafield and unit price writes waiting, and refused by Shopify (PRODUCT.md §18, §21). */
    metafields: await metafieldStats(db, shop.id),
    /** Measured variants whose unit price Shopify cannot state, so Tare does not write it (§21). */
    unitPriceIssues: await shopifyUnitPriceIssues(db, shop),
  };
}

/** One shop's platform, connection (secrets masked) and sync backlog; the admin shows it too. */
export async function describePlatform(ctx: Pick<CommandContext, 'db' | 'keyring'>, shop: Shop) {
  const base = await platformBacklog(ctx.db, shop);
  const connection =
    shop.platform === 'shopify' ? await loadShopifyConnection(ctx.db, shop.id, ctx.keyring) : undefined;
  if (!connection) return { ...base, shopify: null };
  const pricing = await shopifyCheckoutPricing(ctx.db, shop.id);
  return {
    ...base,
    shopify: {
      store: connection.store,
      endpoint: connection.endpoint,
      apiVersion: connection.apiVersion,
      status: shownStatus(connection),
      lastError: connection.lastError,
      lastErrorAt: connection.lastErrorAt,
      accessToken: maskSecret(connection.accessToken),
      clientSecret: maskSecret(connection.clientSecret),
      secretsKeyId: connection.secretsKeyId,
      connectedAt: connection.connectedAt,
      verifiedAt: connection.verifiedAt,
      /** null: not read yet (an import connected the shop); the storefront is told base_units. */
      pricingMode: pricing.pricingMode ?? null,
      /** The Cart Transform function: registered (its id), or why not; null where the store may not update lines. */
      cartTransform: pricing.cartTransform,
    },
  };
}

/**
 * `active` only once a call with the current credentials succeeded: a connection saved without
 * a check (an import) is `unverified` until then, though its sync runs and will find out.
 */
function shownStatus(connection: ShopifyConnectionDetails): ShopifyConnectionStatus | 'unverified' {
  return connection.status === 'active' && connection.verifiedAt === null ? 'unverified' : connection.status;
}

function lines(report: PlatformReport): string[] {
  const at = (date: Date | null) => (date ? date.toISOString() : '-');
  const { inbox, outbox, metafields, shopify, unitPriceIssues } = report;
  const out = [`${report.shop}: ${report.platform === 'local' ? 'local (the embedded platform)' : 'shopify'}`];
  if (shopify) {
    out.push(
      `  store          ${shopify.store}`,
      `  endpoint       ${shopify.endpoint}`,
      `  api version    ${shopify.apiVersion}`,
      `  status         ${shopify.status}`,
      `  last error     ${shopify.lastError ? `${shopify.lastError} (${at(shopify.lastErrorAt)})` : '-'}`,
      `  access token   ${shopify.accessToken}`,
      `  client secret  ${shopify.clientSecret}`,
      `  sealed with    key ${shopify.secretsKeyId}`,
      `  connected      ${at(shopify.connectedAt)}`,
      `  verified       ${shopify.verifiedAt ? at(shopify.verifiedAt) : 'never: no call to Shopify has succeeded with these credentials'}`,
      `  pricing mode   ${shopify.pricingMode ?? 'base_units (not read yet: run tare platform connect to read it)'}`,
    );
    const { cartTransform } = shopify;
    if (cartTransform) {
      out.push(
        `  cart transform ${cartTransform.registered ? `registered (${cartTransform.id})` : `not registered: ${cartTransform.problem}`}`,
      );
    }
  }
  out.push(
    `  inbox          ${inbox.pending} waiting${inbox.pending ? ` (oldest ${at(inbox.oldestPendingAt)})` : ''}, ${inbox.parked} failed and parked`,
    `  outbox         ${outbox.pending} level(s) waiting${outbox.pending ? ` (oldest ${at(outbox.oldestQueuedAt)})` : ''}` +
      (outbox.lastError ? `; last error: ${outbox.lastError}` : ''),
  );
  if (report.platform === 'shopify' || metafields.pending + metafields.failed > 0) {
    out.push(
      `  metafields     ${metafields.pending} write(s) waiting, ${metafields.failed} refused by Shopify` +
        (metafields.lastError ? `; last error: ${metafields.lastError}` : ''),
    );
  }
  out.push(...unitPriceIssueLines(unitPriceIssues).map((line) => `  ${line}`));
  return out;
}

/** Each variant whose unit price Shopify cannot state, in words (platform show and connect print them). */
export function unitPriceIssueLines(issues: ShopifyUnitPriceIssue[]): string[] {
  return issues.map(
    (issue) =>
      `unit price not written for variant ${issue.variantId} (product ${issue.productId}, unit ${issue.unit}): ${issue.problem}`,
  );
}
