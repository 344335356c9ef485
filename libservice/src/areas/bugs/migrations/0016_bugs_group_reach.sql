-- migration: group_reach
-- The grouped list (issue 10): what a page of groups shows about their
-- members, kept on write instead of read over occurrences and participants
-- per request. The triggers that keep both are in migration 0017 (per
-- dialect); this file creates and fills them, in SQL both backends run.
--
-- bug_group_reach: the distinct sessions and users of every group of two
--   or more members (bug_groups rows with n >= 2; a group of one reads its
--   bug's affected_session_count and affected_user_count).
-- bugs.platforms: the platforms of the bug's occurrences as a bit set
--   (domain::triage::PlatformBit: web 1, ios 2, android 4, react-native 8,
--   flutter 16, server 32, other 64), raised by capture with every report
--   and united by merges. The platform filter still asks occurrences (by
--   index).
CREATE TABLE bug_group_reach (
  org_id TEXT NOT NULL,
  group_key TEXT NOT NULL,
  project_id TEXT NOT NULL,
  sessions BIGINT NOT NULL,
  users BIGINT NOT NULL,
  PRIMARY KEY (org_id, group_key, project_id)
);

INSERT INTO bug_group_reach
  SELECT g.org_id, g.group_key, g.project_id,
    COUNT(DISTINCT CASE WHEN p.kind = 'session' THEN p.key END),
    COUNT(DISTINCT CASE WHEN p.kind = 'user' THEN p.key END)
  FROM bug_groups g
  JOIN bugs m ON m.org_id = g.org_id AND m.group_key = g.group_key AND m.project_id = g.project_id
    AND m.merged_into IS NULL
  LEFT JOIN bug_participants p ON p.bug_id = m.id AND p.kind IN ('session', 'user')
  WHERE g.n > 1
  GROUP BY g.org_id, g.group_key, g.project_id;

ALTER TABLE bugs ADD COLUMN platforms BIGINT NOT NULL DEFAULT 0;
UPDATE bugs SET platforms = (
  SELECT MAX(CASE WHEN o.platform = 'web' THEN 1 ELSE 0 END) + 2 * MAX(CASE WHEN o.platform = 'ios' THEN 1 ELSE 0 END)
    + 4 * MAX(CASE WHEN o.platform = 'android' THEN 1 ELSE 0 END)
    + 8 * MAX(CASE WHEN o.platform = 'react-native' THEN 1 ELSE 0 END)
    + 16 * MAX(CASE WHEN o.platform = 'flutter' THEN 1 ELSE 0 END)
    + 32 * MAX(CASE WHEN o.platform = 'server' THEN 1 ELSE 0 END)
    + 64 * MAX(CASE WHEN o.platform = 'other' THEN 1 ELSE 0 END)
  FROM occurrences o WHERE o.bug_id = bugs.id)
WHERE EXISTS (SELECT 1 FROM occurrences o WHERE o.bug_id = bugs.id);
