-- The orders with lines Tare could not book, newest first, for the admin's settings page and every
-- reconciliation, without reading every order the shop ever had (most have nothing skipped).
CREATE INDEX tracked_orders_skipped ON tracked_orders (shop_id, updated_at DESC, order_id)
  WHERE skipped <> '[]'::jsonb;
