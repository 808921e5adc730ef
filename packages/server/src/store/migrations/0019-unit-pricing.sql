-- Unit prices (PRODUCT.md §21): the shop's settings.unitPricing as the import states it,
-- { enabled, reference?: { weight?, volume?, length?, area? } }; null until a file states it
-- (unit pricing off).
ALTER TABLE shops ADD COLUMN unit_pricing jsonb;
