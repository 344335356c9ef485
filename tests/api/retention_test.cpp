// Retention through the service (README "Retention"), in-process on both
// backends: the worker tasks, run once as the server runs them when it
// stops, delete what SERVICE_RETENTION and each organization's plan say:
// reports ingested through the API go after their plan's days, another
// organization's by its own plan, and the kept aggregates (the bugs'
// report counts, the day counters) stay equal to their recount.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "modules/platform.h"
#include "service_internal.h"
#include "support/api_harness.h"
#include "support/capture_fixture.h"

namespace service::testing {
namespace {

constexpr int64_t kDay = 86'400'000;

// Runs every worker task once, as a stopping server does, and keeps the
// database open for the checks.
void RunWorkersOnce(TestService& t) {
  REQUIRE(t.service().StartWorkers().ok());
  internal::PlatformOf(t.service()).workers.Stop();
}

int64_t OccurrencesOf(TestService& t, const std::string& org_id) {
  return QueryInt(t, "SELECT COUNT(*) FROM occurrences WHERE org_id = ?", {org_id});
}

// Days where occurrence_days (as kept) and a recount of the occurrences
// stored disagree, both ways.
int64_t DayMismatches(TestService& t, const std::string& org_id) {
  const std::string kept =
      "SELECT day, SUM(n) FROM occurrence_days WHERE org_id = ? GROUP BY day HAVING SUM(n) <> 0";
  const std::string recount =
      "SELECT occurred_at / 86400000, COUNT(*) FROM occurrences WHERE org_id = ? GROUP BY occurred_at / "
      "86400000";
  return QueryInt(t, "SELECT COUNT(*) FROM (" + kept + " EXCEPT " + recount + ") x", {org_id, org_id}) +
         QueryInt(t, "SELECT COUNT(*) FROM (" + recount + " EXCEPT " + kept + ") x", {org_id, org_id});
}

// The organization's bugs as "bugs/total reports/largest report count".
std::string BugCounts(TestService& t, const std::string& org_id) {
  const std::vector<store::Value> p = {org_id};
  return std::to_string(QueryInt(t, "SELECT COUNT(*) FROM bugs WHERE org_id = ?", p)) + "/" +
         std::to_string(QueryInt(t, "SELECT SUM(report_count) FROM bugs WHERE org_id = ?", p)) + "/" +
         std::to_string(QueryInt(t, "SELECT MAX(report_count) FROM bugs WHERE org_id = ?", p));
}

bool Has(TestService& t, const std::string& sql, const std::string& id) {
  return QueryInt(t, sql, {id}) == 1;
}

}  // namespace

TEST_CASE("retention: the sweeps follow SERVICE_RETENTION and each organization's plan, aggregates true") {
  TestService t([](Options& o) {
    REQUIRE(ApplySetting(o, "SERVICE_RETENTION", "outbox=2d,sentry_event_ids=3d,agent_commands=1h").ok());
    REQUIRE(ApplySetting(o, "SERVICE_PLAN_LIMITS", "pro:retention_days=40").ok());
  });
  CaptureSetup free_org = NewCaptureSetup(t, "free");  // 30 days
  CaptureSetup pro_org = NewCaptureSetup(t, "pro");    // 40 days (the override)
  const std::string free_id = free_org.admin.org_id;
  const std::string pro_id = pro_org.admin.org_id;

  // Day 0: three reports of one bug in each organization.
  for (int i = 0; i < 3; ++i) {
    REQUIRE(Ingest(t, free_org.key, Report("Checkout fails")).status == 201);
    REQUIRE(Ingest(t, pro_org.key, Report("Checkout fails")).status == 201);
  }
  // Day 10: one more of the same bug, and a new bug, in each.
  t.clock().Advance(10 * kDay);
  for (const CaptureSetup* s : {&free_org, &pro_org}) {
    REQUIRE(Ingest(t, s->key, Report("Checkout fails")).status == 201);
    REQUIRE(Ingest(t, s->key, Report("Login slow", "y is null")).status == 201);
  }
  // Day 35: past the free plan's 30 days for day 0, within pro's 40.
  t.clock().Advance(25 * kDay);
  const int64_t now = t.clock().NowMillis();
  // Outbox work and remembered event ids, old and young.
  ExecSql(t,
          "INSERT INTO outbox (id, kind, payload, status, next_attempt_at, created_at, updated_at) VALUES "
          "('o-old', 'mail', '{}', 'done', 0, 0, ?), ('o-young', 'mail', '{}', 'done', 0, 0, ?), "
          "('o-pending', 'mail', '{}', 'pending', ?, 0, 0)",
          {now - 3 * kDay, now - kDay, now + 365 * kDay});
  ExecSql(t,
          "INSERT INTO capture_delivery_ids (project_id, delivery_id, created_at) VALUES (?, 'ev-old', ?), "
          "(?, 'ev-young', ?)",
          {free_org.project_id, now - 4 * kDay, pro_org.project_id, now - 2 * kDay});
  REQUIRE(OccurrencesOf(t, free_id) == 5);
  REQUIRE(OccurrencesOf(t, pro_id) == 5);
  REQUIRE(BugCounts(t, free_id) == "2/5/4");
  REQUIRE(DayMismatches(t, free_id) == 0);

  RunWorkersOnce(t);

  // Free: day 0's three reports gone, day 10's kept; pro: all kept.
  CHECK(OccurrencesOf(t, free_id) == 2);
  CHECK(OccurrencesOf(t, pro_id) == 5);
  RenewToken(t, free_org.admin);
  CHECK(OccurrencesVia(t, free_org.admin) == 2);
  CHECK(BugsVia(t, free_org.admin) == 2);
  // Their events are in the occurrence's row (occurrences.events): gone with it; none is left behind.
  CHECK(QueryInt(t,
                 "SELECT COUNT(*) FROM occurrence_events WHERE occurrence_id NOT IN (SELECT id FROM "
                 "occurrences)") == 0);
  // Over stored rows: the day counters follow; lifetime: the bugs' counts stay.
  CHECK(DayMismatches(t, free_id) == 0);
  CHECK(DayMismatches(t, pro_id) == 0);
  CHECK(BugCounts(t, free_id) == "2/5/4");
  // The instance's periods.
  const std::string outbox = "SELECT COUNT(*) FROM outbox WHERE id = ?";
  CHECK_FALSE(Has(t, outbox, "o-old"));
  CHECK(Has(t, outbox, "o-young"));
  CHECK(Has(t, outbox, "o-pending"));
  const std::string ids = "SELECT COUNT(*) FROM capture_delivery_ids WHERE delivery_id = ?";
  CHECK_FALSE(Has(t, ids, "ev-old"));
  CHECK(Has(t, ids, "ev-young"));
}

TEST_CASE("retention: a bad SERVICE_RETENTION stops the start with the variable's name") {
  Options o;
  const Status s = ApplySetting(o, "SERVICE_RETENTION", "deliveries=1w");
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().find("SERVICE_RETENTION: deliveries must be a duration from 1d to 3650d") !=
        std::string::npos);
}

}  // namespace service::testing
