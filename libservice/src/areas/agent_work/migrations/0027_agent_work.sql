-- migration: agent_work
-- after: accounts projects capture
-- Fenced work claims of agent tokens (issue 29 item 4). One row per issue
-- that was ever claimed holds its counters and is the issue's lock: every
-- command on the issue UPDATEs it before it reads a claim (SQLite has one
-- writer). No foreign key to bugs: a deleted or merged-away bug leaves its
-- claims behind as history (commands on it answer 404 or LEASE_STALE), and
-- a claim never takes a lock on the bug row that triage writes contend for.
CREATE TABLE agent_claim_issues (
  issue_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  last_generation BIGINT NOT NULL DEFAULT 0,
  last_fence BIGINT NOT NULL DEFAULT 0,
  locked_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX agent_claim_issues_project ON agent_claim_issues(project_id);

-- status: active, released, completed or expired as last written; an
-- active row past expires_at reads as expired (nothing sweeps).
CREATE TABLE agent_claims (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  issue_id TEXT NOT NULL,
  generation BIGINT NOT NULL,
  fencing_token BIGINT NOT NULL,
  token_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  status TEXT NOT NULL,
  ttl_seconds BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  ended_at BIGINT,
  receipt_id TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX agent_claims_issue_generation ON agent_claims(issue_id, generation);
-- At most one active row per issue, whatever a writer does.
CREATE UNIQUE INDEX agent_claims_one_active ON agent_claims(issue_id) WHERE status = 'active';
CREATE INDEX agent_claims_project ON agent_claims(project_id);

-- A merged-away issue and the issue it now resolves to.
CREATE TABLE agent_issue_merges (
  issue_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  target_id TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX agent_issue_merges_target ON agent_issue_merges(target_id);
CREATE INDEX agent_issue_merges_project ON agent_issue_merges(project_id);

-- The command log: the first answer of each command that took effect.
CREATE TABLE agent_commands (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  command_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  token_id TEXT NOT NULL,
  status INTEGER NOT NULL,
  answer TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, command_id)
);
CREATE INDEX agent_commands_created ON agent_commands(created_at);
