CREATE OR REPLACE FUNCTION public.shop_translated_text(jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$ SELECT coalesce(string_agg(f.value #>> '{}', ' '), '') FROM jsonb_each($1) l, jsonb_each(l.value) f WHERE f.key <> 'slug' AND jsonb_typeof(f.value) = 'string' $function$;
