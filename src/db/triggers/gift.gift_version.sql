CREATE TRIGGER gift_version AFTER INSERT OR DELETE OR UPDATE OF id, min_subtotal, active ON gift FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('gift');
