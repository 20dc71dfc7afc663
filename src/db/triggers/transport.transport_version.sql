CREATE TRIGGER transport_version AFTER INSERT OR DELETE OR UPDATE ON transport FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('transport');
