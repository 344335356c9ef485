-- migration: grouping_v3
-- Shadow grouping (issue 10): the hash of a bug's routable v3 identity
-- (domain/triage/grouping_v3.h), never served, so duplicate proposals find
-- the project's bugs sharing it from one index.
ALTER TABLE bugs ADD COLUMN grouping_v3_key TEXT;
CREATE INDEX bugs_project_v3_key ON bugs(project_id, grouping_v3_key);
