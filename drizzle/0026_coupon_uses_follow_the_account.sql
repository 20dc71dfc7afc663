-- A coupon's per-customer limit counts an account's redemptions and the guest ones made with its
-- current e-mail address (src/modules/catalog/promotions.repo.ts). When that address changes, by
-- whichever path (the customer, the back office, SQL), the guest redemptions it counted become the
-- account's, so a new address never gives back uses the old one had spent.
CREATE FUNCTION claim_guest_redemptions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE coupon_redemption SET customer_id = NEW.id
  WHERE customer_id IS NULL AND email = lower(OLD.email);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customer_email_claims_redemptions AFTER UPDATE OF email ON customer
  FOR EACH ROW WHEN (lower(OLD.email) IS DISTINCT FROM lower(NEW.email))
  EXECUTE FUNCTION claim_guest_redemptions();
