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
);

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
);
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
);
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
);
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
);
CREATE TABLE occurrence_days (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  shard BIGINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, project_id, shard)
);
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

CREATE FUNCTION bug_tallies_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF OLD.merged_into IS NULL THEN
      UPDATE bug_tallies SET n = n - 1 WHERE org_id = OLD.org_id AND project_id = OLD.project_id AND status = OLD.status AND
    severity = OLD.severity AND signal_class = OLD.signal_class AND urgent = CASE WHEN OLD.signal_class = 'issue' AND (OLD.severity = 'critical' OR (OLD.severity = 'high' AND (OLD.is_regression = 1 OR OLD.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
    ui_ux = OLD.ui_ux AND assigned_to = COALESCE(OLD.assigned_to, '');
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF NEW.merged_into IS NULL THEN
      INSERT INTO bug_tallies VALUES (
        NEW.org_id, NEW.project_id, NEW.status, NEW.severity, NEW.signal_class,
    CASE WHEN NEW.signal_class = 'issue' AND (NEW.severity = 'critical' OR (NEW.severity = 'high' AND (NEW.is_regression = 1 OR NEW.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
    NEW.ui_ux, COALESCE(NEW.assigned_to, ''), 1)
        ON CONFLICT (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to) DO UPDATE SET n = bug_tallies.n + 1;
    END IF;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER bug_tallies_insert_delete AFTER INSERT OR DELETE ON bugs
  FOR EACH ROW EXECUTE FUNCTION bug_tallies_sync();
CREATE TRIGGER bug_tallies_update AFTER UPDATE OF org_id, project_id, status, severity, signal_class, signal_family, is_regression, ui_ux, assigned_to, merged_into ON bugs
  FOR EACH ROW WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id OR
    OLD.project_id IS DISTINCT FROM NEW.project_id OR
    OLD.status IS DISTINCT FROM NEW.status OR
    OLD.severity IS DISTINCT FROM NEW.severity OR
    OLD.signal_class IS DISTINCT FROM NEW.signal_class OR
    OLD.signal_family IS DISTINCT FROM NEW.signal_family OR
    OLD.is_regression IS DISTINCT FROM NEW.is_regression OR
    OLD.ui_ux IS DISTINCT FROM NEW.ui_ux OR
    OLD.assigned_to IS DISTINCT FROM NEW.assigned_to OR
    OLD.merged_into IS DISTINCT FROM NEW.merged_into)
  EXECUTE FUNCTION bug_tallies_sync();

-- Recomputes one group from its members. The advisory lock serialises the
-- writers of one group across transactions, and the aggregate that follows
-- it reads with a new snapshot (READ COMMITTED), so a concurrent writer's
-- committed members are never lost.
CREATE FUNCTION bug_group_recompute(changed bugs) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(changed.project_id || ':' || changed.group_key, 4242));
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
      FROM bugs b WHERE b.org_id = changed.org_id AND b.group_key = changed.group_key AND b.project_id = changed.project_id
        AND b.merged_into IS NULL
      GROUP BY b.org_id, b.project_id, b.group_key) g
    -- The representative: the greatest id among the members last seen at
    -- the group's last_seen (an equality on bugs_org_group, no ordered walk).
    JOIN bugs r ON r.id = (SELECT MAX(m.id) FROM bugs m WHERE m.org_id = g.org_id AND m.group_key = g.group_key
      AND m.project_id = g.project_id AND m.merged_into IS NULL AND m.last_seen = g.ls)
  ON CONFLICT (project_id, group_key) DO UPDATE SET org_id = excluded.org_id, n = excluded.n,
    reports = excluded.reports, fs = excluded.fs, ls = excluded.ls, sev = excluded.sev, reg = excluded.reg,
    sig = excluded.sig, classes = excluded.classes, rep_id = excluded.rep_id, rep_title = excluded.rep_title;
  IF NOT FOUND THEN
    DELETE FROM bug_groups WHERE project_id = changed.project_id AND group_key = changed.group_key;
  END IF;
END
$$;
CREATE FUNCTION bug_groups_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.merged_into IS NULL THEN PERFORM bug_group_recompute(NEW); END IF;
  ELSIF TG_OP = 'DELETE' THEN
    IF OLD.merged_into IS NULL THEN PERFORM bug_group_recompute(OLD); END IF;
  ELSIF OLD.merged_into IS NULL AND NEW.merged_into IS NULL AND OLD.org_id = NEW.org_id AND
    OLD.project_id = NEW.project_id AND OLD.group_key = NEW.group_key AND NEW.last_seen >= OLD.last_seen AND
    OLD.severity = NEW.severity AND OLD.signal_class = NEW.signal_class AND
    OLD.is_regression = NEW.is_regression AND OLD.title = NEW.title AND OLD.first_seen = NEW.first_seen THEN
    -- A report to a known bug: in place, under the group's lock.
    PERFORM pg_advisory_xact_lock(hashtextextended(NEW.project_id || ':' || NEW.group_key, 4242));
    UPDATE bug_groups SET reports = reports + NEW.report_count - OLD.report_count,
    rep_id = CASE WHEN (NEW.last_seen > ls OR (NEW.last_seen = ls AND NEW.id > rep_id)) THEN NEW.id ELSE rep_id END,
    rep_title = CASE WHEN (NEW.last_seen > ls OR (NEW.last_seen = ls AND NEW.id > rep_id)) THEN lower(NEW.title) ELSE rep_title END,
    ls = GREATEST(ls, NEW.last_seen)
  WHERE project_id = NEW.project_id AND group_key = NEW.group_key;
  ELSE
    PERFORM bug_group_recompute(OLD);
    IF OLD.project_id IS DISTINCT FROM NEW.project_id OR OLD.group_key IS DISTINCT FROM NEW.group_key THEN
      PERFORM bug_group_recompute(NEW);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER bug_groups_insert_delete AFTER INSERT OR DELETE ON bugs
  FOR EACH ROW EXECUTE FUNCTION bug_groups_sync();
CREATE TRIGGER bug_groups_update AFTER UPDATE OF org_id, project_id, group_key, merged_into, severity, signal_class, is_regression, title, first_seen, last_seen, report_count ON bugs
  FOR EACH ROW WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id OR
    OLD.project_id IS DISTINCT FROM NEW.project_id OR
    OLD.group_key IS DISTINCT FROM NEW.group_key OR
    OLD.merged_into IS DISTINCT FROM NEW.merged_into OR
    OLD.severity IS DISTINCT FROM NEW.severity OR
    OLD.signal_class IS DISTINCT FROM NEW.signal_class OR
    OLD.is_regression IS DISTINCT FROM NEW.is_regression OR
    OLD.title IS DISTINCT FROM NEW.title OR
    OLD.first_seen IS DISTINCT FROM NEW.first_seen OR
    OLD.last_seen IS DISTINCT FROM NEW.last_seen OR
    OLD.report_count IS DISTINCT FROM NEW.report_count)
  EXECUTE FUNCTION bug_groups_sync();

CREATE FUNCTION bug_days_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.merged_into IS NULL AND OLD.org_id IS NOT DISTINCT FROM NEW.org_id AND OLD.project_id IS NOT DISTINCT FROM NEW.project_id AND OLD.first_seen IS NOT DISTINCT FROM NEW.first_seen AND OLD.status IS NOT DISTINCT FROM NEW.status AND OLD.severity IS NOT DISTINCT FROM NEW.severity AND OLD.signal_class IS NOT DISTINCT FROM NEW.signal_class AND OLD.signal_family IS NOT DISTINCT FROM NEW.signal_family AND OLD.is_regression IS NOT DISTINCT FROM NEW.is_regression AND OLD.ui_ux IS NOT DISTINCT FROM NEW.ui_ux AND OLD.resolved_at IS NOT DISTINCT FROM NEW.resolved_at AND OLD.merged_into IS NOT DISTINCT FROM NEW.merged_into THEN
      -- A report to a known bug: its reports move, nothing else.
      INSERT INTO bug_days (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT NEW.org_id, NEW.first_seen / 86400000, NEW.project_id, NEW.status, NEW.severity,
      CASE WHEN NEW.signal_class = 'issue' AND (NEW.severity = 'critical' OR (NEW.severity = 'high' AND (NEW.is_regression = 1 OR NEW.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      NEW.ui_ux, NEW.is_regression, CAST(floor(random() * 4) AS BIGINT), 0, NEW.report_count - OLD.report_count, 0, 0
    WHERE NEW.report_count <> OLD.report_count
    ON CONFLICT (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET reports = bug_days.reports + excluded.reports;
      INSERT INTO bug_days_org (org_id, day, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT NEW.org_id, NEW.first_seen / 86400000, NEW.status, NEW.severity,
      CASE WHEN NEW.signal_class = 'issue' AND (NEW.severity = 'critical' OR (NEW.severity = 'high' AND (NEW.is_regression = 1 OR NEW.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      NEW.ui_ux, NEW.is_regression, CAST(floor(random() * 4) AS BIGINT), 0, NEW.report_count - OLD.report_count, 0, 0
    WHERE NEW.report_count <> OLD.report_count
    ON CONFLICT (org_id, day, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET reports = bug_days_org.reports + excluded.reports;
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE bug_days SET n = n - 1, reports = reports - OLD.report_count,
      resolved_n = resolved_n - CASE WHEN (OLD.status = 'resolved' AND OLD.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (OLD.status = 'resolved' AND OLD.resolved_at IS NOT NULL) THEN OLD.resolved_at - OLD.first_seen ELSE 0 END
    WHERE OLD.merged_into IS NULL AND org_id = OLD.org_id AND day = OLD.first_seen / 86400000 AND project_id = OLD.project_id AND
      status = OLD.status AND severity = OLD.severity AND urgent = CASE WHEN OLD.signal_class = 'issue' AND (OLD.severity = 'critical' OR (OLD.severity = 'high' AND (OLD.is_regression = 1 OR OLD.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = OLD.ui_ux AND is_regression = OLD.is_regression AND
      shard = (SELECT shard FROM bug_days WHERE org_id = OLD.org_id AND day = OLD.first_seen / 86400000 AND project_id = OLD.project_id AND
      status = OLD.status AND severity = OLD.severity AND urgent = CASE WHEN OLD.signal_class = 'issue' AND (OLD.severity = 'critical' OR (OLD.severity = 'high' AND (OLD.is_regression = 1 OR OLD.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = OLD.ui_ux AND is_regression = OLD.is_regression LIMIT 1);
  UPDATE bug_days_org SET n = n - 1, reports = reports - OLD.report_count,
      resolved_n = resolved_n - CASE WHEN (OLD.status = 'resolved' AND OLD.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      resolved_ms = resolved_ms - CASE WHEN (OLD.status = 'resolved' AND OLD.resolved_at IS NOT NULL) THEN OLD.resolved_at - OLD.first_seen ELSE 0 END
    WHERE OLD.merged_into IS NULL AND org_id = OLD.org_id AND day = OLD.first_seen / 86400000 AND
      status = OLD.status AND severity = OLD.severity AND urgent = CASE WHEN OLD.signal_class = 'issue' AND (OLD.severity = 'critical' OR (OLD.severity = 'high' AND (OLD.is_regression = 1 OR OLD.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = OLD.ui_ux AND is_regression = OLD.is_regression AND
      shard = (SELECT shard FROM bug_days_org WHERE org_id = OLD.org_id AND day = OLD.first_seen / 86400000 AND
      status = OLD.status AND severity = OLD.severity AND urgent = CASE WHEN OLD.signal_class = 'issue' AND (OLD.severity = 'critical' OR (OLD.severity = 'high' AND (OLD.is_regression = 1 OR OLD.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND
      ui_ux = OLD.ui_ux AND is_regression = OLD.is_regression LIMIT 1);
    UPDATE bug_resolutions SET n = n - 1, ms = ms - (OLD.resolved_at - OLD.first_seen)
    WHERE OLD.merged_into IS NULL AND (OLD.status = 'resolved' AND OLD.resolved_at IS NOT NULL) AND org_id = OLD.org_id AND day = OLD.resolved_at / 86400000 AND project_id = OLD.project_id AND
      urgent = CASE WHEN OLD.signal_class = 'issue' AND (OLD.severity = 'critical' OR (OLD.severity = 'high' AND (OLD.is_regression = 1 OR OLD.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND ui_ux = OLD.ui_ux AND
      shard = (SELECT shard FROM bug_resolutions WHERE org_id = OLD.org_id AND day = OLD.resolved_at / 86400000 AND project_id = OLD.project_id AND
      urgent = CASE WHEN OLD.signal_class = 'issue' AND (OLD.severity = 'critical' OR (OLD.severity = 'high' AND (OLD.is_regression = 1 OR OLD.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END AND ui_ux = OLD.ui_ux LIMIT 1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO bug_days (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT NEW.org_id, NEW.first_seen / 86400000, NEW.project_id, NEW.status, NEW.severity,
      CASE WHEN NEW.signal_class = 'issue' AND (NEW.severity = 'critical' OR (NEW.severity = 'high' AND (NEW.is_regression = 1 OR NEW.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      NEW.ui_ux, NEW.is_regression, CAST(floor(random() * 4) AS BIGINT), 1, NEW.report_count,
      CASE WHEN (NEW.status = 'resolved' AND NEW.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (NEW.status = 'resolved' AND NEW.resolved_at IS NOT NULL) THEN NEW.resolved_at - NEW.first_seen ELSE 0 END
    WHERE NEW.merged_into IS NULL
    ON CONFLICT (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = bug_days.n + excluded.n,
      reports = bug_days.reports + excluded.reports,
      resolved_n = bug_days.resolved_n + excluded.resolved_n,
      resolved_ms = bug_days.resolved_ms + excluded.resolved_ms;
  INSERT INTO bug_days_org (org_id, day, status, severity, urgent, ui_ux, is_regression, shard, n, reports, resolved_n, resolved_ms)
    SELECT NEW.org_id, NEW.first_seen / 86400000, NEW.status, NEW.severity,
      CASE WHEN NEW.signal_class = 'issue' AND (NEW.severity = 'critical' OR (NEW.severity = 'high' AND (NEW.is_regression = 1 OR NEW.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      NEW.ui_ux, NEW.is_regression, CAST(floor(random() * 4) AS BIGINT), 1, NEW.report_count,
      CASE WHEN (NEW.status = 'resolved' AND NEW.resolved_at IS NOT NULL) THEN 1 ELSE 0 END,
      CASE WHEN (NEW.status = 'resolved' AND NEW.resolved_at IS NOT NULL) THEN NEW.resolved_at - NEW.first_seen ELSE 0 END
    WHERE NEW.merged_into IS NULL
    ON CONFLICT (org_id, day, status, severity, urgent, ui_ux, is_regression, shard) DO UPDATE SET n = bug_days_org.n + excluded.n,
      reports = bug_days_org.reports + excluded.reports,
      resolved_n = bug_days_org.resolved_n + excluded.resolved_n,
      resolved_ms = bug_days_org.resolved_ms + excluded.resolved_ms;
    INSERT INTO bug_resolutions (org_id, day, project_id, urgent, ui_ux, shard, n, ms)
    SELECT NEW.org_id, NEW.resolved_at / 86400000, NEW.project_id,
      CASE WHEN NEW.signal_class = 'issue' AND (NEW.severity = 'critical' OR (NEW.severity = 'high' AND (NEW.is_regression = 1 OR NEW.signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', 'http_5xx')))) THEN 1 ELSE 0 END,
      NEW.ui_ux, CAST(floor(random() * 4) AS BIGINT), 1, (NEW.resolved_at - NEW.first_seen)
    WHERE NEW.merged_into IS NULL AND (NEW.status = 'resolved' AND NEW.resolved_at IS NOT NULL)
    ON CONFLICT (org_id, day, project_id, urgent, ui_ux, shard) DO UPDATE SET n = bug_resolutions.n + excluded.n,
      ms = bug_resolutions.ms + excluded.ms;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER bug_days_insert_delete AFTER INSERT OR DELETE ON bugs
  FOR EACH ROW EXECUTE FUNCTION bug_days_sync();
CREATE TRIGGER bug_days_update AFTER UPDATE OF org_id, project_id, first_seen, status, severity, signal_class, signal_family, is_regression, ui_ux, resolved_at, merged_into, report_count ON bugs
  FOR EACH ROW WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id OR
    OLD.project_id IS DISTINCT FROM NEW.project_id OR
    OLD.first_seen IS DISTINCT FROM NEW.first_seen OR
    OLD.status IS DISTINCT FROM NEW.status OR
    OLD.severity IS DISTINCT FROM NEW.severity OR
    OLD.signal_class IS DISTINCT FROM NEW.signal_class OR
    OLD.signal_family IS DISTINCT FROM NEW.signal_family OR
    OLD.is_regression IS DISTINCT FROM NEW.is_regression OR
    OLD.ui_ux IS DISTINCT FROM NEW.ui_ux OR
    OLD.resolved_at IS DISTINCT FROM NEW.resolved_at OR
    OLD.merged_into IS DISTINCT FROM NEW.merged_into OR
    OLD.report_count IS DISTINCT FROM NEW.report_count)
  EXECUTE FUNCTION bug_days_sync();
CREATE FUNCTION occurrence_days_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO occurrence_days (org_id, day, project_id, shard, n)
    SELECT NEW.org_id, NEW.occurred_at / 86400000, NEW.project_id, CAST(floor(random() * 4) AS BIGINT), 1 WHERE NEW.org_id IS NOT NULL
    ON CONFLICT (org_id, day, project_id, shard) DO UPDATE SET n = occurrence_days.n + excluded.n;
  ELSE
    UPDATE occurrence_days SET n = n - 1
    WHERE true AND org_id = OLD.org_id AND day = OLD.occurred_at / 86400000 AND project_id = OLD.project_id AND
      shard = (SELECT shard FROM occurrence_days WHERE org_id = OLD.org_id AND day = OLD.occurred_at / 86400000 AND project_id = OLD.project_id LIMIT 1);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER occurrence_days_insert_delete AFTER INSERT OR DELETE ON occurrences
  FOR EACH ROW EXECUTE FUNCTION occurrence_days_sync();

-- Groups per classes bit set follow the group rows.
CREATE FUNCTION bug_group_tallies_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE bug_group_tallies SET n = n - 1
      WHERE org_id = OLD.org_id AND project_id = OLD.project_id AND classes = OLD.classes;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO bug_group_tallies VALUES (NEW.org_id, NEW.project_id, NEW.classes, 1)
      ON CONFLICT (org_id, project_id, classes) DO UPDATE SET n = bug_group_tallies.n + 1;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER bug_group_tallies_insert_delete AFTER INSERT OR DELETE ON bug_groups
  FOR EACH ROW EXECUTE FUNCTION bug_group_tallies_sync();
CREATE TRIGGER bug_group_tallies_update AFTER UPDATE OF org_id, project_id, classes ON bug_groups
  FOR EACH ROW WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id OR OLD.project_id IS DISTINCT FROM NEW.project_id
    OR OLD.classes IS DISTINCT FROM NEW.classes)
  EXECUTE FUNCTION bug_group_tallies_sync();

-- A deleted organization or project takes its aggregate rows along. Its
-- bugs' and occurrences' own triggers may run after this one (cascaded
-- deletes queue theirs behind it), so those only subtract from rows that
-- still exist and never create one.
CREATE FUNCTION read_aggregates_owner_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'organizations' THEN
    DELETE FROM bug_tallies WHERE org_id = OLD.id;
    DELETE FROM bug_groups WHERE org_id = OLD.id;
    DELETE FROM bug_group_tallies WHERE org_id = OLD.id;
    DELETE FROM bug_days WHERE org_id = OLD.id;
    DELETE FROM bug_days_org WHERE org_id = OLD.id;
    DELETE FROM bug_resolutions WHERE org_id = OLD.id;
    DELETE FROM occurrence_days WHERE org_id = OLD.id;
  ELSE
    DELETE FROM bug_tallies WHERE org_id = OLD.org_id AND project_id = OLD.id;
    DELETE FROM bug_groups WHERE project_id = OLD.id;
    DELETE FROM bug_group_tallies WHERE org_id = OLD.org_id AND project_id = OLD.id;
    DELETE FROM bug_days WHERE org_id = OLD.org_id AND project_id = OLD.id;
    DELETE FROM bug_resolutions WHERE org_id = OLD.org_id AND project_id = OLD.id;
    DELETE FROM occurrence_days WHERE org_id = OLD.org_id AND project_id = OLD.id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER read_aggregates_org_delete AFTER DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION read_aggregates_owner_delete();
CREATE TRIGGER read_aggregates_project_delete AFTER DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION read_aggregates_owner_delete();
