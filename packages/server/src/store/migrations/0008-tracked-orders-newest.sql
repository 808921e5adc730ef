-- The admin's orders page lists a shop's tracked orders newest first, 50 a page
-- (store/repositories/booked-orders.ts): without this each page sorted all of them.
CREATE INDEX tracked_orders_newest ON tracked_orders (shop_id, created_at DESC, order_id DESC);
