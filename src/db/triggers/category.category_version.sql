CREATE TRIGGER category_version AFTER INSERT OR DELETE OR UPDATE OF id, parent_id, name, slug, active ON category FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('category');
