CREATE TRIGGER product_variant_version_truncate AFTER TRUNCATE ON product_variant FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product_variant');
