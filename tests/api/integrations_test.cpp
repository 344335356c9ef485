// Integrations and outbound delivery (Spec 2 "Integrations", "Delivery",
// "Events", "Delivery rules", "Authentication" 4-7; issue 12): management
// with sealed secrets, the destination guard, signed deliveries checked
// against an independent HMAC, payload fields, the retry schedules on the
// injected clock, the delivery log and manual retries, chat, code-host and
// bridge bodies. Receivers are real HTTP servers on loopback.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/integrations/app/integrations.h"
#include "areas/integrations/module.h"
#include "service_internal.h"
#include "support/capture_fixture.h"
#include "support/hmac.h"
#include "support/stub_http_server.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::string IndependentHmacHex(const std::string& key, const std::string& data) {
  return OpensslHmacSha256Hex(key, data);
}

// The v1 values of an X-Service-Signature-256 header and its t.
struct ParsedSignature {
  std::string t;
  std::vector<std::string> v1;
};
ParsedSignature ParseSignature(const std::string& header) {
  ParsedSignature p;
  size_t pos = 0;
  while (pos <= header.size()) {
    size_t comma = header.find(',', pos);
    if (comma == std::string::npos) comma = header.size();
    const std::string part = header.substr(pos, comma - pos);
    if (part.rfind("t=", 0) == 0) p.t = part.substr(2);
    if (part.rfind("v1=", 0) == 0) p.v1.push_back(part.substr(3));
    pos = comma + 1;
  }
  return p;
}

std::function<void(Options&)> AllowPrivate(std::function<void(Options&)> more = {}) {
  return [more](Options& o) {
    o.allow_private_destinations = true;
    if (more) more(o);
  };
}

const app::integrations::IntegrationsDeps& Deps(TestService& t) {
  return internal::ModulesOf(t.service()).Get<service::modules::IntegrationsModule>().deps();
}

int64_t Drain(TestService& t) {
  auto n = app::integrations::DrainDeliveries(Deps(t));
  REQUIRE_MESSAGE(n.ok(), n.status().ToString());
  return *n;
}

TestResponse CreateIntegration(TestService& t, const Member& m, json::object body) {
  return t.Post("/v1/integrations", body, m.headers());
}

json::object Webhook(const std::string& project, const std::string& url, json::object extra = {}) {
  json::object b{{"projectId", project}, {"type", "webhook"}, {"config", json::object{{"url", url}}}};
  for (const auto& [k, v] : extra) b[k] = v;
  return b;
}

std::string NewBug(TestService& t, const CaptureSetup& s, const std::string& title, json::object extra = {}) {
  t.clock().Advance(1000);
  TestResponse r = Ingest(t, s.key, Report(title, title + " failed", extra));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return S(r.json, "id");
}

json::array Deliveries(TestService& t, const Member& m, const std::string& integration,
                       const std::string& q = "") {
  TestResponse r = t.Get("/v1/integrations/" + integration + "/deliveries" + q, m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("deliveries").as_array();
}

TEST_CASE("integrations: create with defaults, secret shown once, reads redact secrets, tokens and URLs") {
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  const std::string url = "https://hooks.example.com/services/T000/B000/XXXXsecretpath";
  TestResponse r =
      CreateIntegration(t, s.admin, Webhook(s.project_id, url, {{"bearerToken", "tok_abcdefgh1234"}}));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const std::string secret = S(r.json, "signingSecret");
  CHECK(secret.rfind("whsec_", 0) == 0);
  CHECK(secret.size() > 20);
  CHECK(r.json.at("signing").at("secret").as_string() == "whsec_****" + secret.substr(secret.size() - 4));
  CHECK(r.json.at("bearer").at("present").as_bool());
  CHECK(r.json.at("bearer").at("last4") == "1234");
  json::array events = r.json.at("events").as_array();
  CHECK(events == json::array{"new_bug", "regression", "status_change", "agent_notify", "agent_update"});
  CHECK(r.json.at("is_active").as_bool());
  const std::string id = S(r.json, "id");

  TestResponse list = t.Get("/v1/integrations?projectId=" + s.project_id, s.admin.headers());
  REQUIRE(list.status == 200);
  REQUIRE(list.json.at("integrations").as_array().size() == 1);
  const json::value& row = list.json.at("integrations").as_array()[0];
  CHECK(row.at("config").at("url") == "https://hooks.example.com/\xE2\x80\xA6");
  CHECK(row.at("deliveryFeed") == "all");
  CHECK(row.at("minSeverity").is_null());
  CHECK(row.at("bearerToken").at("last4") == "1234");
  CHECK(list.body.find(secret) == std::string::npos);
  CHECK(list.body.find("XXXXsecretpath") == std::string::npos);
  CHECK(list.body.find("tok_abcdefgh1234") == std::string::npos);
  CHECK(list.body.find("signingSecret") == std::string::npos);

  // At rest: sealed, not the plain secret, URL or bearer.
  // internal state: only the stored row proves what is kept at rest.
  const std::string stored =
      QueryText(t, "SELECT config_sealed || secret_sealed || bearer_sealed FROM integrations");
  CHECK(stored.rfind("v1:", 0) == 0);
  CHECK(stored.find("hooks.example.com") == std::string::npos);
  CHECK(stored.find(secret) == std::string::npos);
  CHECK(stored.find("tok_abcdefgh1234") == std::string::npos);

  // Types with their own defaults and config.
  TestResponse chat = CreateIntegration(
      t, s.admin, {{"projectId", s.project_id}, {"type", "chat_b"}, {"config", {{"url", url}}}});
  REQUIRE_MESSAGE(chat.status == 201, chat.body);
  CHECK(chat.json.at("events") == json::array{"new_bug", "regression", "status_change", "agent_update"});
  CHECK_FALSE(chat.json.as_object().contains("signingSecret"));
  TestResponse agent = CreateIntegration(t, s.admin,
                                         {{"projectId", s.project_id},
                                          {"type", "agent"},
                                          {"config", {{"url", url}, {"secret", "my-own-secret-1"}}}});
  REQUIRE_MESSAGE(agent.status == 201, agent.body);
  CHECK(agent.json.at("signingSecret") == "my-own-secret-1");
  CHECK(agent.json.at("events") == json::array{"new_bug", "regression", "status_change", "agent_notify"});
  TestResponse code =
      CreateIntegration(t, s.admin,
                        {{"projectId", s.project_id},
                         {"type", "code_host"},
                         {"config", {{"repo", "acme/web-app"}, {"token", "ghp_secrettoken9876"}}}});
  REQUIRE_MESSAGE(code.status == 201, code.body);
  CHECK(code.json.at("config").at("token").at("last4") == "9876");
  CHECK(code.body.find("ghp_secrettoken9876") == std::string::npos);
}

TEST_CASE("integrations: validation, plan limit, organization scope") {
  TestService t(AllowPrivate([](Options& o) { o.plan_limits["free"]["integrations"] = 2; }));
  CaptureSetup s = NewCaptureSetup(t);
  Member outsider = NewOrgWithMember(t);
  CHECK(t.Get("/v1/integrations", s.admin.headers()).status == 400);
  CHECK(t.Get("/v1/integrations?projectId=" + s.project_id, outsider.headers()).status == 404);
  struct Case {
    json::object body;
    int status;
  };
  const std::string p = s.project_id;
  const std::vector<Case> cases = {
      {{{"projectId", p}, {"type", "pager"}, {"config", {{"url", "https://x.example.com"}}}}, 400},
      {{{"projectId", p}, {"type", "webhook"}}, 400},
      {{{"projectId", p}, {"type", "webhook"}, {"config", {{"url", "ftp://x.example.com"}}}}, 400},
      {{{"projectId", p}, {"type", "webhook"}, {"config", {{"url", "https://user:pw@x.example.com"}}}}, 400},
      {{{"projectId", p},
        {"type", "webhook"},
        {"config", {{"url", "https://x.example.com"}}},
        {"events", {"nope"}}},
       400},
      {{{"projectId", p},
        {"type", "webhook"},
        {"config", {{"url", "https://x.example.com"}}},
        {"deliveryFeed", "x"}},
       400},
      {{{"projectId", p},
        {"type", "webhook"},
        {"config", {{"url", "https://x.example.com"}}},
        {"minSeverity", "huge"}},
       400},
      {{{"projectId", p},
        {"type", "chat_a"},
        {"config", {{"url", "https://x.example.com"}}},
        {"minSeverity", "high"}},
       400},
      {{{"projectId", p}, {"type", "code_host"}, {"config", {{"repo", "no-slash"}, {"token", "t"}}}}, 400},
      {{{"projectId", p}, {"type", "bridge"}, {"config", {{"bridgeUrl", "https://b.example.com"}}}}, 400},
      {{{"projectId", p},
        {"type", "webhook"},
        {"config", {{"url", "https://x.example.com"}, {"preset", "code_agent_routine"}}}},
       400},
      {{{"projectId", p},
        {"type", "webhook"},
        {"config", {{"url", "https://x.example.com"}, {"colour", "red"}}}},
       400},
      {{{"projectId", "00000000-0000-4000-8000-000000000000"},
        {"type", "webhook"},
        {"config", {{"url", "https://x.example.com"}}}},
       404},
  };
  for (const Case& c : cases) {
    CAPTURE(json::serialize(c.body));
    CHECK(CreateIntegration(t, s.admin, c.body).status == c.status);
  }
  TestResponse none = t.Get("/v1/integrations?projectId=" + p, s.admin.headers());
  REQUIRE_MESSAGE(none.status == 200, none.body);
  CHECK(none.json.at("integrations").as_array().empty());
  // Members without manage_integrations: 403.
  Member member = AddMemberWithRole(t, s.admin.org_id, "member");
  CHECK(CreateIntegration(t, member, Webhook(p, "https://x.example.com")).status == 403);

  TestResponse a = CreateIntegration(t, s.admin, Webhook(p, "https://a.example.com"));
  REQUIRE(a.status == 201);
  REQUIRE(CreateIntegration(t, s.admin, Webhook(p, "https://b.example.com")).status == 201);
  TestResponse over = CreateIntegration(t, s.admin, Webhook(p, "https://c.example.com"));
  CHECK(over.status == 402);
  CHECK(over.json.at("error") == "Plan limit reached");
  TestResponse usage = t.Get("/v1/org/usage", s.admin.headers());
  CHECK(usage.json.at("integrations").at("current") == 2);
  CHECK(usage.json.at("integrations").at("atLimit").as_bool());

  const std::string id = S(a.json, "id");
  CHECK(t.Patch("/v1/integrations/" + id, json::object{}, s.admin.headers()).status == 400);
  CHECK(t.Patch("/v1/integrations/" + id, {{"name", "x"}}, outsider.headers()).status == 404);
  CHECK(t.Delete("/v1/integrations/" + id, outsider.headers()).status == 404);
  CHECK(t.Post("/v1/integrations/" + id + "/test", json::object{}, outsider.headers()).status == 404);
  CHECK(t.Get("/v1/integrations/" + id + "/deliveries", outsider.headers()).status == 404);
  TestResponse renamed =
      t.Patch("/v1/integrations/" + id, {{"name", "Ops"}, {"is_active", false}}, s.admin.headers());
  REQUIRE(renamed.status == 200);
  CHECK(renamed.json.at("name") == "Ops");
  CHECK_FALSE(renamed.json.at("is_active").as_bool());
  CHECK(t.Delete("/v1/integrations/" + id, s.admin.headers()).json.at("success").as_bool());
  CHECK(t.Delete("/v1/integrations/" + id, s.admin.headers()).status == 404);
}

TEST_CASE("destination guard: private addresses refused at creation, https required in production") {
  StubHttpServer receiver;
  {
    TestService t;  // private destinations not allowed
    CaptureSetup s = NewCaptureSetup(t, "pro");
    for (const std::string& url :
         {receiver.url("/hook"), std::string("http://localhost:9/x"), std::string("https://10.1.2.3/x"),
          std::string("https://[::1]/x"), std::string("https://169.254.169.254/latest"),
          std::string("https://[::ffff:127.0.0.1]/x"), std::string("https://224.0.0.1/x"),
          std::string("https://0.0.0.0/x")}) {
      CAPTURE(url);
      TestResponse r = CreateIntegration(t, s.admin, Webhook(s.project_id, url));
      CHECK(r.status == 400);
      CHECK(r.body.find("private") != std::string::npos);
    }
    TestResponse bridge =
        CreateIntegration(t, s.admin,
                          {{"projectId", s.project_id},
                           {"type", "bridge"},
                           {"config", {{"bridgeUrl", receiver.url("/b")}, {"address", "ops"}}}});
    CHECK(bridge.status == 400);
    CHECK(CreateIntegration(t, s.admin, Webhook(s.project_id, "https://93.184.216.34/hook")).status == 201);
  }
  {
    TestService t([](Options& o) { o.production = true; });
    CaptureSetup s = NewCaptureSetup(t, "pro");
    TestResponse r = CreateIntegration(t, s.admin, Webhook(s.project_id, "http://203.0.113.10/hook"));
    CHECK(r.status == 400);
    CHECK(r.body.find("https") != std::string::npos);
  }
  CHECK(receiver.request_count() == 0);
}

TEST_CASE("a new bug is delivered signed, with every header and payload field, once per destination") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  TestService t(AllowPrivate([](Options& o) { o.public_url = "https://console.example.com"; }));
  CaptureSetup s = NewCaptureSetup(t, "pro");
  TestResponse created = CreateIntegration(
      t, s.admin, Webhook(s.project_id, receiver.url("/hook"), {{"bearerToken", "bearer-value-123"}}));
  REQUIRE(created.status == 201);
  const std::string secret = S(created.json, "signingSecret");
  const std::string integration = S(created.json, "id");

  const std::string bug =
      NewBug(t, s, "Checkout fails", {{"reporterEmail", "ann@example.com"}, {"environment", "prod"}});
  CHECK(receiver.request_count() == 0);  // written in the ingest transaction, sent by the worker
  const json::array written = Deliveries(t, s.admin, integration);
  REQUIRE(written.size() == 1);
  CHECK(written[0].at("status") == "pending");
  CHECK(Drain(t) == 1);
  REQUIRE(receiver.request_count() == 1);
  const RecordedRequest req = receiver.requests()[0];
  CHECK(req.method == "POST");
  CHECK(req.Header("Content-Type") == "application/json");
  CHECK(req.Header("X-Service-Event") == "new_bug");
  CHECK(req.Header("User-Agent") == "Service-Webhook/1.0");
  CHECK(req.Header("Authorization") == "Bearer bearer-value-123");
  CHECK_FALSE(req.Header("X-Service-Event-Id").empty());
  const std::string delivery_id = req.Header("X-Service-Delivery-Id");
  CHECK(delivery_id == S(written[0], "id"));
  CHECK(Deliveries(t, s.admin, integration).size() == 1);

  // Signatures, verified with OpenSSL directly.
  const ParsedSignature sig = ParseSignature(req.Header("X-Service-Signature-256"));
  REQUIRE(sig.v1.size() == 1);
  CHECK(std::stoll(sig.t) == t.clock().NowMillis() / 1000);
  CHECK(sig.v1[0] == IndependentHmacHex(secret, sig.t + "." + req.body));
  CHECK(req.Header("X-Service-Signature") == "sha256=" + IndependentHmacHex(secret, req.body));

  // Payload fields in order: occurrenceId just before timestamp.
  const json::object p = json::parse(req.body).as_object();
  CHECK(p.at("event") == "new_bug");
  CHECK(p.at("source") == "service");
  CHECK(p.at("version") == "2026-10-08");
  CHECK(p.at("title") == "Checkout fails");
  CHECK(p.at("bugId") == json::value(bug));
  CHECK(p.at("reportCount") == 1);
  CHECK(p.at("consoleUrl") == json::value("https://console.example.com/bugs/" + bug));
  CHECK(p.at("evidence").at("events") ==
        json::value("https://console.example.com/v1/bugs/" + bug + "/events"));
  CHECK(p.at("evidence").at("occurrences") ==
        json::value("https://console.example.com/v1/bugs/" + bug + "/occurrences"));
  CHECK(p.at("evidence").at("users") == json::value("https://console.example.com/v1/bugs/" + bug + "/users"));
  CHECK(p.at("evidence").at("mcp").as_string().find(bug) != json::string::npos);
  CHECK(p.at("projectId") == json::value(s.project_id));
  CHECK(p.at("userEmail") == "ann@example.com");
  CHECK(p.at("environment") == "prod");
  CHECK(p.at("status") == "new");
  for (const char* key : {"severity", "release", "url", "fingerprint", "platform", "userId", "sessionId",
                          "description", "occurrenceId", "timestamp"}) {
    CAPTURE(key);
    CHECK(p.contains(key));
  }
  std::vector<std::string> keys;
  for (const auto& kv : p) keys.emplace_back(kv.key());
  REQUIRE(keys.size() >= 2);
  CHECK(keys[keys.size() - 2] == "occurrenceId");
  CHECK(keys.back() == "timestamp");

  // A duplicate is no new bug; one new_bug per destination per issue.
  t.clock().Advance(1000);
  REQUIRE(Ingest(t, s.key, Report("Checkout fails", "Checkout fails failed")).status == 201);
  CHECK(Drain(t) == 0);
  json::array rows = Deliveries(t, s.admin, integration);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("status") == "success");
  CHECK(rows[0].at("attempts") == 1);
  CHECK(rows[0].at("response_code") == 200);
  CHECK_FALSE(rows[0].at("can_retry").as_bool());
}

TEST_CASE("regressions and triage events: reopened bugs, status changes, comments and assignments") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{204, ""});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Member member = AddMemberWithRole(t, s.admin.org_id, "member");
  TestResponse created = CreateIntegration(
      t, s.admin,
      Webhook(s.project_id, receiver.url("/hook"),
              {{"events", {"new_bug", "regression", "status_change", "comment", "assigned"}}}));
  REQUIRE(created.status == 201);
  const std::string bug = NewBug(t, s, "Cart total wrong");
  Drain(t);
  t.clock().Advance(1000);
  REQUIRE(t.Patch("/v1/bugs/" + bug, {{"status", "resolved"}}, s.admin.headers()).status == 200);
  t.clock().Advance(1000);
  // A rejected PATCH writes nothing.
  CHECK(t.Patch("/v1/bugs/" + bug, {{"status", "new"}, {"assignedTo", "nobody"}}, s.admin.headers()).status ==
        400);
  // Reopening through the update: status_change and regression (direct, short schedule).
  REQUIRE(t.Patch("/v1/bugs/" + bug, {{"status", "new"}, {"assignedTo", member.user_id}}, s.admin.headers())
              .status == 200);
  t.clock().Advance(1000);
  REQUIRE(t.Post("/v1/bugs/" + bug + "/comments", json::object{{"content", "looking"}}, member.headers())
              .status == 201);
  t.clock().Advance(1000);
  // Resolved again, then a report arrives: a capture-path regression.
  REQUIRE(t.Patch("/v1/bugs/" + bug, {{"status", "resolved"}}, s.admin.headers()).status == 200);
  t.clock().Advance(1000);
  REQUIRE(Ingest(t, s.key, Report("Cart total wrong", "Cart total wrong failed")).status == 201);
  Drain(t);
  std::vector<std::string> events;
  for (const RecordedRequest& r : receiver.requests()) events.push_back(r.Header("X-Service-Event"));
  // Sent in event-time order; the three events of one PATCH share a time.
  std::sort(events.begin() + 2, events.begin() + 5);
  CHECK(events == std::vector<std::string>{"new_bug", "status_change", "assigned", "regression",
                                           "status_change", "comment", "status_change", "regression"});
  const json::object first_change = json::parse(receiver.requests()[1].body).as_object();
  CHECK(first_change.at("oldStatus") == "new");
  CHECK(first_change.at("status") == "resolved");
  const json::object comment = json::parse(receiver.requests()[5].body).as_object();
  CHECK(comment.at("comment") == "looking");
  // internal state: a delivery's retry schedule is not part of any read route.
  CHECK(QueryText(
            t,
            "SELECT schedule FROM integration_deliveries WHERE event_type = 'regression' ORDER BY created_at "
            "LIMIT 1") == "short");
  CHECK(QueryText(
            t,
            "SELECT schedule FROM integration_deliveries WHERE event_type = 'regression' ORDER BY created_at "
            "DESC LIMIT 1") == "capture");
}

TEST_CASE("capture-path retries: 10 s, 1 min, 5 min, 30 min, 2 h, then failed and dead-lettered") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{503, "down"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  TestResponse created = CreateIntegration(t, s.admin, Webhook(s.project_id, receiver.url("/hook")));
  REQUIRE(created.status == 201);
  const std::string integration = S(created.json, "id");
  NewBug(t, s, "Flaky");
  CHECK(Drain(t) == 1);
  const std::vector<int64_t> delays = {10'000, 60'000, 300'000, 1'800'000, 7'200'000};
  for (size_t i = 0; i < delays.size(); ++i) {
    CAPTURE(i);
    RenewToken(t, s.admin);
    json::array rows = Deliveries(t, s.admin, integration);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].at("status") == "deferred");  // not failed between tries
    CHECK(rows[0].at("response_code") == 503);
    CHECK(rows[0].at("attempts") == static_cast<int64_t>(i + 1));
    t.clock().Advance(delays[i] - 1);
    CHECK(Drain(t) == 0);  // not yet due
    t.clock().Advance(1);
    CHECK(Drain(t) == 1);
  }
  CHECK(receiver.request_count() == 6);
  RenewToken(t, s.admin);
  json::array rows = Deliveries(t, s.admin, integration);
  CHECK(rows[0].at("status") == "failed");
  CHECK(rows[0].at("attempts") == 6);
  CHECK(rows[0].at("can_retry").as_bool());
  // internal state: the dead-letter row has no read route.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM delivery_dead_letters") == 1);
  t.clock().Advance(86'400'000);
  CHECK(Drain(t) == 0);
  // The same delivery and event ids on every try; the timestamp stays the event's.
  std::vector<RecordedRequest> reqs = receiver.requests();
  for (const RecordedRequest& r : reqs) {
    CHECK(r.Header("X-Service-Delivery-Id") == reqs[0].Header("X-Service-Delivery-Id"));
    CHECK(r.Header("X-Service-Event-Id") == reqs[0].Header("X-Service-Event-Id"));
    CHECK(json::parse(r.body).at("timestamp") == json::parse(reqs[0].body).at("timestamp"));
  }
  CHECK(ParseSignature(reqs[0].Header("X-Service-Signature-256")).t !=
        ParseSignature(reqs[1].Header("X-Service-Signature-256")).t);
}

TEST_CASE("client rejections stop at once, 408, 425 and 429 are retried") {
  StubHttpServer receiver;
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  for (int code : {401, 403, 404, 410, 422}) {
    receiver.SetResponse("/r" + std::to_string(code), CannedResponse{code, "no"});
  }
  for (int code : {408, 425, 429})
    receiver.SetResponse("/r" + std::to_string(code), CannedResponse{code, "later"});
  std::vector<std::pair<int, std::string>> ids;
  for (int code : {401, 403, 404, 410, 422, 408, 425, 429}) {
    TestResponse r =
        CreateIntegration(t, s.admin, Webhook(s.project_id, receiver.url("/r" + std::to_string(code))));
    REQUIRE(r.status == 201);
    ids.emplace_back(code, S(r.json, "id"));
  }
  NewBug(t, s, "Rejected");
  CHECK(Drain(t) == 8);
  for (const auto& entry : ids) {
    const int code = entry.first;
    const std::string& id = entry.second;
    CAPTURE(code);
    json::array rows = Deliveries(t, s.admin, id);
    REQUIRE(rows.size() == 1);
    const bool retried = code == 408 || code == 425 || code == 429;
    CHECK(rows[0].at("status") == (retried ? "deferred" : "failed"));
    CHECK(rows[0].at("error_message") == json::value("HTTP " + std::to_string(code)));
  }
}

TEST_CASE("chat destinations: readable bodies per type, no signature, one send plus 4 retries from 10 s") {
  StubHttpServer receiver;
  for (const char* p : {"/a", "/b", "/c", "/d"})
    receiver.SetResponse(p, CannedResponse{200, "ok", "text/plain"});
  receiver.SetResponse("/down", CannedResponse{500, "x"});
  TestService t(AllowPrivate([](Options& o) { o.public_url = "https://console.example.com"; }));
  CaptureSetup s = NewCaptureSetup(t, "pro");
  for (const auto& [type, path] : std::vector<std::pair<std::string, std::string>>{
           {"chat_a", "/a"}, {"chat_b", "/b"}, {"chat_c", "/c"}, {"chat_d", "/d"}}) {
    REQUIRE(CreateIntegration(
                t, s.admin,
                {{"projectId", s.project_id}, {"type", type}, {"config", {{"url", receiver.url(path)}}}})
                .status == 201);
  }
  TestResponse down = CreateIntegration(
      t, s.admin,
      {{"projectId", s.project_id}, {"type", "chat_d"}, {"config", {{"url", receiver.url("/down")}}}});
  REQUIRE(down.status == 201);
  const std::string bug = NewBug(t, s, "Search is slow");
  CHECK(Drain(t) == 5);
  std::map<std::string, json::object> bodies;
  for (const RecordedRequest& r : receiver.requests()) {
    CHECK(r.Header("X-Service-Signature-256").empty());
    CHECK(r.Header("X-Service-Signature").empty());
    bodies[r.path] = json::parse(r.body).as_object();
  }
  CHECK(bodies["/a"].at("text").as_string().find("New bug: Search is slow") != json::string::npos);
  CHECK(bodies["/a"].at("blocks").as_array()[0].at("type") == "section");
  CHECK(bodies["/b"].at("content").as_string().find("Search is slow") != json::string::npos);
  CHECK(bodies["/b"].at("embeds").as_array()[0].at("url") ==
        json::value("https://console.example.com/bugs/" + bug));
  CHECK(bodies["/c"].at("@type") == "MessageCard");
  CHECK(bodies["/c"].at("potentialAction").as_array()[0].at("@type") == "OpenUri");
  CHECK(bodies["/d"].size() == 1);
  CHECK(bodies["/d"].at("text").as_string().find("https://console.example.com/bugs/" + bug) !=
        json::string::npos);
  // The failing one: short schedule, 10 s, 20 s, 40 s, 80 s, then failed.
  for (int64_t delay : {10'000, 20'000, 40'000, 80'000}) {
    t.clock().Advance(delay - 1);
    CHECK(Drain(t) == 0);
    t.clock().Advance(1);
    CHECK(Drain(t) == 1);
  }
  json::array rows = Deliveries(t, s.admin, S(down.json, "id"));
  CHECK(rows[0].at("status") == "failed");
  CHECK(rows[0].at("attempts") == 5);
}

TEST_CASE("code host: opens one issue per bug through the GitHub-compatible API, then comments on it") {
  StubHttpServer api;
  api.SetResponse(
      "/repos/acme/web/issues",
      CannedResponse{201, R"({"number": 42, "html_url": "https://code.example.com/acme/web/issues/42"})"});
  api.SetResponse("/repos/acme/web/issues/42/comments", CannedResponse{201, R"({"id": 1})"});
  api.SetResponse("/repos/acme/web", CannedResponse{200, R"({"full_name": "acme/web"})"});
  TestService t(AllowPrivate([&api](Options& o) { o.code_host_api_url = api.url(); }));
  CaptureSetup s = NewCaptureSetup(t, "pro");
  TestResponse created = CreateIntegration(t, s.admin,
                                           {{"projectId", s.project_id},
                                            {"type", "code_host"},
                                            {"config", {{"repo", "acme/web"}, {"token", "ghp_token_1234"}}}});
  REQUIRE(created.status == 201);
  const std::string bug = NewBug(t, s, "Login loop");
  Drain(t);
  REQUIRE(api.request_count() == 1);
  RecordedRequest open = api.requests()[0];
  CHECK(open.path == "/repos/acme/web/issues");
  CHECK(open.Header("Authorization") == "Bearer ghp_token_1234");
  CHECK(json::parse(open.body).at("title") == "Login loop");
  // internal state: the bug's link to its code-host issue has no read route.
  CHECK(QueryInt(t, "SELECT number FROM code_host_issues WHERE bug_id = ?", {bug}) == 42);
  REQUIRE(t.Patch("/v1/bugs/" + bug, {{"status", "resolved"}}, s.admin.headers()).status == 200);
  Drain(t);
  REQUIRE(api.request_count() == 2);
  CHECK(api.requests()[1].path == "/repos/acme/web/issues/42/comments");
  CHECK(t.Post("/v1/integrations/" + S(created.json, "id") + "/test", json::object{}, s.admin.headers())
            .status == 200);
  CHECK(api.requests().back().method == "GET");
  CHECK(api.requests().back().path == "/repos/acme/web");
}

TEST_CASE("bridge: posts the address and text, with only the older signature when a secret is set") {
  StubHttpServer receiver;
  receiver.SetResponse("/bridge", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  TestResponse created = CreateIntegration(
      t, s.admin,
      {{"projectId", s.project_id},
       {"type", "bridge"},
       {"config",
        {{"bridgeUrl", receiver.url("/bridge")}, {"address", "room:ops"}, {"secret", "bridge-secret-77"}}}});
  REQUIRE_MESSAGE(created.status == 201, created.body);
  NewBug(t, s, "Queue stuck");
  Drain(t);
  REQUIRE(receiver.request_count() == 1);
  const RecordedRequest r = receiver.requests()[0];
  CHECK(json::parse(r.body).at("address") == "room:ops");
  CHECK(r.Header("X-Service-Signature-256").empty());
  CHECK(r.Header("X-Service-Signature") == "sha256=" + IndependentHmacHex("bridge-secret-77", r.body));
}

TEST_CASE("rotation: two v1 values for 24 hours, current first, *** keeps the secret, a new one rotates") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  TestResponse created = CreateIntegration(t, s.admin, Webhook(s.project_id, receiver.url("/hook")));
  const std::string id = S(created.json, "id");
  const std::string first = S(created.json, "signingSecret");
  TestResponse rotated =
      t.Post("/v1/integrations/" + id + "/rotate-secret", json::object{}, s.admin.headers());
  REQUIRE(rotated.status == 200);
  const std::string second = S(rotated.json, "signingSecret");
  CHECK(second != first);
  CHECK(rotated.json.at("signing").at("secret") ==
        json::value("whsec_****" + second.substr(second.size() - 4)));
  CHECK_FALSE(rotated.json.at("signing").at("previousValidUntil").is_null());

  REQUIRE(t.Post("/v1/integrations/" + id + "/test", json::object{}, s.admin.headers()).status == 200);
  RecordedRequest r = receiver.requests().back();
  CHECK(r.Header("X-Service-Event") == "test");
  ParsedSignature sig = ParseSignature(r.Header("X-Service-Signature-256"));
  REQUIRE(sig.v1.size() == 2);
  CHECK(sig.v1[0] == IndependentHmacHex(second, sig.t + "." + r.body));
  CHECK(sig.v1[1] == IndependentHmacHex(first, sig.t + "." + r.body));
  CHECK(r.Header("X-Service-Signature") == "sha256=" + IndependentHmacHex(second, r.body));

  // *** leaves it; a new value rotates to it.
  REQUIRE(t.Patch("/v1/integrations/" + id, {{"config", {{"secret", "***"}}}}, s.admin.headers()).status ==
          200);
  t.clock().Advance(24LL * 3600 * 1000 + 1000);
  RenewToken(t, s.admin);
  REQUIRE(t.Post("/v1/integrations/" + id + "/test", json::object{}, s.admin.headers()).status == 200);
  r = receiver.requests().back();
  sig = ParseSignature(r.Header("X-Service-Signature-256"));
  REQUIRE(sig.v1.size() == 1);
  CHECK(sig.v1[0] == IndependentHmacHex(second, sig.t + "." + r.body));
  REQUIRE(
      t.Patch("/v1/integrations/" + id, {{"config", {{"secret", "third-secret-value"}}}}, s.admin.headers())
          .status == 200);
  REQUIRE(t.Post("/v1/integrations/" + id + "/test", json::object{}, s.admin.headers()).status == 200);
  r = receiver.requests().back();
  sig = ParseSignature(r.Header("X-Service-Signature-256"));
  REQUIRE(sig.v1.size() == 2);
  CHECK(sig.v1[0] == IndependentHmacHex("third-secret-value", sig.t + "." + r.body));
  CHECK(sig.v1[1] == IndependentHmacHex(second, sig.t + "." + r.body));
  // A chat destination has nothing to rotate.
  TestResponse chat = CreateIntegration(
      t, s.admin,
      {{"projectId", s.project_id}, {"type", "chat_a"}, {"config", {{"url", receiver.url("/hook")}}}});
  CHECK(t.Post("/v1/integrations/" + S(chat.json, "id") + "/rotate-secret", json::object{}, s.admin.headers())
            .status == 400);
}

TEST_CASE("test call: 200 when the receiver takes it, 502 when it does not") {
  StubHttpServer receiver;
  receiver.SetResponse("/ok", CannedResponse{200, "{}"});
  receiver.SetResponse("/bad", CannedResponse{500, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  TestResponse ok = CreateIntegration(t, s.admin, Webhook(s.project_id, receiver.url("/ok")));
  TestResponse bad = CreateIntegration(t, s.admin, Webhook(s.project_id, receiver.url("/bad")));
  CHECK(t.Post("/v1/integrations/" + S(ok.json, "id") + "/test", json::object{}, s.admin.headers()).status ==
        200);
  TestResponse failed =
      t.Post("/v1/integrations/" + S(bad.json, "id") + "/test", json::object{}, s.admin.headers());
  CHECK(failed.status == 502);
  CHECK(failed.json.at("error") == "Webhook delivery failed");
  const json::object payload = json::parse(receiver.requests()[0].body).as_object();
  CHECK(payload.at("event") == "test");
  CHECK(payload.at("version") == "2026-10-08");
}

TEST_CASE(
    "delivery log: paging in creation order, status filter over all history, manual retry and its budget") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{401, "no"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  Member outsider = NewOrgWithMember(t);
  TestResponse created = CreateIntegration(t, s.admin, Webhook(s.project_id, receiver.url("/hook")));
  const std::string id = S(created.json, "id");
  for (int i = 0; i < 3; ++i) NewBug(t, s, "Bug " + std::to_string(i));
  CHECK(Drain(t) == 3);
  json::array all = Deliveries(t, s.admin, id);
  REQUIRE(all.size() == 3);
  TestResponse page = t.Get("/v1/integrations/" + id + "/deliveries?limit=2&offset=1", s.admin.headers());
  CHECK(page.json.at("total") == 3);
  CHECK(page.json.at("limit") == 2);
  CHECK(page.json.at("offset") == 1);
  CHECK(page.json.at("deliveries").as_array()[0].at("id") == all[1].at("id"));
  CHECK(Deliveries(t, s.admin, id, "?status=failed").size() == 3);
  CHECK(Deliveries(t, s.admin, id, "?status=success").empty());
  CHECK(t.Get("/v1/integrations/" + id + "/deliveries?status=odd", s.admin.headers()).status == 400);
  CHECK(t.Get("/v1/integrations/" + id + "/deliveries?limit=101", s.admin.headers()).json.at("limit") == 100);
  CHECK(t.Get("/v1/integrations/" + id + "/deliveries?limit=0", s.admin.headers()).status == 400);

  const std::string d = S(all[0], "id");
  const std::string retry = "/v1/integrations/" + id + "/deliveries/" + d + "/retry";
  CHECK(t.Post(retry, json::object{}, outsider.headers()).status == 404);
  TestResponse failed = t.Post(retry, json::object{}, s.admin.headers());
  CHECK(failed.status == 502);
  CHECK(failed.json.at("error") == "Retry failed");
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  CHECK(t.Post(retry, json::object{}, s.admin.headers()).status == 200);
  CHECK(Deliveries(t, s.admin, id, "?status=success").size() == 1);
  CHECK(t.Post(retry, json::object{}, s.admin.headers()).status == 404);  // not failed any more

  // The budget: five manual sends per delivery.
  receiver.SetResponse("/hook", CannedResponse{500, "{}"});
  const std::string d2 = "/v1/integrations/" + id + "/deliveries/" + S(all[1], "id") + "/retry";
  for (int i = 0; i < 5; ++i) CHECK(t.Post(d2, json::object{}, s.admin.headers()).status == 502);
  CHECK(t.Post(d2, json::object{}, s.admin.headers()).status == 404);
  json::array after = Deliveries(t, s.admin, id);
  CHECK_FALSE(after[1].at("can_retry").as_bool());

  // Held or excluded by today's rules: 409, nothing spent.
  const std::string d3 = "/v1/integrations/" + id + "/deliveries/" + S(all[2], "id") + "/retry";
  REQUIRE(t.Request("PUT", "/v1/alerts/policy",
                    json::serialize(json::object{{"projectId", s.project_id}, {"severityFloor", "critical"}}),
                    s.admin.headers())
              .status == 200);
  CHECK(t.Post(d3, json::object{}, s.admin.headers()).status == 409);
  // internal state: the spent budget shows only once it is exhausted (can_retry).
  CHECK(QueryInt(t, "SELECT manual_sends FROM integration_deliveries WHERE id = ?", {S(all[2], "id")}) == 0);
  const size_t sent = receiver.request_count();
  REQUIRE(t.Patch("/v1/integrations/" + id, {{"events", {"regression"}}}, s.admin.headers()).status == 200);
  CHECK(t.Post(d3, json::object{}, s.admin.headers()).status == 409);
  CHECK(receiver.request_count() == sent);
}

TEST_CASE("minSeverity and deliveryFeed pick the new bugs a destination gets") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{200, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  TestResponse high = CreateIntegration(
      t, s.admin, Webhook(s.project_id, receiver.url("/hook"), {{"minSeverity", "critical"}}));
  TestResponse ui = CreateIntegration(
      t, s.admin, Webhook(s.project_id, receiver.url("/hook"), {{"deliveryFeed", "ui_ux"}}));
  TestResponse all = CreateIntegration(t, s.admin, Webhook(s.project_id, receiver.url("/hook")));
  NewBug(t, s, "Checkout button overlaps the footer");
  Drain(t);
  CHECK(Deliveries(t, s.admin, S(high.json, "id")).empty());
  CHECK(Deliveries(t, s.admin, S(ui.json, "id")).size() == 1);
  CHECK(Deliveries(t, s.admin, S(all.json, "id")).size() == 1);
  NewBug(t, s, "Database timeout in worker");
  Drain(t);
  CHECK(Deliveries(t, s.admin, S(ui.json, "id")).size() == 1);
  CHECK(Deliveries(t, s.admin, S(all.json, "id")).size() == 2);
}

TEST_CASE("a deactivated or deleted destination keeps no pending work") {
  StubHttpServer receiver;
  receiver.SetResponse("/hook", CannedResponse{500, "{}"});
  TestService t(AllowPrivate());
  CaptureSetup s = NewCaptureSetup(t, "pro");
  TestResponse created = CreateIntegration(t, s.admin, Webhook(s.project_id, receiver.url("/hook")));
  const std::string id = S(created.json, "id");
  NewBug(t, s, "One");
  Drain(t);
  REQUIRE(t.Patch("/v1/integrations/" + id, {{"is_active", false}}, s.admin.headers()).status == 200);
  json::array rows = Deliveries(t, s.admin, id);
  CHECK(rows[0].at("status") == "canceled");
  t.clock().Advance(3'600'000);
  RenewToken(t, s.admin);
  CHECK(Drain(t) == 0);
  NewBug(t, s, "Two");
  CHECK(Deliveries(t, s.admin, id).size() == 1);  // inactive: nothing new
}

TEST_CASE(
    "routine preset: only the fire URL, the signed JSON wrapped as text, provider headers, the bearer") {
  StubHttpServer receiver;
  receiver.SetResponse("/fire", CannedResponse{200, "{}"});
  const std::string fire = receiver.url("/fire");
  TestService t(AllowPrivate([&fire](Options& o) { o.routine_fire_url = fire; }));
  CaptureSetup s = NewCaptureSetup(t, "pro");
  json::object body{{"projectId", s.project_id},
                    {"type", "agent"},
                    {"config", {{"url", receiver.url("/other")}, {"preset", "code_agent_routine"}}},
                    {"bearerToken", "routine-token-1234"}};
  CHECK(CreateIntegration(t, s.admin, body).status == 400);
  body["config"] = json::object{{"url", fire + "?x=1"}, {"preset", "code_agent_routine"}};
  CHECK(CreateIntegration(t, s.admin, body).status == 400);
  body["config"] = json::object{{"url", fire}, {"preset", "code_agent_routine"}};
  TestResponse created = CreateIntegration(t, s.admin, body);
  REQUIRE_MESSAGE(created.status == 201, created.body);
  const std::string secret = S(created.json, "signingSecret");
  NewBug(t, s, "Routine bug");
  CHECK(Drain(t) == 1);
  REQUIRE(receiver.request_count() == 1);
  const RecordedRequest r = receiver.requests()[0];
  CHECK(r.path == "/fire");
  CHECK(r.Header("User-Agent") == "Service-AgentWebhook/1.0");
  CHECK(r.Header("Authorization") == "Bearer routine-token-1234");
  CHECK(r.Header("X-Routine-Api-Version") == "2026-01-01");
  CHECK_FALSE(r.Header("X-Routine-Client").empty());
  const std::string text(json::parse(r.body).at("text").as_string());
  CHECK(text.rfind("[medium] New bug: Routine bug", 0) == 0);
  const size_t json_start = text.find("\n\n{");
  REQUIRE(json_start != std::string::npos);
  CHECK(json::parse(text.substr(json_start + 2)).at("event") == "new_bug");
  const ParsedSignature sig = ParseSignature(r.Header("X-Service-Signature-256"));
  REQUIRE(sig.v1.size() == 1);
  CHECK(sig.v1[0] == IndependentHmacHex(secret, sig.t + "." + r.body));  // over the wrapped body
  // Without a configured fire URL the preset is refused.
  TestService plain(AllowPrivate());
  CaptureSetup p = NewCaptureSetup(plain, "pro");
  body["projectId"] = p.project_id;
  CHECK(CreateIntegration(plain, p.admin, body).status == 400);
}

}  // namespace
}  // namespace service::testing
