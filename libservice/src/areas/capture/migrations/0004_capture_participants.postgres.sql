-- migration: capture_participants
-- Capture (issue 4): a bug's distinct participants in one B-tree instead of
-- three (bug_users, bug_sessions, reporters). A report's user, session and
-- reporter rows share the bug's key prefix, so they usually land on the same
-- page: fewer pages written per report and one statement per batch.
--   kind 'user'      key = canonical userKey; report_count, first/last seen
--   kind 'session'   key = sessionId; first_seen only (existence)
--   kind 'reporter'  key = lower-cased reporter email; report_count, seen
-- The table's definition; SQLite stores it WITHOUT ROWID (one B-tree),
-- PostgreSQL as an ordinary heap with its primary key.
CREATE TABLE bug_participants (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  report_count BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (bug_id, kind, key)
);
INSERT INTO bug_participants (bug_id, kind, key, first_seen, last_seen, report_count)
  SELECT bug_id, 'user', user_key, first_seen, last_seen, occurrence_count FROM bug_users;
INSERT INTO bug_participants (bug_id, kind, key, first_seen, last_seen, report_count)
  SELECT bug_id, 'session', session_id, 0, 0, 0 FROM bug_sessions;
INSERT INTO bug_participants (bug_id, kind, key, first_seen, last_seen, report_count)
  SELECT bug_id, 'reporter', email, first_reported_at, last_reported_at, report_count FROM reporters;
DROP TABLE bug_users;
DROP TABLE bug_sessions;
DROP TABLE reporters;
CREATE INDEX bug_participants_reporter ON bug_participants(key) WHERE kind = 'reporter';
