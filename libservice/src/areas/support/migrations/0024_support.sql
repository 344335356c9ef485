-- migration: support
-- after: accounts
-- Support sessions (issue 28, Spec 2 "Superadmin" POST
-- /v1/admin/support/session, server contract "Support sessions"): a
-- superadmin acting in an organization as an admin for 8 hours, and the log
-- of every request made under a session, which the organization's admins
-- read (GET /v1/org/support-sessions). Both go with the organization.
--   user_id         the superadmin's account; NULL once it is deleted (the
--                   row stays in the organization's log, unusable)
--   operator_email  the superadmin's address when the session opened
--   mode            'admin' (the only mode)
--   ended_at        ended by the operator before expires_at
--   route           the route's pattern ("/v1/bugs/:id"), never the raw path
CREATE TABLE support_sessions (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT,
  operator_email TEXT NOT NULL,
  mode TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  ended_at BIGINT
);
CREATE INDEX support_sessions_org ON support_sessions(org_id, created_at);
CREATE INDEX support_sessions_user ON support_sessions(user_id);

CREATE TABLE support_requests (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES support_sessions(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  method TEXT NOT NULL,
  route TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX support_requests_org ON support_requests(org_id, at);
CREATE INDEX support_requests_session ON support_requests(session_id, at);
