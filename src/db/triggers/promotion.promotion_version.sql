CREATE TRIGGER promotion_version AFTER INSERT OR DELETE OR UPDATE ON promotion FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('promotion');
