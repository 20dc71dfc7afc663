CREATE OR REPLACE FUNCTION public.catalog_sale_sync()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM catalog_sale_rebuild();
  RETURN NULL;
END
$function$;
