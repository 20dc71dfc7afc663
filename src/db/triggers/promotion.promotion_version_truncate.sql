CREATE TRIGGER promotion_version_truncate AFTER TRUNCATE ON promotion FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('promotion');
