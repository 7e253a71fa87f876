-- Hand-written: ledger entries are append-only. Corrections are new entries (a release, a
-- reversal), never edits, so every balance stays the sum of its entries. Triggers are not part of
-- the Prisma datamodel: the drift check (db:migrate:check) neither sees nor drops them.
CREATE OR REPLACE FUNCTION "ledger_entry_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'LedgerEntry is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'restrict_violation', HINT = 'post a compensating entry instead';
END;
$$;

CREATE TRIGGER "LedgerEntry_append_only"
  BEFORE UPDATE OR DELETE ON "LedgerEntry"
  FOR EACH ROW EXECUTE FUNCTION "ledger_entry_append_only"();

CREATE TRIGGER "LedgerEntry_no_truncate"
  BEFORE TRUNCATE ON "LedgerEntry"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_entry_append_only"();
