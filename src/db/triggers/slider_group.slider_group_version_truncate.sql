CREATE TRIGGER slider_group_version_truncate AFTER TRUNCATE ON slider_group FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider_group');
