CREATE TRIGGER admin_user_deleted_sessions_end AFTER DELETE ON admin_user FOR EACH ROW EXECUTE FUNCTION end_account_sessions('admin');
