-- migration: capture_storage
-- Capture (issue 4): fewer B-trees per ingested report. An occurrence's
-- events move into its own row (occurrences.events, a JSON array; the
-- occurrence_events table is no longer written). On SQLite the composite-key
-- tables become WITHOUT ROWID, so each insert touches one B-tree instead of a
-- table plus its primary-key index; PostgreSQL keeps its heaps.

ALTER TABLE occurrences ADD COLUMN events TEXT;

CREATE TABLE reporters_v3 (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  report_count BIGINT NOT NULL DEFAULT 0,
  first_reported_at BIGINT NOT NULL,
  last_reported_at BIGINT NOT NULL,
  PRIMARY KEY (bug_id, email)
) WITHOUT ROWID;
INSERT INTO reporters_v3 (bug_id, email, report_count, first_reported_at, last_reported_at)
  SELECT bug_id, email, report_count, first_reported_at, last_reported_at FROM reporters;
DROP TABLE reporters;
ALTER TABLE reporters_v3 RENAME TO reporters;
CREATE INDEX reporters_email ON reporters(email);

CREATE TABLE end_users_v3 (
  org_id TEXT NOT NULL,
  user_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  end_user_id TEXT,
  email TEXT,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  occurrence_count BIGINT NOT NULL DEFAULT 0,
  platforms TEXT NOT NULL DEFAULT '[]',
  last_release TEXT,
  last_environment TEXT,
  last_occurrence_id TEXT,
  PRIMARY KEY (org_id, user_key)
) WITHOUT ROWID;
INSERT INTO end_users_v3 (org_id, user_key, kind, end_user_id, email, first_seen, last_seen, occurrence_count,
                          platforms, last_release, last_environment, last_occurrence_id)
  SELECT org_id, user_key, kind, end_user_id, email, first_seen, last_seen, occurrence_count, platforms,
         last_release, last_environment, last_occurrence_id FROM end_users;
DROP TABLE end_users;
ALTER TABLE end_users_v3 RENAME TO end_users;

CREATE TABLE bug_users_v3 (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  user_key TEXT NOT NULL,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  occurrence_count BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (bug_id, user_key)
) WITHOUT ROWID;
INSERT INTO bug_users_v3 (bug_id, user_key, first_seen, last_seen, occurrence_count)
  SELECT bug_id, user_key, first_seen, last_seen, occurrence_count FROM bug_users;
DROP TABLE bug_users;
ALTER TABLE bug_users_v3 RENAME TO bug_users;

CREATE TABLE bug_sessions_v3 (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  PRIMARY KEY (bug_id, session_id)
) WITHOUT ROWID;
INSERT INTO bug_sessions_v3 (bug_id, session_id) SELECT bug_id, session_id FROM bug_sessions;
DROP TABLE bug_sessions;
ALTER TABLE bug_sessions_v3 RENAME TO bug_sessions;
