-- migration: triage_reads
-- after: capture triage
-- Triage reads (issue 10): bug signatures and groups, search, grouping
-- evidence and duplicate candidates (columns: see the SQLite variant).
-- Text search: pg_trgm (a contrib extension shipped with PostgreSQL; trusted,
-- so the database owner may create it) with a GIN trigram index over title,
-- description and signature.

ALTER TABLE bugs ADD COLUMN signature TEXT;
ALTER TABLE bugs ADD COLUMN group_key TEXT;
ALTER TABLE bugs ADD COLUMN embedding TEXT;
ALTER TABLE bugs ADD COLUMN grouping_v3 TEXT;
ALTER TABLE bugs ADD COLUMN ui_ux BIGINT NOT NULL DEFAULT 0;
UPDATE bugs SET group_key = COALESCE(signature_hash, id);
CREATE INDEX bugs_org_group ON bugs(org_id, group_key, project_id, last_seen DESC);
CREATE INDEX bugs_org_project_last_seen ON bugs(org_id, project_id, last_seen DESC, id);
CREATE INDEX occurrences_org_platform ON occurrences(org_id, platform, bug_id);
CREATE INDEX bugs_org_first_seen ON bugs(org_id, first_seen);


CREATE TABLE duplicate_candidates (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  other_bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  score BIGINT NOT NULL,
  reason TEXT NOT NULL,
  confidence TEXT NOT NULL,
  algorithm_version TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'open',
  created_at BIGINT NOT NULL,
  UNIQUE (bug_id, other_bug_id)
);
CREATE INDEX duplicate_candidates_other ON duplicate_candidates(other_bug_id);

-- The trigram index is an accelerator, not a requirement: a server whose role
-- may not create extensions, or whose PostgreSQL lacks the contrib package,
-- still migrates and searches (by a scan). The extension goes to the first
-- schema of the search path, as CREATE EXTENSION does by default.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%): bug search runs without its index', SQLERRM;
END
$$;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_opclass WHERE opcname = 'gin_trgm_ops' AND pg_opclass_is_visible(oid)) THEN
    EXECUTE 'CREATE INDEX bugs_search_trgm ON bugs USING gin '
            '((lower(title || '' '' || description || '' '' || COALESCE(signature, ''''))) gin_trgm_ops)';
  END IF;
END
$$;
