-- migration: init
-- after: projects
-- capture: bugs, occurrences, participants, end users, presence, usage counters.

-- Grouped issues. `key_env` keeps test-key reports in their own namespace.
CREATE TABLE bugs (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key_env TEXT NOT NULL DEFAULT 'live',
  fingerprint TEXT NOT NULL,
  signature_hash TEXT,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL DEFAULT '',
  severity TEXT NOT NULL DEFAULT 'medium',
  status TEXT NOT NULL DEFAULT 'new',
  platform TEXT,
  report_count BIGINT NOT NULL DEFAULT 0,
  occurrence_count BIGINT NOT NULL DEFAULT 0,
  reporter_count BIGINT NOT NULL DEFAULT 0,
  affected_user_count BIGINT NOT NULL DEFAULT 0,
  affected_session_count BIGINT NOT NULL DEFAULT 0,
  latest_release TEXT NOT NULL DEFAULT '',
  latest_environment TEXT NOT NULL DEFAULT '',
  is_regression BIGINT NOT NULL DEFAULT 0,
  signal_class TEXT NOT NULL DEFAULT 'issue',
  signal_family TEXT NOT NULL DEFAULT '',
  signal_reason TEXT NOT NULL DEFAULT '',
  classifier_confidence TEXT NOT NULL DEFAULT '',
  ai_summary TEXT,
  assigned_to TEXT,
  agent_ack TEXT,
  agent_ack_by TEXT,
  agent_pr_url TEXT,
  merged_into TEXT,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  resolved_at BIGINT
);
CREATE UNIQUE INDEX bugs_fingerprint ON bugs(project_id, key_env, fingerprint);
CREATE INDEX bugs_org_last_seen ON bugs(org_id, last_seen DESC, project_id, id);
CREATE INDEX bugs_project_status ON bugs(project_id, status);
CREATE INDEX bugs_assigned ON bugs(org_id, assigned_to);

-- One row per received report. Its events live in occurrence_events, one row
-- per occurrence (a JSON array), to keep the ingest write small.
CREATE TABLE occurrences (
  id TEXT PRIMARY KEY,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  reporter_email TEXT,
  reporter_id TEXT,
  ip_hash TEXT,
  session_id TEXT,
  end_user_id TEXT,
  user_key TEXT NOT NULL,
  user_kind TEXT NOT NULL,
  release_version TEXT,
  environment TEXT,
  url TEXT,
  user_agent TEXT,
  viewport TEXT,
  browser TEXT,
  os TEXT,
  platform TEXT,
  event_count BIGINT NOT NULL DEFAULT 0,
  metadata TEXT NOT NULL DEFAULT '{}',
  occurred_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX occurrences_bug ON occurrences(bug_id, occurred_at DESC, id);
CREATE INDEX occurrences_org_time ON occurrences(org_id, occurred_at DESC, id);
CREATE INDEX occurrences_user ON occurrences(org_id, user_key, occurred_at DESC);

CREATE TABLE occurrence_events (
  occurrence_id TEXT PRIMARY KEY REFERENCES occurrences(id) ON DELETE CASCADE,
  bug_id TEXT NOT NULL,
  events TEXT NOT NULL
);
CREATE INDEX occurrence_events_bug ON occurrence_events(bug_id);

CREATE TABLE reporters (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  report_count BIGINT NOT NULL DEFAULT 0,
  first_reported_at BIGINT NOT NULL,
  last_reported_at BIGINT NOT NULL,
  PRIMARY KEY (bug_id, email)
);
CREATE INDEX reporters_email ON reporters(email);

-- End users per organization, keyed by the canonical userKey.
CREATE TABLE end_users (
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
);

-- Distinct users and sessions per bug: the one expression behind every
-- users-affected and sessions-affected count.
CREATE TABLE bug_users (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  user_key TEXT NOT NULL,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  occurrence_count BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (bug_id, user_key)
);
CREATE TABLE bug_sessions (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  PRIMARY KEY (bug_id, session_id)
);

CREATE TABLE presence (
  project_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  user_id TEXT,
  reporter_id TEXT,
  url TEXT,
  path TEXT,
  title TEXT,
  referrer TEXT,
  event_type TEXT,
  visibility_state TEXT,
  interaction TEXT,
  metadata TEXT,
  last_seen BIGINT NOT NULL,
  PRIMARY KEY (project_id, session_id)
);
CREATE INDEX presence_org ON presence(org_id, last_seen);

-- Per-organization monthly counters (plan limits, AI usage).
CREATE TABLE usage_counters (
  org_id TEXT NOT NULL,
  month TEXT NOT NULL,
  bugs BIGINT NOT NULL DEFAULT 0,
  reports BIGINT NOT NULL DEFAULT 0,
  ai_requests BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, month)
);
