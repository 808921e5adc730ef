-- The events of a shop that failed and are retrying or parked, for the reconciliation report and
-- the admin (which event is stuck, and why), without reading the shop's processed history.
CREATE INDEX platform_events_failing ON platform_events (shop_id, id) WHERE status <> 'processed' AND attempts > 0;
