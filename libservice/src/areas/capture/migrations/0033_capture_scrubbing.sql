-- migration: capture_scrubbing
-- after: projects
-- Scrubbing (issue 31 item 3): per-project settings and counters of what
-- was scrubbed (README "Scrubbing"). No settings row: the defaults.
-- extra_keys: the project's own keys, one per line. Counters: one row per
-- (project, rule), added to in batches by the capture area.
CREATE TABLE scrubbing_settings (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  extra_keys TEXT NOT NULL DEFAULT '',
  scrub_messages BIGINT NOT NULL DEFAULT 1,
  store_ip BIGINT NOT NULL DEFAULT 1,
  updated_at BIGINT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

CREATE TABLE scrubbing_counts (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  rule TEXT NOT NULL,
  scrubbed BIGINT NOT NULL DEFAULT 0,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, rule)
);
