CREATE OR REPLACE FUNCTION public.product_plain_variant()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF jsonb_array_length(NEW.options) = 0 THEN
    INSERT INTO product_variant (id, product_id, sku, stock_qty) VALUES (NEW.id, NEW.id, NEW.sku, NEW.stock_qty);
  END IF;
  RETURN NULL;
END
$function$;
