/**
 * The cost of every query Tare sends to Shopify (PRODUCT.md §16): Shopify deducts the requested
 * cost before it runs a query, so it is what a burst of reads spends. The table in
 * docs/shopify-query-costs.md is checked here against Shopify's cost rules (the fake's calculator,
 * test/support/fake-shopify/cost.ts) and against what the fake charged for a typical call, so
 * neither can drift from the queries.
 */
import { readFileSync } from 'node:fs';
import { getOperationAST, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopifyAdmin } from '../../src/platform/shopify/admin-client.js';
import * as operations from '../../src/platform/shopify/operations.js';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { requestedCost, SINGLE_QUERY_MAX_COST } from '../support/fake-shopify/cost.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';

/** The largest call Tare makes of each: 250 ids for `nodes` (its batch), one page otherwise. */
const LARGEST: Record<string, unknown> = {
  ids: Array.from({ length: 250 }, (_, i) => `gid://shopify/ProductVariant/${i + 1}`),
  inventoryItemIds: Array.from({ length: 250 }, (_, i) => `gid://shopify/InventoryItem/${i + 1}`),
  locationId: 'gid://shopify/Location/70001',
  id: 'gid://shopify/Order/1',
  ownerType: 'PRODUCTVARIANT',
  namespace: '$app:tare',
  key: 'measurement',
};

/** The table's rows: operation → [requested, actual for the typical call]. */
function documentedCosts(): Map<string, [number, number]> {
  const text = readFileSync(new URL('../../../../docs/shopify-query-costs.md', import.meta.url), 'utf8');
  const rows = [...text.matchAll(/^\| `(\w+)` +\|[^|]*\| +(\d+) +\| +(\d+) +\|/gm)];
  return new Map(rows.map((row) => [row[1]!, [Number(row[2]), Number(row[3])]]));
}

const operationName = (document: string) => getOperationAST(parse(document))!.name!.value;

describe('the cost of Tare’s Shopify queries', () => {
  let fake: FakeShopify;
  beforeAll(async () => {
    fake = await startFakeShopify();
    addCoffeeShop(fake);
  });
  afterAll(async () => {
    await fake.close();
  });

  it('when each query is costed by Shopify’s rules at its largest, then the table says so and each stays under Shopify’s 1,000-point limit', () => {
    const table = documentedCosts();
    for (const document of Object.values(operations)) {
      const operation = getOperationAST(parse(document))!;
      const { cost, errors } = requestedCost({ schema: fake.schema, operation, fragments: {}, variables: LARGEST });
      expect(errors).toEqual([]);
      expect([operationName(document), table.get(operationName(document))?.[0]]).toEqual([
        operationName(document),
        cost,
      ]);
      expect(cost).toBeLessThan(SINGLE_QUERY_MAX_COST);
    }
  });

  it('when a typical order is read and written, then Shopify charges what the table says', async () => {
    const admin = createShopifyAdmin({
      store: fake.store,
      apiVersion: fake.apiVersion,
      accessToken: fake.accessToken,
      endpoint: fake.adminApiUrl,
    });
    // An order of two lines with one refund, the coffee shop's two variants at one location.
    const orderId = fake.placeOrder({
      locationId: '70001',
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      lines: [
        { variantId: '2001', quantity: 1 },
        { variantId: '2002', quantity: 2 },
      ],
    });
    const lineItemId = fake.state.orders.get(orderId)!.lines[0]!.id;
    const refundId = fake.refund(orderId, { lines: [{ lineItemId, quantity: 1, restockType: 'RETURN' }] });
    const variants = ['2001', '2002'];
    const variantDefinition = { ownerType: 'PRODUCTVARIANT', namespace: '$app:tare', key: 'measurement' };
    const item = (v: string) => `gid://shopify/InventoryItem/${fake.inventoryItemId(v)}`;
    const typical: [string, Record<string, unknown>][] = [
      [operations.VARIANT_INVENTORY_ITEMS, { ids: variants.map((v) => `gid://shopify/ProductVariant/${v}`) }],
      [
        operations.INVENTORY_LEVELS_AT_LOCATION,
        { inventoryItemIds: variants.map(item), locationId: LARGEST.locationId },
      ],
      [
        operations.SET_INVENTORY_QUANTITIES,
        {
          idempotencyKey: 'cost-table',
          input: {
            name: 'available',
            reason: 'correction',
            referenceDocumentUri: 'gid://tare/Cost',
            quantities: [
              { inventoryItemId: item('2001'), locationId: LARGEST.locationId, quantity: 9, changeFromQuantity: 9 },
            ],
          },
        },
      ],
      [operations.READ_ORDER, { id: `gid://shopify/Order/${orderId}` }],
      [operations.ORDER_CUSTOMER, { id: `gid://shopify/Order/${orderId}` }],
      [operations.REFUND_LINE_ITEMS, { id: `gid://shopify/Refund/${refundId}` }],
      [operations.ORDERS_CHANGED_SINCE, { query: null }],
      [
        operations.SET_METAFIELDS,
        {
          metafields: [
            {
              ownerId: 'gid://shopify/ProductVariant/2001',
              namespace: '$app:tare',
              key: 'measurement',
              type: 'json',
              value: '{}',
            },
          ],
        },
      ],
      [operations.SHOP_ID, {}],
      [operations.CART_TRANSFORM_ELIGIBILITY, {}],
      [operations.CART_TRANSFORMS, {}],
      [operations.CREATE_CART_TRANSFORM, { functionHandle: 'tare-cart-transform', blockOnFailure: false }],
      [operations.PRODUCT_VARIANT_PRICES, { id: 'gid://shopify/Product/1001' }],
      [
        operations.UPDATE_VARIANT_UNIT_PRICES,
        {
          productId: 'gid://shopify/Product/1001',
          variants: [
            {
              id: 'gid://shopify/ProductVariant/2002',
              showUnitPrice: true,
              unitPriceMeasurement: { quantityValue: 100, quantityUnit: 'G', referenceValue: 1, referenceUnit: 'KG' },
            },
          ],
        },
      ],
      // A store without Tare's definition yet: looked up, created, then granted (as an old one would be).
      [operations.STOREFRONT_METAFIELD_DEFINITION, { ...variantDefinition, namespace: '$app:tare' }],
      [
        operations.CREATE_METAFIELD_DEFINITION,
        {
          definition: { ...variantDefinition, name: 'Tare measurement', type: 'json', access: { storefront: 'NONE' } },
        },
      ],
      [
        operations.UPDATE_METAFIELD_DEFINITION,
        { definition: { ...variantDefinition, access: { storefront: 'PUBLIC_READ' } } },
      ],
    ];
    for (const [document, variables] of typical) await admin.request(document, variables);
    const { data } = await admin.request<{ orderEditBegin: { calculatedOrder: { id: string } } }>(
      operations.ORDER_EDIT_BEGIN,
      { id: `gid://shopify/Order/${orderId}` },
    );
    const calculated = data.orderEditBegin.calculatedOrder.id;
    await admin.request(operations.ORDER_EDIT_SET_QUANTITY, {
      id: calculated,
      lineItemId: `gid://shopify/CalculatedLineItem/${lineItemId}`,
      quantity: 0,
      restock: true,
    });
    await admin.request(operations.ORDER_EDIT_COMMIT, { id: calculated, notifyCustomer: false });

    const table = documentedCosts();
    const charged = fake.calls.map((c) => [c.operationName, c.requestedCost, c.actualCost]);
    const expected = fake.calls.map((c) => [c.operationName, c.requestedCost, table.get(c.operationName!)?.[1]]);
    expect(charged).toEqual(expected);
    expect(fake.calls.map((c) => c.status)).toEqual(fake.calls.map(() => 'ok'));
  });
});
