-- migration: capture_delivery_ids
-- Sentry SDK compatibility (issue 13): the client delivery ids (Sentry event
-- ids) stored per project, so that an SDK's retry of an event already
-- stored is acknowledged and not stored twice (checked in the report's write
-- transaction); forgotten after 30 days.

CREATE TABLE capture_delivery_ids (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  delivery_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, delivery_id)
);
CREATE INDEX capture_delivery_ids_created ON capture_delivery_ids(created_at);
