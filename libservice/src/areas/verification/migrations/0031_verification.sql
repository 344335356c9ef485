-- migration: verification
-- after: accounts projects agent_work
-- Runner and device enrollment, challenges, signed receipts and promotions
-- (issue 30 item 4; README "Verification"). Applications, installations,
-- builds and issues are named by id without a foreign key: a receipt is
-- history and outlives a deleted build or a merged-away issue (it reads as
-- historical then). Everything goes with its organization or project.
CREATE TABLE verification_runners (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  public_key_pem TEXT NOT NULL,
  public_key_hex TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  trust_level TEXT NOT NULL,
  allowed_runtimes TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX verification_runners_project ON verification_runners(project_id, created_at);

CREATE TABLE verification_devices (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  runner_id TEXT NOT NULL REFERENCES verification_runners(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  application_id TEXT NOT NULL,
  installation_id TEXT NOT NULL,
  runtime TEXT NOT NULL,
  device_identifier_sha256 TEXT NOT NULL,
  os_version TEXT NOT NULL,
  physical_device_confirmed INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX verification_devices_project ON verification_devices(project_id, created_at);
CREATE INDEX verification_devices_runner ON verification_devices(runner_id);

-- A challenge is bound to one lease (claim, generation, fencing token) and
-- the agent token that asked; one signed receipt may use it.
CREATE TABLE verification_challenges (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  issue_id TEXT NOT NULL,
  claim_id TEXT NOT NULL,
  generation BIGINT NOT NULL,
  fencing_token BIGINT NOT NULL,
  token_id TEXT NOT NULL,
  nonce TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  signed_receipt_id TEXT
);
CREATE INDEX verification_challenges_project ON verification_challenges(project_id);

-- status: pending (unsigned), verified or failed (signed). submission is the
-- canonical JSON (RFC 8785) as received: the bytes the runner signed.
CREATE TABLE verification_receipts (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  issue_id TEXT NOT NULL,
  challenge_id TEXT NOT NULL,
  claim_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  runner_id TEXT,
  device_id TEXT,
  application_id TEXT NOT NULL,
  build_id TEXT NOT NULL,
  artifact_sha256 TEXT NOT NULL,
  runtime TEXT NOT NULL,
  status TEXT NOT NULL,
  trust_level TEXT,
  tests TEXT NOT NULL,
  evidence_ids TEXT NOT NULL,
  submission TEXT NOT NULL,
  signature TEXT,
  measured_at BIGINT NOT NULL,
  occurrences_at BIGINT NOT NULL,
  regrouped INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE INDEX verification_receipts_issue ON verification_receipts(issue_id);
CREATE INDEX verification_receipts_project ON verification_receipts(project_id);

-- A bug verified fixed: the promotion and what it rested on.
CREATE TABLE verification_promotions (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  issue_id TEXT NOT NULL,
  claim_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  receipt_ids TEXT NOT NULL,
  target_builds TEXT NOT NULL,
  coverage TEXT NOT NULL,
  occurrences_at BIGINT NOT NULL,
  regrouped INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE INDEX verification_promotions_issue ON verification_promotions(issue_id, created_at);
CREATE INDEX verification_promotions_project ON verification_promotions(project_id);
