-- The Cart Transform function on the connected store (PRODUCT.md §18): a deployed function does
-- nothing until the app registers it on the shop with `cartTransformCreate`, which `tare platform
-- connect` does when the store may update lines. `cart_transform_id`: the CartTransform's gid once
-- registered (pricing mode `function`). `cart_transform_problem`: why it could not be registered
-- on a store that may update lines (the app not deployed yet…); the shop then stays in
-- `base_units` until a connect registers it. Both null: never asked (a standard plan, an import).
ALTER TABLE shopify_connections ADD COLUMN cart_transform_id text;
ALTER TABLE shopify_connections ADD COLUMN cart_transform_problem text;
