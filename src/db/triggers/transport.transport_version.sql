CREATE TRIGGER transport_version AFTER INSERT OR DELETE OR UPDATE OF id, active ON transport FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('transport');
