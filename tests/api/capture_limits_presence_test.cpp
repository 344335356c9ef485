// The monthly bug limit (issue 4 item 9, Spec 1 "Errors" 402 envelope) and
// presence (Spec 1 "POST /v1/ingest/presence").
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "areas/capture/app/presence.h"
#include "areas/capture/module.h"
#include "areas/operations/ports/usage_repository.h"
#include "service_internal.h"
#include "support/capture_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

// The organization's presence snapshot of sessions seen at or after
// `since_ms`, through the capture area's presence repository.
ports::PresenceSnapshot PresenceSince(TestService& t, const std::string& org_id, int64_t since_ms) {
  const app::capture::CaptureDeps& d =
      service::internal::ModulesOf(t.service()).Get<service::modules::CaptureModule>().deps();
  ports::PresenceSnapshot snap;
  Status st = d.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(snap, d.presence->Snapshot(c, org_id, since_ms, 5));
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return snap;
}

}  // namespace

TEST_CASE("past the monthly bug limit new bugs get 402, reports of existing bugs are still accepted") {
  TestService t([](Options& o) { o.plan_limits["free"]["bugs_per_month"] = 2; });
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse a = Ingest(t, s.key, Report("One", "one"));
  TestResponse b = Ingest(t, s.key, Report("Two", "two"));
  REQUIRE(a.status == 201);
  REQUIRE(b.status == 201);
  TestResponse c = Ingest(t, s.key, Report("Three", "three"));
  CHECK(c.status == 402);
  CHECK(c.json.at("error").is_string());
  CHECK(c.json.at("limit") == 2);
  CHECK(c.json.at("current") == 2);
  CHECK(c.json.at("plan") == "free");
  CHECK(Str(c.json, "upgradeUrl").find("http") == 0);
  CHECK(BugsVia(t, s.admin) == 2);
  CHECK(OccurrencesVia(t, s.admin) == 2);

  // A duplicate of an existing bug is never refused.
  TestResponse dup = Ingest(t, s.key, Report("One", "one"));
  CHECK(dup.status == 201);
  CHECK(dup.json.at("deduplicated") == true);

  // Manual reports and test events go through the same limit.
  TestResponse manual =
      t.Post("/v1/bugs/manual", json::object{{"projectId", s.project_id}, {"title", "Manual over limit"}},
             s.admin.headers());
  CHECK(manual.status == 402);
  CHECK(manual.json.at("limit") == 2);

  // Test keys consume the same quota.
  const std::string test_key = CreateKeyVia(t, s.admin, s.project_id, "test");
  CHECK(Ingest(t, test_key, Report("One", "one")).status == 402);

  // A new calendar month starts afresh.
  t.clock().Set(1769904000000);  // 2026-02-01T00:00:00Z
  CHECK(Ingest(t, s.key, Report("Three", "three")).status == 201);
  RenewToken(t, s.admin);
  TestResponse usage = t.Get("/v1/org/usage", s.admin.headers());
  REQUIRE_MESSAGE(usage.status == 200, usage.body);
  CHECK(usage.json.at("period") == "2026-02");
  CHECK(usage.json.at("bugsThisMonth").at("current") == 1);
  // January's counter (no route reads a past month): through the usage repository.
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  int64_t january = -1;
  REQUIRE(core.tx
              ->Read([&](ports::Tx& c) -> Status {
                SV_ASSIGN_OR_RETURN(january, core.Shared<service::ports::UsageRepository>()->BugsInMonth(
                                                 c, s.admin.org_id, "2026-01"));
                return Status::Ok();
              })
              .ok());
  CHECK(january == 2);
}

TEST_CASE("the limit follows the organization's plan and a zero limit refuses every new bug") {
  TestService t([](Options& o) {
    o.plan_limits["pro"]["bugs_per_month"] = 0;
    o.plan_limits["free"]["bugs_per_month"] = 1;
  });
  CaptureSetup pro = NewCaptureSetup(t, "pro");
  TestResponse r = Ingest(t, pro.key, Report("Pro"));
  CHECK(r.status == 402);
  CHECK(r.json.at("plan") == "pro");
  CHECK(r.json.at("current") == 0);
  CaptureSetup enterprise = NewCaptureSetup(t, "enterprise");
  for (int i = 0; i < 5; ++i)
    CHECK(Ingest(t, enterprise.key, Report("E" + std::to_string(i), std::to_string(i))).status == 201);
  // Another organization's count is its own.
  CaptureSetup free = NewCaptureSetup(t, "free");
  CHECK(Ingest(t, free.key, Report("Free")).status == 201);
}

TEST_CASE("presence upserts one row per session and publishes an organization-wide snapshot") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  EventRecorder rec(t);
  auto ping = [&](const json::object& body) {
    return t.Request("POST", "/v1/ingest/presence", json::serialize(body), KeyHeader(s.key));
  };
  TestResponse r = ping({{"sessionId", "s-1"},
                         {"userId", "u-1"},
                         {"path", "/checkout"},
                         {"url", "https://a/checkout"},
                         {"interaction", json::object{{"clicks", 3}}},
                         {"metadata", json::object{{"k", "v"}}}});
  REQUIRE_MESSAGE(r.status == 202, r.body);
  CHECK(r.json == json::value(json::object{{"ok", true}}));
  auto events = rec.OfType("presence");
  REQUIRE(events.size() == 1);
  CHECK(events[0].org_id == s.admin.org_id);
  json::value snap = json::parse(events[0].payload);
  CHECK(snap.at("active_sessions") == 1);
  CHECK(snap.at("active_users") == 1);
  CHECK(snap.at("pages").at(0).at("path") == "/checkout");

  // The same session again: still one row, refreshed.
  t.clock().Advance(2000);
  REQUIRE(ping({{"sessionId", "s-1"}, {"userId", "u-1"}, {"path", "/cart"}}).status == 202);
  TestResponse now = t.Get("/v1/bugs/presence", s.admin.headers());
  REQUIRE_MESSAGE(now.status == 200, now.body);
  CHECK(now.json.at("active_sessions") == 1);
  REQUIRE(now.json.at("pages").as_array().size() == 1);
  CHECK(now.json.at("pages").at(0).at("path") == "/cart");
  // Last seen at the second ping: in a snapshot from then on, not in one a millisecond later.
  const ports::PresenceSnapshot all = PresenceSince(t, s.admin.org_id, 0);
  CHECK(all.active_sessions == 1);
  REQUIRE(all.pages.size() == 1);
  CHECK(all.pages[0].path == "/cart");
  CHECK(PresenceSince(t, s.admin.org_id, kTestEpochMs + 2000).active_sessions == 1);
  CHECK(PresenceSince(t, s.admin.org_id, kTestEpochMs + 2001).active_sessions == 0);

  // Another project of the organization counts in the same snapshot.
  const std::string other_project = CreateProjectVia(t, s.admin, "Mobile");
  const std::string other_key = CreateKeyVia(t, s.admin, other_project);
  t.clock().Advance(2000);
  REQUIRE(t.Request("POST", "/v1/ingest/presence",
                    json::serialize(json::object{{"sessionId", "m-1"}, {"path", "/cart"}}),
                    KeyHeader(other_key))
              .status == 202);
  events = rec.OfType("presence");
  REQUIRE(events.size() == 3);
  snap = json::parse(events.back().payload);
  CHECK(snap.at("active_sessions") == 2);
  CHECK(snap.at("active_users") == 2);
  CHECK(snap.at("pages").at(0).at("path") == "/cart");
  CHECK(snap.at("pages").at(0).at("active_sessions") == 2);

  // Sessions older than 75 seconds are no longer active.
  t.clock().Advance(74'000);
  auto live = app::capture::PresenceSnapshotOf(
      service::internal::ModulesOf(t.service()).Get<service::modules::CaptureModule>().deps(),
      s.admin.org_id);
  REQUIRE(live.ok());
  CHECK(live->active_sessions == 1);  // s-1 was last seen 76 s ago, m-1 74 s ago
}

TEST_CASE("presence events are published at most once a second per organization, the rest later") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  EventRecorder rec(t);
  for (int i = 0; i < 5; ++i) {
    REQUIRE(t.Request("POST", "/v1/ingest/presence",
                      json::serialize(json::object{{"sessionId", "s-" + std::to_string(i)}}),
                      KeyHeader(s.key))
                .status == 202);
  }
  CHECK(rec.OfType("presence").size() == 1);
  REQUIRE(t.service().StartWorkers().ok());
  t.service().Shutdown();  // workers run once more: the deferred snapshot is published
  auto events = rec.OfType("presence");
  REQUIRE(events.size() == 2);
  CHECK(json::parse(events.back().payload).at("active_sessions") == 5);
}

}  // namespace service::testing
