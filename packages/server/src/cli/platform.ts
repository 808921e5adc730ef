import { errors } from '../errors.js';
import type { CheckoutPricing } from '../platform/shopify/connection.js';
import type { DefinitionOutcome } from '../platform/shopify/metafield-definitions.js';
import { createShopifyAdmin } from '../platform/shopify/admin-client.js';
import { subscribeWebhooks } from '../platform/shopify/webhook-subscriptions.js';
import { ShopifyCredentialsError } from '../platform/shopify/verify-credentials.js';
import {
  connectShopToShopify,
  ensureStorefrontDefinitionsOf,
  settleCheckoutPricingOf,
  shopifyConnectionProblems,
  verifyShopifyConnection,
} from '../services/shopify-connection.js';
import {
  deleteShopifyConnection,
  loadShopifyConnection,
  resealConnections,
} from '../store/repositories/shopify-connections.js';
import { findShopByDomain, findShopById, type Shop } from '../store/repositories/shops.js';
import { shopifyUnitPriceIssues } from '../services/storefront/shopify-unit-prices.js';
import { parseCommandArgs } from './args.js';
import { CommandError, type CommandContext, type StoreCommand, UsageError } from './command.js';
import { showPlatform, unitPriceIssueLines } from './platform-show.js';

const USAGE = `usage:
  tare platform connect --shop DOMAIN --store NAME.myshopify.com --access-token TOKEN --client-secret SECRET
                        [--api-version YYYY-MM] [--admin-api-url URL]
  tare platform show [--shop DOMAIN] [--json]
  tare platform webhooks --shop DOMAIN --address https://tare.example/webhooks/shopify
  tare platform disconnect --shop DOMAIN
  tare platform rotate-key      re-seal every shop's credentials with TARE_SECRETS_KEY`;

const FLAGS: Record<string, string> = {
  store: '--store',
  accessToken: '--access-token',
  clientSecret: '--client-secret',
  apiVersion: '--api-version',
  adminApiUrl: '--admin-api-url',
};

/** `tare platform …`: which platform a shop sells on, its credentials and Shopify's webhooks (PRODUCT.md §16). */
export const platformCommand: StoreCommand = async (ctx, args) => {
  const [action, ...rest] = args;
  if (action === 'connect') return connect(ctx, rest);
  if (action === 'show') return showPlatform(ctx, parse('platform show', rest, ['shop'], ['json']).values);
  if (action === 'webhooks') return webhooks(ctx, rest);
  if (action === 'disconnect') return disconnect(ctx, rest);
  if (action === 'rotate-key') {
    parse('platform rotate-key', rest, []);
    const { resealed, keyId } = await ctx.db.transaction((tx) => resealConnections(tx, ctx.keyring));
    ctx.io.out(
      resealed === 0
        ? `every connection is sealed with key ${keyId} already`
        : `re-sealed ${resealed} connection(s) with key ${keyId}; the previous keys can now be removed`,
    );
    return 0;
  }
  if (action === undefined) {
    throw new UsageError('platform needs a command: connect, show, webhooks, disconnect or rotate-key', USAGE);
  }
  throw new UsageError(`unknown platform command '${action}'`, USAGE);
};

function parse<Name extends string, Flag extends string = never>(
  command: string,
  args: string[],
  names: readonly Name[],
  flags: readonly Flag[] = [],
) {
  const parsed = parseCommandArgs(command, args, names, USAGE, flags);
  if (parsed.positionals.length)
    throw new UsageError(`${command}: unexpected argument '${parsed.positionals[0]}'`, USAGE);
  return parsed;
}

async function shopNamed(ctx: CommandContext, command: string, domain: string | undefined): Promise<Shop> {
  if (!domain) throw new UsageError(`${command} needs --shop DOMAIN`, USAGE);
  const shop = await findShopByDomain(ctx.db, domain);
  if (!shop) throw errors.notFound('shop', domain);
  return shop;
}

async function connect(ctx: CommandContext, args: string[]): Promise<number> {
  const names = ['shop', 'store', 'access-token', 'client-secret', 'api-version', 'admin-api-url'] as const;
  const { values } = parse('platform connect', args, names);
  for (const required of ['store', 'access-token', 'client-secret'] as const) {
    if (!values[required]) throw new UsageError(`platform connect needs --${required}`, USAGE);
  }
  const input = {
    store: values.store!,
    accessToken: values['access-token']!,
    clientSecret: values['client-secret']!,
    apiVersion: values['api-version'],
    adminApiUrl: values['admin-api-url'],
  };
  const problems = shopifyConnectionProblems(input);
  if (problems.length) {
    const [first, ...others] = problems.map(({ field, message }) => `${FLAGS[field]} ${message}`);
    throw new UsageError(`platform connect: ${[first, ...others].join('; ')}`, USAGE);
  }
  const shop = await shopNamed(ctx, 'platform connect', values.shop);
  // Every read below happens before anything is saved: a connect that fails leaves nothing behind.
  const notConnected = (why: string) =>
    new CommandError(`platform connect: ${shop.domain} not connected to ${input.store}, nothing saved: ${why}`);
  const orNotConnected = (doing: string) => (error: unknown) => {
    throw notConnected(`could not ${doing}: ${(error as Error).message}`);
  };
  // A connection Tare cannot use is refused, not stored.
  const { shopName } = await verifyShopifyConnection(input).catch((error: unknown) => {
    if (!(error instanceof ShopifyCredentialsError)) throw error;
    throw notConnected(error.reason);
  });
  // The pricing mode, and the function registered where it can price lines (PRODUCT.md §18).
  const pricing = await settleCheckoutPricingOf(input).catch(orNotConnected("settle the shop's checkout pricing"));
  // Before the metafields are queued: an app-owned metafield is unreadable on the storefront until
  // its definition grants storefront access.
  const definitions = await ensureStorefrontDefinitionsOf(input).catch(
    orNotConnected('define the storefront metafields'),
  );
  const { changed } = await ctx.db.transaction((tx) =>
    connectShopToShopify(tx, ctx.keyring, shop.id, input, { verified: true, pricing }),
  );
  ctx.changed();
  const connection = await loadShopifyConnection(ctx.db, shop.id, ctx.keyring);
  ctx.io.out(
    changed
      ? `${shop.domain} connected to ${connection!.store} ("${shopName}", ${connection!.endpoint}); credentials checked and sealed with key ${connection!.secretsKeyId}`
      : `${shop.domain} is already connected to ${connection!.store} ("${shopName}") with these values; credentials checked, nothing changed`,
  );
  reportPricing(ctx, pricing);
  reportDefinitions(ctx, definitions);
  ctx.io.out("storefront metafields: every measured variant's and the shop's are queued for Shopify");
  const connected = await findShopById(ctx.db, shop.id);
  for (const line of unitPriceIssueLines(await shopifyUnitPriceIssues(ctx.db, connected!)))
    ctx.io.err(`warning: ${line}`);
  return 0;
}

function reportPricing(ctx: CommandContext, { pricingMode, cartTransform }: CheckoutPricing): void {
  if (pricingMode === 'function') {
    ctx.io.out(
      'pricing mode: function (the Cart Transform function prices measured lines; the store may update lines)',
    );
    if (cartTransform?.registered)
      ctx.io.out(`cart transform: the function is registered on the store (${cartTransform.id})`);
    return;
  }
  if (cartTransform && !cartTransform.registered) {
    // Saved all the same: base units charge right on every plan, and connecting again registers it.
    ctx.io.err(
      `warning: the store may update lines, but the Cart Transform function is not registered: ${cartTransform.problem}`,
    );
    ctx.io.out(
      'pricing mode: base_units until the Cart Transform function is registered (variants are priced per unit measurement)',
    );
    return;
  }
  ctx.io.out('pricing mode: base_units (the store cannot update lines: variants are priced per unit measurement)');
}

const DEFINITION_CHANGES = {
  created: 'defined, readable by the storefront',
  granted: 'readable by the storefront from now on (its definition had no storefront access)',
  none: 'readable by the storefront',
};

function reportDefinitions(ctx: CommandContext, outcomes: DefinitionOutcome[]): void {
  for (const outcome of outcomes) {
    // Saved all the same: the stock and the checkout work without the picker, and connecting again retries.
    if (!outcome.readable) ctx.io.err(`warning: ${outcome.problem}`);
    else ctx.io.out(`storefront metafield $app:tare.${outcome.metafield.key}: ${DEFINITION_CHANGES[outcome.change]}`);
  }
}

async function webhooks(ctx: CommandContext, args: string[]): Promise<number> {
  const { values } = parse('platform webhooks', args, ['shop', 'address']);
  if (!values.address) throw new UsageError('platform webhooks needs --address URL', USAGE);
  if (!/^https?:\/\/[^\s/]+/.test(values.address)) {
    throw new UsageError('platform webhooks: --address must be the http(s) URL of POST /webhooks/shopify', USAGE);
  }
  const shop = await shopNamed(ctx, 'platform webhooks', values.shop);
  const connection = await loadShopifyConnection(ctx.db, shop.id, ctx.keyring);
  if (!connection)
    throw new CommandError(`${shop.domain} is not connected to Shopify; run tare platform connect first`);
  const outcomes = await subscribeWebhooks(createShopifyAdmin(connection), values.address).catch((error: unknown) => {
    throw new CommandError(`could not subscribe ${connection.store}'s webhooks: ${(error as Error).message}`);
  });
  for (const { topic, outcome } of outcomes) ctx.io.out(`${topic}: ${outcome}`);
  ctx.io.out(
    'customers/data_request, customers/redact, shop/redact: compliance topics, set to the same address in the ' +
      "app's configuration (Shopify does not take them through the API)",
  );
  return 0;
}

async function disconnect(ctx: CommandContext, args: string[]): Promise<number> {
  const { values } = parse('platform disconnect', args, ['shop']);
  const shop = await shopNamed(ctx, 'platform disconnect', values.shop);
  const removed = await ctx.db.transaction((tx) => deleteShopifyConnection(tx, shop.id));
  ctx.changed();
  ctx.io.out(
    removed
      ? `${shop.domain} disconnected from Shopify: its credentials are deleted, its data kept`
      : `${shop.domain} was not connected to Shopify`,
  );
  return 0;
}
