-- migration: integrations
-- after: triage bugs
-- Integrations and outbound delivery (issue 12, Spec 2 "Integration",
-- "Delivery", "Alerts"). Secrets, bearer tokens and whole configs are stored
-- sealed (AES-256-GCM, "v1:" + base64 of nonce, ciphertext and tag);
-- config_view is the redacted form reads show.
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
CREATE INDEX integrations_project ON integrations(project_id, created_at);
CREATE INDEX integrations_org ON integrations(org_id);

-- One row per (event, destination). dedupe_key makes new_bug deliveries
-- one per destination per bug. lease_until: a sender holds the row until
-- then (a process that dies mid-send leaves it to the next claim).
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
CREATE INDEX integration_deliveries_due ON integration_deliveries(next_attempt_at)
  WHERE status IN ('pending', 'deferred');
CREATE INDEX integration_deliveries_list ON integration_deliveries(integration_id, created_at, id);
CREATE INDEX integration_deliveries_org ON integration_deliveries(org_id, created_at);

-- The payload of an event, once for all its deliveries (stable across
-- retries; signatures are computed at each send).
CREATE TABLE delivery_events (
  event_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX delivery_events_org ON delivery_events(org_id);

-- The dead-letter log: a copy of every delivery whose last try failed.
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
CREATE INDEX delivery_dead_letters_integration ON delivery_dead_letters(integration_id, created_at);

-- The issue a code_host integration opened for a bug (reused, never opened twice).
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
