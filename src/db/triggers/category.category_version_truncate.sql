CREATE TRIGGER category_version_truncate AFTER TRUNCATE ON category FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('category');
