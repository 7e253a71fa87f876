-- Hand-written: a statement that writes several tables at once (a new paper buy's position, order,
-- fills, ledger movements and notification, in one statement and no transaction around it) fails
-- whole when a condition it depends on does not hold: `statement_requires(ok, message)` raises
-- SQLSTATE PM001 with `message` unless `ok` is true, and the statement's writes all roll back with
-- it. Functions are not part of the Prisma datamodel: the drift check neither sees nor drops it.
CREATE OR REPLACE FUNCTION "statement_requires"(ok boolean, message text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION '%', message USING ERRCODE = 'PM001';
  END IF;
  RETURN true;
END;
$$;
