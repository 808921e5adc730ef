-- Selling by measure on a Shopify storefront (PRODUCT.md §18): the app-owned metafields Tare keeps
-- on a connected store, written through an outbox with the push rules of the stock outbox (§16).

-- How the shop's checkout charges a measured line, read from Shopify's CartTransformEligibleOperations
-- by `tare platform connect`: `function` (updateOperation eligible) or `base_units`. Null: not read
-- yet (a connection saved by an import); the storefront is then told `base_units`, which works on
-- every plan.
ALTER TABLE shopify_connections ADD COLUMN pricing_mode text CHECK (pricing_mode IN ('function','base_units'));

-- One metafield document waiting to reach Shopify: a variant's `$app:tare.measurement`
-- (owner_type 'ProductVariant', owner_id the variant) or the shop's `$app:tare.labels`
-- (owner_type 'Shop', owner_id ''). A newer document replaces a queued one (coalescing);
-- `generation` is drawn anew at every change, so the worker never retires a document newer than
-- the one it wrote. `failed_at`: Shopify refused this very document (a user error); it waits,
-- with its error, for a newer one instead of being sent again.
CREATE SEQUENCE metafield_generations;
CREATE TABLE metafield_outbox (
  shop_id          bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  owner_type       text NOT NULL CHECK (owner_type IN ('ProductVariant','Shop')),
  owner_id         text NOT NULL,
  document         jsonb NOT NULL,
  generation       bigint NOT NULL DEFAULT nextval('metafield_generations'),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  failed_at        timestamptz,
  last_error       text,
  enqueued_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, owner_type, owner_id)
);
CREATE INDEX metafield_outbox_due ON metafield_outbox (next_attempt_at) WHERE failed_at IS NULL;

-- The document Shopify last accepted for each metafield: a change is queued only when the new
-- document differs from it (or from the one queued). Forgotten when the shop connects again, so
-- that connecting writes every metafield.
CREATE TABLE metafields_written (
  shop_id     bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  owner_type  text NOT NULL,
  owner_id    text NOT NULL,
  document    jsonb NOT NULL,
  written_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, owner_type, owner_id)
);
