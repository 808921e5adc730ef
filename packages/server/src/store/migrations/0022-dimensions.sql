-- Area and volume from dimensions (PRODUCT.md §19): a variant's factors
-- ([{ name, unit, rules? , fixed? }], NULL for a variant sold by its quantity directly) and the
-- overage the measure adds for waste (0–100, NULL for none).
ALTER TABLE variants ADD COLUMN dimensions jsonb;
ALTER TABLE variants ADD COLUMN overage_percent numeric CHECK (overage_percent >= 0 AND overage_percent <= 100);
