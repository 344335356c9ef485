-- migration: triage_reads
-- Triage reads (issue 10): bug signatures and groups, search, grouping
-- evidence and duplicate candidates.
--   bugs.signature       "<errorType>:<normalizedMessage>" (NULL: manual or
--                        created before signatures; groupKey = the bug id)
--   bugs.signature_hash  16 hex of SHA-256(signature): the groupKey
--   bugs.group_key       signature_hash, else the bug id (kept by the
--                        writer so groups are read from one index)
--   bugs.embedding       the text embedding of title, description and
--                        signature (domain/triage/embedding.h), hex int8
--   bugs.grouping_v3     JSON evidence of the first occurrence when the
--                        project's shadow grouping is on, else NULL
--   bugs.ui_ux           the ui_ux delivery facet (domain/triage/vocabulary.h)
-- Text search: an FTS5 index with the trigram tokenizer (case-insensitive
-- substrings of three or more characters), kept by triggers that fire only
-- when the indexed columns change (ingest's counter updates do not).

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

CREATE VIRTUAL TABLE bugs_fts USING fts5(
  title, description, signature, content='bugs', content_rowid='rowid', tokenize='trigram');
INSERT INTO bugs_fts (rowid, title, description, signature)
  SELECT rowid, title, description, COALESCE(signature, '') FROM bugs;
CREATE TRIGGER bugs_fts_insert AFTER INSERT ON bugs BEGIN
  INSERT INTO bugs_fts (rowid, title, description, signature)
    VALUES (new.rowid, new.title, new.description, COALESCE(new.signature, ''));
END;
CREATE TRIGGER bugs_fts_delete AFTER DELETE ON bugs BEGIN
  INSERT INTO bugs_fts (bugs_fts, rowid, title, description, signature)
    VALUES ('delete', old.rowid, old.title, old.description, COALESCE(old.signature, ''));
END;
CREATE TRIGGER bugs_fts_update AFTER UPDATE OF title, description, signature ON bugs BEGIN
  INSERT INTO bugs_fts (bugs_fts, rowid, title, description, signature)
    VALUES ('delete', old.rowid, old.title, old.description, COALESCE(old.signature, ''));
  INSERT INTO bugs_fts (rowid, title, description, signature)
    VALUES (new.rowid, new.title, new.description, COALESCE(new.signature, ''));
END;
