CREATE TRIGGER customer_email_claims_redemptions AFTER UPDATE OF email ON customer FOR EACH ROW WHEN (lower(old.email) IS DISTINCT FROM lower(new.email)) EXECUTE FUNCTION claim_guest_redemptions();
