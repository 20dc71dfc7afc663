CREATE TRIGGER transport_version_truncate AFTER TRUNCATE ON transport FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('transport');
