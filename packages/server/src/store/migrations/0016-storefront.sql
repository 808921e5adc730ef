-- The sandbox storefront (PRODUCT.md §18): served only for a sandbox shop that enables it with the
-- import's `settings.storefront.enabled`; off for every shop until then.
ALTER TABLE shops ADD COLUMN storefront_enabled boolean NOT NULL DEFAULT false;
