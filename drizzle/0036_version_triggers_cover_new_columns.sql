-- Answers show the product's tax class, media and translations and the variant's media: an update
-- of these columns moves the version too, so a kept answer is dropped (docs/performance.md).
DROP TRIGGER product_version ON product;--> statement-breakpoint
CREATE TRIGGER product_version AFTER INSERT OR DELETE OR UPDATE OF id, sku, slug, name, description, price, reference_price, cost_price, vat_rate, options, weight_kg, category_id, brand, images, supplier_code, admin_notes, active, created_at, tax_class, media, translations ON product FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product');--> statement-breakpoint
DROP TRIGGER product_variant_version ON product_variant;--> statement-breakpoint
CREATE TRIGGER product_variant_version AFTER INSERT OR DELETE OR UPDATE OF id, product_id, sku, options, price, reference_price, weight_kg, images, "position", active, media ON product_variant FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product_variant');
