-- Alert emails to members (issue 32): new bugs and regressions that the
-- project's alert policy lets through reach each active member whose
-- notification preferences send email, as a notification row kept out of
-- the in-app list (in_app = 0) that either goes out at once as an instant
-- batch or waits for the member's digest. deliver_at holds an item that
-- arrived in the project's quiet hours until they end (NULL: now).
ALTER TABLE notifications ADD COLUMN deliver_at BIGINT;

-- A batch's manual retries always equal its generation (both start at 0 and
-- only a recipient's retry raises them): the count is read from generation.
ALTER TABLE digest_batches DROP COLUMN manual_retries;
