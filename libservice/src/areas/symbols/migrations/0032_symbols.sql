-- migration: symbols
-- after: accounts projects applications
-- Symbol files of application builds (issue 30 item 5; Spec 2 "Symbol
-- publishing"): one row per stored file, `pending` until the verifier read
-- its format, architectures and identifiers itself (symbol_slices), then
-- `ready` or `rejected` with a reason. The bytes are in the blob store
-- under storage_key (never shown). Rows go with their organization,
-- project, application and build.
CREATE TABLE symbol_files (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  build_id TEXT NOT NULL REFERENCES application_builds(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  byte_count BIGINT NOT NULL,
  sha256 TEXT NOT NULL,
  storage_key TEXT NOT NULL,
  declared_debug_id TEXT NOT NULL,
  declared_arch TEXT NOT NULL,
  state TEXT NOT NULL,
  format TEXT NOT NULL,
  reason TEXT NOT NULL,
  uploaded_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  processed_at BIGINT,
  UNIQUE (build_id, sha256)
);
CREATE INDEX symbol_files_build ON symbol_files(build_id, created_at, id);
CREATE INDEX symbol_files_pending ON symbol_files(state, created_at);

CREATE TABLE symbol_slices (
  file_id TEXT NOT NULL REFERENCES symbol_files(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  arch TEXT NOT NULL,
  debug_id TEXT NOT NULL,
  PRIMARY KEY (file_id, position)
);
CREATE INDEX symbol_slices_debug_id ON symbol_slices(project_id, debug_id);
