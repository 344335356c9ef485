-- migration: export_order
-- Triage reads (issue 10): GET /v1/bugs/export walks an organization's bugs
-- in the order last_seen, id by keyset pages ((last_seen, id) > cursor);
-- this index serves that order directly on both backends.
CREATE INDEX bugs_org_export ON bugs(org_id, last_seen, id);
