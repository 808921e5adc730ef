-- When a call to Shopify last succeeded with the connection's current credentials (the check
-- `tare platform connect` makes, or any sync call). Null: not one yet, so nothing says the token
-- and the store are right; `tare platform show` says `unverified` instead of `active`. New
-- credentials clear it. Connections saved before this column are unverified until their next
-- successful call.
ALTER TABLE shopify_connections ADD COLUMN verified_at timestamptz;
