-- migration: sourcemaps
-- after: accounts projects
-- Source map uploads with sentry-cli (issue 31 item 1). sourcemap_chunks:
-- the chunks an organization uploaded, by their SHA-1 (the CLI's names),
-- their bytes in the area's blob store under storage_key (never shown).
-- sourcemap_bundles: an assembled artifact bundle of a project, one row per
-- project, release and dist an upload named (the bundle's bytes shared).
-- sourcemap_files: the files of a bundle as its manifest lists them, with
-- where their bytes are in the bundle, looked up by debug id or by release,
-- dist and URL path. Rows go with their organization and project.
CREATE TABLE sourcemap_chunks (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  sha1 TEXT NOT NULL,
  byte_count BIGINT NOT NULL,
  storage_key TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, sha1)
);

CREATE TABLE sourcemap_bundles (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  checksum TEXT NOT NULL,
  bundle_id TEXT NOT NULL,
  release TEXT NOT NULL,
  dist TEXT NOT NULL,
  byte_count BIGINT NOT NULL,
  sha256 TEXT NOT NULL,
  storage_key TEXT NOT NULL,
  file_count INTEGER NOT NULL,
  uploaded_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (project_id, checksum, release, dist)
);
CREATE INDEX sourcemap_bundles_org_checksum ON sourcemap_bundles(org_id, checksum);
CREATE INDEX sourcemap_bundles_project ON sourcemap_bundles(project_id, created_at, id);

CREATE TABLE sourcemap_files (
  bundle_id TEXT NOT NULL REFERENCES sourcemap_bundles(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  path TEXT NOT NULL,
  url TEXT NOT NULL,
  url_path TEXT NOT NULL,
  file_type TEXT NOT NULL,
  debug_id TEXT NOT NULL,
  sourcemap TEXT NOT NULL,
  release TEXT NOT NULL,
  dist TEXT NOT NULL,
  method INTEGER NOT NULL,
  data_offset BIGINT NOT NULL,
  compressed_size BIGINT NOT NULL,
  byte_count BIGINT NOT NULL,
  crc32 BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (bundle_id, position)
);
CREATE INDEX sourcemap_files_debug_id ON sourcemap_files(project_id, debug_id);
CREATE INDEX sourcemap_files_url ON sourcemap_files(project_id, release, dist, url_path);
