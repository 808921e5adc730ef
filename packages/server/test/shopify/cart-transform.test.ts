/**
 * The Cart Transform function on a connected store (PRODUCT.md §18): a deployed function prices
 * nothing until the app registers it with cartTransformCreate, which `tare platform connect` does
 * when the store may update lines. Registering is idempotent, never blocks a checkout, and a
 * function Shopify does not know (the app not deployed yet) leaves the shop in base_units with a
 * warning, until a connect registers it.
 */
import type { ShopStorefrontConfig } from '@tare/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/cli/command.js';
import { describePlatform } from '../../src/cli/platform-show.js';
import { platformCommand } from '../../src/cli/platform.js';
import { createShopifyAdmin } from '../../src/platform/shopify/admin-client.js';
import { CART_TRANSFORM_FUNCTION_HANDLE } from '../../src/platform/shopify/cart-transform.js';
import type { Db } from '../../src/store/db.js';
import { findShopByDomain } from '../../src/store/repositories/shops.js';
import { adminSession } from '../admin/support/admin-http.js';
import { staffWithPassword } from '../admin/support/admin-site.js';
import { testDrivers } from '../support/databases.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';
import { type ShopifyShop, startShopifyShop } from '../support/shopify-shop.js';

const DEPLOYED = { id: '01JTARE0CART0TRANSFORM0FN00', apiType: 'cart_transform' } as const;

describe.each(testDrivers())('the Cart Transform function at connect on $name', ({ create }) => {
  let db: Db;
  let shop: ShopifyShop;
  beforeAll(async () => {
    db = await create();
    shop = await startShopifyShop(db, { stock: { kg: 5 } });
  });
  afterAll(async () => {
    await shop?.close();
    await db?.close();
  });
  beforeEach(() => {
    // Each test starts from a store that may update lines, the app deployed and nothing registered.
    shop.fake.setCartTransformEligibility({ updateOperation: true });
    shop.fake.deployedFunctions.set(CART_TRANSFORM_FUNCTION_HANDLE, { ...DEPLOYED });
    shop.fake.state.cartTransforms.clear();
  });

  const connect = () => shop.connect();
  const reportOf = async (ctx: CommandContext) =>
    (await describePlatform(ctx, (await findShopByDomain(db, shop.domain))!)).shopify!;
  /** The calls connect made since `from` for the function (the metafield writer runs beside it). */
  const OTHERS = new Set([
    'ShopId',
    'SetMetafields',
    'StorefrontMetafieldDefinition',
    'CreateMetafieldDefinition',
    'UpdateMetafieldDefinition',
  ]);
  const calledSince = (from: number) =>
    shop.fake.calls
      .slice(from)
      .map((c) => c.operationName)
      .filter((name) => !OTHERS.has(name!));
  async function settingsPage(): Promise<string> {
    const staff = await staffWithPassword(db, shop.domain);
    const admin = await adminSession(shop.server, staff.email, staff.password);
    return (await admin.get('/admin/settings')).text;
  }

  it('when the store may update lines, then connect registers the function once, never blocking a checkout, and show and the admin say so', async () => {
    const from = shop.fake.calls.length;
    const first = await connect();
    expect(first.code).toBe(0);
    const [transform] = shop.fake.cartTransforms();
    expect(shop.fake.cartTransforms()).toEqual([{ id: transform!.id, functionId: DEPLOYED.id, blockOnFailure: false }]);
    const id = `gid://shopify/CartTransform/${transform!.id}`;
    expect(first.out).toContain(`cart transform: the function is registered on the store (${id})`);
    expect(first.err).toEqual([]);
    expect(calledSince(from)).toEqual([
      'VerifyConnection',
      'CartTransformEligibility',
      'CartTransforms',
      'CreateCartTransform',
    ]);

    // Connecting again finds it and registers nothing new.
    const second = shop.fake.calls.length;
    expect((await connect()).code).toBe(0);
    expect(calledSince(second)).toEqual(['VerifyConnection', 'CartTransformEligibility', 'CartTransforms']);
    expect(shop.fake.cartTransforms()).toHaveLength(1);

    const report = await reportOf(first.ctx);
    expect(report.pricingMode).toBe('function');
    expect(report.cartTransform).toEqual({ registered: true, id });
    const show: string[] = [];
    await platformCommand({ ...first.ctx, io: { out: (l) => show.push(l), err: (l) => show.push(l) } }, [
      'show',
      '--shop',
      shop.domain,
    ]);
    expect(show).toContain(`  cart transform registered (${id})`);
    expect(await settingsPage()).toContain(`Registered on the store (${id})`);
  });

  it('when the app is not deployed, then connect saves the shop in base_units, warns to deploy and connect again, and the next connect after deploying registers it', async () => {
    shop.fake.deployedFunctions.delete(CART_TRANSFORM_FUNCTION_HANDLE);
    const before = await connect();
    expect(before.code).toBe(0);
    expect(before.err).toEqual([
      `warning: the store may update lines, but the Cart Transform function is not registered: the app's function ${CART_TRANSFORM_FUNCTION_HANDLE} is not deployed on Shopify: deploy the app (shopify app deploy), then connect again`,
    ]);
    expect(before.out).toContain(
      'pricing mode: base_units until the Cart Transform function is registered (variants are priced per unit measurement)',
    );
    expect(shop.fake.cartTransforms()).toEqual([]);
    const report = await reportOf(before.ctx);
    expect(report.pricingMode).toBe('base_units');
    expect(report.cartTransform).toMatchObject({
      registered: false,
      problem: expect.stringContaining('shopify app deploy'),
    });
    await shop.settle();
    expect((shop.fake.metafield('shop', '$app:tare', 'labels') as ShopStorefrontConfig).pricingMode).toBe('base_units');
    expect(await settingsPage()).toContain(
      'is not deployed on Shopify: deploy the app (shopify app deploy), then connect again',
    );

    shop.fake.deployedFunctions.set(CART_TRANSFORM_FUNCTION_HANDLE, { ...DEPLOYED });
    const after = await connect();
    expect(after.err).toEqual([]);
    expect((await reportOf(after.ctx)).pricingMode).toBe('function');
    await shop.settle();
    expect((shop.fake.metafield('shop', '$app:tare', 'labels') as ShopStorefrontConfig).pricingMode).toBe('function');
  });

  it('when another connect registers the function between the look-up and the create, then FUNCTION_ALREADY_REGISTERED counts as registered', async () => {
    shop.fake.faults.onNextCartTransformCreate(() => {
      shop.fake.state.cartTransforms.set('777', { id: '777', functionId: DEPLOYED.id, blockOnFailure: false });
    });
    const { code, err, ctx } = await connect();
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(shop.fake.cartTransforms()).toHaveLength(1);
    expect((await reportOf(ctx)).cartTransform).toEqual({ registered: true, id: 'gid://shopify/CartTransform/777' });
  });

  it('when two connects of the same store run at once, then both succeed and the store has one function and each definition once', async () => {
    shop.fake.state.metafieldDefinitions.clear();
    const both = await Promise.all([connect(), connect()]);
    expect(both.map((c) => ({ code: c.code, err: c.err }))).toEqual([
      { code: 0, err: [] },
      { code: 0, err: [] },
    ]);
    expect(shop.fake.cartTransforms()).toHaveLength(1);
    const registered = { registered: true, id: `gid://shopify/CartTransform/${shop.fake.cartTransforms()[0]!.id}` };
    expect((await reportOf(both[0].ctx)).cartTransform).toEqual(registered);
    expect(
      shop.fake
        .metafieldDefinitions()
        .map((d) => `${d.ownerType} ${d.key} ${d.access.storefront}`)
        .sort(),
    ).toEqual(['PRODUCTVARIANT measurement PUBLIC_READ', 'SHOP labels PUBLIC_READ']);
    await shop.settle();
    expect((shop.fake.metafield('shop', '$app:tare', 'labels') as ShopStorefrontConfig).pricingMode).toBe('function');
  });

  it('when Shopify refuses the registration, then the shop stays in base_units with Shopify’s code and message', async () => {
    shop.fake.faults.refuseCartTransform('INPUT_INVALID', 'Failed to create cart transform due to invalid input.');
    const { code, err, ctx } = await connect();
    expect(code).toBe(0);
    expect(err[0]).toContain(
      `Shopify refused to register the function ${CART_TRANSFORM_FUNCTION_HANDLE} (INPUT_INVALID): Failed to create cart transform due to invalid input.`,
    );
    expect((await reportOf(ctx)).pricingMode).toBe('base_units');
  });

  it('when Shopify cannot be reached while registering, then connect fails saying so and saves nothing', async () => {
    shop.fake.setCartTransformEligibility({ updateOperation: false });
    expect((await connect()).code).toBe(0);
    shop.fake.setCartTransformEligibility({ updateOperation: true });
    shop.fake.faults.loseAnswers(1, { operation: 'CartTransforms' });
    await expect(connect()).rejects.toThrow(
      /not connected to .*, nothing saved: could not settle the shop's checkout pricing/,
    );
    const report = await reportOf({ db, keyring: shop.keyring } as CommandContext);
    expect(report.pricingMode).toBe('base_units');
    expect(report.cartTransform).toBeNull();
    expect(shop.fake.cartTransforms()).toEqual([]);
  });
});

describe('the fake Shopify’s cartTransformCreate', () => {
  let fake: FakeShopify;
  beforeAll(async () => {
    fake = await startFakeShopify();
  });
  afterAll(async () => {
    await fake.close();
  });
  const create = async (args: Record<string, unknown>) => {
    const admin = createShopifyAdmin({
      store: fake.store,
      apiVersion: fake.apiVersion,
      accessToken: fake.accessToken,
      endpoint: fake.adminApiUrl,
    });
    const { data } = await admin.request<{
      cartTransformCreate: { cartTransform: unknown; userErrors: { code: string; field: string[] | null }[] };
    }>(
      `mutation Create($functionId: String, $functionHandle: String) {
        cartTransformCreate(functionId: $functionId, functionHandle: $functionHandle) {
          cartTransform { id blockOnFailure }
          userErrors { code field message }
        }
      }`,
      args,
    );
    return data.cartTransformCreate;
  };

  it('when the function is named wrongly, then each mistake has Shopify’s code and nothing is registered', async () => {
    fake.deployedFunctions.set('tare-discount', { id: '01JDISCOUNT', apiType: 'discount' });
    const codes = [
      await create({}),
      await create({ functionId: DEPLOYED.id, functionHandle: CART_TRANSFORM_FUNCTION_HANDLE }),
      await create({ functionHandle: 'not-deployed' }),
      await create({ functionHandle: 'tare-discount' }),
    ].map((answer) => answer.userErrors.map((e) => e.code));
    expect(codes).toEqual([
      ['MISSING_FUNCTION_IDENTIFIER'],
      ['MULTIPLE_FUNCTION_IDENTIFIERS'],
      ['FUNCTION_NOT_FOUND'],
      ['FUNCTION_DOES_NOT_IMPLEMENT'],
    ]);
    expect(fake.cartTransforms()).toEqual([]);
  });

  it('when a function is registered by id, then it is registered once and blockOnFailure defaults to false', async () => {
    const first = await create({ functionId: DEPLOYED.id });
    expect(first).toMatchObject({ cartTransform: { blockOnFailure: false }, userErrors: [] });
    const second = await create({ functionHandle: CART_TRANSFORM_FUNCTION_HANDLE });
    expect(second).toMatchObject({
      cartTransform: null,
      userErrors: [{ code: 'FUNCTION_ALREADY_REGISTERED', field: ['functionHandle'] }],
    });
    expect(fake.cartTransforms()).toHaveLength(1);
  });
});
