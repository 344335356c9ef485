-- migration: read_aggregates
-- Triage reads (issue 10): aggregates kept on write so lists do not count
-- or aggregate every bug per request. Triggers on bugs keep them, so every
-- writer (ingest, triage writes, merges, deletions) keeps them exact.
--
-- bug_tallies: unmerged bugs per combination of the list filters that are
--   columns of the bug (project, status, severity, signal class, the two
--   delivery facets, stored assignee; '' = none). GET /v1/bugs sums these
--   rows for `total` unless the filter searches text or platforms.
--   urgent is domain::triage::IsUrgentCritical evaluated in SQL (the same
--   expression as store/bug_sql.cpp FeedClause).
-- bug_groups: one row per (project, groupKey) with unmerged members: the
--   aggregates and sort keys of GET /v1/bugs/groups. sev is the maximum
--   domain::triage::SeverityRank, sig the minimum class rank (issue 0,
--   watch 1, diagnostic 2), classes a bit set (issue 1, watch 2,
--   diagnostic 4), rep_id the representative (last_seen desc, id desc) and
--   rep_title its lowercased title. A report to a known bug (last_seen and
--   report_count only) updates the row in place; any other change to a
--   member recomputes its group from the members.

CREATE TABLE bug_tallies (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  severity TEXT NOT NULL,
  signal_class TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  assigned_to TEXT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to)
);

CREATE TABLE bug_groups (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  group_key TEXT NOT NULL,
  n BIGINT NOT NULL,
  reports BIGINT NOT NULL,
  fs BIGINT NOT NULL,
  ls BIGINT NOT NULL,
  sev BIGINT NOT NULL,
  reg BIGINT NOT NULL,
  sig BIGINT NOT NULL,
  classes BIGINT NOT NULL,
  rep_id TEXT NOT NULL,
  rep_title TEXT NOT NULL,
  PRIMARY KEY (project_id, group_key)
);
CREATE INDEX bug_groups_last_seen ON bug_groups(org_id, ls DESC, project_id, group_key);
CREATE INDEX bug_groups_first_seen ON bug_groups(org_id, fs DESC, project_id, group_key);
CREATE INDEX bug_groups_count ON bug_groups(org_id, reports DESC, ls DESC, project_id, group_key);

-- The aggregates of the bugs already stored.
INSERT INTO bug_tallies
  SELECT org_id, project_id, status, severity, signal_class,
    CASE WHEN signal_class = 'issue' AND (severity = 'critical' OR (severity = 'high' AND
      (is_regression = 1 OR signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx'))))
      THEN 1 ELSE 0 END,
    ui_ux, COALESCE(assigned_to, ''), COUNT(*)
  FROM bugs WHERE merged_into IS NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;

INSERT INTO bug_groups
  SELECT b.org_id, b.project_id, b.group_key, COUNT(*), SUM(b.report_count), MIN(b.first_seen),
    MAX(b.last_seen),
    MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
      ELSE 0 END),
    MAX(b.is_regression),
    MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END),
    MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
      2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
      4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END),
    (SELECT r.id FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
      r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1),
    (SELECT lower(r.title) FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
      r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1)
  FROM bugs b WHERE b.merged_into IS NULL GROUP BY b.org_id, b.project_id, b.group_key;

CREATE TRIGGER bug_tallies_insert AFTER INSERT ON bugs WHEN new.merged_into IS NULL BEGIN
  INSERT INTO bug_tallies VALUES (
    new.org_id, new.project_id, new.status, new.severity, new.signal_class,
    CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
    new.ui_ux, COALESCE(new.assigned_to, ''), 1)
    ON CONFLICT (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER bug_tallies_delete AFTER DELETE ON bugs WHEN old.merged_into IS NULL BEGIN
  UPDATE bug_tallies SET n = n - 1 WHERE org_id = old.org_id AND project_id = old.project_id AND status = old.status AND
    severity = old.severity AND signal_class = old.signal_class AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
    ui_ux = old.ui_ux AND assigned_to = COALESCE(old.assigned_to, '');
END;
CREATE TRIGGER bug_tallies_update AFTER UPDATE OF org_id, project_id, status, severity, signal_class, signal_family, is_regression, ui_ux, assigned_to, merged_into ON bugs
  WHEN old.org_id IS NOT new.org_id OR
    old.project_id IS NOT new.project_id OR
    old.status IS NOT new.status OR
    old.severity IS NOT new.severity OR
    old.signal_class IS NOT new.signal_class OR
    old.signal_family IS NOT new.signal_family OR
    old.is_regression IS NOT new.is_regression OR
    old.ui_ux IS NOT new.ui_ux OR
    old.assigned_to IS NOT new.assigned_to OR
    old.merged_into IS NOT new.merged_into BEGIN
  UPDATE bug_tallies SET n = n - 1 WHERE old.merged_into IS NULL AND org_id = old.org_id AND project_id = old.project_id AND status = old.status AND
    severity = old.severity AND signal_class = old.signal_class AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
    ui_ux = old.ui_ux AND assigned_to = COALESCE(old.assigned_to, '');
  INSERT INTO bug_tallies SELECT
    new.org_id, new.project_id, new.status, new.severity, new.signal_class,
    CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
    new.ui_ux, COALESCE(new.assigned_to, ''), 1
    WHERE new.merged_into IS NULL
    ON CONFLICT (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER bug_groups_insert AFTER INSERT ON bugs WHEN new.merged_into IS NULL BEGIN
  DELETE FROM bug_groups WHERE project_id = new.project_id AND group_key = new.group_key;
  INSERT INTO bug_groups
    SELECT b.org_id, b.project_id, b.group_key, COUNT(*), SUM(b.report_count), MIN(b.first_seen),
      MAX(b.last_seen),
      MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
        ELSE 0 END),
      MAX(b.is_regression),
      MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END),
      MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
        2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
        4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END),
      (SELECT r.id FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
        r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1),
      (SELECT lower(r.title) FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
        r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1)
    FROM bugs b WHERE b.org_id = new.org_id AND b.group_key = new.group_key AND b.project_id = new.project_id
      AND b.merged_into IS NULL
    GROUP BY b.org_id, b.project_id, b.group_key;
END;
CREATE TRIGGER bug_groups_delete AFTER DELETE ON bugs WHEN old.merged_into IS NULL BEGIN
  DELETE FROM bug_groups WHERE project_id = old.project_id AND group_key = old.group_key;
  INSERT INTO bug_groups
    SELECT b.org_id, b.project_id, b.group_key, COUNT(*), SUM(b.report_count), MIN(b.first_seen),
      MAX(b.last_seen),
      MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
        ELSE 0 END),
      MAX(b.is_regression),
      MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END),
      MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
        2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
        4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END),
      (SELECT r.id FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
        r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1),
      (SELECT lower(r.title) FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
        r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1)
    FROM bugs b WHERE b.org_id = old.org_id AND b.group_key = old.group_key AND b.project_id = old.project_id
      AND b.merged_into IS NULL
    GROUP BY b.org_id, b.project_id, b.group_key;
END;
-- A report to a known bug: in place.
CREATE TRIGGER bug_groups_report AFTER UPDATE OF last_seen, report_count ON bugs
  WHEN old.merged_into IS NULL AND new.merged_into IS NULL AND old.org_id = new.org_id AND
    old.project_id = new.project_id AND old.group_key = new.group_key AND new.last_seen >= old.last_seen AND
    old.severity = new.severity AND old.signal_class = new.signal_class AND
    old.is_regression = new.is_regression AND old.title = new.title AND old.first_seen = new.first_seen BEGIN
  UPDATE bug_groups SET reports = reports + new.report_count - old.report_count,
    rep_id = CASE WHEN (new.last_seen > ls OR (new.last_seen = ls AND new.id > rep_id)) THEN new.id ELSE rep_id END,
    rep_title = CASE WHEN (new.last_seen > ls OR (new.last_seen = ls AND new.id > rep_id)) THEN lower(new.title) ELSE rep_title END,
    ls = MAX(ls, new.last_seen)
  WHERE project_id = new.project_id AND group_key = new.group_key;
END;
-- Anything else: both groups recomputed from their members.
CREATE TRIGGER bug_groups_update AFTER UPDATE OF org_id, project_id, group_key, merged_into, severity, signal_class, is_regression, title, first_seen, last_seen, report_count ON bugs
  WHEN NOT (old.merged_into IS NULL AND new.merged_into IS NULL AND old.org_id = new.org_id AND
    old.project_id = new.project_id AND old.group_key = new.group_key AND new.last_seen >= old.last_seen AND
    old.severity = new.severity AND old.signal_class = new.signal_class AND
    old.is_regression = new.is_regression AND old.title = new.title AND old.first_seen = new.first_seen) AND (
    old.org_id IS NOT new.org_id OR
    old.project_id IS NOT new.project_id OR
    old.group_key IS NOT new.group_key OR
    old.merged_into IS NOT new.merged_into OR
    old.severity IS NOT new.severity OR
    old.signal_class IS NOT new.signal_class OR
    old.is_regression IS NOT new.is_regression OR
    old.title IS NOT new.title OR
    old.first_seen IS NOT new.first_seen OR
    old.last_seen IS NOT new.last_seen OR
    old.report_count IS NOT new.report_count) BEGIN
  DELETE FROM bug_groups WHERE project_id = old.project_id AND group_key = old.group_key;
  INSERT INTO bug_groups
    SELECT b.org_id, b.project_id, b.group_key, COUNT(*), SUM(b.report_count), MIN(b.first_seen),
      MAX(b.last_seen),
      MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
        ELSE 0 END),
      MAX(b.is_regression),
      MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END),
      MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
        2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
        4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END),
      (SELECT r.id FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
        r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1),
      (SELECT lower(r.title) FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
        r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1)
    FROM bugs b WHERE b.org_id = old.org_id AND b.group_key = old.group_key AND b.project_id = old.project_id
      AND b.merged_into IS NULL
    GROUP BY b.org_id, b.project_id, b.group_key;
  DELETE FROM bug_groups WHERE project_id = new.project_id AND group_key = new.group_key;
  INSERT INTO bug_groups
    SELECT b.org_id, b.project_id, b.group_key, COUNT(*), SUM(b.report_count), MIN(b.first_seen),
      MAX(b.last_seen),
      MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
        ELSE 0 END),
      MAX(b.is_regression),
      MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END),
      MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
        2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
        4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END),
      (SELECT r.id FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
        r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1),
      (SELECT lower(r.title) FROM bugs r WHERE r.org_id = b.org_id AND r.group_key = b.group_key AND
        r.project_id = b.project_id AND r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1)
    FROM bugs b WHERE b.org_id = new.org_id AND b.group_key = new.group_key AND b.project_id = new.project_id
      AND b.merged_into IS NULL
    GROUP BY b.org_id, b.project_id, b.group_key;
END;

