CREATE TRIGGER slider_version_truncate AFTER TRUNCATE ON slider FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider');
