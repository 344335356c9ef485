-- migration: capture_end_user_keys
-- Capture (issue 26): a userKey is the application's own user id as sent,
-- else the reporter email (lower-cased), else "anon:" and 16 hex digits of
-- the keyed client-address hash (unchanged). Keys written before carried
-- the prefixes "user:" and "email:"; this migration strips them from
-- occurrences, end_users and the bugs' user participants, in SQL both
-- backends run.
--
-- Stripping can make two keys one: an application whose user ids are email
-- addresses, and reports that named only the same reporter email. Such rows
-- are folded into one: counts added, the earliest first sighting, the latest
-- last sighting (and that row's release, environment and occurrence), the
-- platforms of both, kind "user" when either was. The kept counts of
-- distinct users are then recounted where they changed: bugs.
-- affected_user_count and bug_group_reach.users.

UPDATE occurrences SET user_key = substr(user_key, 6) WHERE user_kind = 'user' AND user_key LIKE 'user:%';
UPDATE occurrences SET user_key = substr(user_key, 7) WHERE user_kind = 'email' AND user_key LIKE 'email:%';

-- End users: every row copied with its new key, then written back one row
-- per (organization, new key).
CREATE TABLE end_users_rekey (
  org_id TEXT NOT NULL,
  user_key TEXT NOT NULL,
  new_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  end_user_id TEXT,
  email TEXT,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  occurrence_count BIGINT NOT NULL,
  platforms TEXT NOT NULL,
  last_release TEXT,
  last_environment TEXT,
  last_occurrence_id TEXT
);
INSERT INTO end_users_rekey
  SELECT org_id, user_key,
    CASE WHEN kind = 'user' AND user_key LIKE 'user:%' THEN substr(user_key, 6)
         WHEN kind = 'email' AND user_key LIKE 'email:%' THEN substr(user_key, 7)
         ELSE user_key END,
    kind, end_user_id, email, first_seen, last_seen, occurrence_count, platforms, last_release,
    last_environment, last_occurrence_id
  FROM end_users;
CREATE INDEX end_users_rekey_new ON end_users_rekey(org_id, new_key, last_seen);
DELETE FROM end_users;
-- w: the row seen last of each new key (its release, environment and
-- occurrence are the end user's latest); g: the folded counts. The
-- platforms are a JSON array of the seven platform names, in a fixed order
-- for a folded row.
INSERT INTO end_users (org_id, user_key, kind, end_user_id, email, first_seen, last_seen, occurrence_count,
                       platforms, last_release, last_environment, last_occurrence_id)
  SELECT g.org_id, g.new_key, g.kind, COALESCE(w.end_user_id, g.end_user_id), COALESCE(w.email, g.email),
    g.first_seen, g.last_seen, g.occurrence_count,
    CASE WHEN g.n = 1 THEN w.platforms ELSE
      '[' || rtrim(
        CASE WHEN g.web = 1 THEN '"web",' ELSE '' END || CASE WHEN g.ios = 1 THEN '"ios",' ELSE '' END ||
        CASE WHEN g.android = 1 THEN '"android",' ELSE '' END ||
        CASE WHEN g.react_native = 1 THEN '"react-native",' ELSE '' END ||
        CASE WHEN g.flutter = 1 THEN '"flutter",' ELSE '' END ||
        CASE WHEN g.server = 1 THEN '"server",' ELSE '' END || CASE WHEN g.other = 1 THEN '"other",' ELSE '' END,
        ',') || ']' END,
    w.last_release, w.last_environment, w.last_occurrence_id
  FROM (SELECT org_id, new_key, COUNT(*) AS n,
          -- 'user' sorts after 'email' and 'anonymous': any supplied id wins.
          MAX(kind) AS kind, MAX(end_user_id) AS end_user_id, MAX(email) AS email,
          MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen, SUM(occurrence_count) AS occurrence_count,
          MAX(CASE WHEN platforms LIKE '%"web"%' THEN 1 ELSE 0 END) AS web,
          MAX(CASE WHEN platforms LIKE '%"ios"%' THEN 1 ELSE 0 END) AS ios,
          MAX(CASE WHEN platforms LIKE '%"android"%' THEN 1 ELSE 0 END) AS android,
          MAX(CASE WHEN platforms LIKE '%"react-native"%' THEN 1 ELSE 0 END) AS react_native,
          MAX(CASE WHEN platforms LIKE '%"flutter"%' THEN 1 ELSE 0 END) AS flutter,
          MAX(CASE WHEN platforms LIKE '%"server"%' THEN 1 ELSE 0 END) AS server,
          MAX(CASE WHEN platforms LIKE '%"other"%' THEN 1 ELSE 0 END) AS other
        FROM end_users_rekey GROUP BY org_id, new_key) g
  JOIN end_users_rekey w ON w.org_id = g.org_id AND w.user_key = (
    SELECT l.user_key FROM end_users_rekey l WHERE l.org_id = g.org_id AND l.new_key = g.new_key
    ORDER BY l.last_seen DESC, l.user_key LIMIT 1);
DROP TABLE end_users_rekey;

-- A bug's user participants: folded the same way (first and last seen,
-- reports).
CREATE TABLE bug_participants_rekey (
  bug_id TEXT NOT NULL,
  key TEXT NOT NULL,
  first_seen BIGINT NOT NULL,
  last_seen BIGINT NOT NULL,
  report_count BIGINT NOT NULL
);
INSERT INTO bug_participants_rekey
  SELECT bug_id, new_key, MIN(first_seen), MAX(last_seen), SUM(report_count)
  FROM (SELECT bug_id, first_seen, last_seen, report_count,
          CASE WHEN key LIKE 'user:%' THEN substr(key, 6) WHEN key LIKE 'email:%' THEN substr(key, 7)
               ELSE key END AS new_key
        FROM bug_participants WHERE kind = 'user') p
  GROUP BY bug_id, new_key;
DELETE FROM bug_participants WHERE kind = 'user';
INSERT INTO bug_participants (bug_id, kind, key, first_seen, last_seen, report_count)
  SELECT bug_id, 'user', key, first_seen, last_seen, report_count FROM bug_participants_rekey;
DROP TABLE bug_participants_rekey;

-- The kept distinct-user counts (the insert above also ran the triggers of
-- migration 0017, which only raise): recounted.
UPDATE bugs SET affected_user_count = (
    SELECT COUNT(*) FROM bug_participants p WHERE p.bug_id = bugs.id AND p.kind = 'user')
  WHERE affected_user_count <> (
    SELECT COUNT(*) FROM bug_participants p WHERE p.bug_id = bugs.id AND p.kind = 'user');
DELETE FROM bug_group_reach;
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
