// SQL behind ports::CaptureBugRepository. Portable statements (CASE instead
// of MAX/GREATEST, ON CONFLICT ... DO UPDATE with `excluded`, RETURNING); on
// PostgreSQL the batch methods are one statement over unnest()ed arrays, on
// SQLite a loop over single-row statements (no round trips there). Keys are
// processed in sorted order so that concurrent transactions (several
// processes on one PostgreSQL) take row locks in the same order.
#include <map>
#include <tuple>

#include "ports/capture_bug_repository.h"
#include "store/sql_arrays.h"

namespace service::store {
namespace {

// --- SQLite: one row per statement. ---

constexpr std::string_view kAddReportsSqlite =
    "UPDATE bugs SET report_count = report_count + ?, occurrence_count = occurrence_count + ?, "
    "last_seen = CASE WHEN last_seen < ? THEN ? ELSE last_seen END, "
    "latest_release = CASE WHEN ? = '' THEN latest_release ELSE ? END, "
    "latest_environment = CASE WHEN ? = '' THEN latest_environment ELSE ? END, "
    "ai_summary = COALESCE(ai_summary, ?), updated_at = ?, "
    "status = CASE WHEN status = 'resolved' THEN 'new' ELSE status END, "
    "is_regression = CASE WHEN status = 'resolved' THEN 1 ELSE is_regression END, "
    "resolved_at = CASE WHEN status = 'resolved' THEN NULL ELSE resolved_at END, "
    "regression_occurrence_id = CASE WHEN status = 'resolved' THEN ? ELSE regression_occurrence_id END "
    "WHERE project_id = ? AND key_env = ? AND fingerprint = ? "
    "RETURNING project_id, key_env, fingerprint, id, status, title, severity, url, report_count, "
    "is_regression, "
    "regression_occurrence_id";

constexpr std::string_view kUpsertBugUserSqlite =
    "INSERT INTO bug_users (bug_id, user_key, first_seen, last_seen, occurrence_count) VALUES (?, ?, ?, ?, "
    "?) "
    "ON CONFLICT (bug_id, user_key) DO UPDATE SET "
    "last_seen = CASE WHEN bug_users.last_seen < excluded.last_seen THEN excluded.last_seen "
    "ELSE bug_users.last_seen END, occurrence_count = bug_users.occurrence_count + excluded.occurrence_count "
    "RETURNING bug_id, user_key, occurrence_count";
constexpr std::string_view kInsertSessionSqlite =
    "INSERT INTO bug_sessions (bug_id, session_id) VALUES (?, ?) ON CONFLICT (bug_id, session_id) DO NOTHING "
    "RETURNING bug_id";
constexpr std::string_view kUpsertReporterSqlite =
    "INSERT INTO reporters (bug_id, email, report_count, first_reported_at, last_reported_at) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (bug_id, email) DO UPDATE SET "
    "report_count = reporters.report_count + excluded.report_count, last_reported_at = CASE WHEN "
    "reporters.last_reported_at < excluded.last_reported_at THEN excluded.last_reported_at "
    "ELSE reporters.last_reported_at END RETURNING bug_id, email, report_count";
constexpr std::string_view kRaiseCountsSqlite =
    "UPDATE bugs SET affected_user_count = affected_user_count + ?, "
    "affected_session_count = affected_session_count + ?, reporter_count = reporter_count + ? WHERE id = ?";

// --- PostgreSQL: one statement per batch, rows from unnest()ed arrays. ---

constexpr std::string_view kAddReportsPostgres =
    "UPDATE bugs AS b SET report_count = b.report_count + v.n, occurrence_count = b.occurrence_count + v.n, "
    "last_seen = CASE WHEN b.last_seen < v.seen THEN v.seen ELSE b.last_seen END, "
    "latest_release = CASE WHEN v.rel = '' THEN b.latest_release ELSE v.rel END, "
    "latest_environment = CASE WHEN v.env = '' THEN b.latest_environment ELSE v.env END, "
    "ai_summary = COALESCE(b.ai_summary, v.ai), updated_at = v.seen, "
    "status = CASE WHEN b.status = 'resolved' THEN 'new' ELSE b.status END, "
    "is_regression = CASE WHEN b.status = 'resolved' THEN 1 ELSE b.is_regression END, "
    "resolved_at = CASE WHEN b.status = 'resolved' THEN NULL ELSE b.resolved_at END, "
    "regression_occurrence_id = CASE WHEN b.status = 'resolved' THEN v.occ ELSE b.regression_occurrence_id "
    "END "
    "FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), "
    "CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[])) "
    "AS v(p, e, f, n, seen, rel, env, ai, occ) "
    "WHERE b.project_id = v.p AND b.key_env = v.e AND b.fingerprint = v.f "
    "RETURNING b.project_id, b.key_env, b.fingerprint, b.id, b.status, b.title, b.severity, b.url, "
    "b.report_count, b.is_regression, b.regression_occurrence_id";

constexpr std::string_view kUpsertBugUsersPostgres =
    "INSERT INTO bug_users (bug_id, user_key, first_seen, last_seen, occurrence_count) "
    "SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]), "
    "CAST(? AS bigint[])) "
    "ON CONFLICT (bug_id, user_key) DO UPDATE SET "
    "last_seen = CASE WHEN bug_users.last_seen < excluded.last_seen THEN excluded.last_seen "
    "ELSE bug_users.last_seen END, occurrence_count = bug_users.occurrence_count + excluded.occurrence_count "
    "RETURNING bug_id, user_key, occurrence_count";
constexpr std::string_view kInsertSessionsPostgres =
    "INSERT INTO bug_sessions (bug_id, session_id) SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS "
    "text[])) "
    "ON CONFLICT (bug_id, session_id) DO NOTHING RETURNING bug_id";
constexpr std::string_view kUpsertReportersPostgres =
    "INSERT INTO reporters (bug_id, email, report_count, first_reported_at, last_reported_at) "
    "SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]), "
    "CAST(? AS bigint[])) "
    "ON CONFLICT (bug_id, email) DO UPDATE SET "
    "report_count = reporters.report_count + excluded.report_count, last_reported_at = CASE WHEN "
    "reporters.last_reported_at < excluded.last_reported_at THEN excluded.last_reported_at "
    "ELSE reporters.last_reported_at END RETURNING bug_id, email, report_count";
constexpr std::string_view kRaiseCountsPostgres =
    "UPDATE bugs AS b SET affected_user_count = b.affected_user_count + v.u, "
    "affected_session_count = b.affected_session_count + v.s, reporter_count = b.reporter_count + v.r "
    "FROM unnest(CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[])) "
    "AS v(id, u, s, r) WHERE b.id = v.id";

constexpr std::string_view kCreateSql =
    "INSERT INTO bugs (id, org_id, project_id, key_env, fingerprint, title, description, url, severity, "
    "status, "
    "platform, report_count, occurrence_count, reporter_count, affected_user_count, affected_session_count, "
    "latest_release, latest_environment, is_regression, signal_class, signal_family, signal_reason, "
    "classifier_confidence, ai_summary, first_seen, last_seen, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'new', ?, 1, 1, 0, 0, 0, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (project_id, key_env, fingerprint) DO NOTHING RETURNING id";

using Key3 = std::tuple<std::string, std::string, std::string>;
using Key2 = std::pair<std::string, std::string>;

struct Seen {
  int64_t count = 0;
  int64_t first = 0;
  int64_t last = 0;
  void Add(int64_t at) {
    if (count == 0 || at < first) first = at;
    if (count == 0 || at > last) last = at;
    ++count;
  }
};

struct NewParticipants {
  int64_t users = 0;
  int64_t sessions = 0;
  int64_t reporters = 0;
};

ports::BugAfterReport FromReturning(const Rows& r, size_t i, const std::string& first_occurrence_id) {
  ports::BugAfterReport b;
  b.id = r.Str(i, 3);
  b.status = r.Str(i, 4);
  b.title = r.Str(i, 5);
  b.severity = r.Str(i, 6);
  b.url = r.Str(i, 7);
  b.report_count = r.Int(i, 8);
  b.is_regression = r.Bool(i, 9);
  b.regression = r.Str(i, 10) == first_occurrence_id;
  return b;
}

class SqlCaptureBugRepository final : public ports::CaptureBugRepository {
 public:
  Result<std::vector<std::optional<ports::BugAfterReport>>> AddReports(
      Connection& tx, const std::vector<ports::BugKeyReports>& keys) override {
    std::vector<std::optional<ports::BugAfterReport>> out(keys.size());
    if (keys.empty()) return out;
    // Lock order: sorted keys.
    std::map<Key3, size_t> order;
    for (size_t i = 0; i < keys.size(); ++i)
      order.emplace(Key3{keys[i].project_id, keys[i].key_env, keys[i].fingerprint}, i);

    if (tx.dialect() == Dialect::kPostgres) {
      PgTextArray p, e, f, rel, env, ai, occ;
      PgBigintArray n, seen;
      for (const auto& [key, i] : order) {
        const ports::BugKeyReports& k = keys[i];
        p.Add(k.project_id);
        e.Add(k.key_env);
        f.Add(k.fingerprint);
        n.Add(k.count);
        seen.Add(k.seen_at);
        rel.Add(k.release);
        env.Add(k.environment);
        ai.Add(k.ai_summary_json);
        occ.Add(k.first_occurrence_id);
      }
      SV_ASSIGN_OR_RETURN(Rows r,
                          tx.Query(kAddReportsPostgres, {p.Take(), e.Take(), f.Take(), n.Take(), seen.Take(),
                                                         rel.Take(), env.Take(), ai.Take(), occ.Take()}));
      for (size_t row = 0; row < r.size(); ++row) {
        auto it = order.find(Key3{r.Str(row, 0), r.Str(row, 1), r.Str(row, 2)});
        if (it == order.end()) continue;
        out[it->second] = FromReturning(r, row, keys[it->second].first_occurrence_id);
      }
      return out;
    }

    for (const auto& [key, i] : order) {
      const ports::BugKeyReports& k = keys[i];
      SV_ASSIGN_OR_RETURN(
          Rows r,
          tx.Query(kAddReportsSqlite, {k.count, k.count, k.seen_at, k.seen_at, k.release, k.release,
                                       k.environment, k.environment, OptText(k.ai_summary_json), k.seen_at,
                                       k.first_occurrence_id, k.project_id, k.key_env, k.fingerprint}));
      if (!r.empty()) out[i] = FromReturning(r, 0, k.first_occurrence_id);
    }
    return out;
  }

  Result<std::optional<ports::BugAfterReport>> Create(Connection& tx,
                                                      const ports::BugReportWrite& w) override {
    SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kCreateSql, {w.new_bug_id,
                                                      w.org_id,
                                                      w.project_id,
                                                      w.key_env,
                                                      w.fingerprint,
                                                      w.title,
                                                      w.description,
                                                      w.url,
                                                      w.severity,
                                                      w.platform,
                                                      w.release,
                                                      w.environment,
                                                      w.signal_class,
                                                      w.signal_family,
                                                      w.signal_reason,
                                                      w.classifier_confidence,
                                                      OptText(w.ai_summary_json),
                                                      w.seen_at,
                                                      w.seen_at,
                                                      w.seen_at,
                                                      w.seen_at}));
    if (r.empty()) return std::optional<ports::BugAfterReport>();
    ports::BugAfterReport b;
    b.id = r.Str(0, 0);
    b.created = true;
    b.status = "new";
    b.title = w.title;
    b.severity = w.severity;
    b.url = w.url;
    b.report_count = 1;
    return std::optional<ports::BugAfterReport>(std::move(b));
  }

  Status RemoveCreated(Connection& tx, const std::string& bug_id) override {
    return tx.Exec("DELETE FROM bugs WHERE id = ?", {bug_id}).status();
  }

  Status AddParticipants(Connection& tx, const std::vector<ports::BugParticipants>& reports) override {
    if (reports.empty()) return Status::Ok();
    // Fold the batch: one row per distinct participant (sorted: lock order).
    std::map<Key2, Seen> users, reporters;
    std::map<Key2, bool> sessions;
    for (const ports::BugParticipants& p : reports) {
      users[{p.bug_id, p.user_key}].Add(p.seen_at);
      if (p.session_id) sessions.emplace(Key2{p.bug_id, *p.session_id}, true);
      if (p.reporter_email) reporters[{p.bug_id, *p.reporter_email}].Add(p.seen_at);
    }
    std::map<std::string, NewParticipants> raised;

    if (tx.dialect() == Dialect::kPostgres) {
      {
        PgTextArray bug, key;
        PgBigintArray first, last, count;
        for (const auto& [k, s] : users) {
          bug.Add(k.first);
          key.Add(k.second);
          first.Add(s.first);
          last.Add(s.last);
          count.Add(s.count);
        }
        SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kUpsertBugUsersPostgres, {bug.Take(), key.Take(), first.Take(),
                                                                       last.Take(), count.Take()}));
        for (size_t i = 0; i < r.size(); ++i) {
          auto it = users.find({r.Str(i, 0), r.Str(i, 1)});
          if (it != users.end() && r.Int(i, 2) == it->second.count) ++raised[it->first.first].users;
        }
      }
      if (!sessions.empty()) {
        PgTextArray bug, session;
        for (const auto& [k, unused] : sessions) {
          bug.Add(k.first);
          session.Add(k.second);
        }
        SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kInsertSessionsPostgres, {bug.Take(), session.Take()}));
        for (size_t i = 0; i < r.size(); ++i) ++raised[r.Str(i, 0)].sessions;
      }
      if (!reporters.empty()) {
        PgTextArray bug, email;
        PgBigintArray count, first, last;
        for (const auto& [k, s] : reporters) {
          bug.Add(k.first);
          email.Add(k.second);
          count.Add(s.count);
          first.Add(s.first);
          last.Add(s.last);
        }
        SV_ASSIGN_OR_RETURN(Rows r,
                            tx.Query(kUpsertReportersPostgres,
                                     {bug.Take(), email.Take(), count.Take(), first.Take(), last.Take()}));
        for (size_t i = 0; i < r.size(); ++i) {
          auto it = reporters.find({r.Str(i, 0), r.Str(i, 1)});
          if (it != reporters.end() && r.Int(i, 2) == it->second.count) ++raised[it->first.first].reporters;
        }
      }
      if (raised.empty()) return Status::Ok();
      PgTextArray id;
      PgBigintArray u, s, rep;
      for (const auto& [bug, n] : raised) {
        id.Add(bug);
        u.Add(n.users);
        s.Add(n.sessions);
        rep.Add(n.reporters);
      }
      return tx.Exec(kRaiseCountsPostgres, {id.Take(), u.Take(), s.Take(), rep.Take()}).status();
    }

    for (const auto& [k, s] : users) {
      SV_ASSIGN_OR_RETURN(Rows r,
                          tx.Query(kUpsertBugUserSqlite, {k.first, k.second, s.first, s.last, s.count}));
      if (!r.empty() && r.Int(0, 2) == s.count) ++raised[k.first].users;
    }
    for (const auto& [k, unused] : sessions) {
      SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kInsertSessionSqlite, {k.first, k.second}));
      if (!r.empty()) ++raised[k.first].sessions;
    }
    for (const auto& [k, s] : reporters) {
      SV_ASSIGN_OR_RETURN(Rows r,
                          tx.Query(kUpsertReporterSqlite, {k.first, k.second, s.count, s.first, s.last}));
      if (!r.empty() && r.Int(0, 2) == s.count) ++raised[k.first].reporters;
    }
    for (const auto& [bug, n] : raised) {
      SV_RETURN_IF_ERROR(tx.Exec(kRaiseCountsSqlite, {n.users, n.sessions, n.reporters, bug}).status());
    }
    return Status::Ok();
  }

  Status AddStatusHistory(Connection& tx, const std::string& id, const std::string& bug_id,
                          const std::string& org_id, const std::string& old_status,
                          const std::string& new_status, const std::string& note,
                          const std::string& changed_by, int64_t at) override {
    return tx
        .Exec(
            "INSERT INTO status_history (id, bug_id, org_id, old_status, new_status, note, changed_by, "
            "changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            {id, bug_id, org_id, old_status, new_status, note.empty() ? Value(nullptr) : Value(note),
             changed_by.empty() ? Value(nullptr) : Value(changed_by), at})
        .status();
  }
};

}  // namespace
}  // namespace service::store

namespace service::ports {
std::unique_ptr<CaptureBugRepository> NewSqlCaptureBugRepository() {
  return std::make_unique<store::SqlCaptureBugRepository>();
}
}  // namespace service::ports
