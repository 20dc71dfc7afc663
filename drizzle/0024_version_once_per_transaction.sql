-- A table's version moves once per transaction, not once per statement or row: the version a
-- reader sees only changes at commit, so one new number per transaction is enough for every cache
-- keyed on it. Bumping at every statement left one dead row version per bump in resource_version:
-- a bulk write in one transaction (10,000 products, their variants' roll-ups) made that three-row
-- table 120 pages long for good (VACUUM cannot truncate below its live rows), and every list
-- statement reads the whole table. A row the current transaction has already written (its xmin)
-- is locked and kept as it is; a write in a subtransaction may still bump again, which is harmless.
CREATE OR REPLACE FUNCTION bump_resource_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO resource_version (name, version) VALUES (TG_ARGV[0], nextval('resource_version_seq'))
  ON CONFLICT (name) DO UPDATE SET version = excluded.version
    WHERE resource_version.xmin <> xid(pg_current_xact_id());
  RETURN NULL;
END
$$;
