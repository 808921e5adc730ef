-- Who made each change (decision in docs/decisions.md): an API key, a staff member of the admin,
-- an import, or the platform (its events, and reconciliation following it). The cause of a
-- ledger row (reference_*) says what the change was for; the actor says who asked for it. A
-- staff member is kept by id and by the email they had, so the ledger still names them after
-- their account is removed. Rows written before this migration keep a null actor where it
-- cannot be told from the row itself.
ALTER TABLE inventory_ledger
  ADD COLUMN actor_type text CHECK (actor_type IN ('api_key', 'staff', 'import', 'platform')),
  ADD COLUMN actor_id   text,
  ADD COLUMN actor_name text;

UPDATE inventory_ledger SET actor_type = 'import' WHERE reference_type = 'import';
UPDATE inventory_ledger SET actor_type = 'platform'
 WHERE operation IN ('sale', 'order_cancel', 'refund', 'platform_adjustment');

ALTER TABLE order_edits
  ADD COLUMN actor_type text CHECK (actor_type IN ('api_key', 'staff')),
  ADD COLUMN actor_id   text,
  ADD COLUMN actor_name text;

-- Edits were made by an API key (named) or by staff in the admin (not named until now).
UPDATE order_edits SET actor_type = CASE WHEN api_key_id IS NULL THEN 'staff' ELSE 'api_key' END,
  actor_id = api_key_id;
