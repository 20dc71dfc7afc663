CREATE TRIGGER slider_version AFTER INSERT OR DELETE OR UPDATE OF id, group_id, active ON slider FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider');
