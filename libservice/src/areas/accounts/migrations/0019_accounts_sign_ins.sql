-- migration: accounts_sign_ins
-- Accounts (issue 26): GET /v1/auth/whats-new answers firstLogin only while
-- the caller's session is the account's first sign-in, and otherwise reads
-- since the later of the previous sign-in and the last read of the feed.
--   first_session_id   the `sid` claim of the first sign-in's tokens; ''
--                      for accounts that signed in before sign-ins had ids
--                      (no session of theirs is a first sign-in any more)
--   previous_login_at  the sign-in before last_login_at
ALTER TABLE users ADD COLUMN previous_login_at BIGINT;
ALTER TABLE users ADD COLUMN first_session_id TEXT;
UPDATE users SET first_session_id = '' WHERE last_login_at IS NOT NULL;
