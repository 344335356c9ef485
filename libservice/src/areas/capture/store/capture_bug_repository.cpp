// SQL behind ports::CaptureBugRepository. Portable statements (CASE instead
// of MAX/GREATEST, ON CONFLICT ... DO UPDATE with `excluded`, RETURNING); on
// PostgreSQL the batch methods are one statement over unnest()ed arrays, on
// SQLite a loop over single-row statements (no round trips there). Keys are
// processed in sorted order so that concurrent transactions (several
// processes on one PostgreSQL) take row locks in the same order.
#include <map>
#include <tuple>

#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"
#include "store/sql_arrays.h"

namespace service::store {
namespace {

// --- SQLite: one row per statement. ---

// The counters of a known bug. Status columns are left out of the SET list
// so their indexes (bugs_project_status) are not rewritten per report; a
// bug RETURNING status 'resolved' is reopened by kReopenSql.
constexpr std::string_view kAddReportsSqlite =
    "UPDATE bugs SET report_count = report_count + ?, occurrence_count = occurrence_count + ?, "
    "last_seen = CASE WHEN last_seen < ? THEN ? ELSE last_seen END, "
    "latest_release = CASE WHEN ? = '' THEN latest_release ELSE ? END, "
    "latest_environment = CASE WHEN ? = '' THEN latest_environment ELSE ? END, "
    "ai_summary = COALESCE(ai_summary, ?), updated_at = ?, "
    "affected_user_count = affected_user_count + ?, affected_session_count = affected_session_count + ?, "
    "reporter_count = reporter_count + ?, platforms = platforms | ? "
    "WHERE project_id = ? AND key_env = ? AND fingerprint = ? "
    "RETURNING project_id, key_env, fingerprint, id, status, title, severity, url, report_count, "
    "is_regression";

// A resolved bug that received a report: reopened as a regression, which
// records the report's occurrence as the one that reopened it.
constexpr std::string_view kReopenSql =
    "UPDATE bugs SET status = 'new', is_regression = 1, resolved_at = NULL, regression_occurrence_id = ? "
    "WHERE id = ? AND status = 'resolved' RETURNING id";

// A bug's distinct participants (table bug_participants): users and
// reporters count their reports and keep first/last seen; a session only
// exists. RETURNING names the rows inserted or updated: a session row
// returned is new; a user or reporter row is new when its count equals the
// batch's.
constexpr std::string_view kUpsertParticipantSqlite =
    "INSERT INTO bug_participants (bug_id, kind, key, first_seen, last_seen, report_count) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (bug_id, kind, key) DO UPDATE SET "
    "last_seen = CASE WHEN bug_participants.last_seen < excluded.last_seen THEN excluded.last_seen "
    "ELSE bug_participants.last_seen END, "
    "report_count = bug_participants.report_count + excluded.report_count "
    "WHERE bug_participants.kind <> 'session' RETURNING report_count";
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
    "affected_user_count = b.affected_user_count + v.nu, "
    "affected_session_count = b.affected_session_count + v.ns, reporter_count = b.reporter_count + v.nr, "
    "platforms = b.platforms | v.pl "
    "FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), "
    "CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), "
    "CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[])) "
    "AS v(p, e, f, n, seen, rel, env, ai, nu, ns, nr, pl) "
    "WHERE b.project_id = v.p AND b.key_env = v.e AND b.fingerprint = v.f "
    "RETURNING b.project_id, b.key_env, b.fingerprint, b.id, b.status, b.title, b.severity, b.url, "
    "b.report_count, b.is_regression";

constexpr std::string_view kUpsertParticipantsPostgres =
    "INSERT INTO bug_participants (bug_id, kind, key, first_seen, last_seen, report_count) "
    "SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), "
    "CAST(? AS bigint[]), CAST(? AS bigint[])) "
    "ON CONFLICT (bug_id, kind, key) DO UPDATE SET "
    "last_seen = CASE WHEN bug_participants.last_seen < excluded.last_seen THEN excluded.last_seen "
    "ELSE bug_participants.last_seen END, "
    "report_count = bug_participants.report_count + excluded.report_count "
    "WHERE bug_participants.kind <> 'session' RETURNING bug_id, kind, key, report_count";
constexpr std::string_view kRaiseCountsPostgres =
    "UPDATE bugs AS b SET affected_user_count = b.affected_user_count + v.u, "
    "affected_session_count = b.affected_session_count + v.s, reporter_count = b.reporter_count + v.r "
    "FROM unnest(CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[])) "
    "AS v(id, u, s, r) WHERE b.id = v.id";

constexpr std::string_view kFindIdSqlite =
    "SELECT id FROM bugs WHERE project_id = ? AND key_env = ? AND fingerprint = ?";
// Reads only: locking the rows here (in id order) would cost a heap write
// per bug and batch on PostgreSQL; batches of different processes that
// deadlock instead are detected by the server and run again.
constexpr std::string_view kFindIdsPostgres =
    "SELECT b.project_id, b.key_env, b.fingerprint, b.id FROM bugs AS b "
    "JOIN unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[])) AS v(p, e, f) "
    "ON b.project_id = v.p AND b.key_env = v.e AND b.fingerprint = v.f";

constexpr std::string_view kCreateSql =
    "INSERT INTO bugs (id, org_id, project_id, key_env, fingerprint, signature, signature_hash, group_key, "
    "embedding, embedded_at, grouping_v3, grouping_v3_key, ui_ux, title, description, url, severity, status, "
    "platform, platforms, report_count, occurrence_count, reporter_count, affected_user_count, "
    "affected_session_count, "
    "latest_release, latest_environment, is_regression, signal_class, signal_family, signal_reason, "
    "classifier_confidence, ai_summary, first_seen, last_seen, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'new', ?, ?, 1, 1, 0, 0, 0, ?, ?, 0, ?, ?, "
    "?, "
    "?, "
    "?, "
    "?, ?, "
    "?, ?) "
    "ON CONFLICT (project_id, key_env, fingerprint) DO NOTHING RETURNING id";

using Key3 = std::tuple<std::string, std::string, std::string>;

// bug_participants.kind
const std::string kKindUser = "user";
const std::string kKindSession = "session";
const std::string kKindReporter = "reporter";

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

ports::BugAfterReport FromReturning(const Rows& r, size_t i) {
  ports::BugAfterReport b;
  b.id = r.Str(i, 3);
  b.status = r.Str(i, 4);
  b.title = r.Str(i, 5);
  b.severity = r.Str(i, 6);
  b.url = r.Str(i, 7);
  b.report_count = r.Int(i, 8);
  b.is_regression = r.Bool(i, 9);
  return b;
}

// Reopens `b` when it was resolved: the report with `occurrence_id` is its
// regression.
Status ReopenIfResolved(Connection& tx, ports::BugAfterReport& b, const std::string& occurrence_id) {
  if (b.status != "resolved") return Status::Ok();
  SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kReopenSql, {occurrence_id, b.id}));
  if (r.empty()) return Status::Ok();
  b.status = "new";
  b.is_regression = true;
  b.regression = true;
  return Status::Ok();
}

class SqlCaptureBugRepository final : public ports::CaptureBugRepository {
 public:
  Result<std::vector<std::optional<ports::BugAfterReport>>> AddReports(
      ports::Tx& tx_tx, const std::vector<ports::BugKeyReports>& keys) override {
    Connection& tx = Sql(tx_tx);
    std::vector<std::optional<ports::BugAfterReport>> out(keys.size());
    if (keys.empty()) return out;
    // Lock order: sorted keys.
    std::map<Key3, size_t> order;
    for (size_t i = 0; i < keys.size(); ++i)
      order.emplace(Key3{keys[i].project_id, keys[i].key_env, keys[i].fingerprint}, i);

    if (tx.dialect() == Dialect::kPostgres) {
      PgTextArray p, e, f, rel, env, ai;
      PgBigintArray n, seen, nu, ns, nr, pl;
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
        nu.Add(k.new_users);
        ns.Add(k.new_sessions);
        nr.Add(k.new_reporters);
        pl.Add(k.platforms);
      }
      SV_ASSIGN_OR_RETURN(
          Rows r,
          tx.Query(kAddReportsPostgres, {p.Take(), e.Take(), f.Take(), n.Take(), seen.Take(), rel.Take(),
                                         env.Take(), ai.Take(), nu.Take(), ns.Take(), nr.Take(), pl.Take()}));
      for (size_t row = 0; row < r.size(); ++row) {
        auto it = order.find(Key3{r.Str(row, 0), r.Str(row, 1), r.Str(row, 2)});
        if (it == order.end()) continue;
        out[it->second] = FromReturning(r, row);
      }
      for (const auto& [key, i] : order) {
        if (out[i]) SV_RETURN_IF_ERROR(ReopenIfResolved(tx, *out[i], keys[i].first_occurrence_id));
      }
      return out;
    }

    for (const auto& [key, i] : order) {
      const ports::BugKeyReports& k = keys[i];
      SV_ASSIGN_OR_RETURN(
          Rows r, tx.Query(kAddReportsSqlite,
                           {k.count, k.count, k.seen_at, k.seen_at, k.release, k.release, k.environment,
                            k.environment, OptText(k.ai_summary_json), k.seen_at, k.new_users, k.new_sessions,
                            k.new_reporters, k.platforms, k.project_id, k.key_env, k.fingerprint}));
      if (r.empty()) continue;
      out[i] = FromReturning(r, 0);
      SV_RETURN_IF_ERROR(ReopenIfResolved(tx, *out[i], k.first_occurrence_id));
    }
    return out;
  }

  Result<std::optional<ports::BugAfterReport>> Create(ports::Tx& tx_tx,
                                                      const ports::BugReportWrite& w) override {
    Connection& tx = Sql(tx_tx);
    SV_ASSIGN_OR_RETURN(Rows r,
                        tx.Query(kCreateSql, {w.new_bug_id,
                                              w.org_id,
                                              w.project_id,
                                              w.key_env,
                                              w.fingerprint,
                                              w.signature.empty() ? Null() : Value(w.signature),
                                              w.signature_hash.empty() ? Null() : Value(w.signature_hash),
                                              w.signature_hash.empty() ? w.new_bug_id : w.signature_hash,
                                              w.embedding.empty() ? Null() : Value(w.embedding),
                                              w.embedding.empty() ? int64_t{0} : w.seen_at,
                                              OptText(w.grouping_v3_json),
                                              w.grouping_v3_key.empty() ? Null() : Value(w.grouping_v3_key),
                                              Bool(w.ui_ux),
                                              w.title,
                                              w.description,
                                              w.url,
                                              w.severity,
                                              w.platform,
                                              w.platforms,
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

  Status RemoveCreated(ports::Tx& tx_tx, const std::string& bug_id) override {
    Connection& tx = Sql(tx_tx);
    return tx.Exec("DELETE FROM bugs WHERE id = ?", {bug_id}).status();
  }

  Result<ports::NewParticipantsByBug> RecordParticipants(
      ports::Tx& tx_tx, const std::vector<ports::BugParticipants>& reports) override {
    Connection& tx = Sql(tx_tx);
    ports::NewParticipantsByBug raised;
    if (reports.empty()) return raised;
    // Fold the batch: one row per distinct (bug, kind, key), sorted (lock order).
    std::map<Key3, Seen> rows;
    for (const ports::BugParticipants& p : reports) {
      rows[{p.bug_id, kKindUser, p.user_key}].Add(p.seen_at);
      if (p.session_id) rows[{p.bug_id, kKindSession, *p.session_id}].Add(p.seen_at);
      if (p.reporter_email) rows[{p.bug_id, kKindReporter, *p.reporter_email}].Add(p.seen_at);
    }
    auto count_new = [&](const Key3& k, const Seen& seen, int64_t report_count) {
      const auto& [bug, kind, key] = k;
      if (kind == kKindSession) {
        ++raised[bug].sessions;
      } else if (report_count == seen.count) {
        ++(kind == kKindUser ? raised[bug].users : raised[bug].reporters);
      }
    };
    auto stored_count = [](const std::string& kind, const Seen& seen) {
      return kind == kKindSession ? int64_t{0} : seen.count;
    };

    if (tx.dialect() == Dialect::kPostgres) {
      PgTextArray bug, kind, key;
      PgBigintArray first, last, count;
      for (const auto& [k, seen] : rows) {
        bug.Add(std::get<0>(k));
        kind.Add(std::get<1>(k));
        key.Add(std::get<2>(k));
        first.Add(seen.first);
        last.Add(seen.last);
        count.Add(stored_count(std::get<1>(k), seen));
      }
      SV_ASSIGN_OR_RETURN(
          Rows r, tx.Query(kUpsertParticipantsPostgres,
                           {bug.Take(), kind.Take(), key.Take(), first.Take(), last.Take(), count.Take()}));
      for (size_t i = 0; i < r.size(); ++i) {
        auto it = rows.find({r.Str(i, 0), r.Str(i, 1), r.Str(i, 2)});
        if (it != rows.end()) count_new(it->first, it->second, r.Int(i, 3));
      }
      return raised;
    }

    for (const auto& [k, seen] : rows) {
      const auto& [b, kind, key] = k;
      SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kUpsertParticipantSqlite,
                                           {b, kind, key, seen.first, seen.last, stored_count(kind, seen)}));
      if (!r.empty()) count_new(k, seen, r.Int(0, 0));
    }
    return raised;
  }

  Status RaiseParticipantCounts(ports::Tx& tx_tx, const ports::NewParticipantsByBug& counts) override {
    Connection& tx = Sql(tx_tx);
    if (counts.empty()) return Status::Ok();
    if (tx.dialect() == Dialect::kPostgres) {
      PgTextArray id;
      PgBigintArray u, s, rep;
      for (const auto& [b, n] : counts) {
        id.Add(b);
        u.Add(n.users);
        s.Add(n.sessions);
        rep.Add(n.reporters);
      }
      return tx.Exec(kRaiseCountsPostgres, {id.Take(), u.Take(), s.Take(), rep.Take()}).status();
    }
    for (const auto& [b, n] : counts) {
      SV_RETURN_IF_ERROR(tx.Exec(kRaiseCountsSqlite, {n.users, n.sessions, n.reporters, b}).status());
    }
    return Status::Ok();
  }

  Result<std::vector<std::optional<std::string>>> FindIds(
      ports::Tx& tx_tx, const std::vector<ports::BugKeyReports>& keys) override {
    Connection& tx = Sql(tx_tx);
    std::vector<std::optional<std::string>> out(keys.size());
    if (keys.empty()) return out;
    if (tx.dialect() == Dialect::kPostgres) {
      std::map<Key3, size_t> index;
      PgTextArray p, e, f;
      for (size_t i = 0; i < keys.size(); ++i) {
        index.emplace(Key3{keys[i].project_id, keys[i].key_env, keys[i].fingerprint}, i);
        p.Add(keys[i].project_id);
        e.Add(keys[i].key_env);
        f.Add(keys[i].fingerprint);
      }
      SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kFindIdsPostgres, {p.Take(), e.Take(), f.Take()}));
      for (size_t row = 0; row < r.size(); ++row) {
        auto it = index.find(Key3{r.Str(row, 0), r.Str(row, 1), r.Str(row, 2)});
        if (it != index.end()) out[it->second] = r.Str(row, 3);
      }
      return out;
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      SV_ASSIGN_OR_RETURN(
          Rows r, tx.Query(kFindIdSqlite, {keys[i].project_id, keys[i].key_env, keys[i].fingerprint}));
      if (!r.empty()) out[i] = r.Str(0, 0);
    }
    return out;
  }

  Result<bool> ClaimDelivery(ports::Tx& tx_tx, const std::string& project_id, const std::string& delivery_id,
                             int64_t now_ms) override {
    SV_ASSIGN_OR_RETURN(int64_t n,
                        Sql(tx_tx).Exec("INSERT INTO capture_delivery_ids (project_id, delivery_id, "
                                        "created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                        {project_id, delivery_id, now_ms}));
    return n > 0;
  }

  Result<int64_t> ForgetDeliveries(ports::Tx& tx_tx, int64_t before_ms, int64_t limit) override {
    return Sql(tx_tx).Exec(
        "DELETE FROM capture_delivery_ids WHERE (project_id, delivery_id) IN (SELECT project_id, delivery_id "
        "FROM capture_delivery_ids WHERE created_at < ? ORDER BY created_at LIMIT ?)",
        {before_ms, limit});
  }

  Status AddStatusHistory(ports::Tx& tx_tx, const std::string& id, const std::string& bug_id,
                          const std::string& org_id, const std::string& old_status,
                          const std::string& new_status, const std::string& note,
                          const std::string& changed_by, int64_t at) override {
    Connection& tx = Sql(tx_tx);
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

namespace service::store {
std::unique_ptr<ports::CaptureBugRepository> NewSqlCaptureBugRepository() {
  return std::make_unique<store::SqlCaptureBugRepository>();
}
}  // namespace service::store
