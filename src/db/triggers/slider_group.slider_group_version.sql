CREATE TRIGGER slider_group_version AFTER INSERT OR DELETE OR UPDATE ON slider_group FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider_group');
