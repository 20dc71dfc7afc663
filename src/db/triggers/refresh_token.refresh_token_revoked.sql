CREATE TRIGGER refresh_token_revoked AFTER UPDATE OF revoked_at ON refresh_token FOR EACH ROW WHEN (old.revoked_at IS NULL AND new.revoked_at IS NOT NULL) EXECUTE FUNCTION feed_session_revocation();
