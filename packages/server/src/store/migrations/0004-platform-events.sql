-- Following the platform (PRODUCT.md §13–15): ledger causes, what Tare expects the platform to
-- show, the durable event inbox, what Tare has booked per order line, and the sandbox shop.

-- The ledger names its cause: new operations, and a reference { type, id } to what caused it.
ALTER TABLE inventory_ledger DROP CONSTRAINT inventory_ledger_operation_check;
ALTER TABLE inventory_ledger ADD CONSTRAINT inventory_ledger_operation_check CHECK (operation IN
  ('adjustment','set','import','order_edit','sale','order_cancel','refund','platform_adjustment'));
ALTER TABLE inventory_ledger
  ADD COLUMN reference_type text CHECK (reference_type IN ('order','refund','idempotency_key','import','platform')),
  ADD COLUMN reference_id text;
UPDATE inventory_ledger SET reference_type = 'idempotency_key', reference_id = idempotency_key
  WHERE idempotency_key IS NOT NULL;
UPDATE inventory_ledger SET reference_type = 'import' WHERE operation = 'import';

-- The whole units Tare believes the platform shows for the level: what it last projected, moved
-- by every platform-side change Tare has accounted for since (an order taking units, a restock).
-- A platform figure that differs is a change Tare has not seen yet (§14).
ALTER TABLE inventory_levels ADD COLUMN platform_available bigint;
-- When reconciliation first found the platform showing something else (null: in step).
ALTER TABLE inventory_levels ADD COLUMN drift_since timestamptz;
UPDATE inventory_levels l SET platform_available = p.available
  FROM local_platform_levels p
  WHERE p.shop_id = l.shop_id AND p.location_id = l.location_id AND p.variant_id = l.variant_id;

-- How a shop follows its platform's stock changes, and where its order sync stands. Orders
-- created before `follows_orders_since` were reflected in the stock Tare was given: met for the
-- first time, they are recorded as booked, not booked again.
ALTER TABLE shops
  ADD COLUMN follows_orders_since timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN platform_stock_changes text NOT NULL DEFAULT 'adopt' CHECK (platform_stock_changes IN ('adopt','override')),
  ADD COLUMN orders_synced_until timestamptz,
  ADD COLUMN last_reconciled_at timestamptz;

-- The durable inbox: an event is stored before it is acknowledged and processed exactly once per
-- (shop, event id). Processed rows stay, so a late duplicate is recognised.
CREATE TABLE platform_events (
  id               bigserial PRIMARY KEY,
  shop_id          bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  event_id         text NOT NULL,
  topic            text NOT NULL,
  payload          jsonb NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','processed','parked')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  last_error       text,
  received_at      timestamptz NOT NULL DEFAULT now(),
  processed_at     timestamptz,
  UNIQUE (shop_id, event_id)
);
CREATE INDEX platform_events_due ON platform_events (next_attempt_at, id) WHERE status = 'pending';

-- Orders Tare follows: once a row exists, the bookings below are the whole truth of what Tare
-- has taken off and given back for it. `skipped` lists lines Tare could not book (unknown
-- variant or location), for the admin and the reconciliation report.
CREATE TABLE tracked_orders (
  shop_id     bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  order_id    text NOT NULL,
  skipped     jsonb NOT NULL DEFAULT '[]',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, order_id)
);

-- What Tare has booked per order line, variant and cause: `sale` (taken off), `cancel` and
-- `refund:<id>` (given back). `amount` is exact in the level's unit; `units` is the platform's
-- own whole-unit move for the same cause, already counted in `platform_available`.
CREATE TABLE order_bookings (
  shop_id      bigint NOT NULL,
  order_id     text NOT NULL,
  line_item_id text NOT NULL,
  variant_id   text NOT NULL,
  cause        text NOT NULL,
  amount       numeric NOT NULL,
  unit         text NOT NULL,
  units        bigint NOT NULL,
  PRIMARY KEY (shop_id, order_id, line_item_id, variant_id, cause),
  FOREIGN KEY (shop_id, order_id) REFERENCES tracked_orders(shop_id, order_id) ON DELETE CASCADE
);

-- The sandbox shop (§15): carts, cancellation with restock, refunds, order times.
CREATE TABLE sandbox_carts (
  shop_id     bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  token       text NOT NULL,
  items       jsonb NOT NULL DEFAULT '[]',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, token)
);

CREATE TABLE local_platform_refunds (
  shop_id      bigint NOT NULL,
  order_id     text NOT NULL,
  id           text NOT NULL,
  lines        jsonb NOT NULL,            -- [{ lineItemId, quantity, restockType }]
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, id),
  FOREIGN KEY (shop_id, order_id) REFERENCES local_platform_orders(shop_id, id) ON DELETE CASCADE
);
CREATE INDEX local_platform_refunds_order ON local_platform_refunds (shop_id, order_id);
CREATE INDEX local_platform_orders_updated ON local_platform_orders (shop_id, updated_at);

-- Ids the sandbox gives the orders, lines and refunds it creates (numeric, as platform ids are).
CREATE SEQUENCE local_platform_ids START 900000001;
