-- migration: init
-- after: capture
-- triage: comments, status history, watchers, notifications and their preferences.

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
