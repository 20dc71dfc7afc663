CREATE OR REPLACE FUNCTION public.feed_session_revocation()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO auth_session_revocation (session_id) VALUES (NEW.id);
  RETURN NULL;
END
$function$;
