-- migration: applications
-- after: accounts projects capture
-- The application registry and first-capture receipts (issue 30 items 2
-- and 3; Spec 2 "Application registry", "Applications"; contract "Capture
-- identity"). Rows go with their organization and project; installations
-- and builds with their application; receipts, capture ids and capture
-- identities with their installation.

-- request_id: the client's id of the creating request, fixed across its
-- retries (one per project and table).
CREATE TABLE applications (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  request_id TEXT NOT NULL,
  name TEXT NOT NULL,
  identifier TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  UNIQUE (project_id, request_id),
  UNIQUE (project_id, identifier)
);
CREATE INDEX applications_page ON applications(project_id, created_at, id);

CREATE TABLE application_installations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  request_id TEXT NOT NULL,
  label TEXT,
  created_by TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  UNIQUE (project_id, request_id)
);
CREATE INDEX application_installations_page ON application_installations(application_id, created_at, id);

CREATE TABLE application_builds (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  request_id TEXT NOT NULL,
  source_revision TEXT NOT NULL,
  artifact_sha256 TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  UNIQUE (project_id, request_id),
  UNIQUE (application_id, artifact_sha256)
);
CREATE INDEX application_builds_page ON application_builds(application_id, created_at, id);

-- The managed identity of every accepted v1 capture naming an application
-- and installation of its project (the directory's observed targets). Goes
-- with its occurrence.
CREATE TABLE capture_identities (
  occurrence_id TEXT PRIMARY KEY REFERENCES occurrences(id) ON DELETE CASCADE,
  capture_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  installation_id TEXT NOT NULL REFERENCES application_installations(id) ON DELETE CASCADE,
  sdk_name TEXT NOT NULL,
  sdk_version TEXT NOT NULL,
  source TEXT NOT NULL,
  framework TEXT NOT NULL,
  runtime TEXT NOT NULL,
  os_family TEXT NOT NULL,
  platform TEXT NOT NULL,
  accepted_at BIGINT NOT NULL
);
CREATE INDEX capture_identities_installation ON capture_identities(installation_id);

-- The client's capture ids (metadata.capture.captureId) seen per
-- installation: a capture sent again is a replay, never a first capture.
CREATE TABLE capture_client_ids (
  installation_id TEXT NOT NULL REFERENCES application_installations(id) ON DELETE CASCADE,
  client_capture_id TEXT NOT NULL,
  occurrence_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (installation_id, client_capture_id)
);

-- One immutable receipt per installation: its first qualifying capture.
-- occurrence_id and bug_id are plain ids (no foreign key): the receipt
-- outlives its occurrence and bug.
CREATE TABLE capture_receipts (
  installation_id TEXT PRIMARY KEY REFERENCES application_installations(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  application_id TEXT NOT NULL,
  capture_id TEXT NOT NULL,
  occurrence_id TEXT NOT NULL,
  bug_id TEXT NOT NULL,
  accepted_at BIGINT NOT NULL,
  sdk_name TEXT NOT NULL,
  sdk_version TEXT NOT NULL,
  capture_source TEXT NOT NULL,
  platform TEXT NOT NULL,
  os_family TEXT NOT NULL,
  framework TEXT NOT NULL,
  runtime TEXT NOT NULL
);
