CREATE OR REPLACE FUNCTION public.product_variant_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM product_variant_rollup(OLD.product_id); END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.product_id <> OLD.product_id) THEN
    PERFORM product_variant_rollup(NEW.product_id);
  END IF;
  RETURN NULL;
END
$function$;
