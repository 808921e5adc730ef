-- Shops on Shopify (PRODUCT.md §16): the connection, and the outbox through which Tare's whole
-- units reach a remote platform asynchronously.

-- Which platform the shop sells on. `local` is the embedded platform (§15).
ALTER TABLE shops ADD COLUMN platform text NOT NULL DEFAULT 'local' CHECK (platform IN ('local','shopify'));

-- How Tare reaches the shop's Shopify store. Secrets are sealed with the operator's key
-- (`secrets_key_id` names which one, so the key can be rotated); they never leave this table in
-- clear except to call Shopify or check a webhook's signature.
CREATE TABLE shopify_connections (
  shop_id               bigint PRIMARY KEY REFERENCES shops(id) ON DELETE CASCADE,
  store                 text NOT NULL UNIQUE,          -- name.myshopify.com
  api_version           text NOT NULL,
  admin_api_url         text,                          -- null: https://{store}/admin/api/{version}/graphql.json
  access_token_sealed   text NOT NULL,
  client_secret_sealed  text NOT NULL,
  secrets_key_id        text NOT NULL,
  -- `active` syncs; `uninstalled` (app/uninstalled) and `unauthorized` (a revoked token) stop
  -- the shop's sync and keep its data.
  status                text NOT NULL DEFAULT 'active' CHECK (status IN ('active','uninstalled','unauthorized')),
  last_error            text,
  last_error_at         timestamptz,
  connected_at          timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);

-- Variant → Shopify inventory item, read once and kept until `products/update` says otherwise.
-- Tare's variant, product and location ids are Shopify's numeric ids (gid://shopify/Location/N).
CREATE TABLE shopify_inventory_items (
  shop_id            bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  variant_id         text NOT NULL,
  inventory_item_id  text NOT NULL,
  PRIMARY KEY (shop_id, variant_id)
);

-- Whole units waiting to reach a remote platform: one row per level, coalesced to the latest.
-- The platform is written only while it shows `expected` (compare-and-set; null: whatever it
-- shows). `pushed` lists the figures sent whose answer never came: finding the platform at one
-- of them means that push landed, not that the merchant typed it. Both move with the platform's
-- own moves (orders) accounted since. `generation` is drawn anew at every change of the row
-- (and for every new row: never reused) and names the idempotency key, so a retry reuses its
-- key and a changed push never does.
CREATE SEQUENCE projection_generations;
CREATE TABLE projection_outbox (
  shop_id          bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  location_id      text NOT NULL,
  variant_id       text NOT NULL,
  available        bigint NOT NULL,
  expected         bigint,
  pushed           bigint[] NOT NULL DEFAULT '{}',
  generation       bigint NOT NULL DEFAULT nextval('projection_generations'),
  cause            text NOT NULL,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  last_error       text,
  enqueued_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, location_id, variant_id)
);
CREATE INDEX projection_outbox_due ON projection_outbox (next_attempt_at);
