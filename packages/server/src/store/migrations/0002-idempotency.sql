-- Idempotent writes (PRODUCT.md §7). A row exists only for a request that completed with a
-- success: it is written in the same transaction as the change it guards, so a crash or an
-- error leaves no row and the retry runs afresh. Keys are per shop.
CREATE TABLE idempotency_keys (
  shop_id          bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  key              text NOT NULL,
  fingerprint      bytea NOT NULL,        -- SHA-256 of method, route and canonical body
  response_status  integer NOT NULL,
  response_body    text NOT NULL,         -- replayed byte for byte
  request_id       text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);
