-- Tare sharded by shop on Citus (docs/operations.md, "Running on Citus"). Without the `citus`
-- extension this migration only defines the two functions below, which then do nothing: the
-- schema on PostgreSQL and PGlite is unchanged.
--
-- On Citus, cross-shop tables (a unique key without shop_id: looked up by domain, key id, email,
-- session token, store name, secret name) become reference tables, copied to every node; every
-- other table with a shop_id column is distributed by shop_id, all in one colocation group, so
-- a shop's rows of every table live on one shard and a statement filtered by the shop is routed
-- to it.

-- What changes at every order sync and reconciliation moves out of `shops` (a reference table on
-- Citus, which copies every write to every node) into a per-shop table of its own, sharded with
-- the shop's other rows. On every store alike: the repositories read and write it the same way.
CREATE TABLE shop_sync_state (
  shop_id              bigint PRIMARY KEY REFERENCES shops(id) ON DELETE CASCADE,
  orders_synced_until  timestamptz,
  last_reconciled_at   timestamptz,
  last_reconciliation  jsonb
);
INSERT INTO shop_sync_state (shop_id, orders_synced_until, last_reconciled_at, last_reconciliation)
  SELECT id, orders_synced_until, last_reconciled_at, last_reconciliation FROM shops
   WHERE orders_synced_until IS NOT NULL OR last_reconciled_at IS NOT NULL OR last_reconciliation IS NOT NULL;
ALTER TABLE shops DROP COLUMN orders_synced_until, DROP COLUMN last_reconciled_at, DROP COLUMN last_reconciliation;

-- True when the database is a Citus coordinator.
CREATE FUNCTION tare_on_citus() RETURNS boolean LANGUAGE sql STABLE AS
  $$ SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') $$;

-- Whether Citus already holds the table as a reference or distributed table. Once `shops` is a
-- reference table, Citus turns the tables whose foreign keys name it into "Citus local" tables
-- (on the coordinator, also in pg_dist_partition): those are still to be placed.
CREATE FUNCTION tare_placed_on_citus(t regclass) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN tare_on_citus() AND EXISTS (
    SELECT 1 FROM pg_dist_partition WHERE logicalrelid = t AND (partmethod = 'h' OR repmodel = 't'));
END $$;

-- A cross-shop table (no shop_id in a unique key): a reference table on Citus, nothing elsewhere.
-- Later migrations call it for a new cross-shop table.
CREATE FUNCTION tare_reference_table(t regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF tare_on_citus() AND NOT tare_placed_on_citus(t) THEN
    PERFORM create_reference_table(t);
  END IF;
END $$;

-- A tenant table: distributed by shop_id on Citus, colocated with every other tenant table;
-- nothing elsewhere. Citus needs the distribution column in every unique key, so a primary key
-- without shop_id (a bigserial id) becomes (shop_id, id) first; a UNIQUE constraint without it
-- makes create_distributed_table fail, on purpose: its author must decide what the table is.
-- Later migrations call it for a new tenant table.
CREATE FUNCTION tare_distribute_by_shop(t regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  pk_name text;
  pk_columns text;
BEGIN
  IF NOT tare_on_citus() OR tare_placed_on_citus(t) THEN
    RETURN;
  END IF;
  SELECT c.conname, string_agg(quote_ident(a.attname), ', ' ORDER BY k.ord)
    INTO pk_name, pk_columns
    FROM pg_constraint c
    CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
   WHERE c.conrelid = t AND c.contype = 'p'
   GROUP BY c.conname
  HAVING NOT bool_or(a.attname = 'shop_id');
  IF pk_name IS NOT NULL THEN
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I, ADD PRIMARY KEY (shop_id, %s)', t, pk_name, pk_columns);
  END IF;
  PERFORM create_distributed_table(t, 'shop_id', colocate_with => 'default');
END $$;

DO $$
DECLARE
  t regclass;
  fk record;
  restore text[] := '{}';
  statement text;
BEGIN
  IF NOT tare_on_citus() THEN
    RETURN;
  END IF;
  -- Creating shards for tables made earlier in this same transaction (a fresh database migrates
  -- in one) must use one connection per node.
  SET LOCAL citus.multi_shard_modify_mode TO 'sequential';

  -- Foreign keys are set aside while the tables are placed and added back after: Citus refuses
  -- to distribute a table a local table refers to, and turns a table referring to a new
  -- reference table into a coordinator-only "Citus local" table, so no order of placing them
  -- works with the keys in place.
  FOR fk IN
    SELECT conrelid::regclass AS tbl, conname, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
  LOOP
    restore := restore || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tbl, fk.conname, fk.def);
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tbl, fk.conname);
  END LOOP;

  -- Cross-shop: shops (by domain; every tenant table refers to it), API keys (by key id), staff
  -- (by email), their sessions and form ids (by token), Shopify connections (by store, for
  -- webhooks), the server's secrets (by name).
  PERFORM tare_reference_table('shops');
  PERFORM tare_reference_table('api_keys');
  PERFORM tare_reference_table('admin_users');
  PERFORM tare_reference_table('admin_sessions');
  PERFORM tare_reference_table('admin_form_submissions');
  PERFORM tare_reference_table('shopify_connections');
  PERFORM tare_reference_table('server_secrets');

  -- Every other table with a shop_id: a tenant table.
  FOR t IN
    SELECT c.oid
      FROM pg_class c
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'shop_id' AND NOT a.attisdropped
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND NOT tare_placed_on_citus(c.oid)
     ORDER BY c.relname
  LOOP
    PERFORM tare_distribute_by_shop(t);
  END LOOP;

  FOREACH statement IN ARRAY restore LOOP
    EXECUTE statement;
  END LOOP;
END $$;
