-- Stock items (PRODUCT.md §20): one physical stock (a cheese wheel, a bolt of fabric) sold as
-- several variants. Nothing existing moves: a variant without a link keeps its own level, and
-- every new column is NULL for it. Every key starts with shop_id, like every tenant table.
CREATE TABLE stock_items (
  shop_id          bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  id               text NOT NULL,
  title            text NOT NULL,
  measurement_type text NOT NULL CHECK (measurement_type IN ('weight','length','area','volume','time')),
  unit             text NOT NULL,              -- the item's unit: its level and ledger are counted in it
  PRIMARY KEY (shop_id, id)
);

ALTER TABLE variants ADD COLUMN stock_item_id text;
ALTER TABLE variants ADD CONSTRAINT variants_stock_item
  FOREIGN KEY (shop_id, stock_item_id) REFERENCES stock_items (shop_id, id);
CREATE INDEX variants_by_stock_item ON variants (shop_id, stock_item_id, id) WHERE stock_item_id IS NOT NULL;

-- The one exact total per (shop, location, stock item), in the item's unit. Its row is THE lock
-- of every write to the item's variants (docs/operations.md, lock order). Each linked variant's
-- inventory_levels row keeps what the platform was last shown (platform_available) and a copy of
-- this total (written under this row's lock only), so that reads, reconciliation and the admin
-- see every sibling as a level of its own.
CREATE TABLE stock_item_levels (
  shop_id        bigint NOT NULL,
  location_id    text NOT NULL,
  stock_item_id  text NOT NULL,
  total          numeric NOT NULL,
  unit           text NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, location_id, stock_item_id),
  FOREIGN KEY (shop_id, location_id) REFERENCES locations (shop_id, id) ON DELETE CASCADE,
  FOREIGN KEY (shop_id, stock_item_id) REFERENCES stock_items (shop_id, id) ON DELETE CASCADE
);

-- An item's ledger rows carry its id; variant_id names the variant that caused the entry (none
-- for an import, which states the item's level itself). For every item level, the sum of its
-- rows' deltas equals its total; a variant's own level sums its rows without an item.
ALTER TABLE inventory_ledger ADD COLUMN stock_item_id text;
ALTER TABLE inventory_ledger ALTER COLUMN variant_id DROP NOT NULL;
CREATE INDEX inventory_ledger_stock_item ON inventory_ledger (shop_id, location_id, stock_item_id, id)
  WHERE stock_item_id IS NOT NULL;
