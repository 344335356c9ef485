// Occurrence retention per plan on both backends (README "Retention"): an
// organization's occurrences and their events received before its plan's
// retention_days are deleted in bounded batches; another organization's by
// its own plan; the aggregates over stored occurrences (occurrence_days)
// equal a recount after the sweep, and the lifetime ones (the bugs' report
// counts, first and last seen, participants, and the tallies, groups and
// day counters kept over bugs) are untouched and still equal their recount.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "areas/capture/app/deps.h"
#include "areas/capture/app/retention.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/capture/ports/occurrence_repository.h"
#include "areas/capture/store/repositories.h"
#include "service/clock.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;  // plan free (30 days)
constexpr const char* kProject = "00000000-0000-7000-8000-000000000002";
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;  // plan pro (90 days)
constexpr const char* kOtherProject = testing::kStoreOtherProject;
constexpr int64_t kDay = 86'400'000;
constexpr int64_t kNow = 1768471200000;  // 2026-01-15T10:00:00Z

// Recounts (from the rows) and kept aggregates, as text rows.
constexpr const char* kOccurrenceDaysFromRows =
    "SELECT org_id, occurred_at / 86400000, project_id, COUNT(*) FROM occurrences GROUP BY 1, 2, 3 "
    "ORDER BY 1, 2, 3";
constexpr const char* kOccurrenceDaysKept =
    "SELECT org_id, day, project_id, SUM(n) FROM occurrence_days GROUP BY 1, 2, 3 HAVING SUM(n) <> 0 "
    "ORDER BY 1, 2, 3";
constexpr const char* kTalliesFromBugs =
    "SELECT org_id, project_id, status, severity, signal_class, COUNT(*) FROM bugs WHERE merged_into IS NULL "
    "GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5";
constexpr const char* kTalliesKept =
    "SELECT org_id, project_id, status, severity, signal_class, SUM(n) FROM bug_tallies GROUP BY 1, 2, 3, 4, "
    "5 "
    "HAVING SUM(n) <> 0 ORDER BY 1, 2, 3, 4, 5";
constexpr const char* kGroupsFromBugs =
    "SELECT org_id, project_id, group_key, COUNT(*), SUM(report_count), MIN(first_seen), MAX(last_seen) "
    "FROM bugs WHERE merged_into IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3";
constexpr const char* kGroupsKept =
    "SELECT org_id, project_id, group_key, n, reports, fs, ls FROM bug_groups ORDER BY 1, 2, 3";
constexpr const char* kDaysFromBugs =
    "SELECT org_id, first_seen / 86400000, project_id, COUNT(*), SUM(report_count) FROM bugs "
    "WHERE merged_into IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3";
constexpr const char* kDaysKept =
    "SELECT org_id, day, project_id, SUM(n), SUM(reports) FROM bug_days GROUP BY 1, 2, 3 "
    "HAVING SUM(n) <> 0 OR SUM(reports) <> 0 ORDER BY 1, 2, 3";
// Lifetime: the bugs' own counters and participants.
constexpr const char* kLifetime =
    "SELECT b.id, b.report_count, b.first_seen, b.last_seen, (SELECT COUNT(*) FROM bug_participants p "
    "WHERE p.bug_id = b.id) FROM bugs b ORDER BY b.id";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<DatabaseTransactions> txs;
  std::unique_ptr<ports::CaptureBugRepository> bugs = NewSqlCaptureBugRepository();
  std::unique_ptr<ports::OccurrenceRepository> occurrences = NewSqlOccurrenceRepository();
  ManualClock clock{kNow};
  app::capture::CaptureDeps deps;

  Fixture() : StoreFixture({kProject}) {
    txs = NewTransactions(*db);
    AddOtherOrganization();
    Exec("UPDATE organizations SET plan = 'free' WHERE id = ?", {kOrg});
    Exec("UPDATE organizations SET plan = 'pro' WHERE id = ?", {kOtherOrg});
    deps.db = txs.get();
    deps.clock = &clock;
    deps.occurrences = occurrences.get();
  }

  void Exec(const std::string& sql, const std::vector<Value>& params) {
    Write([&](Connection& tx) { return tx.Exec(sql, params).status(); });
  }

  std::string NewBug(const std::string& org, const std::string& project, const std::string& group_key,
                     int64_t at) {
    const std::string bug = AddBug({.org = org,
                                    .project = project,
                                    .title = "Bug " + group_key,
                                    .severity = "high",
                                    .signal_family = "crash",
                                    .group_key = group_key,
                                    .at = at});
    Write([&](Connection& tx) -> Status {
      return bugs->AddParticipants(tx, {{bug, "user:" + Id(), "s-" + Id(), std::nullopt, at}});
    });
    return bug;
  }

  // An occurrence with its events, as ingest writes them.
  std::string Occurrence(const std::string& org, const std::string& project, const std::string& bug_id,
                         int64_t at) {
    const std::string id = Id();
    Exec(
        "INSERT INTO occurrences (id, bug_id, project_id, org_id, user_key, user_kind, platform, "
        "occurred_at, "
        "created_at) VALUES (?, ?, ?, ?, 'u', 'anonymous', 'web', ?, ?)",
        {id, bug_id, project, org, at, at});
    Exec("INSERT INTO occurrence_events (occurrence_id, bug_id, events) VALUES (?, ?, '[]')", {id, bug_id});
    return id;
  }

  std::vector<std::string> Table(const std::string& sql) {
    std::vector<std::string> out;
    REQUIRE(db->Read([&](Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(Rows r, c.Query(sql, {}));
                for (size_t i = 0; i < r.size(); ++i) {
                  std::string row;
                  for (size_t k = 0; k < r.columns.size(); ++k)
                    row += (r.IsNull(i, k) ? "NULL" : r.Str(i, k)) + "|";
                  out.push_back(row);
                }
                return Status::Ok();
              }).ok());
    return out;
  }

  void CheckKept() {
    CHECK(Table(kOccurrenceDaysKept) == Table(kOccurrenceDaysFromRows));
    CHECK(Table(kTalliesKept) == Table(kTalliesFromBugs));
    CHECK(Table(kGroupsKept) == Table(kGroupsFromBugs));
    CHECK(Table(kDaysKept) == Table(kDaysFromBugs));
  }

  int64_t Count(const std::string& sql, const std::vector<Value>& params = {}) { return Int(sql, params); }
};

TEST_CASE("occurrence retention: each organization's occurrences go after its plan's days, aggregates true") {
  Fixture f;
  // Free (30 days): a bug first seen 40 days ago with five old and one young
  // occurrence, and a young bug.
  const std::string old_bug = f.NewBug(kOrg, kProject, "g-old", kNow - 40 * kDay);
  std::vector<std::string> old_ids;
  for (int i = 0; i < 3; ++i) old_ids.push_back(f.Occurrence(kOrg, kProject, old_bug, kNow - 40 * kDay + i));
  for (int i = 0; i < 2; ++i) old_ids.push_back(f.Occurrence(kOrg, kProject, old_bug, kNow - 35 * kDay + i));
  const std::string kept_old_bug = f.Occurrence(kOrg, kProject, old_bug, kNow - 10 * kDay);
  const std::string young_bug = f.NewBug(kOrg, kProject, "g-young", kNow - 5 * kDay);
  f.Occurrence(kOrg, kProject, young_bug, kNow - 5 * kDay);
  // Pro (90 days): occurrences of 40 days ago stay; 100 days ago go.
  const std::string pro_bug = f.NewBug(kOtherOrg, kOtherProject, "g-pro", kNow - 100 * kDay);
  const std::string pro_gone = f.Occurrence(kOtherOrg, kOtherProject, pro_bug, kNow - 100 * kDay);
  for (int i = 0; i < 2; ++i) f.Occurrence(kOtherOrg, kOtherProject, pro_bug, kNow - 40 * kDay + i);
  f.Exec("UPDATE bugs SET report_count = 6 WHERE id = ?", {old_bug});
  f.CheckKept();
  const std::vector<std::string> lifetime = f.Table(kLifetime);

  SUBCASE("a bounded statement deletes at most its limit") {
    int64_t n = -1;
    f.Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(n, f.occurrences->DeleteOlderThan(tx, kOrg, kNow - 30 * kDay, 2));
      return Status::Ok();
    });
    CHECK(n == 2);
    CHECK(f.Count("SELECT COUNT(*) FROM occurrences WHERE org_id = ?", {kOrg}) == 5);
    f.CheckKept();
  }

  SUBCASE("the sweep deletes in batches per plan") {
    Result<int64_t> swept = app::capture::SweepOccurrences(f.deps, /*batch_rows=*/2);
    REQUIRE(swept.ok());
    CHECK(*swept == 6);  // five of the free organization, one of the pro one
    for (const std::string& id : old_ids) {
      CHECK(f.Count("SELECT COUNT(*) FROM occurrences WHERE id = ?", {id}) == 0);
      CHECK(f.Count("SELECT COUNT(*) FROM occurrence_events WHERE occurrence_id = ?", {id}) == 0);
    }
    CHECK(f.Count("SELECT COUNT(*) FROM occurrences WHERE id = ?", {pro_gone}) == 0);
    CHECK(f.Count("SELECT COUNT(*) FROM occurrences WHERE id = ?", {kept_old_bug}) == 1);
    CHECK(f.Count("SELECT COUNT(*) FROM occurrences WHERE org_id = ?", {kOrg}) == 2);
    CHECK(f.Count("SELECT COUNT(*) FROM occurrences WHERE org_id = ?", {kOtherOrg}) == 2);
    CHECK(f.Count("SELECT COUNT(*) FROM occurrence_events") == 4);
    f.CheckKept();
    CHECK(f.Table(kLifetime) == lifetime);  // bugs, counts and participants are lifetime

    // An override of the pro plan's days applies at the next sweep.
    f.deps.plan_limits["pro"]["retention_days"] = 30;
    swept = app::capture::SweepOccurrences(f.deps, 2);
    REQUIRE(swept.ok());
    CHECK(*swept == 2);
    CHECK(f.Count("SELECT COUNT(*) FROM occurrences WHERE org_id = ?", {kOtherOrg}) == 0);
    f.CheckKept();
    CHECK(f.Table(kLifetime) == lifetime);
  }

  SUBCASE("an unlimited plan keeps everything") {
    f.Exec("UPDATE organizations SET plan = 'enterprise' WHERE id = ?", {kOtherOrg});
    Result<int64_t> swept = app::capture::SweepOccurrences(f.deps, 2);
    REQUIRE(swept.ok());
    CHECK(*swept == 5);
    CHECK(f.Count("SELECT COUNT(*) FROM occurrences WHERE org_id = ?", {kOtherOrg}) == 3);
    f.CheckKept();
  }
}

}  // namespace
}  // namespace service::store
