import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandContext, CommandError, UsageError } from '../../src/cli/command.js';
import { maskSecret } from '../../src/cli/platform-show.js';
import { platformCommand } from '../../src/cli/platform.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createKeyring, type Keyring } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import type { Db } from '../../src/store/db.js';
import { loadShopifyConnection } from '../../src/store/repositories/shopify-connections.js';
import { findShopByDomain } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';
import { seedShop } from '../support/harness.js';

const TOKEN = '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';

/** A TCP port nothing listens on (the OS just handed it out and it was closed again). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const SECRET = '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';

describe.each(testDrivers({ citus: true }))('tare platform on $name', ({ create }) => {
  let db: Db;
  let fake: FakeShopify;
  const key = SecretKey.generate();
  /** One fake Shopify store per store a test connects (a store connects one shop), with this file's token. */
  const stores: FakeShopify[] = [];
  const fakeStore = async (store: string) => {
    const started = await startFakeShopify({ store, accessToken: TOKEN, clientSecret: SECRET });
    stores.push(started);
    return started;
  };
  beforeAll(async () => {
    db = await create();
    fake = await startFakeShopify({ store: `cli-${Math.random().toString(36).slice(2, 8)}.myshopify.com` });
  });
  afterAll(async () => {
    await fake?.close();
    for (const started of stores) await started.close();
    await db?.close();
  });

  function context(keyring: Keyring = createKeyring({ current: key })) {
    const out: string[] = [];
    let changed = 0;
    const ctx: CommandContext = {
      db,
      gateway: createLocalGateway(),
      keyring,
      io: { out: (line) => out.push(line), err: (line) => out.push(line) },
      changed: () => {
        changed++;
      },
    };
    return { ctx, out, changes: () => changed };
  }

  const connectArgs = (domain: string, store: string, extra: string[] = []) => [
    'connect',
    '--shop',
    domain,
    '--store',
    store,
    '--access-token',
    TOKEN,
    '--client-secret',
    SECRET,
    ...extra,
  ];
  /** Connects through a fake of `store` that accepts the file's token. */
  const connectToFake = async (domain: string, store: string, extra: string[] = []) => {
    const started = await fakeStore(store);
    return { fake: started, args: connectArgs(domain, store, ['--admin-api-url', started.adminApiUrl, ...extra]) };
  };

  it('when a shop is connected, then the credentials were checked with one shop read, show reports it active with its secrets masked, and connecting again changes nothing', async () => {
    const { domain, shopId } = await seedShop(db);
    const store = `show-${shopId}.myshopify.com`;
    const { fake: shopify, args } = await connectToFake(domain, store);
    const endpoint = shopify.adminApiUrl;
    const run = context();
    expect(await platformCommand(run.ctx, args)).toBe(0);
    expect(run.out).toEqual([
      `${domain} connected to ${store} ("show-${shopId}", ${endpoint}); credentials checked and sealed with key ${key.id}`,
      'pricing mode: base_units (the store cannot update lines: variants are priced per unit measurement)',
      'storefront metafield $app:tare.measurement: defined, readable by the storefront',
      'storefront metafield $app:tare.labels: defined, readable by the storefront',
      "storefront metafields: every measured variant's and the shop's are queued for Shopify",
    ]);
    // The check, the shop's Cart Transform eligible operations (the pricing mode), then the two
    // storefront metafield definitions, looked up and created.
    expect(shopify.calls.map((c) => [c.operationName, c.status])).toEqual([
      ['VerifyConnection', 'ok'],
      ['CartTransformEligibility', 'ok'],
      ['StorefrontMetafieldDefinition', 'ok'],
      ['CreateMetafieldDefinition', 'ok'],
      ['StorefrontMetafieldDefinition', 'ok'],
      ['CreateMetafieldDefinition', 'ok'],
    ]);
    expect(run.changes()).toBe(1);
    expect(await platformCommand(run.ctx, args)).toBe(0);
    expect(run.out[5]).toBe(
      `${domain} is already connected to ${store} ("show-${shopId}") with these values; credentials checked, nothing changed`,
    );

    const show = context();
    expect(await platformCommand(show.ctx, ['show', '--shop', domain])).toBe(0);
    expect(show.out).toEqual([
      `${domain}: shopify`,
      `  store          ${store}`,
      `  endpoint       ${endpoint}`,
      '  api version    2026-04',
      '  status         active',
      '  last error     -',
      '  access token   shpat_…e1f0',
      '  client secret  shpss_…8f90',
      `  sealed with    key ${key.id}`,
      expect.stringMatching(/^ {2}connected {6}\d{4}-\d\d-\d\dT/),
      expect.stringMatching(/^ {2}verified {7}\d{4}-\d\d-\d\dT/),
      '  pricing mode   base_units',
      '  inbox          0 waiting, 0 failed and parked',
      '  outbox         0 level(s) waiting',
      // The three variants' and the shop's storefront metafields (no server runs their writer here).
      '  metafields     4 write(s) waiting, 0 refused by Shopify',
    ]);
    const json = context();
    await platformCommand(json.ctx, ['show', '--shop', domain, '--json']);
    const [report] = JSON.parse(json.out.join('\n'));
    expect(report).toMatchObject({
      shop: domain,
      platform: 'shopify',
      shopify: {
        store,
        status: 'active',
        accessToken: 'shpat_…e1f0',
        clientSecret: 'shpss_…8f90',
        pricingMode: 'base_units',
      },
      inbox: { pending: 0, parked: 0 },
      outbox: { pending: 0 },
      metafields: { pending: 4, failed: 0 },
    });
    for (const printed of [...show.out, ...json.out, ...run.out]) {
      expect(printed).not.toContain(TOKEN);
      expect(printed).not.toContain(SECRET);
    }
  });

  it('when the arguments are wrong, then it is a usage error naming the option, and nothing is connected', async () => {
    const { domain, shopId } = await seedShop(db);
    const cases: [string[], RegExp][] = [
      [['connect', '--shop', domain, '--store', 'x.myshopify.com'], /needs --access-token/],
      [connectArgs(domain, 'shop.example.com'), /--store 'shop.example.com' is not a store host/],
      [
        connectArgs(domain, 'ok.myshopify.com', ['--api-version', '2026-4']),
        /--api-version '2026-4' is not an API version/,
      ],
      [
        connectArgs(domain, 'ok.myshopify.com', ['--admin-api-url', 'ftp://x']),
        /--admin-api-url must be an http or https URL/,
      ],
      [
        connectArgs(domain, 'ok.myshopify.com', ['--admin-api-url', 'https://me:pw@proxy.example/graphql.json']),
        /must not carry a user name or password/,
      ],
      [['webhooks', '--shop', domain], /needs --address/],
      [['rotate-key', 'now'], /unexpected argument 'now'/],
      [['teleport'], /unknown platform command 'teleport'/],
      [[], /platform needs a command/],
    ];
    for (const [args, message] of cases) {
      const attempt = platformCommand(context().ctx, args);
      await expect(attempt, args.join(' ')).rejects.toThrow(UsageError);
      await expect(platformCommand(context().ctx, args)).rejects.toThrow(message);
    }
    expect(await loadShopifyConnection(db, shopId, createKeyring({ current: key }))).toBeUndefined();
    await expect(platformCommand(context().ctx, connectArgs('nope.example', 'ok.myshopify.com'))).rejects.toThrow(
      "No shop with id 'nope.example'",
    );
  });

  it('when Shopify does not accept the credentials, then connect exits 1 saying what failed, and saves nothing', async () => {
    const { domain, shopId } = await seedShop(db);
    const store = `check-${shopId}.myshopify.com`;
    const { fake: shopify, args } = await connectToFake(domain, store);
    const other = await fakeStore(`other-${shopId}.myshopify.com`);
    const replace = (from: string, to: string) => args.map((arg) => (arg === from ? to : arg));
    const nowhere = `http://127.0.0.1:${await closedPort()}/admin/api/2026-04/graphql.json`;
    const cases: [string, string[], () => void, string][] = [
      ['a wrong token', replace(TOKEN, 'shpat_not_the_token'), () => {}, 'Shopify refused the access token (HTTP 401)'],
      [
        'an API version Shopify does not serve',
        replace(shopify.adminApiUrl, shopify.adminApiUrl.replace('/2026-04/', '/2031-01/')),
        () => {},
        `answered HTTP 404: there is no store ${store}, or Shopify does not serve Admin API version 2031-01`,
      ],
      ['an unreachable store', replace(shopify.adminApiUrl, nowhere), () => {}, `could not reach ${nowhere}: `],
      ['a throttled check', args, () => shopify.faults.throttle(1), 'Shopify throttled the check; try again in'],
      ['Shopify down', args, () => shopify.faults.serverErrors(1, 503), 'Shopify could not answer now (HTTP 503)'],
      [
        "another store's token",
        replace(shopify.adminApiUrl, other.adminApiUrl),
        () => {},
        `the access token is ${other.store}'s, not ${store}'s`,
      ],
    ];
    for (const [what, attempt, inject, reason] of cases) {
      inject();
      const run = platformCommand(context().ctx, attempt);
      await expect(run, what).rejects.toThrow(CommandError);
      await expect(run, what).rejects.toThrow(`platform connect: ${domain} not connected to ${store}, nothing saved: `);
      await expect(run, what).rejects.toThrow(reason);
      expect(await loadShopifyConnection(db, shopId, createKeyring({ current: key })), what).toBeUndefined();
      expect((await findShopByDomain(db, domain))?.platform, what).toBe('local');
    }
    expect(shopify.calls.map((c) => c.status)).toEqual(['unauthorized', 'not_found', 'throttled', 'server_error']);

    // A connected shop keeps its working credentials when new ones fail the check.
    expect(await platformCommand(context().ctx, args)).toBe(0);
    await expect(platformCommand(context().ctx, replace(TOKEN, 'shpat_not_the_token'))).rejects.toThrow(/HTTP 401/);
    const kept = await loadShopifyConnection(db, shopId, createKeyring({ current: key }));
    expect(kept).toMatchObject({ accessToken: TOKEN, status: 'active', verifiedAt: expect.any(Date) });
  });

  it('when a store is connected to a shop, then connecting it to another shop is refused', async () => {
    const first = await seedShop(db);
    const second = await seedShop(db);
    const store = `taken-${first.shopId}.myshopify.com`;
    const { args } = await connectToFake(first.domain, store);
    expect(await platformCommand(context().ctx, args)).toBe(0);
    const intruder = args.map((arg) => (arg === first.domain ? second.domain : arg));
    await expect(platformCommand(context().ctx, intruder)).rejects.toThrow(
      `The store ${store} is already connected to shop ${first.domain}.`,
    );
  });

  it('when webhooks are subscribed twice, then every topic is subscribed once at the address', async () => {
    const { domain } = await seedShop(db);
    await platformCommand(
      context().ctx,
      [...connectArgs(domain, fake.store, ['--admin-api-url', fake.adminApiUrl])].map((arg) =>
        arg === TOKEN ? fake.accessToken : arg === SECRET ? fake.clientSecret : arg,
      ),
    );
    const address = 'https://tare.example/webhooks/shopify';
    const first = context();
    expect(await platformCommand(first.ctx, ['webhooks', '--shop', domain, '--address', address])).toBe(0);
    const topics = [
      'ORDERS_CREATE',
      'ORDERS_CANCELLED',
      'ORDERS_EDITED',
      'REFUNDS_CREATE',
      'INVENTORY_LEVELS_UPDATE',
      'PRODUCTS_UPDATE',
      'APP_UNINSTALLED',
    ];
    expect(first.out.slice(0, 7)).toEqual(topics.map((topic) => `${topic}: subscribed`));
    expect(first.out[7]).toMatch(/^customers\/data_request, customers\/redact, shop\/redact: compliance topics/);
    const again = context();
    await platformCommand(again.ctx, ['webhooks', '--shop', domain, '--address', address]);
    expect(again.out.slice(0, 7)).toEqual(topics.map((topic) => `${topic}: already subscribed`));
    expect([...fake.state.webhookSubscriptions.values()].map((s) => [s.topic, s.uri]).sort()).toEqual(
      topics.map((topic) => [topic, address]).sort(),
    );
    fake.assertNoInvalidQueries();
  });

  it('when the key is rotated, then every connection is re-sealed with the new key and still opens', async () => {
    const { domain, shopId } = await seedShop(db);
    expect(
      await platformCommand(context().ctx, (await connectToFake(domain, `rotate-${shopId}.myshopify.com`)).args),
    ).toBe(0);
    const newKey = SecretKey.generate();
    // Other tests of this file sealed with `key` too: all of it moves.
    const rotating = context(createKeyring({ current: newKey, previous: [key] }));
    expect(await platformCommand(rotating.ctx, ['rotate-key'])).toBe(0);
    expect(rotating.out[0]).toMatch(new RegExp(`^re-sealed \\d+ connection\\(s\\) with key ${newKey.id}`));
    const onlyNew = createKeyring({ current: newKey });
    expect((await loadShopifyConnection(db, shopId, onlyNew))?.accessToken).toBe(TOKEN);
    const again = context(onlyNew);
    await platformCommand(again.ctx, ['rotate-key']);
    expect(again.out).toEqual([`every connection is sealed with key ${newKey.id} already`]);
    // Back to the file's key for the tests that follow.
    await platformCommand(context(createKeyring({ current: key, previous: [newKey] })).ctx, ['rotate-key']);
  });

  it('when a shop is disconnected, then its credentials are gone and it sells locally again', async () => {
    const { domain, shopId } = await seedShop(db);
    expect(
      await platformCommand(context().ctx, (await connectToFake(domain, `bye-${shopId}.myshopify.com`)).args),
    ).toBe(0);
    const run = context();
    expect(await platformCommand(run.ctx, ['disconnect', '--shop', domain])).toBe(0);
    expect(await platformCommand(run.ctx, ['disconnect', '--shop', domain])).toBe(0);
    expect(run.out).toEqual([
      `${domain} disconnected from Shopify: its credentials are deleted, its data kept`,
      `${domain} was not connected to Shopify`,
    ]);
    const show = context();
    await platformCommand(show.ctx, ['show', '--shop', domain]);
    expect(show.out[0]).toBe(`${domain}: local (the embedded platform)`);
  });
});

describe('maskSecret', () => {
  it.each([
    ['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', 'shpat_…e1f0'],
    ['0f1e2d3c4b5a69788796a5b4c3d2e1f0', '…e1f0'],
    ['shpss_short', 'shpss_…'],
    ['tiny', '…'],
  ])('when the secret is %s, then it shows as %s', (secret, shown) => {
    expect(maskSecret(secret)).toBe(shown);
  });
});
