CREATE TRIGGER gift_version_truncate AFTER TRUNCATE ON gift FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('gift');
