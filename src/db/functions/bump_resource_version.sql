CREATE OR REPLACE FUNCTION public.bump_resource_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  resource text;
  written bigint;
BEGIN
  FOREACH resource IN ARRAY TG_ARGV LOOP
    INSERT INTO resource_version (name, version, written_by)
    VALUES (resource, nextval('resource_version_seq'), pg_current_xact_id()::text::bigint)
    ON CONFLICT (name) DO UPDATE SET version = excluded.version, written_by = excluded.written_by
      WHERE resource_version.written_by IS DISTINCT FROM excluded.written_by
    RETURNING version INTO written;
    IF written IS NOT NULL THEN
      PERFORM pg_notify('resource_version', resource || ' ' || written);
    END IF;
  END LOOP;
  RETURN NULL;
END
$function$;
