CREATE OR REPLACE FUNCTION public.claim_guest_redemptions()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE coupon_redemption SET customer_id = NEW.id
  WHERE customer_id IS NULL AND email = lower(OLD.email);
  RETURN NULL;
END
$function$;
