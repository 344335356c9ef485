// Alert policy, preview and overview (Spec 2 "Alerts", "Events"; issue 12):
// the policy body and its validation, the severity floor and exclusions on
// deliveries, quiet hours holding capture-path deliveries as deferred with
// the same id until the window ends, the preview's dry run and the overview.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/integrations/app/integrations.h"
#include "areas/integrations/module.h"
#include "service_internal.h"
#include "support/capture_fixture.h"
#include "support/stub_http_server.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

int64_t Drain(TestService& t) {
  auto n = app::integrations::DrainDeliveries(
      internal::ModulesOf(t.service()).Get<service::modules::IntegrationsModule>().deps());
  REQUIRE_MESSAGE(n.ok(), n.status().ToString());
  return *n;
}

TestResponse PutPolicy(TestService& t, const Member& m, const json::object& body) {
  return t.Request("PUT", "/v1/alerts/policy", json::serialize(body), m.headers());
}

// Deliveries written for every integration of the setup's project, read through the API.
size_t DeliveryCount(TestService& t, const CaptureSetup& s) {
  TestResponse list = t.Get("/v1/integrations?projectId=" + s.project_id, s.admin.headers());
  REQUIRE_MESSAGE(list.status == 200, list.body);
  size_t n = 0;
  for (const auto& i : list.json.at("integrations").as_array()) {
    TestResponse d = t.Get("/v1/integrations/" + S(i, "id") + "/deliveries?limit=100", s.admin.headers());
    REQUIRE_MESSAGE(d.status == 200, d.body);
    n += d.json.at("deliveries").as_array().size();
  }
  return n;
}

std::string NewWebhook(TestService& t, const CaptureSetup& s, const std::string& url) {
  TestResponse r = t.Post("/v1/integrations",
                          {{"projectId", s.project_id},
                           {"type", "webhook"},
                           {"config", {{"url", url}}},
                           {"events", {"new_bug", "regression", "status_change"}}},
                          s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

std::string NewBug(TestService& t, const CaptureSetup& s, const std::string& title, json::object extra = {}) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report(title, title + " failed", extra));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

TEST_CASE("alert policy: defaults, a full body round trip, validation, scope and roles") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Member outsider = NewOrgWithMember(t);
  Member viewer = AddMemberWithRole(t, s.admin.org_id, "viewer");
  TestResponse r = t.Get("/v1/alerts/policy?projectId=" + s.project_id, s.admin.headers());
  REQUIRE(r.status == 200);
  const json::value& p = r.json.at("policy");
  CHECK(p.at("projectId") == json::value(s.project_id));
  CHECK(p.at("severityFloor").is_null());
  CHECK(p.at("quietHours").is_null());
  CHECK(p.at("excludes").at("events").as_array().empty());
  CHECK(p.at("updatedAt").is_null());
  CHECK(t.Get("/v1/alerts/policy", s.admin.headers()).status == 400);
  CHECK(t.Get("/v1/alerts/policy?projectId=" + s.project_id, outsider.headers()).status == 404);

  const json::object body{
      {"projectId", s.project_id},
      {"severityFloor", "medium"},
      {"excludes",
       {{"events", {"status_change"}},
        {"titleContains", {"ResizeObserver"}},
        {"urlContains", {"/health"}},
        {"environments", {"staging"}}}},
      {"quietHours", {{"start", "22:00"}, {"end", "07:30"}, {"timeZone", "Europe/Berlin"}}}};
  TestResponse put = PutPolicy(t, s.admin, body);
  REQUIRE_MESSAGE(put.status == 200, put.body);
  CHECK(put.json.at("policy").at("severityFloor") == "medium");
  CHECK(put.json.at("policy").at("quietHours").at("end") == "07:30");
  CHECK(put.json.at("policy").at("excludes").at("titleContains") == json::array{"ResizeObserver"});
  CHECK_FALSE(put.json.at("policy").at("updatedAt").is_null());
  CHECK(t.Get("/v1/alerts/policy?projectId=" + s.project_id, viewer.headers()).json.at("policy") ==
        put.json.at("policy"));
  CHECK(PutPolicy(t, viewer, body).status == 403);
  json::object foreign = body;
  foreign["projectId"] = s.project_id;
  CHECK(PutPolicy(t, outsider, foreign).status == 404);

  const std::vector<json::object> bad = {
      {{"severityFloor", "urgent"}},
      {{"quietHours", {{"start", "25:00"}, {"end", "07:00"}, {"timeZone", "UTC"}}}},
      {{"quietHours", {{"start", "22:00"}, {"end", "07:00"}, {"timeZone", "Mars/Olympus"}}}},
      {{"quietHours", {{"start", "22:00"}, {"end", "07:00"}}}},
      {{"excludes", {{"events", {"agent_notify"}}}}},
      {{"excludes", {{"colours", {"red"}}}}},
      {{"excludes", {{"titleContains", {""}}}}},
      {{"surprise", true}},
  };
  for (json::object b : bad) {
    b["projectId"] = s.project_id;
    CAPTURE(json::serialize(b));
    TestResponse res = PutPolicy(t, s.admin, b);
    CHECK(res.status == 400);
    CHECK(res.json.at("error") == "Validation failed");
  }
  CHECK(t.Get("/v1/alerts/policy?projectId=" + s.project_id, s.admin.headers()).json.at("policy") ==
        put.json.at("policy"));
}

TEST_CASE("alert policy on deliveries: the floor and exclusions drop events, agent events are exempt") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  TestService t([](Options& o) { o.allow_private_destinations = true; });
  CaptureSetup s = NewCaptureSetup(t, "pro");
  NewWebhook(t, s, receiver.url("/hook"));
  REQUIRE(PutPolicy(t, s.admin,
                    {{"projectId", s.project_id},
                     {"severityFloor", "high"},
                     {"excludes", {{"titleContains", {"resizeobserver"}}, {"environments", {"staging"}}}}})
              .status == 200);
  NewBug(t, s, "Low one", {{"severity", "low"}});
  NewBug(t, s, "ResizeObserver loop limit exceeded", {{"severity", "critical"}});
  NewBug(t, s, "Staging only", {{"severity", "critical"}, {"environment", "staging"}});
  const std::string kept = NewBug(t, s, "Payment failed", {{"severity", "critical"}});
  CHECK(Drain(t) == 1);
  REQUIRE(receiver.request_count() == 1);
  CHECK(json::parse(receiver.requests()[0].body).at("bugId") == json::value(kept));
  CHECK(DeliveryCount(t, s) == 1);
}

TEST_CASE("quiet hours hold capture-path deliveries as deferred, same id, sent when the window ends") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  TestService t([](Options& o) { o.allow_private_destinations = true; });
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string hook = NewWebhook(t, s, receiver.url("/hook"));
  // The test clock starts at 10:00 UTC = 11:00 in Berlin (January): quiet 10:30-12:00 Berlin.
  REQUIRE(PutPolicy(t, s.admin,
                    {{"projectId", s.project_id},
                     {"quietHours", {{"start", "10:30"}, {"end", "12:00"}, {"timeZone", "Europe/Berlin"}}}})
              .status == 200);
  const std::string bug = NewBug(t, s, "Night bug");
  CHECK(Drain(t) == 0);
  TestResponse list = t.Get("/v1/integrations/" + hook + "/deliveries", s.admin.headers());
  REQUIRE(list.json.at("deliveries").as_array().size() == 1);
  const json::value row = list.json.at("deliveries").as_array()[0];
  CHECK(row.at("status") == "deferred");
  CHECK(row.at("deferred_until") == "2026-01-15T11:00:00.000Z");
  // Status changes are off the capture path: not held.
  REQUIRE(t.Patch("/v1/bugs/" + bug, {{"status", "known"}}, s.admin.headers()).status == 200);
  CHECK(Drain(t) == 1);
  CHECK(receiver.requests()[0].Header("X-Service-Event") == "status_change");
  // The window ends at 11:00 UTC: the held delivery goes out with its id.
  t.clock().Set(kTestEpochMs + 3'600'000 - 1);
  CHECK(Drain(t) == 0);
  t.clock().Set(kTestEpochMs + 3'600'000);
  CHECK(Drain(t) == 1);
  REQUIRE(receiver.request_count() == 2);
  CHECK(receiver.requests()[1].Header("X-Service-Delivery-Id") == S(row, "id"));
  CHECK(receiver.requests()[1].Header("X-Service-Event") == "new_bug");
}

TEST_CASE(
    "preview: the dry run's gate, email disposition and connection decisions, nothing written or sent") {
  StubHttpServer receiver;
  TestService t([](Options& o) { o.allow_private_destinations = true; });
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string hook = NewWebhook(t, s, receiver.url("/hook"));
  t.clock().Advance(1000);  // listed oldest first
  TestResponse chat =
      t.Post("/v1/integrations",
             {{"projectId", s.project_id}, {"type", "chat_a"}, {"config", {{"url", receiver.url("/c")}}}},
             s.admin.headers());
  REQUIRE(chat.status == 201);
  REQUIRE(
      t.Patch("/v1/integrations/" + S(chat.json, "id"), {{"is_active", false}}, s.admin.headers()).status ==
      200);
  const json::object sample{{"projectId", s.project_id},
                            {"eventType", "new_bug"},
                            {"title", "Checkout fails"},
                            {"severity", "high"},
                            {"url", "https://shop.example.com/cart"},
                            {"userEmail", "ann@example.com"}};
  TestResponse r = t.Post("/v1/alerts/preview", sample, s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("projectGate").at("decision") == "send");
  CHECK(r.json.at("email").at("disposition") == "instant");
  CHECK(r.json.at("totalDestinations") == 2);
  const json::array conns = r.json.at("connections").as_array();
  REQUIRE(conns.size() == 2);
  CHECK(conns[0].at("id") == json::value(hook));
  CHECK(conns[0].at("decision") == "send");
  CHECK(conns[1].at("decision") == "not_scheduled");
  CHECK(conns[1].at("reason") == "inactive");
  CHECK(r.body.find(receiver.url()) == std::string::npos);
  CHECK(r.body.find("ann@example.com") == std::string::npos);

  // Quiet hours: new bugs deferred, status changes capture_path_only; a floor: not_scheduled.
  REQUIRE(PutPolicy(t, s.admin,
                    {{"projectId", s.project_id},
                     {"severityFloor", "critical"},
                     {"quietHours", {{"start", "09:00"}, {"end", "17:00"}, {"timeZone", "UTC"}}}})
              .status == 200);
  json::object critical = sample;
  critical["severity"] = "critical";
  TestResponse quiet = t.Post("/v1/alerts/preview", critical, s.admin.headers());
  CHECK(quiet.json.at("projectGate").at("decision") == "deferred");
  CHECK(quiet.json.at("projectGate").at("quietHours").at("until") == "2026-01-15T17:00:00.000Z");
  CHECK(quiet.json.at("email").at("disposition") == "deferred");
  CHECK(quiet.json.at("connections").as_array()[0].at("decision") == "deferred");
  CHECK(quiet.json.at("connections").as_array()[1].at("decision") == "not_scheduled");
  json::object change = critical;
  change["eventType"] = "status_change";
  CHECK(t.Post("/v1/alerts/preview", change, s.admin.headers()).json.at("projectGate").at("decision") ==
        "capture_path_only");
  TestResponse floor = t.Post("/v1/alerts/preview", sample, s.admin.headers());
  CHECK(floor.json.at("projectGate").at("decision") == "not_scheduled");
  CHECK(floor.json.at("projectGate").at("reason") == "below_severity_floor");
  CHECK(floor.json.at("email").at("disposition") == "not_scheduled");

  // The closed body and its limits.
  for (const auto& field :
       std::vector<std::pair<std::string, json::value>>{{"extra", json::value(1)},
                                                        {"eventType", json::value("comment")},
                                                        {"title", json::value(std::string(1001, 'x'))},
                                                        {"url", json::value(std::string(4097, 'x'))},
                                                        {"userEmail", json::value("not-an-email")},
                                                        {"severity", json::value("urgent")}}) {
    json::object b = sample;
    b[field.first] = field.second;
    CAPTURE(field.first);
    CHECK(t.Post("/v1/alerts/preview", b, s.admin.headers()).status == 400);
  }
  json::object foreign = sample;
  foreign["projectId"] = "00000000-0000-4000-8000-000000000000";
  CHECK(t.Post("/v1/alerts/preview", foreign, s.admin.headers()).status == 404);
  CHECK(DeliveryCount(t, s) == 0);
  CHECK(BugsVia(t, s.admin) == 0);
  CHECK(receiver.request_count() == 0);
}

TEST_CASE("overview: deliveries of the last 24 hours and each project's destinations and policy") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{500, "{}"});
  TestService t([](Options& o) { o.allow_private_destinations = true; });
  CaptureSetup s = NewCaptureSetup(t, "pro");
  NewWebhook(t, s, receiver.url("/hook"));
  REQUIRE(PutPolicy(t, s.admin,
                    {{"projectId", s.project_id},
                     {"quietHours", {{"start", "09:00"}, {"end", "11:00"}, {"timeZone", "UTC"}}}})
              .status == 200);
  NewBug(t, s, "Held");
  TestResponse r = t.Get("/v1/alerts/overview", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.json.at("windowHours") == 24);
  CHECK(r.json.at("deliveries").at("pending") == 1);
  const json::array projects = r.json.at("projects").as_array();
  REQUIRE(projects.size() == 1);
  CHECK(projects[0].at("projectId") == json::value(s.project_id));
  CHECK(projects[0].at("activeIntegrations") == 1);
  CHECK(projects[0].at("quietNow").as_bool());
  CHECK(projects[0].at("quietUntil") == "2026-01-15T11:00:00.000Z");
  Member outsider = NewOrgWithMember(t);
  CHECK(t.Get("/v1/alerts/overview", outsider.headers()).json.at("projects").as_array().empty());
}

}  // namespace
}  // namespace service::testing
