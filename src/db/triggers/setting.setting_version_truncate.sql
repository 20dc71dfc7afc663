CREATE TRIGGER setting_version_truncate AFTER TRUNCATE ON setting FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('setting');
