ALTER TABLE bugs ADD COLUMN regression_occurrence_id TEXT;
