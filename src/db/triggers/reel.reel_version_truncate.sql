CREATE TRIGGER reel_version_truncate AFTER TRUNCATE ON reel FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('reel');
