CREATE OR REPLACE FUNCTION public.end_account_sessions()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE refresh_token SET revoked_at = now()
  WHERE context = TG_ARGV[0] AND subject = OLD.id::text AND revoked_at IS NULL;
  RETURN NULL;
END
$function$;
