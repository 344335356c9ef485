CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL DEFAULT 'free',
  prepaid_credits BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  avatar_url TEXT,
  password_hash TEXT,
  email_verified BIGINT NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'active',
  session_revision BIGINT NOT NULL DEFAULT 0,
  last_org_id TEXT,
  last_login_at BIGINT,
  last_whats_new_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE memberships (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  invited_by TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user ON memberships(user_id);

CREATE TABLE refresh_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id TEXT,
  token_hash TEXT NOT NULL UNIQUE,
  revision BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);

-- Single-use emailed secrets: verification, password reset, data export and
-- deletion confirmation. Only hashes are stored.
CREATE TABLE email_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  expires_at BIGINT NOT NULL,
  consumed_at BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX email_tokens_user ON email_tokens(user_id, kind);

CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  invited_by TEXT,
  expires_at BIGINT NOT NULL,
  accepted_at BIGINT,
  revoked_at BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX invitations_org_user ON invitations(org_id, user_id);

CREATE TABLE waitlist (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  org_name TEXT NOT NULL,
  use_case TEXT,
  status TEXT NOT NULL,
  approval_token_hash TEXT UNIQUE,
  approval_expires_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  platform TEXT NOT NULL DEFAULT 'web',
  grouping_v3_shadow_enabled BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  UNIQUE (org_id, slug)
);

CREATE TABLE capture_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  env TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  label TEXT NOT NULL DEFAULT '',
  expires_at BIGINT,
  last_used BIGINT,
  revoked_at BIGINT,
  created_by TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX capture_keys_project ON capture_keys(project_id);

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

CREATE TABLE comments (
  id TEXT PRIMARY KEY,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX comments_bug ON comments(bug_id, created_at);
CREATE INDEX comments_org ON comments(org_id, created_at DESC);

CREATE TABLE status_history (
  id TEXT PRIMARY KEY,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  old_status TEXT,
  new_status TEXT NOT NULL,
  note TEXT,
  changed_by TEXT,
  changed_at BIGINT NOT NULL
);
CREATE INDEX status_history_bug ON status_history(bug_id, changed_at DESC);
CREATE INDEX status_history_org ON status_history(org_id, changed_at DESC);

CREATE TABLE watchers (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (bug_id, user_id)
);
CREATE INDEX watchers_user ON watchers(org_id, user_id);

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  bug_id TEXT,
  actor_id TEXT,
  read BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE INDEX notifications_user ON notifications(user_id, org_id, created_at DESC);

CREATE TABLE notification_preferences (
  user_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  email_level TEXT NOT NULL DEFAULT 'full',
  chat_enabled BIGINT NOT NULL DEFAULT 0,
  chat_webhook TEXT,
  in_app_enabled BIGINT NOT NULL DEFAULT 1,
  digest_freq TEXT NOT NULL DEFAULT 'realtime',
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, org_id)
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

-- Work written in the same transaction as the action that caused it (mail,
-- later webhooks), performed by background workers with retries.
CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts BIGINT NOT NULL DEFAULT 0,
  max_attempts BIGINT NOT NULL DEFAULT 8,
  next_attempt_at BIGINT NOT NULL,
  locked_until BIGINT,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
