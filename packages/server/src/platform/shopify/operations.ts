/**
 * Every GraphQL document Tare sends to Shopify's Admin API, in one place so that the fake Shopify
 * of the tests validates each against its copy of the published schema (version 2026-04).
 * Each document names the reference pages that justify its fields; nothing here may name a field
 * those pages lack. Connections are read page by page (`pageInfo`), lists and objects whole.
 */

/**
 * Variant → inventory item, for up to 250 variants at once.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/nodes
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/ProductVariant (inventoryItem: InventoryItem!)
 */
export const VARIANT_INVENTORY_ITEMS = /* GraphQL */ `
  query VariantInventoryItems($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on ProductVariant {
        id
        inventoryItem {
          id
        }
      }
    }
  }
`;

/**
 * The `available` quantity of up to 250 inventory items at one location; `inventoryLevel` is null
 * where the item is not stocked there.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/InventoryItem (inventoryLevel(locationId: ID!))
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/InventoryLevel (quantities(names: [String!]!))
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/InventoryQuantity (name, quantity)
 */
export const INVENTORY_LEVELS_AT_LOCATION = /* GraphQL */ `
  query InventoryLevelsAtLocation($inventoryItemIds: [ID!]!, $locationId: ID!) {
    nodes(ids: $inventoryItemIds) {
      ... on InventoryItem {
        id
        inventoryLevel(locationId: $locationId) {
          quantities(names: ["available"]) {
            name
            quantity
          }
        }
      }
    }
  }
`;

/**
 * Sets `available` absolutely, each quantity only while Shopify still shows its
 * `changeFromQuantity` (mandatory since 2026-04; `null` opts one quantity out of the check), with
 * the idempotency key mandatory since 2026-04 (a retry with the same key replays the first answer).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/inventorySetQuantities
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/InventorySetQuantitiesInput
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/InventoryQuantityInput
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/InventorySetQuantitiesUserError
 * https://shopify.dev/changelog/making-idempotency-mandatory-for-inventory-adjustments-and-refund-mutations
 * https://shopify.dev/docs/api/usage/idempotent-requests (@idempotent(key: String!))
 */
export const SET_INVENTORY_QUANTITIES = /* GraphQL */ `
  mutation SetInventoryQuantities($input: InventorySetQuantitiesInput!, $idempotencyKey: String!) {
    inventorySetQuantities(input: $input) @idempotent(key: $idempotencyKey) {
      inventoryAdjustmentGroup {
        id
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`;

/**
 * One order: its state, where its stock is taken, one page of its lines and the ids of its
 * refunds (their lines are read with REFUND_LINE_ITEMS, a connection each). Shopify deducts the
 * requested cost before running a query (page size × a line's cost), so pages are sized for real
 * orders (20 lines, 5 fulfillment orders) and a larger order is read page by page: 142 points
 * requested instead of 337 for 50 lines (docs/shopify-query-costs.md).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/order
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Order (name, createdAt, cancelledAt, closed,
 *   retailLocation, fulfillmentOrders, lineItems, refunds)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/FulfillmentOrder (assignedLocation)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/FulfillmentOrderAssignedLocation (location)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/LineItem (quantity, currentQuantity,
 *   unfulfilledQuantity, variant, product, customAttributes, originalUnitPriceSet)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Attribute (key, value)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/MoneyBag (shopMoney)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/MoneyV2 (amount: Decimal!)
 */
export const READ_ORDER = /* GraphQL */ `
  query ReadOrder($id: ID!, $lineItemsAfter: String) {
    order(id: $id) {
      id
      name
      createdAt
      cancelledAt
      closed
      retailLocation {
        id
      }
      fulfillmentOrders(first: 5) {
        nodes {
          assignedLocation {
            location {
              id
            }
          }
        }
      }
      lineItems(first: 20, after: $lineItemsAfter) {
        nodes {
          id
          quantity
          currentQuantity
          unfulfilledQuantity
          variant {
            id
          }
          product {
            id
          }
          customAttributes {
            key
            value
          }
          originalUnitPriceSet {
            shopMoney {
              amount
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      refunds {
        id
      }
    }
  }
`;

/**
 * Who placed an order, asked apart from READ_ORDER: these are protected customer data of level 2
 * (name and e-mail), which Shopify withholds from an app not approved for them (a public app
 * without review, a custom app on a store below the Shopify plan), answering ACCESS_DENIED. Asked
 * alone, a refusal costs the admin a customer's name, never an order's booking. 2 points.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Order (email, customer: "Returns null
 *   if an order was created through a checkout without customer authentication")
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Customer (displayName: the full name,
 *   else the e-mail, else the phone number)
 * https://shopify.dev/docs/apps/launch/protected-customer-data (levels 1 and 2)
 */
export const ORDER_CUSTOMER = /* GraphQL */ `
  query OrderCustomer($id: ID!) {
    order(id: $id) {
      email
      customer {
        displayName
      }
    }
  }
`;

/**
 * One page of a refund's lines with how each was restocked.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/node
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Refund (refundLineItems)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/RefundLineItem (lineItem, quantity, restockType)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/enums/RefundLineItemRestockType
 */
export const REFUND_LINE_ITEMS = /* GraphQL */ `
  query RefundLineItems($id: ID!, $after: String) {
    node(id: $id) {
      ... on Refund {
        id
        refundLineItems(first: 20, after: $after) {
          nodes {
            lineItem {
              id
            }
            quantity
            restockType
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
      }
    }
  }
`;

/**
 * Ids of the orders matching a search (`updated_at:>=…`), least recently updated first, 100 a
 * page (102 points requested; a poll usually finds a few orders).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/orders (query, sortKey, first, after)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/enums/OrderSortKeys (UPDATED_AT)
 */
export const ORDERS_CHANGED_SINCE = /* GraphQL */ `
  query OrdersChangedSince($query: String, $after: String) {
    orders(first: 100, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {
        id
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/**
 * Opens an order edit: the calculated order stages changes until committed (or abandoned, by
 * never committing it).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/orderEditBegin
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/CalculatedOrder
 */
export const ORDER_EDIT_BEGIN = /* GraphQL */ `
  mutation OrderEditBegin($id: ID!) {
    orderEditBegin(id: $id) {
      calculatedOrder {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/**
 * Stages a line's new quantity (0 removes it); `restock` puts removed units back on Shopify's
 * stock.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/orderEditSetQuantity
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/CalculatedLineItem (id, quantity)
 */
export const ORDER_EDIT_SET_QUANTITY = /* GraphQL */ `
  mutation OrderEditSetQuantity($id: ID!, $lineItemId: ID!, $quantity: Int!, $restock: Boolean) {
    orderEditSetQuantity(id: $id, lineItemId: $lineItemId, quantity: $quantity, restock: $restock) {
      calculatedLineItem {
        id
        quantity
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/**
 * Applies the staged changes to the order.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/orderEditCommit (id, notifyCustomer, staffNote)
 */
export const ORDER_EDIT_COMMIT = /* GraphQL */ `
  mutation OrderEditCommit($id: ID!, $notifyCustomer: Boolean, $staffNote: String) {
    orderEditCommit(id: $id, notifyCustomer: $notifyCustomer, staffNote: $staffNote) {
      order {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/**
 * Sets up to 25 metafields at once, atomically: nothing is set when any input has a user error,
 * which names its input by `elementIndex`. Tare's are app-owned (`$app:tare`) and of type `json`.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/metafieldsSet
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/MetafieldsSetInput
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/MetafieldsSetUserError (code, elementIndex, field, message)
 * https://shopify.dev/docs/apps/build/custom-data/ownership (the `$app` namespace prefix)
 */
export const SET_METAFIELDS = /* GraphQL */ `
  mutation SetMetafields($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields {
        id
      }
      userErrors {
        code
        elementIndex
        field
        message
      }
    }
  }
`;

/**
 * The shop's id (the owner of its `$app:tare.labels` metafield).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/shop
 */
export const SHOP_ID = /* GraphQL */ `
  query ShopId {
    shop {
      id
    }
  }
`;

/**
 * Which Cart Transform operations the shop may use: `updateOperation` (`lineUpdate`) is what
 * prices a measured line in the function's pricing mode (Plus and development stores).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Shop (features: ShopFeatures!)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/ShopFeatures (cartTransform: CartTransformFeature!)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/CartTransformFeature (eligibleOperations)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/CartTransformEligibleOperations
 */
export const CART_TRANSFORM_ELIGIBILITY = /* GraphQL */ `
  query CartTransformEligibility {
    shop {
      features {
        cartTransform {
          eligibleOperations {
            expandOperation
            mergeOperation
            updateOperation
          }
        }
      }
    }
  }
`;

/**
 * The cart transforms the app has registered on the shop ("owned by the current API client"). The
 * app ships one function, so any of them is Tare's; 5 a page leaves room for a merchant's
 * leftovers without paying for 250.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/cartTransforms
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/CartTransform (id, functionId, blockOnFailure)
 */
export const CART_TRANSFORMS = /* GraphQL */ `
  query CartTransforms {
    cartTransforms(first: 5) {
      nodes {
        id
        functionId
        blockOnFailure
      }
    }
  }
`;

/**
 * Registers the deployed function on the shop by its handle (exactly one of `functionHandle` and
 * `functionId`), never blocking a checkout when it fails.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/cartTransformCreate
 * https://shopify.dev/docs/api/admin-graphql/2026-04/payloads/CartTransformCreatePayload
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/CartTransformCreateUserError (code, field, message)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/enums/CartTransformCreateUserErrorCode
 */
export const CREATE_CART_TRANSFORM = /* GraphQL */ `
  mutation CreateCartTransform($functionHandle: String!, $blockOnFailure: Boolean!) {
    cartTransformCreate(functionHandle: $functionHandle, blockOnFailure: $blockOnFailure) {
      cartTransform {
        id
        functionId
        blockOnFailure
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`;

/**
 * The prices of one product's variants, 100 a page (Shopify allows 2,048 variants a product; the
 * rest by cursor), for `products/update`: the merchant edits prices on Shopify.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/product
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Product (variants)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/ProductVariant (price: Money!)
 */
export const PRODUCT_VARIANT_PRICES = /* GraphQL */ `
  query ProductVariantPrices($id: ID!, $after: String) {
    product(id: $id) {
      variants(first: 100, after: $after) {
        nodes {
          id
          price
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

/**
 * The app's definition of one storefront metafield, if the shop has it (`$app:tare` resolves to
 * the app's reserved namespace in the filter as in writes), with its storefront access.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/metafieldDefinitions
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/MetafieldDefinition (id, access)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/MetafieldAccess (storefront)
 */
export const STOREFRONT_METAFIELD_DEFINITION = /* GraphQL */ `
  query StorefrontMetafieldDefinition($ownerType: MetafieldOwnerType!, $namespace: String!, $key: String!) {
    metafieldDefinitions(ownerType: $ownerType, namespace: $namespace, key: $key, first: 1) {
      nodes {
        id
        access {
          storefront
        }
      }
    }
  }
`;

/**
 * Defines a storefront metafield with storefront access PUBLIC_READ, which a theme app block needs
 * to read an app-owned metafield. TAKEN: the shop has it already.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/metafieldDefinitionCreate
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/MetafieldDefinitionInput
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/MetafieldAccessInput
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/MetafieldDefinitionCreateUserError
 */
export const CREATE_METAFIELD_DEFINITION = /* GraphQL */ `
  mutation CreateMetafieldDefinition($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) {
      createdDefinition {
        id
        access {
          storefront
        }
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`;

/**
 * Grants an existing storefront metafield definition storefront access PUBLIC_READ (found by its
 * owner type, namespace and key, which cannot change).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/metafieldDefinitionUpdate
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/MetafieldDefinitionUpdateInput
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/MetafieldAccessUpdateInput
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/MetafieldDefinitionUpdateUserError
 */
export const UPDATE_METAFIELD_DEFINITION = /* GraphQL */ `
  mutation UpdateMetafieldDefinition($definition: MetafieldDefinitionUpdateInput!) {
    metafieldDefinitionUpdate(definition: $definition) {
      updatedDefinition {
        id
        access {
          storefront
        }
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`;

/**
 * Sets the unit price measurement of one product's variants and shows or hides their unit price
 * (PRODUCT.md §21). All or nothing (`allowPartialUpdates` false): a refusal names the input.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/productVariantsBulkUpdate
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/ProductVariantsBulkInput (showUnitPrice, unitPriceMeasurement)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/UnitPriceMeasurementInput
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/ProductVariantsBulkUpdateUserError
 */
export const UPDATE_VARIANT_UNIT_PRICES = /* GraphQL */ `
  mutation UpdateVariantUnitPrices($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
    productVariantsBulkUpdate(productId: $productId, variants: $variants) {
      productVariants {
        id
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`;
