CREATE OR REPLACE FUNCTION public.bump_resource_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  written bigint;
BEGIN
  INSERT INTO resource_version (name, version, written_by)
  VALUES (TG_ARGV[0], nextval('resource_version_seq'), pg_current_xact_id()::text::bigint)
  ON CONFLICT (name) DO UPDATE SET version = excluded.version, written_by = excluded.written_by
    WHERE resource_version.written_by IS DISTINCT FROM excluded.written_by
  RETURNING version INTO written;
  IF written IS NOT NULL THEN
    PERFORM pg_notify('resource_version', TG_ARGV[0] || ' ' || written);
  END IF;
  RETURN NULL;
END
$function$;
