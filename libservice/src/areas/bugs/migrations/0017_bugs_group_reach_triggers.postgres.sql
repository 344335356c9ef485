-- migration: group_reach_triggers
-- Keep bug_group_reach (migration 0016). A trigger on bug_groups recounts a
-- group's row whenever the group is recomputed (a member joins, leaves, is
-- merged or deleted; migration 0010) and removes it with the group; a
-- statement trigger on bug_participants raises it by the sessions and users
-- a member gains that no other member holds. Both run under the group's
-- advisory lock (the one bug_group_recompute takes), and the participant
-- trigger takes it before it reads, so a member joining concurrently is
-- counted once.
CREATE FUNCTION bug_group_reach_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM bug_group_reach WHERE org_id = OLD.org_id AND group_key = OLD.group_key AND project_id = OLD.project_id;
  ELSIF TG_OP = 'UPDATE' AND OLD.org_id <> NEW.org_id THEN
    DELETE FROM bug_group_reach WHERE org_id = OLD.org_id AND group_key = OLD.group_key AND project_id = OLD.project_id;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN NULL;
  END IF;
  IF NEW.n < 2 THEN
    DELETE FROM bug_group_reach WHERE org_id = NEW.org_id AND group_key = NEW.group_key AND project_id = NEW.project_id;
    RETURN NULL;
  END IF;
  INSERT INTO bug_group_reach
    SELECT NEW.org_id, NEW.group_key, NEW.project_id,
      COUNT(DISTINCT p.key) FILTER (WHERE p.kind = 'session'),
      COUNT(DISTINCT p.key) FILTER (WHERE p.kind = 'user')
    FROM bugs m JOIN bug_participants p ON p.bug_id = m.id AND p.kind IN ('session', 'user')
    WHERE m.org_id = NEW.org_id AND m.group_key = NEW.group_key AND m.project_id = NEW.project_id
      AND m.merged_into IS NULL
  ON CONFLICT (org_id, group_key, project_id) DO UPDATE SET sessions = excluded.sessions, users = excluded.users;
  RETURN NULL;
END
$$;
-- bug_group_recompute writes n on every recount; a report to a known bug
-- (reports, ls, the representative) does not.
CREATE TRIGGER bug_group_reach_sync AFTER INSERT OR DELETE OR UPDATE OF org_id, n ON bug_groups
  FOR EACH ROW EXECUTE FUNCTION bug_group_reach_sync();

-- New participant rows (capture, merges): a session or user the statement
-- gave a member of a counted group, held by no other member before it (rows
-- of the same statement do not count as held before: two members gaining
-- one key in one batch raise the group once).
CREATE FUNCTION bug_group_reach_participants() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(s.k, 4242))
  FROM (SELECT DISTINCT b.project_id || ':' || b.group_key AS k
        FROM added i JOIN bugs b ON b.id = i.bug_id
        WHERE i.kind IN ('session', 'user') AND b.merged_into IS NULL ORDER BY 1) s;
  UPDATE bug_group_reach r SET sessions = r.sessions + d.s, users = r.users + d.u
  FROM (SELECT g.org_id, g.group_key, g.project_id,
          COUNT(DISTINCT i.key) FILTER (WHERE i.kind = 'session') AS s,
          COUNT(DISTINCT i.key) FILTER (WHERE i.kind = 'user') AS u
        FROM added i
        JOIN bugs b ON b.id = i.bug_id AND b.merged_into IS NULL
        JOIN bug_group_reach g ON g.org_id = b.org_id AND g.group_key = b.group_key AND g.project_id = b.project_id
        WHERE i.kind IN ('session', 'user') AND NOT EXISTS (
          SELECT 1 FROM bugs m JOIN bug_participants p ON p.bug_id = m.id AND p.kind = i.kind AND p.key = i.key
          WHERE m.org_id = g.org_id AND m.group_key = g.group_key AND m.project_id = g.project_id
            AND m.merged_into IS NULL AND m.id <> i.bug_id
            AND NOT EXISTS (SELECT 1 FROM added j WHERE j.bug_id = p.bug_id AND j.kind = p.kind AND j.key = p.key))
        GROUP BY g.org_id, g.group_key, g.project_id) d
  WHERE r.org_id = d.org_id AND r.group_key = d.group_key AND r.project_id = d.project_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER bug_group_reach_participants AFTER INSERT ON bug_participants
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION bug_group_reach_participants();
