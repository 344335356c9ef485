-- migration: recommendations
-- after: accounts projects capture integrations
-- The producer of the outbound event recommended_bug (Spec 2 "Events";
-- README "Recommended bug events"): one row per (project, bug) that was
-- emitted as the project's top recommended bug. The row is the
-- deduplication: the worker inserts it (ON CONFLICT DO NOTHING) in the
-- transaction that queues the deliveries and queues them only when its
-- insert took, so two processes on one database never emit twice. A
-- re-emission (the bug was closed after emitted_at and came back to the
-- top) moves emitted_at with a conditional update. Rows go with their
-- organization, project and bug.
CREATE TABLE recommended_emissions (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  bug_id TEXT NOT NULL REFERENCES bugs(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  emitted_at BIGINT NOT NULL,
  emissions BIGINT NOT NULL DEFAULT 1,
  deliveries BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, bug_id)
);
CREATE INDEX recommended_emissions_bug ON recommended_emissions(bug_id);
