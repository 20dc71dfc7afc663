-- Sessions end in the database, whichever path changes an account (src/modules/auth/sessions.ts):
-- a revoked refresh token enters the revocation feed that every instance reads; disabling or
-- deleting an account, or changing its password (or an admin's roles), revokes all its sessions.
CREATE FUNCTION feed_session_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO auth_session_revocation (session_id) VALUES (NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER refresh_token_revoked AFTER UPDATE OF revoked_at ON refresh_token
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION feed_session_revocation();
--> statement-breakpoint
CREATE FUNCTION end_account_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE refresh_token SET revoked_at = now()
  WHERE context = TG_ARGV[0] AND subject = OLD.id::text AND revoked_at IS NULL;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customer_sessions_end AFTER UPDATE OF active, password_hash ON customer
  FOR EACH ROW WHEN ((OLD.active AND NOT NEW.active) OR OLD.password_hash IS DISTINCT FROM NEW.password_hash)
  EXECUTE FUNCTION end_account_sessions('customer');
--> statement-breakpoint
CREATE TRIGGER customer_deleted_sessions_end AFTER DELETE ON customer
  FOR EACH ROW EXECUTE FUNCTION end_account_sessions('customer');
--> statement-breakpoint
CREATE TRIGGER admin_user_sessions_end AFTER UPDATE OF active, password_hash, roles ON admin_user
  FOR EACH ROW WHEN ((OLD.active AND NOT NEW.active) OR OLD.password_hash IS DISTINCT FROM NEW.password_hash
    OR OLD.roles IS DISTINCT FROM NEW.roles)
  EXECUTE FUNCTION end_account_sessions('admin');
--> statement-breakpoint
CREATE TRIGGER admin_user_deleted_sessions_end AFTER DELETE ON admin_user
  FOR EACH ROW EXECUTE FUNCTION end_account_sessions('admin');
