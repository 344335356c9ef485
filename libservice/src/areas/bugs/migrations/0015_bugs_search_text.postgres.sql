-- migration: search_text
-- Bug search on PostgreSQL (issue 10): the lower-cased text the trigram leg
-- searches (title, description, signature) stored in the row, kept by a
-- trigger when one of them is written (reports do not write them, so the
-- column costs ingest nothing after a bug's first report), and pg_trgm's
-- index on it instead of on the expression: a row the search reads or
-- rechecks no longer lower-cases and concatenates its text (about half of
-- the cost of a row). SQLite searches through FTS5 (migration 0007).
ALTER TABLE bugs ADD COLUMN search_text TEXT;
UPDATE bugs SET search_text = lower(title || ' ' || description || ' ' || COALESCE(signature, ''));
CREATE FUNCTION bugs_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(NEW.title || ' ' || NEW.description || ' ' || COALESCE(NEW.signature, ''));
  RETURN NEW;
END
$$;
CREATE TRIGGER bugs_search_text BEFORE INSERT OR UPDATE OF title, description, signature ON bugs
  FOR EACH ROW EXECUTE FUNCTION bugs_search_text();
DROP INDEX IF EXISTS bugs_search_trgm;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_opclass WHERE opcname = 'gin_trgm_ops' AND pg_opclass_is_visible(oid)) THEN
    EXECUTE 'CREATE INDEX bugs_search_trgm ON bugs USING gin (search_text gin_trgm_ops)';
  END IF;
END
$$;
