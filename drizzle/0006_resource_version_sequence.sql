-- Versions come from one sequence, so a number is never reused for a table even if its
-- resource_version row is deleted: a cached total can only ever match the state it counted.
CREATE SEQUENCE resource_version_seq;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_resource_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO resource_version (name, version) VALUES (TG_ARGV[0], nextval('resource_version_seq'))
  ON CONFLICT (name) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END
$$;
