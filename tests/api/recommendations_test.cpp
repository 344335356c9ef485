// recommended_bug (Spec 2 "Events": emitted by "recommendation"; README
// "Recommended bug events"): the worker's task (EmitRecommended, run here
// directly on the injected clock) emits the project's top recommended bug
// once to the integrations subscribed to recommended_bug, with Spec 2's
// payload, signed; not to unsubscribed destinations, not for projects
// without a subscriber, never twice (also two runs at once), again only
// after the bug was closed and came back to the top; the alert policy's
// severity floor and excludes drop it, its quiet hours hold it until the
// window ends. Receivers are real HTTP servers on loopback.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "areas/integrations/app/integrations.h"
#include "areas/integrations/module.h"
#include "areas/recommendations/app/recommendations.h"
#include "areas/recommendations/module.h"
#include "service_internal.h"
#include "support/capture_fixture.h"
#include "support/hmac.h"
#include "support/stub_http_server.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::function<void(Options&)> AllowPrivate() {
  return [](Options& o) { o.allow_private_destinations = true; };
}

app::recommendations::RunSummary Run(TestService& t) {
  auto r = app::recommendations::EmitRecommended(
      internal::ModulesOf(t.service()).Get<modules::RecommendationsModule>().deps());
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

int64_t Drain(TestService& t) {
  auto n = app::integrations::DrainDeliveries(
      internal::ModulesOf(t.service()).Get<modules::IntegrationsModule>().deps());
  REQUIRE_MESSAGE(n.ok(), n.status().ToString());
  return *n;
}

std::string NewBug(TestService& t, const CaptureSetup& s, const std::string& title,
                   const std::string& severity) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report(title, title + " failed", {{"severity", severity}}));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

json::value AddIntegration(TestService& t, const CaptureSetup& s, const std::string& type,
                           const std::string& url, json::array events) {
  json::object body{{"projectId", s.project_id},
                    {"type", type},
                    {"config", json::object{{"url", url}}},
                    {"events", std::move(events)}};
  TestResponse r = t.Post("/v1/integrations", body, s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return r.json;
}

void PutPolicy(TestService& t, const CaptureSetup& s, json::object body) {
  body["projectId"] = s.project_id;
  HeaderList h = s.admin.headers();
  h.emplace_back("Content-Type", "application/json");
  TestResponse r = t.Request("PUT", "/v1/alerts/policy", json::serialize(body), h);
  REQUIRE_MESSAGE(r.status == 200, r.body);
}

std::vector<RecordedRequest> Recommended(const StubHttpServer& server, const std::string& path = "") {
  std::vector<RecordedRequest> out;
  for (const RecordedRequest& r : server.requests()) {
    if (r.Header("X-Service-Event") == "recommended_bug" && (path.empty() || r.path == path))
      out.push_back(r);
  }
  return out;
}

// The first row of GET /v1/bugs/recommended for the project.
std::string TopOfList(TestService& t, const CaptureSetup& s) {
  TestResponse r = t.Get("/v1/bugs/recommended?projectId=" + s.project_id + "&limit=1", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  REQUIRE(!r.json.at("bugs").as_array().empty());
  return S(r.json.at("bugs").as_array()[0], "id");
}

std::string FirstV1(const std::string& header) {
  const size_t v = header.find("v1=");
  if (v == std::string::npos) return "";
  const size_t end = header.find(',', v);
  return header.substr(v + 3, end == std::string::npos ? std::string::npos : end - v - 3);
}
std::string SignedT(const std::string& header) {
  const size_t t = header.find("t=");
  if (t == std::string::npos) return "";
  return header.substr(t + 2, header.find(',', t) - t - 2);
}

TEST_CASE("recommended_bug: the top bug goes once, signed, to subscribed destinations of that project only") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  receiver.SetResponse("/agent", CannedResponse{200, "{}"});
  receiver.SetResponse("/other", CannedResponse{200, "{}"});
  receiver.SetResponse("/elsewhere", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  CaptureSetup quiet_project = NewCaptureSetup(t, "pro");  // no subscriber: nothing
  const json::value hook = AddIntegration(t, s, "webhook", receiver.url("/hook"), {"recommended_bug"});
  const json::value agent =
      AddIntegration(t, s, "agent", receiver.url("/agent"), {"recommended_bug", "agent_notify"});
  AddIntegration(t, s, "webhook", receiver.url("/other"), {"new_bug", "regression"});  // not subscribed
  AddIntegration(t, quiet_project, "webhook", receiver.url("/elsewhere"), {"new_bug"});
  NewBug(t, quiet_project, "Elsewhere broken", "critical");

  // Nothing to recommend yet: no bug.
  app::recommendations::RunSummary none = Run(t);
  CHECK(none.projects == 1);
  CHECK(none.emitted == 0);

  NewBug(t, s, "Tooltip clipped", "low");
  const std::string crash = NewBug(t, s, "Checkout crashes", "critical");
  Drain(t);  // the new bugs' own deliveries (to /other and /elsewhere)
  REQUIRE(TopOfList(t, s) == crash);

  const app::recommendations::RunSummary first = Run(t);
  CHECK(first.projects == 1);
  CHECK(first.emitted == 1);
  CHECK(first.deliveries == 2);
  Drain(t);
  const std::vector<RecordedRequest> sent = Recommended(receiver);
  REQUIRE(sent.size() == 2);
  CHECK(Recommended(receiver, "/hook").size() == 1);
  CHECK(Recommended(receiver, "/agent").size() == 1);
  CHECK(Recommended(receiver, "/other").empty());
  CHECK(Recommended(receiver, "/elsewhere").empty());

  const RecordedRequest h = Recommended(receiver, "/hook")[0];
  CHECK(h.Header("User-Agent") == "Service-Webhook/1.0");
  CHECK(Recommended(receiver, "/agent")[0].Header("User-Agent") == "Service-AgentWebhook/1.0");
  CHECK(!h.Header("X-Service-Event-Id").empty());
  CHECK(h.Header("X-Service-Event-Id") == Recommended(receiver, "/agent")[0].Header("X-Service-Event-Id"));
  CHECK(!h.Header("X-Service-Delivery-Id").empty());
  const std::string sig = h.Header("X-Service-Signature-256");
  CHECK(FirstV1(sig) == OpensslHmacSha256Hex(S(hook, "signingSecret"), SignedT(sig) + "." + h.body));

  const json::value p = json::parse(h.body);
  CHECK(S(p, "event") == "recommended_bug");
  CHECK(S(p, "source") == "service");
  CHECK(p.as_object().contains("version"));
  CHECK(S(p, "title") == "Checkout crashes");
  CHECK(S(p, "severity") == "critical");
  CHECK(p.at("reportCount") == 1);
  CHECK(p.as_object().contains("release"));
  CHECK(S(p, "bugId") == crash);
  CHECK(S(p, "consoleUrl").ends_with("/bugs/" + crash));
  CHECK(S(p.at("evidence"), "events").ends_with("/v1/bugs/" + crash + "/events"));
  CHECK(S(p.at("evidence"), "occurrences").ends_with("/v1/bugs/" + crash + "/occurrences"));
  CHECK(S(p.at("evidence"), "users").ends_with("/v1/bugs/" + crash + "/users"));
  CHECK(S(p.at("evidence"), "mcp").find(crash) != std::string::npos);
  CHECK(S(p, "projectId") == s.project_id);
  CHECK(S(p, "status") == "new");
  CHECK(S(p, "timestamp") == util::FormatIso8601(t.clock().NowMillis()));
  CHECK((p.as_object().end() - 1)->key() == "timestamp");
  // No extra fields (Spec 2): none of the other events' own.
  for (const char* key : {"trigger", "agentAction", "oldStatus", "occurrenceId", "fingerprint"})
    CHECK_FALSE(p.as_object().contains(key));

  // Again, and a minute later: nothing new.
  CHECK(Run(t).emitted == 0);
  t.clock().Advance(60'000);
  CHECK(Run(t).emitted == 0);
  Drain(t);
  CHECK(Recommended(receiver).size() == 2);

  // A newer critical bug takes the top spot: emitted once.
  const std::string newer = NewBug(t, s, "Payments down", "critical");
  REQUIRE(TopOfList(t, s) == newer);
  CHECK(Run(t).emitted == 1);
  Drain(t);
  REQUIRE(Recommended(receiver, "/hook").size() == 2);
  CHECK(S(json::parse(Recommended(receiver, "/hook")[1].body), "bugId") == newer);
  // The first one back at the top (a new report) is not emitted again.
  t.clock().Advance(1000);
  REQUIRE(Ingest(t, s.key, Report("Checkout crashes", "Checkout crashes failed", {{"severity", "critical"}}))
              .status == 201);
  REQUIRE(TopOfList(t, s) == crash);
  CHECK(Run(t).emitted == 0);
  Drain(t);
  CHECK(Recommended(receiver, "/hook").size() == 2);

  // Unsubscribing the last destinations: the project is no longer read.
  for (const json::value* i : {&hook, &agent}) {
    REQUIRE(t.Patch("/v1/integrations/" + S(*i, "id"), json::object{{"is_active", false}}, s.admin.headers())
                .status == 200);
  }
  CHECK(Run(t).projects == 0);
}

TEST_CASE("recommended_bug: two runs at once emit the top bug once") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  std::vector<CaptureSetup> setups;
  for (int i = 0; i < 3; ++i) {
    setups.push_back(NewCaptureSetup(t, "pro"));
    AddIntegration(t, setups.back(), "webhook", receiver.url("/hook"), {"recommended_bug"});
    NewBug(t, setups.back(), "Crash " + std::to_string(i), "high");
  }
  const auto& deps = internal::ModulesOf(t.service()).Get<modules::RecommendationsModule>().deps();
  for (int round = 0; round < 3; ++round) {
    std::vector<app::recommendations::RunSummary> summaries(4);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < summaries.size(); ++i) {
      threads.emplace_back([&deps, &summaries, i] {
        auto r = app::recommendations::EmitRecommended(deps);
        if (r.ok()) summaries[i] = *r;
      });
    }
    for (std::thread& th : threads) th.join();
    int64_t emitted = 0, deliveries = 0;
    for (const auto& s : summaries) {
      CHECK(s.projects == 3);
      emitted += s.emitted;
      deliveries += s.deliveries;
    }
    CHECK(emitted == (round == 0 ? 3 : 0));
    CHECK(deliveries == (round == 0 ? 3 : 0));
  }
  Drain(t);
  CHECK(Recommended(receiver).size() == 3);
}

TEST_CASE("recommended_bug: a bug closed after its emission is emitted again when it is back at the top") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  AddIntegration(t, s, "webhook", receiver.url("/hook"), {"recommended_bug"});
  const std::string low = NewBug(t, s, "Tooltip clipped", "low");
  const std::string crash = NewBug(t, s, "Checkout crashes", "critical");
  CHECK(Run(t).emitted == 1);

  // Resolved: the low bug is the top now (emitted); the resolved one is not recommendable.
  t.clock().Advance(1000);
  REQUIRE(t.Patch("/v1/bugs/" + crash, json::object{{"status", "resolved"}}, s.admin.headers()).status ==
          200);
  REQUIRE(TopOfList(t, s) == low);
  CHECK(Run(t).emitted == 1);
  // It regresses (the same report again): back at the top, emitted again.
  t.clock().Advance(1000);
  TestResponse again =
      Ingest(t, s.key, Report("Checkout crashes", "Checkout crashes failed", {{"severity", "critical"}}));
  REQUIRE_MESSAGE(again.status == 201, again.body);
  REQUIRE(S(again.json, "id") == crash);
  REQUIRE(TopOfList(t, s) == crash);
  CHECK(Run(t).emitted == 1);
  CHECK(Run(t).emitted == 0);
  Drain(t);
  const std::vector<RecordedRequest> sent = Recommended(receiver);
  REQUIRE(sent.size() == 3);
  CHECK(S(json::parse(sent[0].body), "bugId") == crash);
  CHECK(S(json::parse(sent[1].body), "bugId") == low);
  CHECK(S(json::parse(sent[2].body), "bugId") == crash);
  CHECK(S(json::parse(sent[2].body), "status") == "new");

  // A top bug only set to working (still open) is not emitted again.
  t.clock().Advance(1000);
  REQUIRE(t.Patch("/v1/bugs/" + crash, json::object{{"status", "working"}}, s.admin.headers()).status == 200);
  CHECK(Run(t).emitted == 0);
  // Nor a silenced one (not recommendable while silenced).
  REQUIRE(t.Patch("/v1/bugs/" + crash, json::object{{"status", "silenced"}}, s.admin.headers()).status ==
          200);
  REQUIRE(t.Patch("/v1/bugs/" + low, json::object{{"status", "resolved"}}, s.admin.headers()).status == 200);
  CHECK(Run(t).emitted == 0);  // nothing open: no top bug
}

TEST_CASE("recommended_bug: the severity floor and excludes drop it, quiet hours hold it until they end") {
  StubHttpServer receiver;
  receiver.SetResponse("/floor", CannedResponse{200, "{}"});
  receiver.SetResponse("/excluded", CannedResponse{200, "{}"});
  receiver.SetResponse("/quiet", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup floor = NewCaptureSetup(t, "pro");
  CaptureSetup excluded = NewCaptureSetup(t, "pro");
  CaptureSetup quiet = NewCaptureSetup(t, "pro");
  // minSeverity applies to new issues and regressions only: not to recommended_bug.
  TestResponse strict = t.Post("/v1/integrations",
                               json::object{{"projectId", floor.project_id},
                                            {"type", "webhook"},
                                            {"config", {{"url", receiver.url("/floor")}}},
                                            {"events", {"recommended_bug"}},
                                            {"minSeverity", "critical"}},
                               floor.admin.headers());
  REQUIRE_MESSAGE(strict.status == 201, strict.body);
  AddIntegration(t, excluded, "webhook", receiver.url("/excluded"), {"recommended_bug"});
  AddIntegration(t, quiet, "agent", receiver.url("/quiet"), {"recommended_bug"});
  NewBug(t, floor, "High one", "high");
  NewBug(t, excluded, "High two", "high");
  const std::string held = NewBug(t, quiet, "High three", "high");

  // Without a policy: the floor project's webhook (minSeverity critical) takes a high bug.
  // Then policies: a floor of critical, an excluded event, quiet hours 09:00-17:00 UTC (now 10:00).
  PutPolicy(t, excluded, {{"excludes", {{"events", {"recommended_bug"}}}}});
  PutPolicy(t, quiet, {{"quietHours", {{"start", "09:00"}, {"end", "17:00"}, {"timeZone", "UTC"}}}});
  app::recommendations::RunSummary run = Run(t);
  CHECK(run.projects == 3);
  CHECK(run.emitted == 3);
  CHECK(run.deliveries == 2);  // floor (no policy yet) and quiet (held); excluded: none
  Drain(t);
  CHECK(Recommended(receiver, "/floor").size() == 1);
  CHECK(Recommended(receiver, "/excluded").empty());
  CHECK(Recommended(receiver, "/quiet").empty());  // deferred

  // The preview agrees: deferred under quiet hours, not_scheduled when excluded.
  json::object sample{{"projectId", quiet.project_id},
                      {"eventType", "recommended_bug"},
                      {"title", "High three"},
                      {"severity", "high"}};
  TestResponse preview = t.Post("/v1/alerts/preview", sample, quiet.admin.headers());
  REQUIRE_MESSAGE(preview.status == 200, preview.body);
  CHECK(preview.json.at("projectGate").at("decision") == "deferred");
  CHECK(preview.json.at("connections").as_array()[0].at("decision") == "deferred");
  sample["projectId"] = excluded.project_id;
  CHECK(
      t.Post("/v1/alerts/preview", sample, excluded.admin.headers()).json.at("projectGate").at("decision") ==
      "not_scheduled");

  // A floor of critical: a new high bug at the top is recorded, not delivered.
  PutPolicy(t, floor, {{"severityFloor", "critical"}});
  NewBug(t, floor, "High four", "high");
  CHECK(Run(t).emitted == 1);
  Drain(t);
  CHECK(Recommended(receiver, "/floor").size() == 1);

  // The quiet window ends at 17:00 UTC: the held delivery goes then, once.
  t.clock().Advance(7LL * 3600 * 1000);
  Drain(t);
  const std::vector<RecordedRequest> late = Recommended(receiver, "/quiet");
  REQUIRE(late.size() == 1);
  CHECK(S(json::parse(late[0].body), "bugId") == held);
  CHECK(Run(t).emitted == 0);
  Drain(t);
  CHECK(Recommended(receiver, "/quiet").size() == 1);
}

}  // namespace
}  // namespace service::testing
