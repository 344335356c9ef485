-- migration: sentry
-- after: capture
-- Sentry SDK compatibility (issue 13). Every project gets a positive
-- project_number, unique in the service and stable: the last path segment
-- of its DSN. project_counter holds the next number (one row; taking a
-- number updates it, which serializes concurrent project creation on
-- PostgreSQL). The delivery ids of Sentry events: 0013_capture_delivery_ids.
ALTER TABLE projects ADD COLUMN project_number BIGINT;
UPDATE projects SET project_number = (
  SELECT COUNT(*) FROM projects p2
  WHERE p2.created_at < projects.created_at OR (p2.created_at = projects.created_at AND p2.id <= projects.id));
CREATE UNIQUE INDEX projects_number ON projects(project_number);
CREATE TABLE project_counter (
  id BIGINT PRIMARY KEY,
  next_number BIGINT NOT NULL
);
INSERT INTO project_counter (id, next_number) SELECT 1, COALESCE(MAX(project_number), 0) + 1 FROM projects;
