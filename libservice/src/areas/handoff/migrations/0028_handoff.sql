-- migration: handoff
-- after: accounts projects capture integrations
-- The agent handoff (issue 29 item 3, Spec 2 "Agent notification row",
-- "Agent settings", "Agent handoff"). Rows go with their organization,
-- project and bug.

-- Per project; no row: the defaults (autoNotify off, minSeverity high).
CREATE TABLE agent_settings (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  auto_notify BIGINT NOT NULL DEFAULT 0,
  min_severity TEXT NOT NULL DEFAULT 'high',
  updated_at BIGINT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT ''
);

-- The agent side of a bug: its ack and prUrl (mirrored into bugs.agent_ack,
-- agent_ack_by, agent_pr_url) and its latest batch, whose row is the reuse
-- window's lock (ClaimNotify updates it conditionally).
CREATE TABLE bug_agent_state (
  bug_id TEXT PRIMARY KEY REFERENCES bugs(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  ack TEXT,
  ack_by TEXT,
  ack_note TEXT,
  ack_at BIGINT,
  pr_url TEXT,
  pr_at BIGINT,
  last_batch_id TEXT,
  last_notify_at BIGINT,
  updated_at BIGINT NOT NULL
);

-- One per notify-agent or auto-notify of a bug.
CREATE TABLE agent_notify_batches (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  trigger_kind TEXT NOT NULL,
  no_channel BIGINT NOT NULL DEFAULT 0,
  actor TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL
);
CREATE INDEX agent_notify_batches_bug ON agent_notify_batches(bug_id, created_at);

-- One per channel of a batch. delivery_id links the integrations engine's
-- delivery (agent, webhook, code_host), whose live outcome the reads show.
CREATE TABLE agent_notifications (
  id TEXT PRIMARY KEY,
  batch_id TEXT NOT NULL REFERENCES agent_notify_batches(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  trigger_kind TEXT NOT NULL,
  channel TEXT,
  channel_name TEXT,
  integration_id TEXT,
  delivery_id TEXT,
  status TEXT NOT NULL,
  detail TEXT,
  created_at BIGINT NOT NULL,
  delivered_at BIGINT
);
CREATE INDEX agent_notifications_batch ON agent_notifications(batch_id, created_at, id);
-- The listen route: a project's MCP rows in creation order.
CREATE INDEX agent_notifications_listen ON agent_notifications(project_id, channel, created_at, id);

-- Acks that changed the bug's agent state (history).
CREATE TABLE agent_acks (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  ack_action TEXT NOT NULL,
  pr_url TEXT,
  actor TEXT NOT NULL,
  note TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX agent_acks_bug ON agent_acks(bug_id, created_at);

-- notify-agent looks for the delivery that opened a bug's code-host issue.
CREATE INDEX integration_deliveries_bug ON integration_deliveries(bug_id, integration_id, created_at);
