CREATE TRIGGER reel_version AFTER INSERT OR DELETE OR UPDATE OF id, title, active ON reel FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('reel');
