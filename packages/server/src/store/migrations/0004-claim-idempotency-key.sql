-- Claims an idempotency key and reads its stored answer in one round trip (PRODUCT.md §7).
-- The key's advisory lock is taken without waiting (false: another transaction holds it, the
-- request is in flight) and lasts until the caller's transaction ends. The stored answer is
-- read only after the lock is held: a VOLATILE PL/pgSQL function takes a fresh snapshot for
-- each statement, so an answer committed by the previous holder just before is always seen. In
-- one plain SQL statement the snapshot would predate the lock, and such an answer could be
-- missed and the write applied twice. Keys are hashed into the lock space per shop; a rare
-- collision only answers a retryable 409.
CREATE FUNCTION tare_claim_idempotency_key(p_shop_id bigint, p_key text, p_retention_hours integer)
RETURNS TABLE (claimed boolean, fingerprint bytea, response_status integer, response_body text, request_id text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock((p_shop_id % 2147483647)::integer, hashtext(p_key)) THEN
    RETURN QUERY SELECT false, NULL::bytea, NULL::integer, NULL::text, NULL::text;
    RETURN;
  END IF;
  RETURN QUERY
    SELECT true, k.fingerprint, k.response_status, k.response_body, k.request_id
    FROM (SELECT 1) AS one
    LEFT JOIN idempotency_keys k ON k.shop_id = p_shop_id AND k.key = p_key
      AND k.created_at > now() - make_interval(hours => p_retention_hours);
END
$$;
