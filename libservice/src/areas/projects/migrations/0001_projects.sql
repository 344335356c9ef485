-- migration: init
-- after: accounts
-- projects: projects and their capture keys.

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
