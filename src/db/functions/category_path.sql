CREATE OR REPLACE FUNCTION public.category_path(integer)
 RETURNS integer[]
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
DECLARE
  path integer[] := '{}';
  current integer := $1;
BEGIN
  WHILE current IS NOT NULL AND cardinality(path) < 32 LOOP
    path := path || current;
    SELECT c.parent_id INTO current FROM category c WHERE c.id = current;
  END LOOP;
  RETURN path;
END
$function$;
