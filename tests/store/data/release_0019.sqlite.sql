-- The schema and bookkeeping of a SQLite database made by release 0019 (the
-- last with one global migration list): `service-server migrate` at commit
-- f33daf4, then `sqlite3 .dump` (the fts5 virtual tables as CREATE
-- statements instead of the dump's writable_schema rows). Loaded by
-- tests/store/migrations_test.cpp.
CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL);
INSERT INTO schema_migrations VALUES(1,'init',1795688579108);
INSERT INTO schema_migrations VALUES(2,'capture_regression',1795688579109);
INSERT INTO schema_migrations VALUES(3,'capture_storage',1795688579122);
INSERT INTO schema_migrations VALUES(4,'capture_participants',1795688579123);
INSERT INTO schema_migrations VALUES(5,'triage_reads',1795688579128);
INSERT INTO schema_migrations VALUES(6,'export_order',1795688579128);
INSERT INTO schema_migrations VALUES(7,'bug_search',1795688579129);
INSERT INTO schema_migrations VALUES(8,'grouping_v3',1795688579130);
INSERT INTO schema_migrations VALUES(9,'search_vocab',1795688579131);
INSERT INTO schema_migrations VALUES(10,'read_aggregates',1795688579137);
INSERT INTO schema_migrations VALUES(11,'triage_writes',1795688579144);
INSERT INTO schema_migrations VALUES(12,'sentry',1795688579147);
INSERT INTO schema_migrations VALUES(13,'capture_delivery_ids',1795688579147);
INSERT INTO schema_migrations VALUES(14,'integrations',1795688579149);
INSERT INTO schema_migrations VALUES(15,'search_text',1795688579149);
INSERT INTO schema_migrations VALUES(16,'group_reach',1795688579153);
INSERT INTO schema_migrations VALUES(17,'group_reach_triggers',1795688579154);
INSERT INTO schema_migrations VALUES(18,'capture_end_user_keys',1795688579155);
INSERT INTO schema_migrations VALUES(19,'accounts_sign_ins',1795688579161);
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
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
, previous_login_at BIGINT, first_session_id TEXT);
CREATE TABLE memberships (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  invited_by TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
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
CREATE TABLE email_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  expires_at BIGINT NOT NULL,
  consumed_at BIGINT,
  created_at BIGINT NOT NULL
);
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
  created_at BIGINT NOT NULL, project_number BIGINT,
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
, regression_occurrence_id TEXT, signature TEXT, group_key TEXT, embedding TEXT, grouping_v3 TEXT, ui_ux BIGINT NOT NULL DEFAULT 0, embedded_at BIGINT NOT NULL DEFAULT 0, grouping_v3_key TEXT, platforms BIGINT NOT NULL DEFAULT 0);
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
, events TEXT);
CREATE TABLE occurrence_events (
  occurrence_id TEXT PRIMARY KEY REFERENCES occurrences(id) ON DELETE CASCADE,
  bug_id TEXT NOT NULL,
  events TEXT NOT NULL
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
CREATE TABLE usage_counters (
  org_id TEXT NOT NULL,
  month TEXT NOT NULL,
  bugs BIGINT NOT NULL DEFAULT 0,
  reports BIGINT NOT NULL DEFAULT 0,
  ai_requests BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, month)
);
CREATE TABLE comments (
  id TEXT PRIMARY KEY,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
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
CREATE TABLE watchers (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (bug_id, user_id)
);
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
, in_app BIGINT NOT NULL DEFAULT 1, email_pending BIGINT NOT NULL DEFAULT 0);
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
CREATE TABLE IF NOT EXISTS "end_users" (
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
CREATE TABLE bug_participants (
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  report_count BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (bug_id, kind, key)
) WITHOUT ROWID;
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
CREATE VIRTUAL TABLE bugs_fts USING fts5(
  title, description, signature, content='bugs', content_rowid='rowid', tokenize='trigram');
CREATE VIRTUAL TABLE bugs_fts_vocab USING fts5vocab(bugs_fts, 'row');
CREATE TABLE bug_tallies (
  org_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  status TEXT NOT NULL,
  severity TEXT NOT NULL,
  signal_class TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  assigned_to TEXT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to)
) WITHOUT ROWID;
CREATE TABLE bug_groups (
  org_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  group_key TEXT NOT NULL,
  n BIGINT NOT NULL,
  reports BIGINT NOT NULL,
  fs BIGINT NOT NULL,
  ls BIGINT NOT NULL,
  sev BIGINT NOT NULL,
  reg BIGINT NOT NULL,
  sig BIGINT NOT NULL,
  classes BIGINT NOT NULL,
  rep_id TEXT NOT NULL,
  rep_title TEXT NOT NULL,
  PRIMARY KEY (project_id, group_key)
);
CREATE TABLE bug_group_tallies (
  org_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  classes BIGINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (org_id, project_id, classes)
) WITHOUT ROWID;
CREATE TABLE bug_days (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  status TEXT NOT NULL,
  severity TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  is_regression BIGINT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  reports BIGINT NOT NULL,
  resolved_n BIGINT NOT NULL,
  resolved_ms BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard)
) WITHOUT ROWID;
CREATE TABLE bug_days_org (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  status TEXT NOT NULL,
  severity TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  is_regression BIGINT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  reports BIGINT NOT NULL,
  resolved_n BIGINT NOT NULL,
  resolved_ms BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, status, severity, urgent, ui_ux, is_regression, shard)
) WITHOUT ROWID;
CREATE TABLE bug_resolutions (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  ms BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, project_id, urgent, ui_ux, shard)
) WITHOUT ROWID;
CREATE TABLE occurrence_days (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, project_id, shard)
) WITHOUT ROWID;
CREATE TABLE project_counter (
  id BIGINT PRIMARY KEY,
  next_number BIGINT NOT NULL
);
INSERT INTO project_counter VALUES(1,1);
CREATE TABLE capture_delivery_ids (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  delivery_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, delivery_id)
) WITHOUT ROWID;
CREATE TABLE integrations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  name TEXT,
  config_sealed TEXT NOT NULL,
  config_view TEXT NOT NULL,
  events TEXT NOT NULL,
  is_active BIGINT NOT NULL DEFAULT 1,
  delivery_feed TEXT NOT NULL DEFAULT 'all',
  min_severity TEXT,
  secret_sealed TEXT NOT NULL DEFAULT '',
  secret_mask TEXT NOT NULL DEFAULT '',
  previous_secret_sealed TEXT NOT NULL DEFAULT '',
  previous_secret_until BIGINT NOT NULL DEFAULT 0,
  bearer_sealed TEXT NOT NULL DEFAULT '',
  bearer_last4 TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE integration_deliveries (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
  bug_id TEXT,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  schedule TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts BIGINT NOT NULL DEFAULT 0,
  manual_sends BIGINT NOT NULL DEFAULT 0,
  response_code BIGINT,
  error_message TEXT,
  dedupe_key TEXT UNIQUE,
  created_at BIGINT NOT NULL,
  completed_at BIGINT,
  deferred_until BIGINT,
  next_attempt_at BIGINT NOT NULL,
  lease_until BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE delivery_events (
  event_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE TABLE delivery_dead_letters (
  id TEXT PRIMARY KEY,
  delivery_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  attempts BIGINT NOT NULL,
  response_code BIGINT,
  error_message TEXT,
  created_at BIGINT NOT NULL
);
CREATE TABLE code_host_issues (
  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
  bug_id TEXT NOT NULL,
  url TEXT NOT NULL,
  number BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (integration_id, bug_id)
);
CREATE TABLE alert_policies (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  body TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  updated_by TEXT NOT NULL
);
CREATE TABLE bug_group_reach (
  org_id TEXT NOT NULL,
  group_key TEXT NOT NULL,
  project_id TEXT NOT NULL,
  sessions BIGINT NOT NULL,
  users BIGINT NOT NULL,
  PRIMARY KEY (org_id, group_key, project_id)
);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
CREATE INDEX memberships_user ON memberships(user_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);
CREATE INDEX email_tokens_user ON email_tokens(user_id, kind);
CREATE INDEX invitations_org_user ON invitations(org_id, user_id);
CREATE INDEX capture_keys_project ON capture_keys(project_id);
CREATE UNIQUE INDEX bugs_fingerprint ON bugs(project_id, key_env, fingerprint);
CREATE INDEX bugs_org_last_seen ON bugs(org_id, last_seen DESC, project_id, id);
CREATE INDEX bugs_project_status ON bugs(project_id, status);
CREATE INDEX bugs_assigned ON bugs(org_id, assigned_to);
CREATE INDEX occurrences_bug ON occurrences(bug_id, occurred_at DESC, id);
CREATE INDEX occurrences_org_time ON occurrences(org_id, occurred_at DESC, id);
CREATE INDEX occurrences_user ON occurrences(org_id, user_key, occurred_at DESC);
CREATE INDEX occurrence_events_bug ON occurrence_events(bug_id);
CREATE INDEX presence_org ON presence(org_id, last_seen);
CREATE INDEX comments_bug ON comments(bug_id, created_at);
CREATE INDEX comments_org ON comments(org_id, created_at DESC);
CREATE INDEX status_history_bug ON status_history(bug_id, changed_at DESC);
CREATE INDEX status_history_org ON status_history(org_id, changed_at DESC);
CREATE INDEX watchers_user ON watchers(org_id, user_id);
CREATE INDEX notifications_user ON notifications(user_id, org_id, created_at DESC);
CREATE INDEX bug_participants_reporter ON bug_participants(key) WHERE kind = 'reporter';
CREATE INDEX bugs_org_group ON bugs(org_id, group_key, project_id, last_seen DESC);
CREATE INDEX bugs_org_project_last_seen ON bugs(org_id, project_id, last_seen DESC, id);
CREATE INDEX occurrences_org_platform ON occurrences(org_id, platform, bug_id);
CREATE INDEX bugs_org_first_seen ON bugs(org_id, first_seen);
CREATE INDEX duplicate_candidates_other ON duplicate_candidates(other_bug_id);
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
CREATE INDEX bugs_org_export ON bugs(org_id, last_seen, id);
CREATE INDEX bugs_org_embedded ON bugs(org_id, embedded_at);
CREATE INDEX bugs_project_v3_key ON bugs(project_id, grouping_v3_key);
CREATE INDEX bug_groups_last_seen ON bug_groups(org_id, ls DESC, project_id, group_key);
CREATE INDEX bug_groups_first_seen ON bug_groups(org_id, fs DESC, project_id, group_key);
CREATE INDEX bug_groups_count ON bug_groups(org_id, reports DESC, ls DESC, project_id, group_key);
CREATE INDEX bugs_open_reports ON bugs(org_id, report_count DESC, last_seen DESC, id)
  WHERE merged_into IS NULL AND status NOT IN ('resolved', 'silenced');
CREATE TRIGGER bug_tallies_insert AFTER INSERT ON bugs WHEN new.merged_into IS NULL BEGIN
  INSERT INTO bug_tallies VALUES (
    new.org_id, new.project_id, new.status, new.severity, new.signal_class,
    CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
    new.ui_ux, COALESCE(new.assigned_to, ''), 1)
    ON CONFLICT (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER bug_tallies_delete AFTER DELETE ON bugs WHEN old.merged_into IS NULL BEGIN
  UPDATE bug_tallies SET n = n - 1 WHERE org_id = old.org_id AND project_id = old.project_id AND status = old.status AND
    severity = old.severity AND signal_class = old.signal_class AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
    ui_ux = old.ui_ux AND assigned_to = COALESCE(old.assigned_to, '');
END;
CREATE TRIGGER bug_tallies_update AFTER UPDATE OF org_id, project_id, status, severity, signal_class, signal_family, is_regression, ui_ux, assigned_to, merged_into ON bugs
  WHEN old.org_id IS NOT new.org_id OR
    old.project_id IS NOT new.project_id OR
    old.status IS NOT new.status OR
    old.severity IS NOT new.severity OR
    old.signal_class IS NOT new.signal_class OR
    old.signal_family IS NOT new.signal_family OR
    old.is_regression IS NOT new.is_regression OR
    old.ui_ux IS NOT new.ui_ux OR
    old.assigned_to IS NOT new.assigned_to OR
    old.merged_into IS NOT new.merged_into BEGIN
  UPDATE bug_tallies SET n = n - 1 WHERE old.merged_into IS NULL AND org_id = old.org_id AND project_id = old.project_id AND status = old.status AND
    severity = old.severity AND signal_class = old.signal_class AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
    ui_ux = old.ui_ux AND assigned_to = COALESCE(old.assigned_to, '');
  INSERT INTO bug_tallies SELECT
    new.org_id, new.project_id, new.status, new.severity, new.signal_class,
    CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
    new.ui_ux, COALESCE(new.assigned_to, ''), 1
    WHERE new.merged_into IS NULL
    ON CONFLICT (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER bug_groups_insert AFTER INSERT ON bugs WHEN new.merged_into IS NULL BEGIN
  DELETE FROM bug_groups WHERE project_id = new.project_id AND group_key = new.group_key;
  INSERT INTO bug_groups
    SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
      r.id, lower(r.title)
    FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
        MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
        MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
          ELSE 0 END) AS sev,
        MAX(b.is_regression) AS reg,
        MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
        MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
          2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
          4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
      FROM bugs b WHERE b.org_id = new.org_id AND b.group_key = new.group_key AND b.project_id = new.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
END
;
CREATE TRIGGER bug_groups_delete AFTER DELETE ON bugs WHEN old.merged_into IS NULL BEGIN
  DELETE FROM bug_groups WHERE project_id = old.project_id AND group_key = old.group_key;
  INSERT INTO bug_groups
    SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
      r.id, lower(r.title)
    FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
        MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
        MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
          ELSE 0 END) AS sev,
        MAX(b.is_regression) AS reg,
        MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
        MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
          2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
          4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
      FROM bugs b WHERE b.org_id = old.org_id AND b.group_key = old.group_key AND b.project_id = old.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
END
;
CREATE TRIGGER bug_groups_report AFTER UPDATE OF last_seen, report_count ON bugs
  WHEN old.merged_into IS NULL AND new.merged_into IS NULL AND old.org_id = new.org_id AND
    old.project_id = new.project_id AND old.group_key = new.group_key AND new.last_seen >= old.last_seen AND
    old.severity = new.severity AND old.signal_class = new.signal_class AND
    old.is_regression = new.is_regression AND old.title = new.title AND old.first_seen = new.first_seen BEGIN
  UPDATE bug_groups SET reports = reports + new.report_count - old.report_count,
    rep_id = CASE WHEN (new.last_seen > ls OR (new.last_seen = ls AND new.id > rep_id)) THEN new.id ELSE rep_id END,
    rep_title = CASE WHEN (new.last_seen > ls OR (new.last_seen = ls AND new.id > rep_id)) THEN lower(new.title) ELSE rep_title END,
    ls = MAX(ls, new.last_seen)
  WHERE project_id = new.project_id AND group_key = new.group_key;
END;
CREATE TRIGGER bug_groups_update AFTER UPDATE OF org_id, project_id, group_key, merged_into, severity, signal_class, is_regression, title, first_seen, last_seen, report_count ON bugs
  WHEN NOT (old.merged_into IS NULL AND new.merged_into IS NULL AND old.org_id = new.org_id AND
    old.project_id = new.project_id AND old.group_key = new.group_key AND new.last_seen >= old.last_seen AND
    old.severity = new.severity AND old.signal_class = new.signal_class AND
    old.is_regression = new.is_regression AND old.title = new.title AND old.first_seen = new.first_seen) AND (
    old.org_id IS NOT new.org_id OR
    old.project_id IS NOT new.project_id OR
    old.group_key IS NOT new.group_key OR
    old.merged_into IS NOT new.merged_into OR
    old.severity IS NOT new.severity OR
    old.signal_class IS NOT new.signal_class OR
    old.is_regression IS NOT new.is_regression OR
    old.title IS NOT new.title OR
    old.first_seen IS NOT new.first_seen OR
    old.last_seen IS NOT new.last_seen OR
    old.report_count IS NOT new.report_count) BEGIN
  DELETE FROM bug_groups WHERE project_id = old.project_id AND group_key = old.group_key;
  INSERT INTO bug_groups
    SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
      r.id, lower(r.title)
    FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
        MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
        MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
          ELSE 0 END) AS sev,
        MAX(b.is_regression) AS reg,
        MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
        MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
          2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
          4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
      FROM bugs b WHERE b.org_id = old.org_id AND b.group_key = old.group_key AND b.project_id = old.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
  DELETE FROM bug_groups WHERE project_id = new.project_id AND group_key = new.group_key;
  INSERT INTO bug_groups
    SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
      r.id, lower(r.title)
    FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
        MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
        MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
          ELSE 0 END) AS sev,
        MAX(b.is_regression) AS reg,
        MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
        MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
          2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
          4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
      FROM bugs b WHERE b.org_id = new.org_id AND b.group_key = new.group_key AND b.project_id = new.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
END
;
CREATE TRIGGER bug_days_insert AFTER INSERT ON bugs WHEN new.merged_into IS NULL BEGIN
  INSERT INTO bug_days (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.project_id, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 1, new.report_count,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN new.resolved_at - new.first_seen ELSE 0 END
    WHERE true
    ON CONFLICT (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = n + excluded.n,
      reports = reports + excluded.reports,
      resolved_n = resolved_n + excluded.resolved_n,
      resolved_ms = resolved_ms + excluded.resolved_ms;
  INSERT INTO bug_days_org (org_id, day, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 1, new.report_count,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN new.resolved_at - new.first_seen ELSE 0 END
    WHERE true
    ON CONFLICT (org_id, day, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = n + excluded.n,
      reports = reports + excluded.reports,
      resolved_n = resolved_n + excluded.resolved_n,
      resolved_ms = resolved_ms + excluded.resolved_ms;
  INSERT INTO bug_resolutions (org_id, day, project_id, urgent, ui_ux, shard, n, ms)
    SELECT new.org_id, new.resolved_at / 86400000, new.project_id,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, 0, 1, (new.resolved_at - new.first_seen)
    WHERE true AND (new.status = 'resolved' AND new.resolved_at IS NOT NULL)
    ON CONFLICT (org_id, day, project_id, urgent, ui_ux, shard) DO UPDATE SET n = n + excluded.n,
      ms = ms + excluded.ms;
END;
CREATE TRIGGER bug_days_delete AFTER DELETE ON bugs WHEN old.merged_into IS NULL BEGIN
  UPDATE bug_days SET n = n - 1, reports = reports - old.report_count,
      resolved_n = resolved_n - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN old.resolved_at - old.first_seen ELSE 0 END
    WHERE true AND org_id = old.org_id AND day = old.first_seen / 86400000 AND project_id = old.project_id AND
      status = old.status AND severity = old.severity AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = old.ui_ux AND is_regression = old.is_regression AND shard = 0;
  UPDATE bug_days_org SET n = n - 1, reports = reports - old.report_count,
      resolved_n = resolved_n - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN old.resolved_at - old.first_seen ELSE 0 END
    WHERE true AND org_id = old.org_id AND day = old.first_seen / 86400000 AND
      status = old.status AND severity = old.severity AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = old.ui_ux AND is_regression = old.is_regression AND shard = 0;
  UPDATE bug_resolutions SET n = n - 1, ms = ms - (old.resolved_at - old.first_seen)
    WHERE true AND (old.status = 'resolved' AND old.resolved_at IS NOT NULL) AND org_id = old.org_id AND day = old.resolved_at / 86400000 AND project_id = old.project_id AND
      urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND ui_ux = old.ui_ux AND shard = 0;
END;
CREATE TRIGGER bug_days_report AFTER UPDATE OF report_count ON bugs
  WHEN new.merged_into IS NULL AND old.org_id IS new.org_id AND old.project_id IS new.project_id AND old.first_seen IS new.first_seen AND old.status IS new.status AND old.severity IS new.severity AND old.signal_class IS new.signal_class AND old.signal_family IS new.signal_family AND old.is_regression IS new.is_regression AND old.ui_ux IS new.ui_ux AND old.resolved_at IS new.resolved_at AND old.merged_into IS new.merged_into BEGIN
  INSERT INTO bug_days (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.project_id, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 0, new.report_count - old.report_count, 0, 0
    WHERE new.report_count <> old.report_count
    ON CONFLICT (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET reports = reports + excluded.reports;
      INSERT INTO bug_days_org (org_id, day, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 0, new.report_count - old.report_count, 0, 0
    WHERE new.report_count <> old.report_count
    ON CONFLICT (org_id, day, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET reports = reports + excluded.reports;
END;
CREATE TRIGGER bug_days_update AFTER UPDATE OF org_id, project_id, first_seen, status, severity, signal_class, signal_family, is_regression, ui_ux, resolved_at, merged_into, report_count ON bugs
  WHEN NOT (new.merged_into IS NULL AND old.org_id IS new.org_id AND old.project_id IS new.project_id AND old.first_seen IS new.first_seen AND old.status IS new.status AND old.severity IS new.severity AND old.signal_class IS new.signal_class AND old.signal_family IS new.signal_family AND old.is_regression IS new.is_regression AND old.ui_ux IS new.ui_ux AND old.resolved_at IS new.resolved_at AND old.merged_into IS new.merged_into) AND (
    old.org_id IS NOT new.org_id OR
    old.project_id IS NOT new.project_id OR
    old.first_seen IS NOT new.first_seen OR
    old.status IS NOT new.status OR
    old.severity IS NOT new.severity OR
    old.signal_class IS NOT new.signal_class OR
    old.signal_family IS NOT new.signal_family OR
    old.is_regression IS NOT new.is_regression OR
    old.ui_ux IS NOT new.ui_ux OR
    old.resolved_at IS NOT new.resolved_at OR
    old.merged_into IS NOT new.merged_into OR
    old.report_count IS NOT new.report_count) BEGIN
  UPDATE bug_days SET n = n - 1, reports = reports - old.report_count,
      resolved_n = resolved_n - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN old.resolved_at - old.first_seen ELSE 0 END
    WHERE old.merged_into IS NULL AND org_id = old.org_id AND day = old.first_seen / 86400000 AND project_id = old.project_id AND
      status = old.status AND severity = old.severity AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = old.ui_ux AND is_regression = old.is_regression AND shard = 0;
  UPDATE bug_days_org SET n = n - 1, reports = reports - old.report_count,
      resolved_n = resolved_n - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN old.resolved_at - old.first_seen ELSE 0 END
    WHERE old.merged_into IS NULL AND org_id = old.org_id AND day = old.first_seen / 86400000 AND
      status = old.status AND severity = old.severity AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = old.ui_ux AND is_regression = old.is_regression AND shard = 0;
  INSERT INTO bug_days (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.project_id, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 1, new.report_count,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN new.resolved_at - new.first_seen ELSE 0 END
    WHERE new.merged_into IS NULL
    ON CONFLICT (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = n + excluded.n,
      reports = reports + excluded.reports,
      resolved_n = resolved_n + excluded.resolved_n,
      resolved_ms = resolved_ms + excluded.resolved_ms;
  INSERT INTO bug_days_org (org_id, day, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 1, new.report_count,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN new.resolved_at - new.first_seen ELSE 0 END
    WHERE new.merged_into IS NULL
    ON CONFLICT (org_id, day, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = n + excluded.n,
      reports = reports + excluded.reports,
      resolved_n = resolved_n + excluded.resolved_n,
      resolved_ms = resolved_ms + excluded.resolved_ms;
  UPDATE bug_resolutions SET n = n - 1, ms = ms - (old.resolved_at - old.first_seen)
    WHERE old.merged_into IS NULL AND (old.status = 'resolved' AND old.resolved_at IS NOT NULL) AND org_id = old.org_id AND day = old.resolved_at / 86400000 AND project_id = old.project_id AND
      urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND ui_ux = old.ui_ux AND shard = 0;
  INSERT INTO bug_resolutions (org_id, day, project_id, urgent, ui_ux, shard, n, ms)
    SELECT new.org_id, new.resolved_at / 86400000, new.project_id,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, 0, 1, (new.resolved_at - new.first_seen)
    WHERE new.merged_into IS NULL AND (new.status = 'resolved' AND new.resolved_at IS NOT NULL)
    ON CONFLICT (org_id, day, project_id, urgent, ui_ux, shard) DO UPDATE SET n = n + excluded.n,
      ms = ms + excluded.ms;
END;
CREATE TRIGGER occurrence_days_insert AFTER INSERT ON occurrences BEGIN
  INSERT INTO occurrence_days (org_id, day, project_id, shard, n)
    SELECT new.org_id, new.occurred_at / 86400000, new.project_id, 0, 1 WHERE new.org_id IS NOT NULL
    ON CONFLICT (org_id, day, project_id, shard) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER occurrence_days_delete AFTER DELETE ON occurrences BEGIN
  UPDATE occurrence_days SET n = n - 1
    WHERE true AND org_id = old.org_id AND day = old.occurred_at / 86400000 AND project_id = old.project_id AND shard = 0;
END;
CREATE TRIGGER bug_group_tallies_insert AFTER INSERT ON bug_groups BEGIN
  INSERT INTO bug_group_tallies VALUES (new.org_id, new.project_id, new.classes, 1)
    ON CONFLICT (org_id, project_id, classes) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER bug_group_tallies_delete AFTER DELETE ON bug_groups BEGIN
  UPDATE bug_group_tallies SET n = n - 1
    WHERE org_id = old.org_id AND project_id = old.project_id AND classes = old.classes;
END;
CREATE TRIGGER bug_group_tallies_update AFTER UPDATE OF org_id, project_id, classes ON bug_groups
  WHEN old.org_id IS NOT new.org_id OR old.project_id IS NOT new.project_id OR old.classes IS NOT new.classes
BEGIN
  UPDATE bug_group_tallies SET n = n - 1
    WHERE org_id = old.org_id AND project_id = old.project_id AND classes = old.classes;
  INSERT INTO bug_group_tallies VALUES (new.org_id, new.project_id, new.classes, 1)
    ON CONFLICT (org_id, project_id, classes) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER read_aggregates_org_delete AFTER DELETE ON organizations BEGIN
  DELETE FROM bug_tallies WHERE org_id = old.id;
  DELETE FROM bug_groups WHERE org_id = old.id;
  DELETE FROM bug_group_tallies WHERE org_id = old.id;
  DELETE FROM bug_days WHERE org_id = old.id;
  DELETE FROM bug_days_org WHERE org_id = old.id;
  DELETE FROM bug_resolutions WHERE org_id = old.id;
  DELETE FROM occurrence_days WHERE org_id = old.id;
END;
CREATE TRIGGER read_aggregates_project_delete AFTER DELETE ON projects BEGIN
  DELETE FROM bug_tallies WHERE org_id = old.org_id AND project_id = old.id;
  DELETE FROM bug_groups WHERE project_id = old.id;
  DELETE FROM bug_group_tallies WHERE org_id = old.org_id AND project_id = old.id;
  DELETE FROM bug_days WHERE org_id = old.org_id AND project_id = old.id;
  DELETE FROM bug_resolutions WHERE org_id = old.org_id AND project_id = old.id;
  DELETE FROM occurrence_days WHERE org_id = old.org_id AND project_id = old.id;
END;
CREATE INDEX notifications_digest ON notifications(email_pending, org_id, user_id, created_at);
CREATE INDEX notifications_bug ON notifications(bug_id);
CREATE INDEX bugs_org_created ON bugs(org_id, created_at DESC);
CREATE UNIQUE INDEX projects_number ON projects(project_number);
CREATE INDEX capture_delivery_ids_created ON capture_delivery_ids(created_at);
CREATE INDEX integrations_project ON integrations(project_id, created_at);
CREATE INDEX integrations_org ON integrations(org_id);
CREATE INDEX integration_deliveries_due ON integration_deliveries(next_attempt_at)
  WHERE status IN ('pending', 'deferred');
CREATE INDEX integration_deliveries_list ON integration_deliveries(integration_id, created_at, id);
CREATE INDEX integration_deliveries_org ON integration_deliveries(org_id, created_at);
CREATE INDEX delivery_events_org ON delivery_events(org_id);
CREATE INDEX delivery_dead_letters_integration ON delivery_dead_letters(integration_id, created_at);
CREATE TRIGGER bug_group_reach_insert AFTER INSERT ON bug_groups WHEN new.n > 1 BEGIN
  INSERT OR REPLACE INTO bug_group_reach (org_id, group_key, project_id, sessions, users)
    SELECT new.org_id, new.group_key, new.project_id,
      COUNT(DISTINCT CASE WHEN p.kind = 'session' THEN p.key END),
      COUNT(DISTINCT CASE WHEN p.kind = 'user' THEN p.key END)
    FROM bugs m JOIN bug_participants p ON p.bug_id = m.id AND p.kind IN ('session', 'user')
    WHERE m.org_id = new.org_id AND m.group_key = new.group_key AND m.project_id = new.project_id
      AND m.merged_into IS NULL;
END;
CREATE TRIGGER bug_group_reach_delete AFTER DELETE ON bug_groups BEGIN
  DELETE FROM bug_group_reach
    WHERE org_id = old.org_id AND group_key = old.group_key AND project_id = old.project_id;
END;
CREATE TRIGGER bug_group_reach_participant AFTER INSERT ON bug_participants
  WHEN new.kind IN ('session', 'user') BEGIN
  UPDATE bug_group_reach
    SET sessions = sessions + (new.kind = 'session'), users = users + (new.kind = 'user')
    WHERE org_id = (SELECT org_id FROM bugs WHERE id = new.bug_id AND merged_into IS NULL)
      AND group_key = (SELECT group_key FROM bugs WHERE id = new.bug_id)
      AND project_id = (SELECT project_id FROM bugs WHERE id = new.bug_id)
      AND NOT EXISTS (
        SELECT 1 FROM bugs m JOIN bug_participants p ON p.bug_id = m.id AND p.kind = new.kind AND p.key = new.key
        WHERE m.org_id = bug_group_reach.org_id AND m.group_key = bug_group_reach.group_key
          AND m.project_id = bug_group_reach.project_id AND m.merged_into IS NULL AND m.id <> new.bug_id);
END;
