CREATE OR REPLACE FUNCTION public.product_to_plain_variant()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE n integer;
BEGIN
  IF pg_trigger_depth() <> 1 THEN RETURN NULL; END IF;
  SELECT count(*) INTO n FROM product_variant WHERE product_id = NEW.id;
  IF NEW.stock_qty IS DISTINCT FROM OLD.stock_qty THEN
    IF n <> 1 THEN
      RAISE EXCEPTION 'product % has % variants: write stock on its variants', NEW.id, n USING ERRCODE = 'check_violation';
    END IF;
    UPDATE product_variant SET stock_qty = NEW.stock_qty, updated_at = now() WHERE product_id = NEW.id;
  END IF;
  IF NEW.sku IS DISTINCT FROM OLD.sku AND jsonb_array_length(NEW.options) = 0 AND n = 1 THEN
    UPDATE product_variant SET sku = NEW.sku, updated_at = now() WHERE product_id = NEW.id;
  END IF;
  RETURN NULL;
END
$function$;
