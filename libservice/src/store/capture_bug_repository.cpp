// SQL behind ports::CaptureBugRepository. The statements are constant text
// (prepared once per connection) and portable between SQLite and PostgreSQL:
// CASE instead of MAX/GREATEST, ON CONFLICT ... DO UPDATE with `excluded`,
// RETURNING instead of a read before the write.
#include "ports/capture_bug_repository.h"

namespace service::store {
namespace {

// A reopened bug's status. The spec leaves it open ("status after reopen: not
// shown"); `new` puts the regression back in front of the team's triage.
constexpr std::string_view kAddReportSql =
    "UPDATE bugs SET report_count = report_count + 1, occurrence_count = occurrence_count + 1, "
    "last_seen = CASE WHEN last_seen < ? THEN ? ELSE last_seen END, "
    "latest_release = CASE WHEN ? = '' THEN latest_release ELSE ? END, "
    "latest_environment = CASE WHEN ? = '' THEN latest_environment ELSE ? END, "
    "ai_summary = COALESCE(ai_summary, ?), updated_at = ?, "
    "status = CASE WHEN status = 'resolved' THEN 'new' ELSE status END, "
    "is_regression = CASE WHEN status = 'resolved' THEN 1 ELSE is_regression END, "
    "resolved_at = CASE WHEN status = 'resolved' THEN NULL ELSE resolved_at END, "
    "regression_occurrence_id = CASE WHEN status = 'resolved' THEN ? ELSE regression_occurrence_id END "
    "WHERE project_id = ? AND key_env = ? AND fingerprint = ? "
    "RETURNING id, status, title, severity, url, report_count, is_regression, regression_occurrence_id";

constexpr std::string_view kCreateSql =
    "INSERT INTO bugs (id, org_id, project_id, key_env, fingerprint, title, description, url, severity, status, "
    "platform, report_count, occurrence_count, reporter_count, affected_user_count, affected_session_count, "
    "latest_release, latest_environment, is_regression, signal_class, signal_family, signal_reason, "
    "classifier_confidence, ai_summary, first_seen, last_seen, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'new', ?, 1, 1, ?, 1, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (project_id, key_env, fingerprint) DO NOTHING RETURNING id";

constexpr std::string_view kUpsertBugUserSql =
    "INSERT INTO bug_users (bug_id, user_key, first_seen, last_seen, occurrence_count) VALUES (?, ?, ?, ?, 1) "
    "ON CONFLICT (bug_id, user_key) DO UPDATE SET "
    "last_seen = CASE WHEN bug_users.last_seen < excluded.last_seen THEN excluded.last_seen "
    "ELSE bug_users.last_seen END, occurrence_count = bug_users.occurrence_count + 1 "
    "RETURNING occurrence_count";
constexpr std::string_view kInsertBugUserSql =
    "INSERT INTO bug_users (bug_id, user_key, first_seen, last_seen, occurrence_count) VALUES (?, ?, ?, ?, 1)";
constexpr std::string_view kInsertSessionSql =
    "INSERT INTO bug_sessions (bug_id, session_id) VALUES (?, ?) ON CONFLICT (bug_id, session_id) DO NOTHING";
constexpr std::string_view kUpsertReporterSql =
    "INSERT INTO reporters (bug_id, email, report_count, first_reported_at, last_reported_at) "
    "VALUES (?, ?, 1, ?, ?) ON CONFLICT (bug_id, email) DO UPDATE SET "
    "report_count = reporters.report_count + 1, last_reported_at = CASE WHEN reporters.last_reported_at < "
    "excluded.last_reported_at THEN excluded.last_reported_at ELSE reporters.last_reported_at END "
    "RETURNING report_count";
constexpr std::string_view kInsertReporterSql =
    "INSERT INTO reporters (bug_id, email, report_count, first_reported_at, last_reported_at) "
    "VALUES (?, ?, 1, ?, ?)";
constexpr std::string_view kRaiseCountsSql =
    "UPDATE bugs SET affected_user_count = affected_user_count + ?, "
    "affected_session_count = affected_session_count + ?, reporter_count = reporter_count + ? WHERE id = ?";

class SqlCaptureBugRepository final : public ports::CaptureBugRepository {
 public:
  Result<std::optional<ports::BugAfterReport>> AddReport(Connection& tx, const ports::BugReportWrite& w) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, tx.Query(kAddReportSql, {w.seen_at, w.seen_at, w.release, w.release, w.environment, w.environment,
                                         OptText(w.ai_summary_json), w.seen_at, w.occurrence_id, w.project_id,
                                         w.key_env, w.fingerprint}));
    if (r.empty()) return std::optional<ports::BugAfterReport>();
    ports::BugAfterReport b;
    b.id = r.Str(0, 0);
    b.status = r.Str(0, 1);
    b.title = r.Str(0, 2);
    b.severity = r.Str(0, 3);
    b.url = r.Str(0, 4);
    b.report_count = r.Int(0, 5);
    b.is_regression = r.Bool(0, 6);
    b.regression = r.Str(0, 7) == w.occurrence_id;
    return std::optional<ports::BugAfterReport>(std::move(b));
  }

  Result<std::optional<ports::BugAfterReport>> Create(Connection& tx, const ports::BugReportWrite& w) override {
    SV_ASSIGN_OR_RETURN(
        Rows r,
        tx.Query(kCreateSql, {w.new_bug_id,
                              w.org_id,
                              w.project_id,
                              w.key_env,
                              w.fingerprint,
                              w.title,
                              w.description,
                              w.url,
                              w.severity,
                              w.platform,
                              int64_t{w.has_reporter_email ? 1 : 0},
                              int64_t{w.has_session ? 1 : 0},
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

  Status AddParticipants(Connection& tx, const std::string& bug_id, const ports::BugParticipants& p,
                         bool bug_created) override {
    const int64_t at = p.seen_at;
    if (bug_created) {
      SV_RETURN_IF_ERROR(tx.Exec(kInsertBugUserSql, {bug_id, p.user_key, at, at}).status());
      if (p.session_id) SV_RETURN_IF_ERROR(tx.Exec(kInsertSessionSql, {bug_id, *p.session_id}).status());
      if (p.reporter_email) {
        SV_RETURN_IF_ERROR(tx.Exec(kInsertReporterSql, {bug_id, *p.reporter_email, at, at}).status());
      }
      return Status::Ok();
    }
    int64_t new_users = 0, new_sessions = 0, new_reporters = 0;
    {
      SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kUpsertBugUserSql, {bug_id, p.user_key, at, at}));
      new_users = (!r.empty() && r.Int(0, 0) == 1) ? 1 : 0;
    }
    if (p.session_id) {
      SV_ASSIGN_OR_RETURN(int64_t n, tx.Exec(kInsertSessionSql, {bug_id, *p.session_id}));
      new_sessions = n > 0 ? 1 : 0;
    }
    if (p.reporter_email) {
      SV_ASSIGN_OR_RETURN(Rows r, tx.Query(kUpsertReporterSql, {bug_id, *p.reporter_email, at, at}));
      new_reporters = (!r.empty() && r.Int(0, 0) == 1) ? 1 : 0;
    }
    if (new_users + new_sessions + new_reporters == 0) return Status::Ok();
    return tx.Exec(kRaiseCountsSql, {new_users, new_sessions, new_reporters, bug_id}).status();
  }

  Status AddStatusHistory(Connection& tx, const std::string& id, const std::string& bug_id, const std::string& org_id,
                          const std::string& old_status, const std::string& new_status, const std::string& note,
                          const std::string& changed_by, int64_t at) override {
    return tx
        .Exec("INSERT INTO status_history (id, bug_id, org_id, old_status, new_status, note, changed_by, "
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
