-- Tare's schema. Platform ids (products, variants, locations, orders, line items) are the
-- platform's numeric REST ids kept as text: up to 20 digits, which overflows BIGINT.
-- Every tenant-owned row carries shop_id and every key starts with it: isolation by construction.

CREATE TABLE shops (
  id              bigserial PRIMARY KEY,
  domain          text NOT NULL UNIQUE,
  currency        text NOT NULL,
  default_locale  text NOT NULL,
  addon_active    boolean NOT NULL DEFAULT false,
  -- NULL means "not set by the shop": the field is then absent from app settings.
  merge_matching_line_items boolean,
  rate_limit_enabled        boolean NOT NULL DEFAULT true,
  rate_limit_per_minute     integer NOT NULL DEFAULT 600 CHECK (rate_limit_per_minute > 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE shop_labels (
  shop_id  bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  locale   text NOT NULL,
  key      text NOT NULL,
  value    text NOT NULL,
  PRIMARY KEY (shop_id, locale, key)
);

CREATE TABLE api_keys (
  id            text PRIMARY KEY,            -- the public keyId (16 base32 chars)
  shop_id       bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  name          text,
  secret_sha256 bytea NOT NULL,              -- never the secret itself
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz,
  revoked_at    timestamptz,
  last_used_at  timestamptz
);
CREATE INDEX api_keys_shop ON api_keys (shop_id);

CREATE TABLE locations (
  shop_id  bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  id       text NOT NULL,
  name     text NOT NULL,
  PRIMARY KEY (shop_id, id)
);

CREATE TABLE products (
  shop_id          bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  id               text NOT NULL,
  title            text NOT NULL,
  measurement_type text NOT NULL CHECK (measurement_type IN ('weight','length','area','volume','time')),
  PRIMARY KEY (shop_id, id)
);

CREATE TABLE variants (
  shop_id       bigint NOT NULL,
  id            text NOT NULL,
  product_id    text NOT NULL,
  position      integer NOT NULL,           -- order of variants within the product (pagination key)
  title         text NOT NULL,
  price         numeric NOT NULL,           -- per unit measurement, in the shop's currency
  unit          text NOT NULL,              -- unitMeasurement.unit: also the inventory unit
  unit_value    numeric NOT NULL CHECK (unit_value > 0),
  display_style text NOT NULL CHECK (display_style IN ('number','pills','dropdown')),
  rules         jsonb,                      -- { min, increment, defaultValue, max } for 'number'
  presets       jsonb,                      -- [{ value, label?, price? }] for 'pills' / 'dropdown'
  PRIMARY KEY (shop_id, id),
  FOREIGN KEY (shop_id, product_id) REFERENCES products(shop_id, id) ON DELETE CASCADE
);
CREATE INDEX variants_by_product ON variants (shop_id, product_id, position, id);

-- Tare's exact inventory: one total per (shop, location, variant) in the variant's unit.
CREATE TABLE inventory_levels (
  shop_id      bigint NOT NULL,
  location_id  text NOT NULL,
  variant_id   text NOT NULL,
  total        numeric NOT NULL,
  unit         text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, location_id, variant_id),
  FOREIGN KEY (shop_id, location_id) REFERENCES locations(shop_id, id) ON DELETE CASCADE,
  FOREIGN KEY (shop_id, variant_id) REFERENCES variants(shop_id, id) ON DELETE CASCADE
);

-- Append-only: for every level, the sum of its deltas equals its total.
CREATE TABLE inventory_ledger (
  id               bigserial PRIMARY KEY,
  shop_id          bigint NOT NULL,
  location_id      text NOT NULL,
  variant_id       text NOT NULL,
  operation        text NOT NULL CHECK (operation IN ('adjustment','set','import','order_edit')),
  quantity_before  numeric NOT NULL,
  quantity_after   numeric NOT NULL,
  delta            numeric NOT NULL,
  unit             text NOT NULL,
  idempotency_key  text,
  request_id       text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inventory_ledger_level ON inventory_ledger (shop_id, location_id, variant_id, id);

-- The embedded ("local") platform: its integer inventory and its orders.
CREATE TABLE local_platform_levels (
  shop_id      bigint NOT NULL,
  location_id  text NOT NULL,
  variant_id   text NOT NULL,
  available    bigint NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, location_id, variant_id)
);

CREATE TABLE local_platform_orders (
  shop_id      bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  id           text NOT NULL,
  status       text NOT NULL CHECK (status IN ('open','closed','cancelled')),
  location_id  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, id),
  FOREIGN KEY (shop_id, location_id) REFERENCES locations(shop_id, id)
);

CREATE TABLE local_platform_line_items (
  shop_id     bigint NOT NULL,
  order_id    text NOT NULL,
  id          text NOT NULL,
  position    integer NOT NULL,
  product_id  text,
  variant_id  text,                         -- NULL for temporary products
  quantity    integer NOT NULL CHECK (quantity >= 0),
  price       numeric NOT NULL,             -- unit price as charged
  fulfilled   boolean NOT NULL DEFAULT false,
  properties  jsonb NOT NULL DEFAULT '[]',  -- [{ name, value }] as on the platform
  PRIMARY KEY (shop_id, id),
  FOREIGN KEY (shop_id, order_id) REFERENCES local_platform_orders(shop_id, id) ON DELETE CASCADE
);
CREATE INDEX local_platform_line_items_order ON local_platform_line_items (shop_id, order_id, position);

-- Per-deployment secrets (cursor signing), created once and shared by every instance.
CREATE TABLE server_secrets (
  name   text PRIMARY KEY,
  value  bytea NOT NULL
);
