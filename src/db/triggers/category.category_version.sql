CREATE TRIGGER category_version AFTER INSERT OR DELETE OR UPDATE ON category FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('category');
