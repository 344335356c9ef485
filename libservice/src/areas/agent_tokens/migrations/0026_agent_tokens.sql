-- migration: agent_tokens
-- after: accounts projects
-- Agent tokens (issue 29, Spec 2 "Agent token", server contract "Agent
-- tokens"): personal access tokens an organization's admins and managers
-- make for coding agents. A token acts for its creator in its
-- organization; it goes with either.
--   prefix          "sv_pat_" + the first 8 random characters (display)
--   token_hash      SHA-256 hex of the whole token (the secret is never stored)
--   scopes          the scope names, separated by single spaces
--   access_revision opaque; a new one on every edit and on revocation
--   last_used_at    written by a background task, not on every request
CREATE TABLE agent_tokens (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  prefix TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  access_revision TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT,
  last_used_at BIGINT
);
CREATE INDEX agent_tokens_org ON agent_tokens(org_id, created_at);
CREATE INDEX agent_tokens_creator ON agent_tokens(created_by);

-- A token's project grants; expires_at NULL follows the token's expiry.
CREATE TABLE agent_token_grants (
  token_id TEXT NOT NULL REFERENCES agent_tokens(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  expires_at BIGINT,
  PRIMARY KEY (token_id, project_id)
);
CREATE INDEX agent_token_grants_project ON agent_token_grants(project_id);
