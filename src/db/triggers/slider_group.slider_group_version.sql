CREATE TRIGGER slider_group_version AFTER INSERT OR DELETE OR UPDATE OF id, code, active ON slider_group FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider_group');
