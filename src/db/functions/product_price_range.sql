CREATE OR REPLACE FUNCTION public.product_price_range()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  SELECT min(coalesce(v.price, NEW.price)), max(coalesce(v.price, NEW.price))
    INTO NEW.price_min, NEW.price_max
    FROM product_variant v WHERE v.product_id = NEW.id AND v.active;
  RETURN NEW;
END
$function$;
