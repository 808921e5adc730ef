-- Scale labels at the counter (PRODUCT.md §22): a shop's label formats, and each variant's item
-- number (PLU) on its scales. A scan looks a variant up by shop and item, so the pair is unique;
-- deferred, so an import may move an item from one variant to another within its transaction.
ALTER TABLE shops ADD COLUMN scale_barcodes jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE variants ADD COLUMN scale_item text;
ALTER TABLE variants ADD CONSTRAINT variants_scale_item_unique UNIQUE (shop_id, scale_item) DEFERRABLE INITIALLY DEFERRED;
