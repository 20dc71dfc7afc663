CREATE TRIGGER product_version_truncate AFTER TRUNCATE ON product FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product');
