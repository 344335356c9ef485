-- migration: capture_regression
-- Capture (issue 4): the occurrence that reopened a resolved bug, so one
-- UPDATE ... RETURNING tells the ingest whether its report was the regression.

ALTER TABLE bugs ADD COLUMN regression_occurrence_id TEXT;
