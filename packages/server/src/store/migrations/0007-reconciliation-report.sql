-- The last reconciliation of each shop (PRODUCT.md §14), as the admin's settings page shows it
-- (§17): when it ran, what it compared, and every level whose platform figure differed from
-- Tare's projection (both figures, since when, and what fixing did). A run that could not reach
-- the platform is kept too, with its reason. `last_reconciled_at` stays the periodic job's claim.
ALTER TABLE shops ADD COLUMN last_reconciliation jsonb;
