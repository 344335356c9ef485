-- migration: tickets
-- after: accounts capture
-- Tickets: a kanban per organization (issue 28 item 4). Positions are dense
-- per (org_id, status), 0..n-1, kept so by every write under the
-- organization's board lock: a write takes the row lock of its
-- ticket_boards row with an UPDATE before it reads any position (SQLite has
-- one writer). No unique index on the position: a shift moves several rows
-- in one statement, and both backends check such an index row by row.
CREATE TABLE ticket_boards (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  revision BIGINT NOT NULL DEFAULT 0
);

-- bug_id: a deleted (or merged-away) bug leaves the ticket unlinked.
-- assignee_id: a deleted account leaves the ticket unassigned, and a
-- member's removal clears it through the area's deletion hook.
CREATE TABLE tickets (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'backlog',
  position BIGINT NOT NULL,
  bug_id TEXT REFERENCES bugs(id) ON DELETE SET NULL,
  assignee_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX tickets_board ON tickets(org_id, status, position);
CREATE INDEX tickets_bug ON tickets(bug_id);
CREATE INDEX tickets_assignee ON tickets(assignee_id);
