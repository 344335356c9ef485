-- The schema and bookkeeping of a PostgreSQL database made by release 0019
-- (the last with one global migration list): `service-server migrate` at
-- commit f33daf4, then `pg_dump --inserts --no-owner --no-privileges
-- --no-comments --schema=public` without its session settings and the
-- schema qualifier, so it loads into a test's own schema. Loaded by
-- tests/store/migrations_test.cpp.
CREATE FUNCTION bug_days_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION bug_group_reach_participants() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION bug_group_reach_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE TABLE bugs (
    id text NOT NULL,
    org_id text NOT NULL,
    project_id text NOT NULL,
    key_env text DEFAULT 'live'::text NOT NULL,
    fingerprint text NOT NULL,
    signature_hash text,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    url text DEFAULT ''::text NOT NULL,
    severity text DEFAULT 'medium'::text NOT NULL,
    status text DEFAULT 'new'::text NOT NULL,
    platform text,
    report_count bigint DEFAULT 0 NOT NULL,
    occurrence_count bigint DEFAULT 0 NOT NULL,
    reporter_count bigint DEFAULT 0 NOT NULL,
    affected_user_count bigint DEFAULT 0 NOT NULL,
    affected_session_count bigint DEFAULT 0 NOT NULL,
    latest_release text DEFAULT ''::text NOT NULL,
    latest_environment text DEFAULT ''::text NOT NULL,
    is_regression bigint DEFAULT 0 NOT NULL,
    signal_class text DEFAULT 'issue'::text NOT NULL,
    signal_family text DEFAULT ''::text NOT NULL,
    signal_reason text DEFAULT ''::text NOT NULL,
    classifier_confidence text DEFAULT ''::text NOT NULL,
    ai_summary text,
    assigned_to text,
    agent_ack text,
    agent_ack_by text,
    agent_pr_url text,
    merged_into text,
    first_seen bigint NOT NULL,
    last_seen bigint NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    resolved_at bigint,
    regression_occurrence_id text,
    signature text,
    group_key text,
    embedding text,
    grouping_v3 text,
    ui_ux bigint DEFAULT 0 NOT NULL,
    embedded_at bigint DEFAULT 0 NOT NULL,
    grouping_v3_key text,
    search_text text,
    platforms bigint DEFAULT 0 NOT NULL
);

CREATE FUNCTION bug_group_recompute(changed bugs) RETURNS void
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION bug_group_tallies_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION bug_groups_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION bug_tallies_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION bugs_search_text() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  NEW.search_text := lower(NEW.title || ' ' || NEW.description || ' ' || COALESCE(NEW.signature, ''));
  RETURN NEW;
END
$$;

CREATE FUNCTION occurrence_days_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION read_aggregates_owner_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE TABLE alert_policies (
    project_id text NOT NULL,
    org_id text NOT NULL,
    body text NOT NULL,
    updated_at bigint NOT NULL,
    updated_by text NOT NULL
);

CREATE TABLE bug_days (
    org_id text NOT NULL,
    day bigint NOT NULL,
    project_id text NOT NULL,
    status text NOT NULL,
    severity text NOT NULL,
    urgent bigint NOT NULL,
    ui_ux bigint NOT NULL,
    is_regression bigint NOT NULL,
    shard bigint NOT NULL,
    n bigint NOT NULL,
    reports bigint NOT NULL,
    resolved_n bigint NOT NULL,
    resolved_ms bigint NOT NULL
);

CREATE TABLE bug_days_org (
    org_id text NOT NULL,
    day bigint NOT NULL,
    status text NOT NULL,
    severity text NOT NULL,
    urgent bigint NOT NULL,
    ui_ux bigint NOT NULL,
    is_regression bigint NOT NULL,
    shard bigint NOT NULL,
    n bigint NOT NULL,
    reports bigint NOT NULL,
    resolved_n bigint NOT NULL,
    resolved_ms bigint NOT NULL
);

CREATE TABLE bug_group_reach (
    org_id text NOT NULL,
    group_key text NOT NULL,
    project_id text NOT NULL,
    sessions bigint NOT NULL,
    users bigint NOT NULL
);

CREATE TABLE bug_group_tallies (
    org_id text NOT NULL,
    project_id text NOT NULL,
    classes bigint NOT NULL,
    n bigint NOT NULL
);

CREATE TABLE bug_groups (
    org_id text NOT NULL,
    project_id text NOT NULL,
    group_key text NOT NULL,
    n bigint NOT NULL,
    reports bigint NOT NULL,
    fs bigint NOT NULL,
    ls bigint NOT NULL,
    sev bigint NOT NULL,
    reg bigint NOT NULL,
    sig bigint NOT NULL,
    classes bigint NOT NULL,
    rep_id text NOT NULL,
    rep_title text NOT NULL
);

CREATE TABLE bug_participants (
    bug_id text NOT NULL,
    kind text NOT NULL,
    key text NOT NULL,
    first_seen bigint NOT NULL,
    last_seen bigint NOT NULL,
    report_count bigint DEFAULT 0 NOT NULL
);

CREATE TABLE bug_resolutions (
    org_id text NOT NULL,
    day bigint NOT NULL,
    project_id text NOT NULL,
    urgent bigint NOT NULL,
    ui_ux bigint NOT NULL,
    shard bigint NOT NULL,
    n bigint NOT NULL,
    ms bigint NOT NULL
);

CREATE TABLE bug_tallies (
    org_id text NOT NULL,
    project_id text NOT NULL,
    status text NOT NULL,
    severity text NOT NULL,
    signal_class text NOT NULL,
    urgent bigint NOT NULL,
    ui_ux bigint NOT NULL,
    assigned_to text NOT NULL,
    n bigint NOT NULL
);

CREATE TABLE capture_delivery_ids (
    project_id text NOT NULL,
    delivery_id text NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE capture_keys (
    id text NOT NULL,
    org_id text NOT NULL,
    project_id text NOT NULL,
    env text NOT NULL,
    prefix text NOT NULL,
    key_hash text NOT NULL,
    label text DEFAULT ''::text NOT NULL,
    expires_at bigint,
    last_used bigint,
    revoked_at bigint,
    created_by text,
    created_at bigint NOT NULL
);

CREATE TABLE code_host_issues (
    integration_id text NOT NULL,
    bug_id text NOT NULL,
    url text NOT NULL,
    number bigint NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE comments (
    id text NOT NULL,
    bug_id text NOT NULL,
    org_id text NOT NULL,
    user_id text NOT NULL,
    content text NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE delivery_dead_letters (
    id text NOT NULL,
    delivery_id text NOT NULL,
    org_id text NOT NULL,
    integration_id text NOT NULL,
    event_type text NOT NULL,
    payload text NOT NULL,
    attempts bigint NOT NULL,
    response_code bigint,
    error_message text,
    created_at bigint NOT NULL
);

CREATE TABLE delivery_events (
    event_id text NOT NULL,
    org_id text NOT NULL,
    payload text NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE duplicate_candidates (
    id text NOT NULL,
    org_id text NOT NULL,
    bug_id text NOT NULL,
    other_bug_id text NOT NULL,
    score bigint NOT NULL,
    reason text NOT NULL,
    confidence text NOT NULL,
    algorithm_version text NOT NULL,
    state text DEFAULT 'open'::text NOT NULL,
    created_at bigint NOT NULL
);

CREATE TABLE email_tokens (
    id text NOT NULL,
    user_id text NOT NULL,
    kind text NOT NULL,
    token_hash text NOT NULL,
    expires_at bigint NOT NULL,
    consumed_at bigint,
    created_at bigint NOT NULL
);

CREATE TABLE end_users (
    org_id text NOT NULL,
    user_key text NOT NULL,
    kind text NOT NULL,
    end_user_id text,
    email text,
    first_seen bigint NOT NULL,
    last_seen bigint NOT NULL,
    occurrence_count bigint DEFAULT 0 NOT NULL,
    platforms text DEFAULT '[]'::text NOT NULL,
    last_release text,
    last_environment text,
    last_occurrence_id text
);

CREATE TABLE integration_deliveries (
    id text NOT NULL,
    org_id text NOT NULL,
    project_id text NOT NULL,
    integration_id text NOT NULL,
    bug_id text,
    event_id text NOT NULL,
    event_type text NOT NULL,
    schedule text NOT NULL,
    status text NOT NULL,
    attempts bigint DEFAULT 0 NOT NULL,
    manual_sends bigint DEFAULT 0 NOT NULL,
    response_code bigint,
    error_message text,
    dedupe_key text,
    created_at bigint NOT NULL,
    completed_at bigint,
    deferred_until bigint,
    next_attempt_at bigint NOT NULL,
    lease_until bigint DEFAULT 0 NOT NULL
);

CREATE TABLE integrations (
    id text NOT NULL,
    org_id text NOT NULL,
    project_id text NOT NULL,
    type text NOT NULL,
    name text,
    config_sealed text NOT NULL,
    config_view text NOT NULL,
    events text NOT NULL,
    is_active bigint DEFAULT 1 NOT NULL,
    delivery_feed text DEFAULT 'all'::text NOT NULL,
    min_severity text,
    secret_sealed text DEFAULT ''::text NOT NULL,
    secret_mask text DEFAULT ''::text NOT NULL,
    previous_secret_sealed text DEFAULT ''::text NOT NULL,
    previous_secret_until bigint DEFAULT 0 NOT NULL,
    bearer_sealed text DEFAULT ''::text NOT NULL,
    bearer_last4 text DEFAULT ''::text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE invitations (
    id text NOT NULL,
    org_id text NOT NULL,
    user_id text NOT NULL,
    email text NOT NULL,
    role text NOT NULL,
    token_hash text NOT NULL,
    invited_by text,
    expires_at bigint NOT NULL,
    accepted_at bigint,
    revoked_at bigint,
    created_at bigint NOT NULL
);

CREATE TABLE memberships (
    org_id text NOT NULL,
    user_id text NOT NULL,
    role text NOT NULL,
    invited_by text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE notification_preferences (
    user_id text NOT NULL,
    org_id text NOT NULL,
    email_level text DEFAULT 'full'::text NOT NULL,
    chat_enabled bigint DEFAULT 0 NOT NULL,
    chat_webhook text,
    in_app_enabled bigint DEFAULT 1 NOT NULL,
    digest_freq text DEFAULT 'realtime'::text NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE notifications (
    id text NOT NULL,
    user_id text NOT NULL,
    org_id text NOT NULL,
    type text NOT NULL,
    title text NOT NULL,
    body text DEFAULT ''::text NOT NULL,
    bug_id text,
    actor_id text,
    read bigint DEFAULT 0 NOT NULL,
    created_at bigint NOT NULL,
    in_app bigint DEFAULT 1 NOT NULL,
    email_pending bigint DEFAULT 0 NOT NULL
);

CREATE TABLE occurrence_days (
    org_id text NOT NULL,
    day bigint NOT NULL,
    project_id text NOT NULL,
    shard bigint NOT NULL,
    n bigint NOT NULL
);

CREATE TABLE occurrence_events (
    occurrence_id text NOT NULL,
    bug_id text NOT NULL,
    events text NOT NULL
);

CREATE TABLE occurrences (
    id text NOT NULL,
    bug_id text NOT NULL,
    project_id text NOT NULL,
    org_id text NOT NULL,
    reporter_email text,
    reporter_id text,
    ip_hash text,
    session_id text,
    end_user_id text,
    user_key text NOT NULL,
    user_kind text NOT NULL,
    release_version text,
    environment text,
    url text,
    user_agent text,
    viewport text,
    browser text,
    os text,
    platform text,
    event_count bigint DEFAULT 0 NOT NULL,
    metadata text DEFAULT '{}'::text NOT NULL,
    occurred_at bigint NOT NULL,
    created_at bigint NOT NULL,
    events text
);
ALTER TABLE ONLY occurrences ALTER COLUMN events SET COMPRESSION lz4;

CREATE TABLE organizations (
    id text NOT NULL,
    name text NOT NULL,
    slug text NOT NULL,
    plan text DEFAULT 'free'::text NOT NULL,
    prepaid_credits bigint DEFAULT 0 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE outbox (
    id text NOT NULL,
    kind text NOT NULL,
    payload text NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts bigint DEFAULT 0 NOT NULL,
    max_attempts bigint DEFAULT 8 NOT NULL,
    next_attempt_at bigint NOT NULL,
    locked_until bigint,
    last_error text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE presence (
    project_id text NOT NULL,
    session_id text NOT NULL,
    org_id text NOT NULL,
    user_id text,
    reporter_id text,
    url text,
    path text,
    title text,
    referrer text,
    event_type text,
    visibility_state text,
    interaction text,
    metadata text,
    last_seen bigint NOT NULL
);

CREATE TABLE project_counter (
    id bigint NOT NULL,
    next_number bigint NOT NULL
);

CREATE TABLE projects (
    id text NOT NULL,
    org_id text NOT NULL,
    name text NOT NULL,
    slug text NOT NULL,
    platform text DEFAULT 'web'::text NOT NULL,
    grouping_v3_shadow_enabled bigint DEFAULT 0 NOT NULL,
    created_at bigint NOT NULL,
    project_number bigint
);

CREATE TABLE refresh_tokens (
    id text NOT NULL,
    user_id text NOT NULL,
    org_id text,
    token_hash text NOT NULL,
    revision bigint NOT NULL,
    expires_at bigint NOT NULL,
    created_at bigint NOT NULL,
    used_at bigint,
    revoked_at bigint
);

CREATE TABLE schema_migrations (
    version bigint NOT NULL,
    name text NOT NULL,
    applied_at bigint NOT NULL
);

CREATE TABLE settings (
    key text NOT NULL,
    value text NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE status_history (
    id text NOT NULL,
    bug_id text NOT NULL,
    org_id text NOT NULL,
    old_status text,
    new_status text NOT NULL,
    note text,
    changed_by text,
    changed_at bigint NOT NULL
);

CREATE TABLE usage_counters (
    org_id text NOT NULL,
    month text NOT NULL,
    bugs bigint DEFAULT 0 NOT NULL,
    reports bigint DEFAULT 0 NOT NULL,
    ai_requests bigint DEFAULT 0 NOT NULL
);

CREATE TABLE users (
    id text NOT NULL,
    email text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    avatar_url text,
    password_hash text,
    email_verified bigint DEFAULT 0 NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    session_revision bigint DEFAULT 0 NOT NULL,
    last_org_id text,
    last_login_at bigint,
    last_whats_new_at bigint,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    previous_login_at bigint,
    first_session_id text
);

CREATE TABLE waitlist (
    id text NOT NULL,
    email text NOT NULL,
    name text NOT NULL,
    org_name text NOT NULL,
    use_case text,
    status text NOT NULL,
    approval_token_hash text,
    approval_expires_at bigint,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE watchers (
    bug_id text NOT NULL,
    user_id text NOT NULL,
    org_id text NOT NULL,
    created_at bigint NOT NULL
);

INSERT INTO project_counter VALUES (1, 1);

INSERT INTO schema_migrations VALUES (1, 'init', 1795688581948);
INSERT INTO schema_migrations VALUES (2, 'capture_regression', 1795688581950);
INSERT INTO schema_migrations VALUES (3, 'capture_storage', 1795688581953);
INSERT INTO schema_migrations VALUES (4, 'capture_participants', 1795688581964);
INSERT INTO schema_migrations VALUES (5, 'triage_reads', 1795688581991);
INSERT INTO schema_migrations VALUES (6, 'export_order', 1795688581995);
INSERT INTO schema_migrations VALUES (7, 'bug_search', 1795688581998);
INSERT INTO schema_migrations VALUES (8, 'grouping_v3', 1795688582000);
INSERT INTO schema_migrations VALUES (9, 'search_vocab', 1795688582001);
INSERT INTO schema_migrations VALUES (10, 'read_aggregates', 1795688582047);
INSERT INTO schema_migrations VALUES (11, 'triage_writes', 1795688582054);
INSERT INTO schema_migrations VALUES (12, 'sentry', 1795688582060);
INSERT INTO schema_migrations VALUES (13, 'capture_delivery_ids', 1795688582067);
INSERT INTO schema_migrations VALUES (14, 'integrations', 1795688582107);
INSERT INTO schema_migrations VALUES (15, 'search_text', 1795688582111);
INSERT INTO schema_migrations VALUES (16, 'group_reach', 1795688582120);
INSERT INTO schema_migrations VALUES (17, 'group_reach_triggers', 1795688582122);
INSERT INTO schema_migrations VALUES (18, 'capture_end_user_keys', 1795688582139);
INSERT INTO schema_migrations VALUES (19, 'accounts_sign_ins', 1795688582142);

ALTER TABLE ONLY alert_policies
    ADD CONSTRAINT alert_policies_pkey PRIMARY KEY (project_id);

ALTER TABLE ONLY bug_days_org
    ADD CONSTRAINT bug_days_org_pkey PRIMARY KEY (org_id, day, status, severity, urgent, ui_ux, is_regression, shard);

ALTER TABLE ONLY bug_days
    ADD CONSTRAINT bug_days_pkey PRIMARY KEY (org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, shard);

ALTER TABLE ONLY bug_group_reach
    ADD CONSTRAINT bug_group_reach_pkey PRIMARY KEY (org_id, group_key, project_id);

ALTER TABLE ONLY bug_group_tallies
    ADD CONSTRAINT bug_group_tallies_pkey PRIMARY KEY (org_id, project_id, classes);

ALTER TABLE ONLY bug_groups
    ADD CONSTRAINT bug_groups_pkey PRIMARY KEY (project_id, group_key);

ALTER TABLE ONLY bug_participants
    ADD CONSTRAINT bug_participants_pkey PRIMARY KEY (bug_id, kind, key);

ALTER TABLE ONLY bug_resolutions
    ADD CONSTRAINT bug_resolutions_pkey PRIMARY KEY (org_id, day, project_id, urgent, ui_ux, shard);

ALTER TABLE ONLY bug_tallies
    ADD CONSTRAINT bug_tallies_pkey PRIMARY KEY (org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to);

ALTER TABLE ONLY bugs
    ADD CONSTRAINT bugs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY capture_delivery_ids
    ADD CONSTRAINT capture_delivery_ids_pkey PRIMARY KEY (project_id, delivery_id);

ALTER TABLE ONLY capture_keys
    ADD CONSTRAINT capture_keys_key_hash_key UNIQUE (key_hash);

ALTER TABLE ONLY capture_keys
    ADD CONSTRAINT capture_keys_pkey PRIMARY KEY (id);

ALTER TABLE ONLY code_host_issues
    ADD CONSTRAINT code_host_issues_pkey PRIMARY KEY (integration_id, bug_id);

ALTER TABLE ONLY comments
    ADD CONSTRAINT comments_pkey PRIMARY KEY (id);

ALTER TABLE ONLY delivery_dead_letters
    ADD CONSTRAINT delivery_dead_letters_pkey PRIMARY KEY (id);

ALTER TABLE ONLY delivery_events
    ADD CONSTRAINT delivery_events_pkey PRIMARY KEY (event_id);

ALTER TABLE ONLY duplicate_candidates
    ADD CONSTRAINT duplicate_candidates_bug_id_other_bug_id_key UNIQUE (bug_id, other_bug_id);

ALTER TABLE ONLY duplicate_candidates
    ADD CONSTRAINT duplicate_candidates_pkey PRIMARY KEY (id);

ALTER TABLE ONLY email_tokens
    ADD CONSTRAINT email_tokens_pkey PRIMARY KEY (id);

ALTER TABLE ONLY email_tokens
    ADD CONSTRAINT email_tokens_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY end_users
    ADD CONSTRAINT end_users_pkey PRIMARY KEY (org_id, user_key);

ALTER TABLE ONLY integration_deliveries
    ADD CONSTRAINT integration_deliveries_dedupe_key_key UNIQUE (dedupe_key);

ALTER TABLE ONLY integration_deliveries
    ADD CONSTRAINT integration_deliveries_pkey PRIMARY KEY (id);

ALTER TABLE ONLY integrations
    ADD CONSTRAINT integrations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY invitations
    ADD CONSTRAINT invitations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY invitations
    ADD CONSTRAINT invitations_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY memberships
    ADD CONSTRAINT memberships_pkey PRIMARY KEY (org_id, user_id);

ALTER TABLE ONLY notification_preferences
    ADD CONSTRAINT notification_preferences_pkey PRIMARY KEY (user_id, org_id);

ALTER TABLE ONLY notifications
    ADD CONSTRAINT notifications_pkey PRIMARY KEY (id);

ALTER TABLE ONLY occurrence_days
    ADD CONSTRAINT occurrence_days_pkey PRIMARY KEY (org_id, day, project_id, shard);

ALTER TABLE ONLY occurrence_events
    ADD CONSTRAINT occurrence_events_pkey PRIMARY KEY (occurrence_id);

ALTER TABLE ONLY occurrences
    ADD CONSTRAINT occurrences_pkey PRIMARY KEY (id);

ALTER TABLE ONLY organizations
    ADD CONSTRAINT organizations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY organizations
    ADD CONSTRAINT organizations_slug_key UNIQUE (slug);

ALTER TABLE ONLY outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

ALTER TABLE ONLY presence
    ADD CONSTRAINT presence_pkey PRIMARY KEY (project_id, session_id);

ALTER TABLE ONLY project_counter
    ADD CONSTRAINT project_counter_pkey PRIMARY KEY (id);

ALTER TABLE ONLY projects
    ADD CONSTRAINT projects_org_id_slug_key UNIQUE (org_id, slug);

ALTER TABLE ONLY projects
    ADD CONSTRAINT projects_pkey PRIMARY KEY (id);

ALTER TABLE ONLY refresh_tokens
    ADD CONSTRAINT refresh_tokens_pkey PRIMARY KEY (id);

ALTER TABLE ONLY refresh_tokens
    ADD CONSTRAINT refresh_tokens_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);

ALTER TABLE ONLY settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (key);

ALTER TABLE ONLY status_history
    ADD CONSTRAINT status_history_pkey PRIMARY KEY (id);

ALTER TABLE ONLY usage_counters
    ADD CONSTRAINT usage_counters_pkey PRIMARY KEY (org_id, month);

ALTER TABLE ONLY users
    ADD CONSTRAINT users_email_key UNIQUE (email);

ALTER TABLE ONLY users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

ALTER TABLE ONLY waitlist
    ADD CONSTRAINT waitlist_approval_token_hash_key UNIQUE (approval_token_hash);

ALTER TABLE ONLY waitlist
    ADD CONSTRAINT waitlist_email_key UNIQUE (email);

ALTER TABLE ONLY waitlist
    ADD CONSTRAINT waitlist_pkey PRIMARY KEY (id);

ALTER TABLE ONLY watchers
    ADD CONSTRAINT watchers_pkey PRIMARY KEY (bug_id, user_id);

CREATE INDEX bug_groups_count ON bug_groups USING btree (org_id, reports DESC, ls DESC, project_id, group_key);

CREATE INDEX bug_groups_first_seen ON bug_groups USING btree (org_id, fs DESC, project_id, group_key);

CREATE INDEX bug_groups_last_seen ON bug_groups USING btree (org_id, ls DESC, project_id, group_key);

CREATE INDEX bug_participants_reporter ON bug_participants USING btree (key) WHERE (kind = 'reporter'::text);

CREATE INDEX bugs_assigned ON bugs USING btree (org_id, assigned_to);

CREATE UNIQUE INDEX bugs_fingerprint ON bugs USING btree (project_id, key_env, fingerprint);

CREATE INDEX bugs_open_reports ON bugs USING btree (org_id, report_count DESC, last_seen DESC, id) WHERE ((merged_into IS NULL) AND (status <> ALL (ARRAY['resolved'::text, 'silenced'::text])));

CREATE INDEX bugs_org_created ON bugs USING btree (org_id, created_at DESC);

CREATE INDEX bugs_org_embedded ON bugs USING btree (org_id, embedded_at);

CREATE INDEX bugs_org_export ON bugs USING btree (org_id, last_seen, id);

CREATE INDEX bugs_org_first_seen ON bugs USING btree (org_id, first_seen);

CREATE INDEX bugs_org_group ON bugs USING btree (org_id, group_key, project_id, last_seen DESC);

CREATE INDEX bugs_org_last_seen ON bugs USING btree (org_id, last_seen DESC, project_id, id);

CREATE INDEX bugs_org_project_last_seen ON bugs USING btree (org_id, project_id, last_seen DESC, id);

CREATE INDEX bugs_project_status ON bugs USING btree (project_id, status);

CREATE INDEX bugs_project_v3_key ON bugs USING btree (project_id, grouping_v3_key);

CREATE INDEX bugs_search_trgm ON bugs USING gin (search_text gin_trgm_ops);

CREATE INDEX capture_delivery_ids_created ON capture_delivery_ids USING btree (created_at);

CREATE INDEX capture_keys_project ON capture_keys USING btree (project_id);

CREATE INDEX comments_bug ON comments USING btree (bug_id, created_at);

CREATE INDEX comments_org ON comments USING btree (org_id, created_at DESC);

CREATE INDEX delivery_dead_letters_integration ON delivery_dead_letters USING btree (integration_id, created_at);

CREATE INDEX delivery_events_org ON delivery_events USING btree (org_id);

CREATE INDEX duplicate_candidates_other ON duplicate_candidates USING btree (other_bug_id);

CREATE INDEX email_tokens_user ON email_tokens USING btree (user_id, kind);

CREATE INDEX integration_deliveries_due ON integration_deliveries USING btree (next_attempt_at) WHERE (status = ANY (ARRAY['pending'::text, 'deferred'::text]));

CREATE INDEX integration_deliveries_list ON integration_deliveries USING btree (integration_id, created_at, id);

CREATE INDEX integration_deliveries_org ON integration_deliveries USING btree (org_id, created_at);

CREATE INDEX integrations_org ON integrations USING btree (org_id);

CREATE INDEX integrations_project ON integrations USING btree (project_id, created_at);

CREATE INDEX invitations_org_user ON invitations USING btree (org_id, user_id);

CREATE INDEX memberships_user ON memberships USING btree (user_id);

CREATE INDEX notifications_bug ON notifications USING btree (bug_id);

CREATE INDEX notifications_digest ON notifications USING btree (email_pending, org_id, user_id, created_at);

CREATE INDEX notifications_user ON notifications USING btree (user_id, org_id, created_at DESC);

CREATE INDEX occurrence_events_bug ON occurrence_events USING btree (bug_id);

CREATE INDEX occurrences_bug ON occurrences USING btree (bug_id, occurred_at DESC, id);

CREATE INDEX occurrences_org_platform ON occurrences USING btree (org_id, platform, bug_id);

CREATE INDEX occurrences_org_time ON occurrences USING btree (org_id, occurred_at DESC, id);

CREATE INDEX occurrences_user ON occurrences USING btree (org_id, user_key, occurred_at DESC);

CREATE INDEX outbox_due ON outbox USING btree (status, next_attempt_at);

CREATE INDEX presence_org ON presence USING btree (org_id, last_seen);

CREATE UNIQUE INDEX projects_number ON projects USING btree (project_number);

CREATE INDEX refresh_tokens_user ON refresh_tokens USING btree (user_id);

CREATE INDEX status_history_bug ON status_history USING btree (bug_id, changed_at DESC);

CREATE INDEX status_history_org ON status_history USING btree (org_id, changed_at DESC);

CREATE INDEX watchers_user ON watchers USING btree (org_id, user_id);

CREATE TRIGGER bug_days_insert_delete AFTER INSERT OR DELETE ON bugs FOR EACH ROW EXECUTE FUNCTION bug_days_sync();

CREATE TRIGGER bug_days_update AFTER UPDATE OF org_id, project_id, first_seen, status, severity, signal_class, signal_family, is_regression, ui_ux, resolved_at, merged_into, report_count ON bugs FOR EACH ROW WHEN (((old.org_id IS DISTINCT FROM new.org_id) OR (old.project_id IS DISTINCT FROM new.project_id) OR (old.first_seen IS DISTINCT FROM new.first_seen) OR (old.status IS DISTINCT FROM new.status) OR (old.severity IS DISTINCT FROM new.severity) OR (old.signal_class IS DISTINCT FROM new.signal_class) OR (old.signal_family IS DISTINCT FROM new.signal_family) OR (old.is_regression IS DISTINCT FROM new.is_regression) OR (old.ui_ux IS DISTINCT FROM new.ui_ux) OR (old.resolved_at IS DISTINCT FROM new.resolved_at) OR (old.merged_into IS DISTINCT FROM new.merged_into) OR (old.report_count IS DISTINCT FROM new.report_count))) EXECUTE FUNCTION bug_days_sync();

CREATE TRIGGER bug_group_reach_participants AFTER INSERT ON bug_participants REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION bug_group_reach_participants();

CREATE TRIGGER bug_group_reach_sync AFTER INSERT OR DELETE OR UPDATE OF org_id, n ON bug_groups FOR EACH ROW EXECUTE FUNCTION bug_group_reach_sync();

CREATE TRIGGER bug_group_tallies_insert_delete AFTER INSERT OR DELETE ON bug_groups FOR EACH ROW EXECUTE FUNCTION bug_group_tallies_sync();

CREATE TRIGGER bug_group_tallies_update AFTER UPDATE OF org_id, project_id, classes ON bug_groups FOR EACH ROW WHEN (((old.org_id IS DISTINCT FROM new.org_id) OR (old.project_id IS DISTINCT FROM new.project_id) OR (old.classes IS DISTINCT FROM new.classes))) EXECUTE FUNCTION bug_group_tallies_sync();

CREATE TRIGGER bug_groups_insert_delete AFTER INSERT OR DELETE ON bugs FOR EACH ROW EXECUTE FUNCTION bug_groups_sync();

CREATE TRIGGER bug_groups_update AFTER UPDATE OF org_id, project_id, group_key, merged_into, severity, signal_class, is_regression, title, first_seen, last_seen, report_count ON bugs FOR EACH ROW WHEN (((old.org_id IS DISTINCT FROM new.org_id) OR (old.project_id IS DISTINCT FROM new.project_id) OR (old.group_key IS DISTINCT FROM new.group_key) OR (old.merged_into IS DISTINCT FROM new.merged_into) OR (old.severity IS DISTINCT FROM new.severity) OR (old.signal_class IS DISTINCT FROM new.signal_class) OR (old.is_regression IS DISTINCT FROM new.is_regression) OR (old.title IS DISTINCT FROM new.title) OR (old.first_seen IS DISTINCT FROM new.first_seen) OR (old.last_seen IS DISTINCT FROM new.last_seen) OR (old.report_count IS DISTINCT FROM new.report_count))) EXECUTE FUNCTION bug_groups_sync();

CREATE TRIGGER bug_tallies_insert_delete AFTER INSERT OR DELETE ON bugs FOR EACH ROW EXECUTE FUNCTION bug_tallies_sync();

CREATE TRIGGER bug_tallies_update AFTER UPDATE OF org_id, project_id, status, severity, signal_class, signal_family, is_regression, ui_ux, assigned_to, merged_into ON bugs FOR EACH ROW WHEN (((old.org_id IS DISTINCT FROM new.org_id) OR (old.project_id IS DISTINCT FROM new.project_id) OR (old.status IS DISTINCT FROM new.status) OR (old.severity IS DISTINCT FROM new.severity) OR (old.signal_class IS DISTINCT FROM new.signal_class) OR (old.signal_family IS DISTINCT FROM new.signal_family) OR (old.is_regression IS DISTINCT FROM new.is_regression) OR (old.ui_ux IS DISTINCT FROM new.ui_ux) OR (old.assigned_to IS DISTINCT FROM new.assigned_to) OR (old.merged_into IS DISTINCT FROM new.merged_into))) EXECUTE FUNCTION bug_tallies_sync();

CREATE TRIGGER bugs_search_text BEFORE INSERT OR UPDATE OF title, description, signature ON bugs FOR EACH ROW EXECUTE FUNCTION bugs_search_text();

CREATE TRIGGER occurrence_days_insert_delete AFTER INSERT OR DELETE ON occurrences FOR EACH ROW EXECUTE FUNCTION occurrence_days_sync();

CREATE TRIGGER read_aggregates_org_delete AFTER DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION read_aggregates_owner_delete();

CREATE TRIGGER read_aggregates_project_delete AFTER DELETE ON projects FOR EACH ROW EXECUTE FUNCTION read_aggregates_owner_delete();

ALTER TABLE ONLY alert_policies
    ADD CONSTRAINT alert_policies_org_id_fkey FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY alert_policies
    ADD CONSTRAINT alert_policies_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE ONLY bug_participants
    ADD CONSTRAINT bug_participants_bug_id_fkey FOREIGN KEY (bug_id) REFERENCES bugs(id) ON DELETE CASCADE;

ALTER TABLE ONLY bugs
    ADD CONSTRAINT bugs_org_id_fkey FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY bugs
    ADD CONSTRAINT bugs_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE ONLY capture_delivery_ids
    ADD CONSTRAINT capture_delivery_ids_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE ONLY capture_keys
    ADD CONSTRAINT capture_keys_org_id_fkey FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY capture_keys
    ADD CONSTRAINT capture_keys_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE ONLY code_host_issues
    ADD CONSTRAINT code_host_issues_integration_id_fkey FOREIGN KEY (integration_id) REFERENCES integrations(id) ON DELETE CASCADE;

ALTER TABLE ONLY comments
    ADD CONSTRAINT comments_bug_id_fkey FOREIGN KEY (bug_id) REFERENCES bugs(id) ON DELETE CASCADE;

ALTER TABLE ONLY delivery_dead_letters
    ADD CONSTRAINT delivery_dead_letters_integration_id_fkey FOREIGN KEY (integration_id) REFERENCES integrations(id) ON DELETE CASCADE;

ALTER TABLE ONLY duplicate_candidates
    ADD CONSTRAINT duplicate_candidates_bug_id_fkey FOREIGN KEY (bug_id) REFERENCES bugs(id) ON DELETE CASCADE;

ALTER TABLE ONLY duplicate_candidates
    ADD CONSTRAINT duplicate_candidates_other_bug_id_fkey FOREIGN KEY (other_bug_id) REFERENCES bugs(id) ON DELETE CASCADE;

ALTER TABLE ONLY email_tokens
    ADD CONSTRAINT email_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY integration_deliveries
    ADD CONSTRAINT integration_deliveries_integration_id_fkey FOREIGN KEY (integration_id) REFERENCES integrations(id) ON DELETE CASCADE;

ALTER TABLE ONLY integrations
    ADD CONSTRAINT integrations_org_id_fkey FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY integrations
    ADD CONSTRAINT integrations_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE;

ALTER TABLE ONLY invitations
    ADD CONSTRAINT invitations_org_id_fkey FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY invitations
    ADD CONSTRAINT invitations_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY memberships
    ADD CONSTRAINT memberships_org_id_fkey FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY memberships
    ADD CONSTRAINT memberships_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY occurrence_events
    ADD CONSTRAINT occurrence_events_occurrence_id_fkey FOREIGN KEY (occurrence_id) REFERENCES occurrences(id) ON DELETE CASCADE;

ALTER TABLE ONLY occurrences
    ADD CONSTRAINT occurrences_bug_id_fkey FOREIGN KEY (bug_id) REFERENCES bugs(id) ON DELETE CASCADE;

ALTER TABLE ONLY projects
    ADD CONSTRAINT projects_org_id_fkey FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY refresh_tokens
    ADD CONSTRAINT refresh_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

ALTER TABLE ONLY status_history
    ADD CONSTRAINT status_history_bug_id_fkey FOREIGN KEY (bug_id) REFERENCES bugs(id) ON DELETE CASCADE;

ALTER TABLE ONLY watchers
    ADD CONSTRAINT watchers_bug_id_fkey FOREIGN KEY (bug_id) REFERENCES bugs(id) ON DELETE CASCADE;

