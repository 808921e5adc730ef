-- Every figure of an array moved by the same amount: a queued push's figures whose answers were
-- lost (`projection_outbox.pushed`) move with the platform's own moves when the push is
-- coalesced. A function rather than `ARRAY(SELECT … FROM unnest(…))` in the upsert's
-- `DO UPDATE SET`: Citus routes an `INSERT … VALUES` to the shop's one shard only without a
-- subquery in it (decision 116). Citus creates the function on its workers too.
CREATE FUNCTION tare_shifted(figures bigint[], by_ bigint) RETURNS bigint[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN ARRAY(SELECT f + by_ FROM unnest(figures) AS f);
