-- Edit history of orders edited through Tare: who (API key), when, what, and the request that
-- did it (the request id ties it to the logs).
CREATE TABLE order_edits (
  id               bigserial PRIMARY KEY,
  shop_id          bigint NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
  order_id         text NOT NULL,
  api_key_id       text,
  request_id       text NOT NULL,
  edits            jsonb NOT NULL,
  notify_customer  boolean NOT NULL DEFAULT false,
  staff_note       text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_edits_by_order ON order_edits (shop_id, order_id, id);
