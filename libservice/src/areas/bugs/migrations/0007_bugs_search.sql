-- migration: bug_search
-- Triage reads (issue 10): GET /v1/bugs/search keeps each organization's bug
-- embeddings in memory and refreshes them from the rows embedded since its
-- last look. embedded_at is when bugs.embedding was last written (0 for
-- bugs stored before embeddings: the index computes theirs on load).
ALTER TABLE bugs ADD COLUMN embedded_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX bugs_org_embedded ON bugs(org_id, embedded_at);
