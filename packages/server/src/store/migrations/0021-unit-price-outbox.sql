-- Shopify's unit price (PRODUCT.md §21) goes through the metafield outbox (0015) with its rules:
-- a product's entry (owner_type 'Product', owner_id the product) holds what one
-- productVariantsBulkUpdate sets on its variants (unitPriceMeasurement and showUnitPrice).
ALTER TABLE metafield_outbox DROP CONSTRAINT metafield_outbox_owner_type_check;
ALTER TABLE metafield_outbox ADD CONSTRAINT metafield_outbox_owner_type_check
  CHECK (owner_type IN ('ProductVariant','Shop','Product'));
