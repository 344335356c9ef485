// Contract tests of the aggregates the triage reads keep on write
// (migration 0010: bug_tallies, bug_groups; migration 0016:
// bug_group_reach), on both backends: after every kind of write to bugs (a
// new bug, a report through the capture repository, new participants,
// status, severity, class, assignee and facet changes, a merge, a move to
// another group, deletions) the maintained rows equal the same aggregates
// computed from the bugs themselves.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/store/repositories.h"
#include "store/database.h"
#include "store/migrations.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOther = "00000000-0000-7000-8000-000000000003";

// The tallies and groups as computed from the bugs (the migration's
// backfill), and as maintained; rows as text, n = 0 tallies left out.
constexpr const char* kUrgent =
    "CASE WHEN signal_class = 'issue' AND (severity = 'critical' OR (severity = 'high' AND "
    "(is_regression = 1 OR signal_family IN ('crash', 'uncaught_error', 'unhandled_rejection', "
    "'http_5xx')))) THEN 1 ELSE 0 END";

const std::string kTalliesFromBugs =
    std::string("SELECT org_id, project_id, status, severity, signal_class, ") + kUrgent +
    ", ui_ux, COALESCE(assigned_to, ''), COUNT(*) FROM bugs "
    "WHERE merged_into IS NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 "
    "ORDER BY 1, 2, 3, 4, 5, 6, 7, 8";
constexpr const char* kTalliesKept =
    "SELECT org_id, project_id, status, severity, signal_class, urgent, ui_ux, assigned_to, n "
    "FROM bug_tallies WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8";
constexpr const char* kGroupsFromBugs =
    "SELECT b.org_id, b.project_id, b.group_key, COUNT(*), SUM(b.report_count), MIN(b.first_seen), "
    "MAX(b.last_seen), MAX(CASE b.severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 "
    "WHEN 'low' THEN 1 ELSE 0 END), MAX(b.is_regression), "
    "MIN(CASE b.signal_class WHEN 'issue' THEN 0 WHEN 'watch' THEN 1 ELSE 2 END), "
    "MAX(CASE b.signal_class WHEN 'issue' THEN 1 ELSE 0 END) + 2 * MAX(CASE b.signal_class WHEN 'watch' "
    "THEN 1 ELSE 0 END) + 4 * MAX(CASE WHEN b.signal_class NOT IN ('issue', 'watch') THEN 1 ELSE 0 END), "
    "(SELECT r.id FROM bugs r WHERE r.group_key = b.group_key AND r.project_id = b.project_id AND "
    "r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1), "
    "(SELECT lower(r.title) FROM bugs r WHERE r.group_key = b.group_key AND r.project_id = b.project_id AND "
    "r.merged_into IS NULL ORDER BY r.last_seen DESC, r.id DESC LIMIT 1) "
    "FROM bugs b WHERE b.merged_into IS NULL GROUP BY b.org_id, b.project_id, b.group_key ORDER BY 2, 3";
const std::string kDaysFromBugs =
    std::string("SELECT org_id, first_seen / 86400000, project_id, status, severity, ") + kUrgent +
    ", ui_ux, is_regression, COUNT(*), SUM(report_count), SUM(CASE WHEN status = 'resolved' AND resolved_at "
    "IS NOT NULL THEN 1 ELSE 0 END), SUM(CASE WHEN status = 'resolved' AND resolved_at IS NOT NULL THEN "
    "resolved_at - first_seen ELSE 0 END) FROM bugs WHERE merged_into IS NULL "
    "GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8";
constexpr const char* kDaysKept =
    "SELECT org_id, day, project_id, status, severity, urgent, ui_ux, is_regression, SUM(n), SUM(reports), "
    "SUM(resolved_n), SUM(resolved_ms) FROM bug_days GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 "
    "HAVING SUM(n) <> 0 OR SUM(reports) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8";
const std::string kResolutionsFromBugs =
    std::string("SELECT org_id, resolved_at / 86400000, project_id, ") + kUrgent +
    ", ui_ux, COUNT(*), SUM(resolved_at - first_seen) FROM bugs WHERE merged_into IS NULL AND status = "
    "'resolved' AND resolved_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5";
constexpr const char* kResolutionsKept =
    "SELECT org_id, day, project_id, urgent, ui_ux, SUM(n), SUM(ms) FROM bug_resolutions "
    "GROUP BY 1, 2, 3, 4, 5 HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5";
constexpr const char* kOccurrenceDaysFromRows =
    "SELECT org_id, occurred_at / 86400000, project_id, COUNT(*) FROM occurrences GROUP BY 1, 2, 3 "
    "ORDER BY 1, 2, 3";
constexpr const char* kOccurrenceDaysKept =
    "SELECT org_id, day, project_id, SUM(n) FROM occurrence_days GROUP BY 1, 2, 3 HAVING SUM(n) <> 0 "
    "ORDER BY 1, 2, 3";
// Distinct sessions and users of every group of two or more members.
constexpr const char* kReachFromBugs =
    "SELECT m.org_id, m.group_key, m.project_id, "
    "COUNT(DISTINCT CASE WHEN p.kind = 'session' THEN p.key END), "
    "COUNT(DISTINCT CASE WHEN p.kind = 'user' THEN p.key END) "
    "FROM bugs m LEFT JOIN bug_participants p ON p.bug_id = m.id AND p.kind IN ('session', 'user') "
    "WHERE m.merged_into IS NULL GROUP BY m.org_id, m.group_key, m.project_id "
    "HAVING COUNT(DISTINCT m.id) > 1 ORDER BY 1, 2, 3";
constexpr const char* kReachKept =
    "SELECT org_id, group_key, project_id, sessions, users FROM bug_group_reach ORDER BY 1, 2, 3";
constexpr const char* kGroupsKept =
    "SELECT org_id, project_id, group_key, n, reports, fs, ls, sev, reg, sig, classes, rep_id, rep_title "
    "FROM bug_groups ORDER BY 2, 3";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::CaptureBugRepository> bugs = store::NewSqlCaptureBugRepository();

  Fixture() : StoreFixture({kProject, kOther}) {}

  void Exec(const std::string& sql, const std::vector<Value>& params) {
    Write([&](Connection& tx) { return tx.Exec(sql, params).status(); });
  }

  // A bug as the capture repository creates it, in group `group_key`.
  std::string NewBug(const std::string& project, const std::string& group_key, const std::string& title,
                     const std::string& severity, const std::string& signal_class, int64_t at) {
    return AddBug({.project = project,
                   .title = title,
                   .severity = severity,
                   .signal_class = signal_class,
                   .signal_family = "crash",
                   .group_key = group_key,
                   .at = at});
  }

  // Reports to a known bug through the capture repository (the in-place path).
  void Report(const std::string& bug_id, int64_t at, int64_t count) {
    std::string project, env, fingerprint;
    REQUIRE(db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(
                    Rows r,
                    c.Query("SELECT project_id, key_env, fingerprint FROM bugs WHERE id = ?", {bug_id}));
                project = r.Str(0, 0);
                env = r.Str(0, 1);
                fingerprint = r.Str(0, 2);
                return Status::Ok();
              }).ok());
    Write([&](Connection& tx) -> Status {
      return bugs
          ->AddReports(
              tx, {ports::BugKeyReports{project, env, fingerprint, count, at, "", "", std::nullopt, Id()}})
          .status();
    });
  }

  // Participants as capture records them: one statement for the batch.
  void Participants(const std::vector<ports::BugParticipants>& batch) {
    Write([&](Connection& tx) -> Status { return bugs->AddParticipants(tx, batch); });
  }

  std::vector<std::string> Table(const std::string& sql) {
    std::vector<std::string> out;
    REQUIRE(db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, {}));
                for (size_t i = 0; i < r.size(); ++i) {
                  std::string row;
                  for (size_t k = 0; k < r.columns.size(); ++k) {
                    row += r.IsNull(i, k) ? "NULL" : r.Str(i, k);
                    row += '|';
                  }
                  out.push_back(row);
                }
                return Status::Ok();
              }).ok());
    return out;
  }

  // An occurrence of `bug_id` at `at` (the columns ingest always fills).
  void Occurrence(const std::string& bug_id, const std::string& project, int64_t at) {
    Exec(
        "INSERT INTO occurrences (id, bug_id, project_id, org_id, user_key, user_kind, platform, "
        "occurred_at, created_at) VALUES (?, ?, ?, ?, 'u', 'anonymous', 'web', ?, ?)",
        {Id(), bug_id, project, kOrg, at, at});
  }

  void CheckKept() {
    CHECK(Table(kTalliesKept) == Table(kTalliesFromBugs));
    CHECK(Table(kGroupsKept) == Table(kGroupsFromBugs));
    CHECK(Table(kReachKept) == Table(kReachFromBugs));
    CHECK(Table(kDaysKept) == Table(kDaysFromBugs));
    CHECK(Table(kResolutionsKept) == Table(kResolutionsFromBugs));
    CHECK(Table("SELECT org_id, day, status, severity, urgent, ui_ux, is_regression, SUM(n), SUM(reports), "
                "SUM(resolved_n), SUM(resolved_ms) FROM bug_days_org GROUP BY 1, 2, 3, 4, 5, 6, 7 "
                "HAVING SUM(n) <> 0 OR SUM(reports) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7") ==
          Table("SELECT org_id, day, status, severity, urgent, ui_ux, is_regression, SUM(n), SUM(reports), "
                "SUM(resolved_n), SUM(resolved_ms) FROM bug_days GROUP BY 1, 2, 3, 4, 5, 6, 7 "
                "HAVING SUM(n) <> 0 OR SUM(reports) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7"));
    CHECK(Table(kOccurrenceDaysKept) == Table(kOccurrenceDaysFromRows));
    CHECK(
        Table("SELECT org_id, project_id, classes, n FROM bug_group_tallies WHERE n <> 0 ORDER BY 1, 2, 3") ==
        Table("SELECT org_id, project_id, classes, COUNT(*) FROM bug_groups GROUP BY 1, 2, 3 ORDER BY 1, 2, "
              "3"));
  }
};

}  // namespace

TEST_CASE("read aggregates: tallies and groups follow every kind of write to bugs") {
  Fixture f;
  const std::string a1 = f.NewBug(kProject, "g-a", "Checkout fails", "medium", "issue", 1000);
  const std::string a2 = f.NewBug(kProject, "g-a", "Checkout fails again", "low", "watch", 2000);
  const std::string b1 = f.NewBug(kProject, "g-b", "Login slow", "high", "issue", 1500);
  const std::string c1 = f.NewBug(kOther, "g-a", "Same key, other project", "critical", "diagnostic", 1200);
  constexpr int64_t kDay = 86'400'000;
  f.Occurrence(a1, kProject, 1000);
  f.Occurrence(a1, kProject, kDay + 5);
  f.Occurrence(b1, kProject, kDay + 6);
  f.Occurrence(c1, kOther, 2 * kDay);
  // One batch: a1 and a2 (one group) both gain u1 and s1, new to the group:
  // counted once; b1 and c1 hold the same keys in other groups.
  f.Participants({{a1, "user:u1", "s1", std::nullopt, 1000},
                  {a2, "user:u1", "s1", std::nullopt, 2000},
                  {a2, "user:u2", "s2", "x@example.com", 2000},
                  {b1, "user:u1", "s1", std::nullopt, 1500},
                  {c1, "user:u2", "s1", std::nullopt, 1200}});
  f.CheckKept();
  // a1 gains u2 and s2, which a2 holds, and s3, new to the group.
  f.Participants({{a1, "user:u2", "s2", std::nullopt, 3000}, {a1, "user:u1", "s3", std::nullopt, 3000}});
  f.CheckKept();
  CHECK(f.Table("SELECT sessions, users FROM bug_group_reach WHERE project_id = '" + std::string(kProject) +
                "' AND group_key = 'g-a'") == std::vector<std::string>{"3|2|"});
  CHECK(f.Table("SELECT n, rep_id FROM bug_groups WHERE project_id = '" + std::string(kProject) +
                "' AND group_key = 'g-a'") == std::vector<std::string>{"2|" + a2 + "|"});

  SUBCASE("reports to a known bug move the group's counts, last seen and representative") {
    f.Report(a1, 5000, 3);
    f.CheckKept();
    CHECK(f.Table("SELECT reports, ls, rep_id, rep_title FROM bug_groups WHERE group_key = 'g-a' AND "
                  "project_id = '" +
                  std::string(kProject) + "'") ==
          std::vector<std::string>{"5|5000|" + a1 + "|checkout fails|"});
    f.Report(a1, 4000, 1);  // an older report: last seen stays
    f.CheckKept();
  }
  SUBCASE("status, severity, class, regression, facet and assignee changes move tallies") {
    f.Exec("UPDATE bugs SET status = 'resolved', resolved_at = ? WHERE id = ?", {3 * kDay, a1});
    f.CheckKept();
    f.Exec("UPDATE bugs SET status = 'resolved', resolved_at = ? WHERE id = ?", {3 * kDay + 7, b1});
    f.CheckKept();
    f.Exec("UPDATE bugs SET status = 'new', resolved_at = NULL WHERE id = ?", {b1});
    f.CheckKept();
    f.Report(a1, 4 * kDay, 2);  // a report to a resolved bug moves only its reports
    f.CheckKept();
    f.Exec("UPDATE bugs SET severity = 'critical' WHERE id = ?", {a2});
    f.CheckKept();
    f.Exec("UPDATE bugs SET signal_class = 'diagnostic' WHERE id = ?", {b1});
    f.CheckKept();
    f.Exec("UPDATE bugs SET severity = 'high', is_regression = 1, signal_class = 'issue' WHERE id = ?", {b1});
    f.CheckKept();
    f.Exec("UPDATE bugs SET ui_ux = 1, assigned_to = 'someone' WHERE id = ?", {a1});
    f.CheckKept();
    f.Exec("UPDATE bugs SET title = 'Renamed' WHERE id = ?", {a2});
    f.CheckKept();
  }
  SUBCASE("a merge takes the bug out of both; a move changes its group") {
    f.Exec("UPDATE bugs SET merged_into = ? WHERE id = ?", {a1, a2});
    f.CheckKept();
    f.Exec("UPDATE bugs SET merged_into = NULL WHERE id = ?", {a2});
    f.CheckKept();
    // A merge's participants move to the target in one statement.
    f.Exec(
        "INSERT INTO bug_participants (bug_id, kind, key, first_seen, last_seen, report_count) "
        "SELECT ?, kind, key, first_seen, last_seen, report_count FROM bug_participants WHERE bug_id = ? "
        "ON CONFLICT (bug_id, kind, key) DO NOTHING",
        {a2, c1});
    f.CheckKept();
    f.Exec("UPDATE bugs SET group_key = 'g-a' WHERE id = ?", {b1});  // a third member
    f.CheckKept();
    f.Exec("UPDATE bugs SET group_key = 'g-b' WHERE id = ?", {a1});
    f.CheckKept();
    CHECK(f.Table("SELECT COUNT(*) FROM bug_groups WHERE project_id = '" + std::string(kProject) + "'") ==
          std::vector<std::string>{"2|"});  // g-a: a2 and b1; g-b: a1
  }
  SUBCASE("deleting bugs, occurrences, a project and the organization removes their rows") {
    f.Exec("DELETE FROM occurrences WHERE bug_id = ? AND occurred_at = 1000", {a1});
    f.CheckKept();
    f.Exec("DELETE FROM bugs WHERE id = ?", {b1});
    f.CheckKept();
    f.Exec("DELETE FROM projects WHERE id = ?", {kProject});  // a group of two members
    f.CheckKept();
    CHECK(f.Table("SELECT COUNT(*) FROM bug_groups WHERE project_id = '" + std::string(kProject) + "'") ==
          std::vector<std::string>{"0|"});
    f.Exec("DELETE FROM organizations WHERE id = ?", {kOrg});
    f.CheckKept();
    for (const char* table : {"bug_tallies", "bug_groups", "bug_group_tallies", "bug_days", "bug_days_org",
                              "bug_resolutions", "occurrence_days"}) {
      CAPTURE(table);
      CHECK(f.Table(std::string("SELECT COUNT(*) FROM ") + table) == std::vector<std::string>{"0|"});
    }
  }
}

}  // namespace service::store
