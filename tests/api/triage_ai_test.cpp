// POST /v1/bugs/:id/analyze and POST /v1/bugs/:id/events/:eventId/ai (Spec 1
// "Bugs: write"; issue 11 item 4) against a local stub of an
// OpenAI-compatible provider.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>

#include "support/capture_fixture.h"
#include "support/stub_http_server.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

CannedResponse Completion(const std::string& content) {
  CannedResponse r;
  r.body = json::serialize(json::object{
      {"model", "stub-model"},
      {"choices",
       json::array{json::object{{"index", 0},
                                {"message", json::object{{"role", "assistant"}, {"content", content}}}}}}});
  return r;
}

json::object GoodAnalysis() {
  return json::object{
      {"rootCause", json::object{{"summary", "The cart object is undefined after a failed fetch"},
                                 {"category", "null_reference"},
                                 {"technicalDetail", "GET /api/cart returned 500; render read cart.total"}}},
      {"causalChain", json::array{json::object{{"step", 1},
                                               {"event", "network GET /api/cart 500"},
                                               {"timestamp", "2026-01-15T09:59:59Z"},
                                               {"role", "trigger"},
                                               {"explanation", "The cart request failed"}},
                                  json::object{{"step", 2},
                                               {"event", "error TypeError"},
                                               {"timestamp", "2026-01-15T10:00:00Z"},
                                               {"role", "symptom"},
                                               {"explanation", "Rendering read a missing cart"}}}},
      {"severity",
       json::object{{"level", "high"}, {"reasoning", "Checkout is blocked"}, {"userImpact", "No purchase"}}},
      {"suggestedFix",
       json::object{{"summary", "Guard the render"}, {"steps", json::array{"Check cart", "Retry fetch"}}}},
      {"pattern", json::object{{"name", "failed fetch then null access"}, {"confidence", 0.8}}},
      {"confidence", 0.7}};
}

json::object ReportWithEvents() {
  json::array events;
  events.push_back(json::object{
      {"type", "click"}, {"timestamp", 1768471195000}, {"data", json::object{{"target", "#pay"}}}});
  events.push_back(json::object{{"type", "network"},
                                {"timestamp", 1768471198000},
                                {"data", json::object{{"url", "/api/cart"}, {"status", 500}}}});
  events.push_back(json::object{{"type", "error"},
                                {"timestamp", 1768471200000},
                                {"data", json::object{{"message", "TypeError: cart is undefined"}}}});
  json::object r = Report("Checkout crashes");
  r["events"] = std::move(events);
  return r;
}

struct Setup {
  CaptureSetup s;
  std::string bug;
};

Setup NewSetup(TestService& t) {
  Setup x;
  x.s = NewCaptureSetup(t);
  TestResponse r = Ingest(t, x.s.key, ReportWithEvents());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  x.bug = S(r.json, "id");
  return x;
}

std::function<void(Options&)> WithAi(const StubHttpServer& stub) {
  const std::string url = stub.url("/v1");
  return [url](Options& o) {
    o.ai.url = url;
    o.ai.key = "sk-stub";
    o.allow_private_destinations = true;
  };
}

TEST_CASE(
    "analyze: the provider's answer validated into Spec 1's shape, with local stats and usage counted") {
  StubHttpServer ai;
  TestService t(WithAi(ai));
  Setup x = NewSetup(t);
  ai.QueueResponse("/v1/chat/completions",
                   Completion("```json\n" + json::serialize(GoodAnalysis()) + "\n```"));
  TestResponse r = t.Post("/v1/bugs/" + x.bug + "/analyze", json::object{}, x.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  // internal state: the call is in the AI usage record (GET /v1/admin/ai-usage) under its feature and
  // organization.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM ai_usage WHERE feature = 'ai_analysis' AND org_id = ?",
                 {x.s.admin.org_id}) == 1);
  const json::value& a = r.json.at("analysis");
  CHECK(S(a.at("rootCause"), "category") == "null_reference");
  CHECK(a.at("causalChain").as_array().size() == 2);
  CHECK(a.at("causalChain").as_array()[0].at("step").as_int64() == 1);
  CHECK(S(a.at("severity"), "level") == "high");
  CHECK(a.at("suggestedFix").at("steps").as_array().size() == 2);
  CHECK(a.at("pattern").at("confidence").as_double() == doctest::Approx(0.8));
  CHECK(a.at("confidence").as_double() == doctest::Approx(0.7));
  const json::value& st = r.json.at("stats");
  CHECK(st.at("total_events").as_int64() == 3);
  CHECK(st.at("errors").as_int64() == 1);
  CHECK(st.at("network").as_int64() == 1);
  CHECK(st.at("user_actions").as_int64() == 1);
  CHECK(st.at("console").as_int64() == 0);
  CHECK(st.at("duration_seconds").as_int64() == 5);
  CHECK(st.at("anomalies").is_array());
  // The prompt carried the bug and its events.
  REQUIRE(ai.request_count() == 1);
  CHECK(ai.requests()[0].body.find("TypeError: cart is undefined") != std::string::npos);
  CHECK(t.Get("/v1/org/usage", x.s.admin.headers()).json.at("aiRequests").at("current") == 1);

  // A reply missing a field, or not JSON at all, is 500 Analysis failed (no half-filled object).
  json::object partial = GoodAnalysis();
  partial.erase("suggestedFix");
  for (const std::string& content : {json::serialize(partial), std::string("I think it is the cart."),
                                     json::serialize(json::object{{"confidence", 2}})}) {
    ai.QueueResponse("/v1/chat/completions", Completion(content));
    r = t.Post("/v1/bugs/" + x.bug + "/analyze", json::object{}, x.s.admin.headers());
    CHECK(r.status == 500);
    CHECK(S(r.json, "error") == "Analysis failed");
    CHECK_FALSE(r.json.as_object().contains("analysis"));
  }
  ai.QueueResponse("/v1/chat/completions", CannedResponse{502, "{}", "application/json", {}, 0});
  CHECK(t.Post("/v1/bugs/" + x.bug + "/analyze", json::object{}, x.s.admin.headers()).status == 500);

  Member outsider = NewOrgWithMember(t);
  CHECK(t.Post("/v1/bugs/" + x.bug + "/analyze", json::object{}, outsider.headers()).status == 404);
  Member viewer = AddMemberWithRole(t, x.s.admin.org_id, "viewer");
  CHECK(t.Post("/v1/bugs/" + x.bug + "/analyze", json::object{}, viewer.headers()).status == 403);
}

TEST_CASE("event assessment: explain and fix for one event of the bug") {
  StubHttpServer ai;
  TestService t(WithAi(ai));
  Setup x = NewSetup(t);
  TestResponse events = t.Get("/v1/bugs/" + x.bug + "/events?type=error", x.s.admin.headers());
  REQUIRE(events.json.at("events").as_array().size() == 1);
  const std::string event_id = S(events.json.at("events").as_array()[0], "id");

  ai.QueueResponse("/v1/chat/completions", Completion("  The render read a cart that never loaded.  "));
  TestResponse r =
      t.Post("/v1/bugs/" + x.bug + "/events/" + event_id + "/ai", json::object{}, x.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "assessment") == "The render read a cart that never loaded.");
  CHECK(S(r.json, "mode") == "explain");
  CHECK(ai.requests()[0].body.find("TypeError: cart is undefined") != std::string::npos);

  ai.QueueResponse("/v1/chat/completions", Completion("Check cart before reading total."));
  r = t.Post("/v1/bugs/" + x.bug + "/events/" + event_id + "/ai?mode=fix", json::object{},
             x.s.admin.headers());
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "mode") == "fix");
  CHECK(ai.requests()[1].body.find("fix") != std::string::npos);

  CHECK(t.Post("/v1/bugs/" + x.bug + "/events/" + event_id + "/ai?mode=rewrite", json::object{},
               x.s.admin.headers())
            .status == 400);
  r = t.Post("/v1/bugs/" + x.bug + "/events/nope:99/ai", json::object{}, x.s.admin.headers());
  CHECK(r.status == 404);
  CHECK(S(r.json, "error") == "Event not found");
  CHECK(t.Post("/v1/bugs/" + x.bug + "/events/garbage/ai", json::object{}, x.s.admin.headers()).status ==
        404);
  ai.QueueResponse("/v1/chat/completions", Completion("   "));
  CHECK(t.Post("/v1/bugs/" + x.bug + "/events/" + event_id + "/ai", json::object{}, x.s.admin.headers())
            .status == 500);
  CHECK(t.Get("/v1/org/usage", x.s.admin.headers()).json.at("aiRequests").at("current") == 3);
}

TEST_CASE("without a provider the AI routes answer 503, after the bug is found") {
  TestService t;
  Setup x = NewSetup(t);
  TestResponse r = t.Post("/v1/bugs/" + x.bug + "/analyze", json::object{}, x.s.admin.headers());
  CHECK(r.status == 503);
  CHECK(S(r.json, "error") == "AI service not configured");
  Member outsider = NewOrgWithMember(t);
  CHECK(t.Post("/v1/bugs/" + x.bug + "/analyze", json::object{}, outsider.headers()).status == 404);
  TestResponse events = t.Get("/v1/bugs/" + x.bug + "/events", x.s.admin.headers());
  const std::string event_id = S(events.json.at("events").as_array()[0], "id");
  CHECK(t.Post("/v1/bugs/" + x.bug + "/events/" + event_id + "/ai", json::object{}, x.s.admin.headers())
            .status == 503);
}

}  // namespace
}  // namespace service::testing
