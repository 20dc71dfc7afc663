CREATE TRIGGER customer_deleted_sessions_end AFTER DELETE ON customer FOR EACH ROW EXECUTE FUNCTION end_account_sessions('customer');
