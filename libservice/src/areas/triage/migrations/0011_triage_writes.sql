-- migration: triage_writes
-- Triage writes (issue 11). A notification is written for every recipient
-- the event reaches: in_app = 0 when the member turned in-app notifications
-- off (the row then only carries a pending email), email_pending = 1 while
-- it waits for the member's hourly or daily digest.
ALTER TABLE notifications ADD COLUMN in_app BIGINT NOT NULL DEFAULT 1;
ALTER TABLE notifications ADD COLUMN email_pending BIGINT NOT NULL DEFAULT 0;
CREATE INDEX notifications_digest ON notifications(email_pending, org_id, user_id, created_at);
CREATE INDEX notifications_bug ON notifications(bug_id);
-- GET /v1/team/activity reads the newest bugs of an organization.
CREATE INDEX bugs_org_created ON bugs(org_id, created_at DESC);
