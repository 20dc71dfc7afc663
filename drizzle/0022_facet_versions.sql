-- Facet counts are kept per table version (src/modules/catalog/facets.ts, docs/discovery.md). They
-- read two product columns that the statement-level trigger of 0005 does not name: in_stock, which
-- the variants' roll-up rewrites, and options. A row-level trigger bumps the product version when
-- one of them really changes, so a sale bumps it only when it sells a product's last unit. Variants
-- get a version of their own for their options, activity and product.
CREATE TRIGGER product_version_rollup AFTER UPDATE OF in_stock, options ON product
  FOR EACH ROW WHEN (OLD.in_stock IS DISTINCT FROM NEW.in_stock OR OLD.options IS DISTINCT FROM NEW.options)
  EXECUTE FUNCTION bump_resource_version('product');
--> statement-breakpoint
CREATE TRIGGER product_variant_version AFTER INSERT OR DELETE OR UPDATE OF product_id, options, active
  ON product_variant FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product_variant');
--> statement-breakpoint
CREATE TRIGGER product_variant_version_truncate AFTER TRUNCATE ON product_variant
  FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product_variant');
