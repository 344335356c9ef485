-- migration: evidence
-- after: accounts projects capture
-- Evidence artifacts (issue 30 item 1): files clients attach to occurrences.
-- The bytes live in the BlobStore (SERVICE_EVIDENCE_DIR), content-addressed:
-- storage_key is derived from sha256 and never shown. state: reserved,
-- ready, deleted or expired as last written (a reserved or ready row past
-- expires_at reads as expired until the sweep writes it). An artifact goes
-- with its organization, project or occurrence (a deleted bug's occurrences
-- take their evidence); its blob is then deleted by the sweep.
CREATE TABLE evidence_artifacts (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  occurrence_id TEXT REFERENCES occurrences(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  content_type TEXT NOT NULL,
  byte_count BIGINT NOT NULL,
  sha256 TEXT NOT NULL,
  storage_key TEXT NOT NULL,
  state TEXT NOT NULL,
  generation BIGINT NOT NULL DEFAULT 1,
  redaction TEXT,
  uploader_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  ready_at BIGINT
);
CREATE INDEX evidence_artifacts_occurrence ON evidence_artifacts(occurrence_id, created_at, id);
CREATE INDEX evidence_artifacts_project ON evidence_artifacts(project_id);
CREATE INDEX evidence_artifacts_org ON evidence_artifacts(org_id);
CREATE INDEX evidence_artifacts_key ON evidence_artifacts(storage_key, state);
CREATE INDEX evidence_artifacts_live_expiry ON evidence_artifacts(expires_at)
  WHERE state IN ('reserved', 'ready');

-- One row per storage key any artifact ever named: the key's lock (a
-- reservation, an upload and the sweep take it) and the sweep's list of
-- blobs to check.
CREATE TABLE evidence_blobs (
  storage_key TEXT PRIMARY KEY,
  created_at BIGINT NOT NULL,
  touched_at BIGINT NOT NULL
);
