-- migration: group_reach_triggers
-- Keep bug_group_reach (migration 0016); the PostgreSQL file says the same
-- with a statement trigger, here each participant row is checked as it is
-- inserted (one writer at a time). Migration 0010 recomputes a group by
-- deleting and inserting its bug_groups row: the row of a group of two or
-- more is recounted then; a new session or user of a member that no other
-- member holds raises it.
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
