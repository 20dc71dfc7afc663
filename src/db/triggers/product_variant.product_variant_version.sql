CREATE TRIGGER product_variant_version AFTER INSERT OR DELETE OR UPDATE OF product_id, options, active ON product_variant FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product_variant');
