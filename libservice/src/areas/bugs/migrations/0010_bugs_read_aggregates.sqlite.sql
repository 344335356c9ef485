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
  org_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  status TEXT NOT NULL,
  severity TEXT NOT NULL,
  signal_class TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  assigned_to TEXT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to)
) WITHOUT ROWID;

CREATE TABLE bug_groups (
  org_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
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
-- bug_group_tallies: groups per (project, classes bit set), kept by
-- triggers on bug_groups: the grouped list's `total` for its common
-- filters (project and signal classes).
CREATE TABLE bug_group_tallies (
  org_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  classes BIGINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (org_id, project_id, classes)
) WITHOUT ROWID;
-- Top open bugs by reports (stats' topBugs) walk this index.
CREATE INDEX bugs_open_reports ON bugs(org_id, report_count DESC, last_seen DESC, id)
  WHERE merged_into IS NULL AND status NOT IN ('resolved', 'silenced');

-- The aggregates of the bugs already stored.
INSERT INTO bug_tallies
  SELECT org_id, project_id, status, severity, signal_class,
    CASE WHEN signal_class = 'issue' AND (severity = 'critical' OR (severity = 'high' AND
      (is_regression = 1 OR signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx'))))
      THEN 1 ELSE 0 END,
    ui_ux, COALESCE(assigned_to, ''), COUNT(*)
  FROM bugs WHERE merged_into IS NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;

INSERT INTO bug_groups
  SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
    r.id, lower(r.title)
  FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
      MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
      MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
        ELSE 0 END) AS sev,
      MAX(b.is_regression) AS reg,
      MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
      MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
        2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
        4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
    FROM bugs b WHERE b.merged_into IS NULL AND b.group_key IS NOT NULL
    GROUP BY b.org_id, b.project_id, b.group_key) g
  JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
    AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
INSERT INTO bug_group_tallies
  SELECT org_id, project_id, classes, COUNT(*) FROM bug_groups GROUP BY org_id, project_id, classes;

-- Stats (GET /v1/bugs/stats) over UTC days, additive so a change is a delta:
-- bug_days: unmerged bugs by the day they were first seen, per status,
--   severity, delivery facets and regression flag: how many, their reports,
--   and how many of them are resolved (with resolved_at) and the sum of
--   resolved_at - first_seen over those.
-- bug_resolutions: unmerged resolved bugs by the day they were resolved.
-- occurrence_days: occurrences by the day they occurred.
-- `shard` spreads one day's hot counters over four rows on PostgreSQL, so
-- reports from several processes do not queue on one row (readers sum
-- them); SQLite has one writer and uses shard 0.
CREATE TABLE bug_days (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  status TEXT NOT NULL,
  severity TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  is_regression BIGINT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  reports BIGINT NOT NULL,
  resolved_n BIGINT NOT NULL,
  resolved_ms BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard)
) WITHOUT ROWID;
-- bug_days_org: the same without the project, for the organization-wide
-- stats (a tenth of the rows to read).
CREATE TABLE bug_days_org (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  status TEXT NOT NULL,
  severity TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  is_regression BIGINT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  reports BIGINT NOT NULL,
  resolved_n BIGINT NOT NULL,
  resolved_ms BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, status, severity, urgent, ui_ux, is_regression, shard)
) WITHOUT ROWID;
CREATE TABLE bug_resolutions (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  urgent BIGINT NOT NULL,
  ui_ux BIGINT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  ms BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, project_id, urgent, ui_ux, shard)
) WITHOUT ROWID;
CREATE TABLE occurrence_days (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, project_id, shard)
) WITHOUT ROWID;
INSERT INTO bug_days
  SELECT org_id, first_seen / 86400000, project_id, status, severity,
    CASE WHEN signal_class = 'issue' AND (severity = 'critical' OR (severity = 'high' AND
      (is_regression = 1 OR signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx'))))
      THEN 1 ELSE 0 END,
    ui_ux, is_regression, 0, COUNT(*), SUM(report_count),
    SUM(CASE WHEN status = 'resolved' AND resolved_at IS NOT NULL THEN 1 ELSE 0 END),
    SUM(CASE WHEN status = 'resolved' AND resolved_at IS NOT NULL THEN resolved_at - first_seen ELSE 0 END)
  FROM bugs WHERE merged_into IS NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
INSERT INTO bug_days_org
  SELECT org_id, day, status, severity, urgent, ui_ux, is_regression, 0, SUM(n), SUM(reports), SUM(resolved_n),
    SUM(resolved_ms)
  FROM bug_days GROUP BY org_id, day, status, severity, urgent, ui_ux, is_regression;
INSERT INTO bug_resolutions
  SELECT org_id, resolved_at / 86400000, project_id,
    CASE WHEN signal_class = 'issue' AND (severity = 'critical' OR (severity = 'high' AND
      (is_regression = 1 OR signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx'))))
      THEN 1 ELSE 0 END,
    ui_ux, 0, COUNT(*), SUM(resolved_at - first_seen)
  FROM bugs WHERE merged_into IS NULL AND status = 'resolved' AND resolved_at IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5;
INSERT INTO occurrence_days
  SELECT org_id, occurred_at / 86400000, project_id, 0, COUNT(*) FROM occurrences GROUP BY 1, 2, 3;

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
    SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
      r.id, lower(r.title)
    FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
        MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
        MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
          ELSE 0 END) AS sev,
        MAX(b.is_regression) AS reg,
        MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
        MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
          2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
          4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
      FROM bugs b WHERE b.org_id = new.org_id AND b.group_key = new.group_key AND b.project_id = new.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
END;
CREATE TRIGGER bug_groups_delete AFTER DELETE ON bugs WHEN old.merged_into IS NULL BEGIN
  DELETE FROM bug_groups WHERE project_id = old.project_id AND group_key = old.group_key;
  INSERT INTO bug_groups
    SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
      r.id, lower(r.title)
    FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
        MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
        MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
          ELSE 0 END) AS sev,
        MAX(b.is_regression) AS reg,
        MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
        MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
          2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
          4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
      FROM bugs b WHERE b.org_id = old.org_id AND b.group_key = old.group_key AND b.project_id = old.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
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
    SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
      r.id, lower(r.title)
    FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
        MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
        MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
          ELSE 0 END) AS sev,
        MAX(b.is_regression) AS reg,
        MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
        MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
          2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
          4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
      FROM bugs b WHERE b.org_id = old.org_id AND b.group_key = old.group_key AND b.project_id = old.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
  DELETE FROM bug_groups WHERE project_id = new.project_id AND group_key = new.group_key;
  INSERT INTO bug_groups
    SELECT g.org_id, g.project_id, g.group_key, g.n, g.reports, g.fs, g.ls, g.sev, g.reg, g.sig, g.classes,
      r.id, lower(r.title)
    FROM (SELECT b.org_id, b.project_id, b.group_key, COUNT(*) AS n, SUM(b.report_count) AS reports,
        MIN(b.first_seen) AS fs, MAX(b.last_seen) AS ls,
        MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1
          ELSE 0 END) AS sev,
        MAX(b.is_regression) AS reg,
        MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END) AS sig,
        MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) +
          2 * MAX(CASE b.signal_class WHEN 'watch' THEN 1 ELSE 0 END) +
          4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END) AS classes
      FROM bugs b WHERE b.org_id = new.org_id AND b.group_key = new.group_key AND b.project_id = new.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls);
END;

CREATE TRIGGER bug_days_insert AFTER INSERT ON bugs WHEN new.merged_into IS NULL BEGIN
  INSERT INTO bug_days (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.project_id, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 1, new.report_count,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN new.resolved_at - new.first_seen ELSE 0 END
    WHERE true
    ON CONFLICT (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = n + excluded.n,
      reports = reports + excluded.reports,
      resolved_n = resolved_n + excluded.resolved_n,
      resolved_ms = resolved_ms + excluded.resolved_ms;
  INSERT INTO bug_days_org (org_id, day, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 1, new.report_count,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN new.resolved_at - new.first_seen ELSE 0 END
    WHERE true
    ON CONFLICT (org_id, day, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = n + excluded.n,
      reports = reports + excluded.reports,
      resolved_n = resolved_n + excluded.resolved_n,
      resolved_ms = resolved_ms + excluded.resolved_ms;
  INSERT INTO bug_resolutions (org_id, day, project_id, urgent, ui_ux, shard, n, ms)
    SELECT new.org_id, new.resolved_at / 86400000, new.project_id,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, 0, 1, (new.resolved_at - new.first_seen)
    WHERE true AND (new.status = 'resolved' AND new.resolved_at IS NOT NULL)
    ON CONFLICT (org_id, day, project_id, urgent, ui_ux, shard) DO UPDATE SET n = n + excluded.n,
      ms = ms + excluded.ms;
END;
CREATE TRIGGER bug_days_delete AFTER DELETE ON bugs WHEN old.merged_into IS NULL BEGIN
  UPDATE bug_days SET n = n - 1, reports = reports - old.report_count,
      resolved_n = resolved_n - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN old.resolved_at - old.first_seen ELSE 0 END
    WHERE true AND org_id = old.org_id AND day = old.first_seen / 86400000 AND project_id = old.project_id AND
      status = old.status AND severity = old.severity AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = old.ui_ux AND is_regression = old.is_regression AND shard = 0;
  UPDATE bug_days_org SET n = n - 1, reports = reports - old.report_count,
      resolved_n = resolved_n - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN old.resolved_at - old.first_seen ELSE 0 END
    WHERE true AND org_id = old.org_id AND day = old.first_seen / 86400000 AND
      status = old.status AND severity = old.severity AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = old.ui_ux AND is_regression = old.is_regression AND shard = 0;
  UPDATE bug_resolutions SET n = n - 1, ms = ms - (old.resolved_at - old.first_seen)
    WHERE true AND (old.status = 'resolved' AND old.resolved_at IS NOT NULL) AND org_id = old.org_id AND day = old.resolved_at / 86400000 AND project_id = old.project_id AND
      urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND ui_ux = old.ui_ux AND shard = 0;
END;
-- A report to a known bug: its reports move, nothing else.
CREATE TRIGGER bug_days_report AFTER UPDATE OF report_count ON bugs
  WHEN new.merged_into IS NULL AND old.org_id IS new.org_id AND old.project_id IS new.project_id AND old.first_seen IS new.first_seen AND old.status IS new.status AND old.severity IS new.severity AND old.signal_class IS new.signal_class AND old.signal_family IS new.signal_family AND old.is_regression IS new.is_regression AND old.ui_ux IS new.ui_ux AND old.resolved_at IS new.resolved_at AND old.merged_into IS new.merged_into BEGIN
  INSERT INTO bug_days (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.project_id, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 0, new.report_count - old.report_count, 0, 0
    WHERE new.report_count <> old.report_count
    ON CONFLICT (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET reports = reports + excluded.reports;
      INSERT INTO bug_days_org (org_id, day, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 0, new.report_count - old.report_count, 0, 0
    WHERE new.report_count <> old.report_count
    ON CONFLICT (org_id, day, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET reports = reports + excluded.reports;
END;
CREATE TRIGGER bug_days_update AFTER UPDATE OF org_id, project_id, first_seen, status, severity, signal_class, signal_family, is_regression, ui_ux, resolved_at, merged_into, report_count ON bugs
  WHEN NOT (new.merged_into IS NULL AND old.org_id IS new.org_id AND old.project_id IS new.project_id AND old.first_seen IS new.first_seen AND old.status IS new.status AND old.severity IS new.severity AND old.signal_class IS new.signal_class AND old.signal_family IS new.signal_family AND old.is_regression IS new.is_regression AND old.ui_ux IS new.ui_ux AND old.resolved_at IS new.resolved_at AND old.merged_into IS new.merged_into) AND (
    old.org_id IS NOT new.org_id OR
    old.project_id IS NOT new.project_id OR
    old.first_seen IS NOT new.first_seen OR
    old.status IS NOT new.status OR
    old.severity IS NOT new.severity OR
    old.signal_class IS NOT new.signal_class OR
    old.signal_family IS NOT new.signal_family OR
    old.is_regression IS NOT new.is_regression OR
    old.ui_ux IS NOT new.ui_ux OR
    old.resolved_at IS NOT new.resolved_at OR
    old.merged_into IS NOT new.merged_into OR
    old.report_count IS NOT new.report_count) BEGIN
  UPDATE bug_days SET n = n - 1, reports = reports - old.report_count,
      resolved_n = resolved_n - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN old.resolved_at - old.first_seen ELSE 0 END
    WHERE old.merged_into IS NULL AND org_id = old.org_id AND day = old.first_seen / 86400000 AND project_id = old.project_id AND
      status = old.status AND severity = old.severity AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = old.ui_ux AND is_regression = old.is_regression AND shard = 0;
  UPDATE bug_days_org SET n = n - 1, reports = reports - old.report_count,
      resolved_n = resolved_n - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (old.status = 'resolved' AND old.resolved_at IS NOT NULL) THEN old.resolved_at - old.first_seen ELSE 0 END
    WHERE old.merged_into IS NULL AND org_id = old.org_id AND day = old.first_seen / 86400000 AND
      status = old.status AND severity = old.severity AND urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = old.ui_ux AND is_regression = old.is_regression AND shard = 0;
  INSERT INTO bug_days (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.project_id, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 1, new.report_count,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN new.resolved_at - new.first_seen ELSE 0 END
    WHERE new.merged_into IS NULL
    ON CONFLICT (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = n + excluded.n,
      reports = reports + excluded.reports,
      resolved_n = resolved_n + excluded.resolved_n,
      resolved_ms = resolved_ms + excluded.resolved_ms;
  INSERT INTO bug_days_org (org_id, day, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT new.org_id, new.first_seen / 86400000, new.status, new.severity,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, new.is_regression, 0, 1, new.report_count,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (new.status = 'resolved' AND new.resolved_at IS NOT NULL) THEN new.resolved_at - new.first_seen ELSE 0 END
    WHERE new.merged_into IS NULL
    ON CONFLICT (org_id, day, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = n + excluded.n,
      reports = reports + excluded.reports,
      resolved_n = resolved_n + excluded.resolved_n,
      resolved_ms = resolved_ms + excluded.resolved_ms;
  UPDATE bug_resolutions SET n = n - 1, ms = ms - (old.resolved_at - old.first_seen)
    WHERE old.merged_into IS NULL AND (old.status = 'resolved' AND old.resolved_at IS NOT NULL) AND org_id = old.org_id AND day = old.resolved_at / 86400000 AND project_id = old.project_id AND
      urgent = CASE WHEN old.signal_class = 'issue' AND (old.severity = 'critical' OR (old.severity = 'high' AND (old.is_regression = 1 OR old.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND ui_ux = old.ui_ux AND shard = 0;
  INSERT INTO bug_resolutions (org_id, day, project_id, urgent, ui_ux, shard, n, ms)
    SELECT new.org_id, new.resolved_at / 86400000, new.project_id,
      CASE WHEN new.signal_class = 'issue' AND (new.severity = 'critical' OR (new.severity = 'high' AND (new.is_regression = 1 OR new.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      new.ui_ux, 0, 1, (new.resolved_at - new.first_seen)
    WHERE new.merged_into IS NULL AND (new.status = 'resolved' AND new.resolved_at IS NOT NULL)
    ON CONFLICT (org_id, day, project_id, urgent, ui_ux, shard) DO UPDATE SET n = n + excluded.n,
      ms = ms + excluded.ms;
END;
CREATE TRIGGER occurrence_days_insert AFTER INSERT ON occurrences BEGIN
  INSERT INTO occurrence_days (org_id, day, project_id, shard, n)
    SELECT new.org_id, new.occurred_at / 86400000, new.project_id, 0, 1 WHERE new.org_id IS NOT NULL
    ON CONFLICT (org_id, day, project_id, shard) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER occurrence_days_delete AFTER DELETE ON occurrences BEGIN
  UPDATE occurrence_days SET n = n - 1
    WHERE true AND org_id = old.org_id AND day = old.occurred_at / 86400000 AND project_id = old.project_id AND shard = 0;
END;

-- Groups per classes bit set follow the group rows.
CREATE TRIGGER bug_group_tallies_insert AFTER INSERT ON bug_groups BEGIN
  INSERT INTO bug_group_tallies VALUES (new.org_id, new.project_id, new.classes, 1)
    ON CONFLICT (org_id, project_id, classes) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER bug_group_tallies_delete AFTER DELETE ON bug_groups BEGIN
  UPDATE bug_group_tallies SET n = n - 1
    WHERE org_id = old.org_id AND project_id = old.project_id AND classes = old.classes;
END;
CREATE TRIGGER bug_group_tallies_update AFTER UPDATE OF org_id, project_id, classes ON bug_groups
  WHEN old.org_id IS NOT new.org_id OR old.project_id IS NOT new.project_id OR old.classes IS NOT new.classes
BEGIN
  UPDATE bug_group_tallies SET n = n - 1
    WHERE org_id = old.org_id AND project_id = old.project_id AND classes = old.classes;
  INSERT INTO bug_group_tallies VALUES (new.org_id, new.project_id, new.classes, 1)
    ON CONFLICT (org_id, project_id, classes) DO UPDATE SET n = n + 1;
END;

-- A deleted organization or project takes its aggregate rows along (its
-- bugs and occurrences are deleted first, by their foreign keys; their
-- triggers only subtract from rows that exist, as on PostgreSQL).
CREATE TRIGGER read_aggregates_org_delete AFTER DELETE ON organizations BEGIN
  DELETE FROM bug_tallies WHERE org_id = old.id;
  DELETE FROM bug_groups WHERE org_id = old.id;
  DELETE FROM bug_group_tallies WHERE org_id = old.id;
  DELETE FROM bug_days WHERE org_id = old.id;
  DELETE FROM bug_days_org WHERE org_id = old.id;
  DELETE FROM bug_resolutions WHERE org_id = old.id;
  DELETE FROM occurrence_days WHERE org_id = old.id;
END;
CREATE TRIGGER read_aggregates_project_delete AFTER DELETE ON projects BEGIN
  DELETE FROM bug_tallies WHERE org_id = old.org_id AND project_id = old.id;
  DELETE FROM bug_groups WHERE project_id = old.id;
  DELETE FROM bug_group_tallies WHERE org_id = old.org_id AND project_id = old.id;
  DELETE FROM bug_days WHERE org_id = old.org_id AND project_id = old.id;
  DELETE FROM bug_resolutions WHERE org_id = old.org_id AND project_id = old.id;
  DELETE FROM occurrence_days WHERE org_id = old.org_id AND project_id = old.id;
END;
