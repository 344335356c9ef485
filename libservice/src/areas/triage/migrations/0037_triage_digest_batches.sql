-- Alert email batches (issue 32; Spec 2 "Alert digest batch"): every alert
-- email to a member (kind 'instant', one notification, or 'digest', what
-- waited for an hourly or daily digest) is one batch row with its events,
-- a generation (0, +1 per recipient retry), cumulative attempts and one of
-- the states queued, sending, succeeded, retryable, permanent_failure,
-- cancelled, outcome_unknown. The subject and text are composed once: a
-- retry resends the same email. The recipient's address is read when the
-- batch is prepared for sending, never stored here.
CREATE TABLE digest_batches (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,
  generation BIGINT NOT NULL DEFAULT 0,
  attempts BIGINT NOT NULL DEFAULT 0,
  manual_retries BIGINT NOT NULL DEFAULT 0,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  last_error TEXT NOT NULL DEFAULT '',
  next_attempt_at BIGINT NOT NULL,
  lease_until BIGINT,
  resolution TEXT,
  resolution_generation BIGINT,
  resolution_at BIGINT,
  created_at BIGINT NOT NULL,
  sent_at BIGINT,
  updated_at BIGINT NOT NULL
);
CREATE INDEX digest_batches_due ON digest_batches(state, next_attempt_at);
CREATE INDEX digest_batches_owner ON digest_batches(org_id, user_id, created_at, id);
CREATE INDEX digest_batches_finished ON digest_batches(updated_at);

-- The notifications a batch carries, with the project of each one's bug.
CREATE TABLE digest_batch_events (
  batch_id TEXT NOT NULL REFERENCES digest_batches(id) ON DELETE CASCADE,
  notification_id TEXT NOT NULL,
  project_id TEXT,
  PRIMARY KEY (batch_id, notification_id)
);
CREATE INDEX digest_batch_events_project ON digest_batch_events(project_id, batch_id);

-- Recipient decisions (POST /v1/alerts/digests/:batchId/resolution): the
-- receipts, kept for replays of the same requestId.
CREATE TABLE digest_decisions (
  id TEXT PRIMARY KEY,
  batch_id TEXT NOT NULL REFERENCES digest_batches(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  action TEXT NOT NULL,
  accept_duplicate_risk BIGINT NOT NULL,
  expected_generation BIGINT NOT NULL,
  next_generation BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (user_id, request_id)
);
CREATE INDEX digest_decisions_batch ON digest_decisions(batch_id);
