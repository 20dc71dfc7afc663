-- A table's version moves once per transaction, not once per statement or row: the version a
-- reader sees only changes at commit, so one new number per transaction is enough for every cache
-- keyed on it (the caches are per database handle: what a transaction caches serves nobody else).
-- Bumping at every statement left one dead row version per bump in resource_version: a bulk write
-- in one transaction (10,000 products, their variants' roll-ups) made that three-row table 120
-- pages long for good (VACUUM cannot truncate below its live rows), and every list statement reads
-- the whole table. written_by holds the 64-bit id of the transaction that last moved the row, so
-- the comparison never wraps around; a row that transaction already moved is locked and left.
ALTER TABLE "resource_version" ADD COLUMN "written_by" bigint;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_resource_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO resource_version (name, version, written_by)
  VALUES (TG_ARGV[0], nextval('resource_version_seq'), pg_current_xact_id()::text::bigint)
  ON CONFLICT (name) DO UPDATE SET version = excluded.version, written_by = excluded.written_by
    WHERE resource_version.written_by IS DISTINCT FROM excluded.written_by;
  RETURN NULL;
END
$$;
