-- An idempotent write's start in one round trip (store/repositories/idempotency.ts, claimKey):
-- the key is claimed with a non-waiting advisory lock and, once held, its stored response is
-- read. A VOLATILE function runs each query with a fresh snapshot, so the read sees a response
-- committed by the key's previous holder, exactly as a second statement would; one statement
-- doing both would read with a snapshot taken before the lock and could miss it.
CREATE FUNCTION tare_claim_idempotency_key(
  p_shop_id bigint, p_key text, p_retention_hours integer,
  OUT claimed boolean, OUT fingerprint bytea, OUT response_status integer, OUT response_body text,
  OUT request_id text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  claimed := pg_try_advisory_xact_lock((p_shop_id % 2147483647)::integer, hashtext(p_key));
  IF claimed THEN
    SELECT k.fingerprint, k.response_status, k.response_body, k.request_id
      INTO fingerprint, response_status, response_body, request_id
    FROM idempotency_keys k
    WHERE k.shop_id = p_shop_id AND k.key = p_key AND k.created_at > now() - make_interval(hours => p_retention_hours);
  END IF;
END $$;
