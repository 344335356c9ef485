-- migration: group_reach
-- The grouped list (issue 10): the distinct sessions and users of every
-- group of two or more members, kept on write instead of counted over the
-- members' participant rows per request (a group of one reads its bug's
-- affected_session_count and affected_user_count). The PostgreSQL file says
-- the same with a statement trigger; here each participant row is checked
-- as it is inserted (one writer at a time).
--
-- bug_group_reach: one row per bug_groups row with n >= 2, recounted when
--   its group is (migration 0010 recomputes a group by deleting and
--   inserting its row), raised by a new session or user of a member that no
--   other member holds.
CREATE TABLE bug_group_reach (
  org_id TEXT NOT NULL,
  group_key TEXT NOT NULL,
  project_id TEXT NOT NULL,
  sessions INTEGER NOT NULL,
  users INTEGER NOT NULL,
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

CREATE TRIGGER bug_group_reach_insert AFTER INSERT ON bug_groups WHEN new.n > 1 BEGIN
  INSERT OR REPLACE INTO bug_group_reach (org_id, group_key, project_id, sessions, users)
    SELECT new.org_id, new.group_key, new.project_id,
      COUNT(DISTINCT CASE WHEN p.kind = 'session' THEN p.key END),
      COUNT(DISTINCT CASE WHEN p.kind = 'user' THEN p.key END)
    FROM bugs m JOIN bug_participants p ON p.bug_id = m.id AND p.kind IN ('session', 'user')
    WHERE m.org_id = new.org_id AND m.group_key = new.group_key AND m.project_id = new.project_id
      AND m.merged_into IS NULL;
END;
CREATE TRIGGER bug_group_reach_delete AFTER DELETE ON bug_groups BEGIN
  DELETE FROM bug_group_reach
    WHERE org_id = old.org_id AND group_key = old.group_key AND project_id = old.project_id;
END;

CREATE TRIGGER bug_group_reach_participant AFTER INSERT ON bug_participants
  WHEN new.kind IN ('session', 'user') BEGIN
  UPDATE bug_group_reach
    SET sessions = sessions + (new.kind = 'session'), users = users + (new.kind = 'user')
    WHERE org_id = (SELECT org_id FROM bugs WHERE id = new.bug_id AND merged_into IS NULL)
      AND group_key = (SELECT group_key FROM bugs WHERE id = new.bug_id)
      AND project_id = (SELECT project_id FROM bugs WHERE id = new.bug_id)
      AND NOT EXISTS (
        SELECT 1 FROM bugs m JOIN bug_participants p ON p.bug_id = m.id AND p.kind = new.kind AND p.key = new.key
        WHERE m.org_id = bug_group_reach.org_id AND m.group_key = bug_group_reach.group_key
          AND m.project_id = bug_group_reach.project_id AND m.merged_into IS NULL AND m.id <> new.bug_id);
END;

-- bugs.platforms: the platforms of the bug's occurrences as a bit set
-- (domain::triage::PlatformBit: web 1, ios 2, android 4, react-native 8,
-- flutter 16, server 32, other 64), raised by capture with every report
-- and united by merges: a group's platforms without reading its
-- occurrences. The platform filter still asks occurrences (by index).
ALTER TABLE bugs ADD COLUMN platforms INTEGER NOT NULL DEFAULT 0;
UPDATE bugs SET platforms = (
  SELECT MAX(CASE WHEN o.platform = 'web' THEN 1 ELSE 0 END) + 2 * MAX(CASE WHEN o.platform = 'ios' THEN 1 ELSE 0 END)
    + 4 * MAX(CASE WHEN o.platform = 'android' THEN 1 ELSE 0 END)
    + 8 * MAX(CASE WHEN o.platform = 'react-native' THEN 1 ELSE 0 END)
    + 16 * MAX(CASE WHEN o.platform = 'flutter' THEN 1 ELSE 0 END)
    + 32 * MAX(CASE WHEN o.platform = 'server' THEN 1 ELSE 0 END)
    + 64 * MAX(CASE WHEN o.platform = 'other' THEN 1 ELSE 0 END)
  FROM occurrences o WHERE o.bug_id = bugs.id)
WHERE EXISTS (SELECT 1 FROM occurrences o WHERE o.bug_id = bugs.id);
