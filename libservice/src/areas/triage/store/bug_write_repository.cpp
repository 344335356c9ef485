// SQL behind ports::BugWriteRepository (both backends).
#include "areas/triage/ports/bug_write_repository.h"

#include "areas/bugs/store/bug_sql.h"
#include "areas/triage/store/repositories.h"
#include "store/database.h"

namespace service::store {
namespace {

std::vector<std::string> Column(const Rows& r) {
  std::vector<std::string> out;
  out.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) out.push_back(r.Str(i, 0));
  return out;
}

class SqlBugWriteRepository final : public ports::BugWriteRepository {
 public:
  Result<std::optional<ports::BugState>> Lock(ports::Tx& t, const std::string& org_id,
                                              const std::string& bug_id, int64_t now_ms) override {
    Connection& tx = Sql(t);
    SV_ASSIGN_OR_RETURN(Rows r, tx.Query("UPDATE bugs SET updated_at = ? "
                                         "WHERE org_id = ? AND id = ? AND merged_into IS NULL "
                                         "RETURNING id, org_id, project_id, title, url, severity, status, "
                                         "signal_class, assigned_to, is_regression",
                                         {now_ms, org_id, bug_id}));
    if (r.empty()) return std::optional<ports::BugState>();
    ports::BugState b;
    b.id = r.Str(0, 0);
    b.org_id = r.Str(0, 1);
    b.project_id = r.Str(0, 2);
    b.title = r.Str(0, 3);
    b.url = r.Str(0, 4);
    b.severity = r.Str(0, 5);
    b.status = r.Str(0, 6);
    b.signal_class = r.Str(0, 7);
    b.assigned_to = r.OptStr(0, 8);
    b.is_regression = r.Bool(0, 9);
    return std::optional<ports::BugState>(std::move(b));
  }

  Status Apply(ports::Tx& t, const std::string& bug_id, const ports::BugChange& change,
               int64_t now_ms) override {
    std::string sql = "UPDATE bugs SET updated_at = ?";
    std::vector<Value> params{now_ms};
    if (change.status) {
      sql += ", status = ?, resolved_at = ?";
      params.emplace_back(*change.status);
      params.push_back(*change.status == "resolved" ? Value(now_ms) : Value(nullptr));
    }
    if (change.severity) {
      sql += ", severity = ?";
      params.emplace_back(*change.severity);
    }
    if (change.assigned_to) {
      sql += ", assigned_to = ?";
      params.push_back(OptText(*change.assigned_to));
    }
    if (change.mark_regression) sql += ", is_regression = 1";
    sql += " WHERE id = ?";
    params.emplace_back(bug_id);
    return Sql(t).Exec(sql, params).status();
  }

  Result<std::vector<std::string>> Existing(ports::Tx& t, const std::string& org_id,
                                            const std::vector<std::string>& ids) override {
    if (ids.empty()) return std::vector<std::string>();
    std::vector<Value> params{org_id};
    for (const auto& id : ids) params.emplace_back(id);
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT id FROM bugs WHERE org_id = ? AND merged_into IS NULL "
                                             "AND id IN (" +
                                                 Placeholders(ids.size()) + ")",
                                             params));
    return Column(r);
  }

  Result<std::vector<std::string>> GroupMembers(ports::Tx& t, const std::string& org_id,
                                                const std::string& project_id,
                                                const std::string& group_key) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT id FROM bugs WHERE org_id = ? AND project_id = ? "
                                             "AND group_key = ? AND merged_into IS NULL ORDER BY id",
                                             {org_id, project_id, group_key}));
    return Column(r);
  }

  Result<std::vector<std::string>> GroupProjects(ports::Tx& t, const std::string& org_id,
                                                 const std::string& group_key) override {
    SV_ASSIGN_OR_RETURN(Rows r, Sql(t).Query("SELECT DISTINCT project_id FROM bugs WHERE org_id = ? "
                                             "AND group_key = ? AND merged_into IS NULL ORDER BY project_id",
                                             {org_id, group_key}));
    return Column(r);
  }

  Result<bool> ProjectInOrg(ports::Tx& t, const std::string& org_id, const std::string& project_id) override {
    SV_ASSIGN_OR_RETURN(
        Rows r, Sql(t).Query("SELECT 1 FROM projects WHERE id = ? AND org_id = ?", {project_id, org_id}));
    return !r.empty();
  }

  Status Delete(ports::Tx& t, const std::string& bug_id) override {
    Connection& tx = Sql(t);
    // Notifications name the bug without a foreign key; the rest cascades.
    SV_RETURN_IF_ERROR(tx.Exec("DELETE FROM notifications WHERE bug_id = ?", {bug_id}).status());
    SV_RETURN_IF_ERROR(tx.Exec("DELETE FROM occurrence_events WHERE bug_id = ?", {bug_id}).status());
    return tx.Exec("DELETE FROM bugs WHERE id = ?", {bug_id}).status();
  }

  Status Merge(ports::Tx& t, const std::string& target, const std::vector<std::string>& sources,
               int64_t now_ms) override {
    if (sources.empty()) return Status::Ok();
    Connection& tx = Sql(t);
    const std::string in = "(" + Placeholders(sources.size()) + ")";
    std::vector<Value> src;
    for (const auto& s : sources) src.emplace_back(s);
    auto with = [&](std::initializer_list<Value> head) {
      std::vector<Value> p(head);
      p.insert(p.end(), src.begin(), src.end());
      return p;
    };

    // 1. The target's counts and times: sums, and the widest span; the
    //    newest member's release and environment when a source is newer.
    SV_RETURN_IF_ERROR(
        tx.Exec(
              "UPDATE bugs SET "
              "report_count = report_count + (SELECT COALESCE(SUM(report_count), 0) FROM bugs WHERE id IN " +
                  in +
                  "), occurrence_count = occurrence_count + (SELECT COALESCE(SUM(occurrence_count), 0) "
                  "FROM bugs WHERE id IN " +
                  in + "), first_seen = (SELECT MIN(first_seen) FROM bugs WHERE id = ? OR id IN " + in +
                  "), updated_at = ? WHERE id = ?",
              [&] {
                std::vector<Value> p = src;
                p.insert(p.end(), src.begin(), src.end());
                p.emplace_back(target);
                p.insert(p.end(), src.begin(), src.end());
                p.emplace_back(now_ms);
                p.emplace_back(target);
                return p;
              }())
            .status());
    SV_ASSIGN_OR_RETURN(Rows newest, tx.Query("SELECT id, last_seen, latest_release, latest_environment "
                                              "FROM bugs WHERE id = ? OR id IN " +
                                                  in + " ORDER BY last_seen DESC, id DESC LIMIT 1",
                                              with({target})));
    if (!newest.empty() && newest.Str(0, 0) != target) {
      SV_RETURN_IF_ERROR(tx.Exec("UPDATE bugs SET last_seen = ?, latest_release = ?, latest_environment = ? "
                                 "WHERE id = ?",
                                 {newest.Int(0, 1), newest.Str(0, 2), newest.Str(0, 3), target})
                             .status());
    }

    //    The platforms of the occurrences that move (step 3) join the
    //    target's bit set (SQLite has no bitwise aggregate: united here).
    {
      SV_ASSIGN_OR_RETURN(Rows r, tx.Query("SELECT platforms FROM bugs WHERE id IN " + in, src));
      int64_t platforms = 0;
      for (size_t i = 0; i < r.size(); ++i) platforms |= r.Int(i, 0);
      if (platforms != 0) {
        SV_RETURN_IF_ERROR(
            tx.Exec("UPDATE bugs SET platforms = platforms | ? WHERE id = ?", {platforms, target}).status());
      }
    }

    // 2. Participants (users, sessions, reporters) unite; the target's
    //    distinct counts are recounted from them.
    SV_RETURN_IF_ERROR(
        tx.Exec("INSERT INTO bug_participants (bug_id, kind, key, first_seen, last_seen, report_count) "
                "SELECT ?, kind, key, MIN(first_seen), MAX(last_seen), SUM(report_count) "
                "FROM bug_participants WHERE bug_id IN " +
                    in +
                    " GROUP BY kind, key "
                    "ON CONFLICT (bug_id, kind, key) DO UPDATE SET "
                    "first_seen = CASE WHEN excluded.first_seen < bug_participants.first_seen "
                    "THEN excluded.first_seen ELSE bug_participants.first_seen END, "
                    "last_seen = CASE WHEN excluded.last_seen > bug_participants.last_seen "
                    "THEN excluded.last_seen ELSE bug_participants.last_seen END, "
                    "report_count = bug_participants.report_count + excluded.report_count",
                with({target}))
            .status());
    SV_RETURN_IF_ERROR(
        tx.Exec("UPDATE bugs SET "
                "affected_user_count = (SELECT COUNT(*) FROM bug_participants WHERE bug_id = ? AND kind = "
                "'user'), "
                "affected_session_count = (SELECT COUNT(*) FROM bug_participants WHERE bug_id = ? "
                "AND kind = 'session'), "
                "reporter_count = (SELECT COUNT(*) FROM bug_participants WHERE bug_id = ? AND kind = "
                "'reporter') "
                "WHERE id = ?",
                {target, target, target, target})
            .status());

    // 3. Rows that move as they are.
    for (const char* table :
         {"occurrences", "occurrence_events", "comments", "status_history", "notifications"}) {
      SV_RETURN_IF_ERROR(
          tx.Exec(std::string("UPDATE ") + table + " SET bug_id = ? WHERE bug_id IN " + in, with({target}))
              .status());
    }
    // Watchers: one row per person.
    SV_RETURN_IF_ERROR(
        tx.Exec("INSERT INTO watchers (bug_id, user_id, org_id, created_at) "
                "SELECT ?, user_id, MIN(org_id), MIN(created_at) FROM watchers WHERE bug_id IN " +
                    in + " GROUP BY user_id ON CONFLICT (bug_id, user_id) DO NOTHING",
                with({target}))
            .status());

    // 4. The sources go (their remaining rows cascade).
    return tx.Exec("DELETE FROM bugs WHERE id IN " + in, src).status();
  }
};

}  // namespace

std::unique_ptr<ports::BugWriteRepository> NewSqlBugWriteRepository() {
  return std::make_unique<SqlBugWriteRepository>();
}

}  // namespace service::store
