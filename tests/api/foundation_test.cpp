// Cross-cutting rules of Spec 1 "Errors" and "Limits", and the health routes.
#include <doctest/doctest.h>

#include <stdexcept>

#include "api/context.h"
#include "api/json.h"
#include "api/pipeline.h"
#include "service_internal.h"
#include "support/api_harness.h"
#include "support/capture_fixture.h"
#include "support/faulty_database.h"
#include "util/time.h"

using service::testing::TestService;
namespace json = boost::json;

TEST_CASE("GET /v1/health answers ok with service and timestamp") {
  TestService t;
  auto r = t.Get("/v1/health");
  CHECK(r.status == 200);
  CHECK(r.json.at("status") == "ok");
  CHECK(r.json.at("service").is_string());
  CHECK(service::util::ParseIso8601(std::string(r.json.at("timestamp").as_string())).value() ==
        service::testing::kTestEpochMs);
  CHECK_FALSE(r.json.as_object().contains("error"));
  CHECK(r.Header("Content-Type").find("application/json") == 0);
}

TEST_CASE("health answers 503 degraded, and deep 503, when the database is unreachable") {
  TestService t;
  auto& core = service::internal::PlatformOf(t.service());
  auto faulty = std::make_unique<service::testing::FaultyDatabase>(std::move(core.db));
  auto* handle = faulty.get();
  core.db = std::move(faulty);
  core.tx->Rebind(*core.db);

  CHECK(t.Get("/v1/health").status == 200);
  handle->SetUnreachable(true);
  auto r = t.Get("/v1/health");
  CHECK(r.status == 503);
  CHECK(r.json.at("status") == "degraded");
  CHECK(r.json.at("error").is_string());
  CHECK(r.json.at("timestamp").is_string());
  auto deep = t.Get("/v1/health/deep");
  CHECK(deep.status == 503);
  CHECK(deep.json.at("checks").at("db").at("ok") == false);
  handle->SetUnreachable(false);
  CHECK(t.Get("/v1/health").status == 200);
}

TEST_CASE("GET /v1/health/deep reports names, booleans and counts") {
  TestService t([](service::Options& o) { o.mail_url = "file:/tmp/unused-mail"; });
  auto r = t.Get("/v1/health/deep");
  REQUIRE(r.status == 200);
  const auto& checks = r.json.at("checks").as_object();
  for (const char* name : {"db", "migrations", "email", "ai", "jobs", "redis"}) CHECK(checks.contains(name));
  CHECK(checks.at("db").at("ok") == true);
  CHECK(checks.at("migrations").at("ok") == true);
  CHECK(checks.at("migrations").at("pending") == 0);
  CHECK(checks.at("migrations").at("applied").as_int64() >= 1);
  CHECK(checks.at("email").at("configured") == true);
  CHECK(checks.at("email").at("name") == "file");
  CHECK(checks.at("ai").at("configured") == false);
  CHECK(checks.at("redis").at("configured") == false);
  // Workers are not started in this test: jobs degrade without failing the probe.
  CHECK(checks.at("jobs").at("status") == "degraded");
  CHECK(checks.at("jobs").at("pending").is_int64());
  // Nothing from the mail URL leaks.
  CHECK(r.body.find("unused-mail") == std::string::npos);
}

TEST_CASE("unknown routes answer a JSON 404 and every response has X-Request-Id") {
  TestService t;
  // (Other paths belong to the web console: tests/api/web_console_test.cpp.)
  for (const char* path : {"/v1/nope", "/v1/health/x", "/api/nope"}) {
    auto r = t.Get(path);
    CHECK(r.status == 404);
    CHECK(r.json.at("error").is_string());
    CHECK(r.Header("X-Request-Id").size() == 36);
  }
  CHECK(t.Get("/").Header("X-Request-Id").size() == 36);
  auto post_health = t.Request("POST", "/v1/health");
  CHECK(post_health.status == 404);
  CHECK(t.Get("/v1/health").Header("X-Request-Id") != t.Get("/v1/health").Header("X-Request-Id"));
}

TEST_CASE("HEAD answers every GET route and console path like GET, without a body") {
  TestService t;
  service::testing::CaptureSetup s = service::testing::NewCaptureSetup(t);
  const service::testing::HeaderList auth = s.admin.headers();
  REQUIRE(service::testing::Ingest(t, s.key, service::testing::Report("Exported")).status == 201);
  struct Case {
    const char* path;
    bool authenticated;
  };
  const Case cases[] = {{"/", false},          {"/bugs/123", false},  // a console route
                        {"/v1/health", false}, {"/v1/health/deep", false},
                        {"/v1/bugs", true},    {"/v1/bugs", false},  // 401 both ways
                        {"/v1/nope", false},                         // 404 both ways
                        {"/v1/ingest", false}};                      // a POST route: GET finds nothing either
  for (const Case& c : cases) {
    CAPTURE(c.path);
    const service::testing::HeaderList headers = c.authenticated ? auth : service::testing::HeaderList{};
    auto get = t.Request("GET", c.path, "", headers);
    auto head = t.Request("HEAD", c.path, "", headers);
    CHECK(head.status == get.status);
    CHECK(head.body.empty());
    CHECK(head.Header("Content-Type") == get.Header("Content-Type"));
    CHECK(head.Header("Cache-Control") == get.Header("Cache-Control"));
    CHECK(head.Header("Content-Length") == std::to_string(get.body.size()));
    CHECK(head.Header("X-Request-Id").size() == 36);
  }
  // A streamed answer (the export) keeps its status and type; nothing is
  // streamed and no length is claimed.
  auto get = t.Request("GET", "/v1/bugs/export?format=csv", "", auth);
  REQUIRE(get.status == 200);
  REQUIRE(get.body.find("Exported") != std::string::npos);
  auto head = t.Request("HEAD", "/v1/bugs/export?format=csv", "", auth);
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(head.Header("Content-Type") == get.Header("Content-Type"));
  CHECK(head.Header("Content-Length").empty());
}

TEST_CASE("bodies over 10 MB are refused with a JSON 413") {
  TestService t;
  std::string big(service::api::kMaxBodyBytes + 1, 'x');
  auto r = t.Request("POST", "/v1/anything", big);
  CHECK(r.status == 413);
  CHECK(r.json.at("error").is_string());

  // The shell flags bodies it refused to read; the API answers without a body.
  service::api::Request req;
  req.method = "POST";
  req.path = "/v1/health";
  req.body_too_large = true;
  auto res = t.service().Handle(req);
  CHECK(res.status == 413);
  CHECK(json::parse(res.body).at("error").is_string());
}

TEST_CASE("rate limits answer 429 with retryAfter per client address and reset after the window") {
  TestService t([](service::Options& o) {
    o.rate_limits.enabled = true;
    o.rate_limits.general = 3;
  });
  for (int i = 0; i < 3; ++i) CHECK(t.Request("GET", "/v1/unknown", "", {}, "10.0.0.1").status == 404);
  auto limited = t.Request("GET", "/v1/unknown", "", {}, "10.0.0.1");
  CHECK(limited.status == 429);
  CHECK(limited.json.at("error").is_string());
  CHECK(limited.json.at("retryAfter").as_int64() == 60);
  CHECK(limited.Header("Retry-After") == "60");
  // Another address has its own budget.
  CHECK(t.Request("GET", "/v1/unknown", "", {}, "10.0.0.2").status == 404);
  // Health probes are never limited.
  CHECK(t.Request("GET", "/v1/health", "", {}, "10.0.0.1").status == 200);
  t.clock().Advance(30'000);
  CHECK(t.Request("GET", "/v1/unknown", "", {}, "10.0.0.1").json.at("retryAfter").as_int64() == 30);
  t.clock().Advance(30'000);
  CHECK(t.Request("GET", "/v1/unknown", "", {}, "10.0.0.1").status == 404);
}

TEST_CASE("X-Forwarded-For is the client address only with SERVICE_TRUST_PROXY") {
  for (bool trust : {false, true}) {
    TestService t([&](service::Options& o) {
      o.rate_limits.enabled = true;
      o.rate_limits.general = 1;
      o.trust_proxy = trust;
    });
    CHECK(t.Request("GET", "/v1/x", "", {{"X-Forwarded-For", "203.0.113.5, 10.0.0.1"}}, "10.0.0.1").status ==
          404);
    // Same proxy peer, different forwarded client.
    const int second =
        t.Request("GET", "/v1/x", "", {{"X-Forwarded-For", "203.0.113.6, 10.0.0.1"}}, "10.0.0.1").status;
    CHECK(second == (trust ? 404 : 429));
  }
}

TEST_CASE("CORS preflight offers exactly the spec's headers and methods to configured origins") {
  TestService t([](service::Options& o) { o.cors.origins = {"https://app.example.com"}; });
  auto pre = t.Request("OPTIONS", "/v1/ingest", "",
                       {{"Origin", "https://app.example.com"}, {"Access-Control-Request-Method", "POST"}});
  CHECK(pre.status == 204);
  CHECK(pre.Header("Access-Control-Allow-Origin") == "https://app.example.com");
  CHECK(pre.Header("Access-Control-Allow-Headers") ==
        "Content-Type, Authorization, X-Service-Key, X-Service-Org");
  CHECK(pre.Header("Access-Control-Allow-Methods") == "GET, POST, PATCH, DELETE, OPTIONS");
  CHECK(t.Get("/v1/health", {{"Origin", "https://app.example.com"}}).Header("Access-Control-Allow-Origin") ==
        "https://app.example.com");

  auto foreign = t.Request("OPTIONS", "/v1/ingest", "", {{"Origin", "https://evil.example"}});
  CHECK_FALSE(foreign.headers.Has("Access-Control-Allow-Origin"));
  CHECK_FALSE(foreign.headers.Has("Access-Control-Allow-Headers"));

  TestService same_origin;
  auto none = same_origin.Request("OPTIONS", "/v1/ingest", "", {{"Origin", "https://app.example.com"}});
  CHECK_FALSE(none.headers.Has("Access-Control-Allow-Origin"));

  TestService any([](service::Options& o) { o.cors.any_origin = true; });
  CHECK(
      any.Get("/v1/health", {{"Origin", "https://customer.example"}}).Header("Access-Control-Allow-Origin") ==
      "*");
}

// Routes registered only for this test exercise the pipeline's shared rules.
TEST_CASE("pipeline rules: one-value query parameters, malformed JSON, unhandled errors") {
  TestService t;
  service::api::Pipeline p(service::testing::PipelineDepsOf(t.service()));
  p.router().Add("GET", "/t/list", service::api::RateClass::kGeneral, service::api::AuthMode::kNone,
                 [](service::api::Context& ctx) {
                   auto status = ctx.query.One("status");
                   if (!status.ok()) return service::api::StatusResponse(status.status());
                   return service::api::JsonResponse(200, json::object{{"status", status->value_or("")}});
                 });
  p.router().Add("POST", "/t/echo", service::api::RateClass::kGeneral, service::api::AuthMode::kNone,
                 [](service::api::Context& ctx) {
                   auto body = ctx.Body();
                   if (!body.ok()) return service::api::StatusResponse(body.status());
                   return service::api::JsonResponse(200, **body);
                 });
  p.router().Add("GET", "/t/boom", service::api::RateClass::kGeneral, service::api::AuthMode::kNone,
                 [](service::api::Context&) -> service::api::Response { throw std::runtime_error("bug"); });
  p.router().Add("GET", "/t/private", service::api::RateClass::kGeneral, service::api::AuthMode::kJwtOrg,
                 [](service::api::Context&) { return service::api::JsonResponse(200, json::object{}); });

  auto call = [&](const std::string& method, const std::string& path, const std::string& query,
                  const std::string& body = "") {
    service::api::Request req;
    req.method = method;
    req.path = path;
    req.query = query;
    req.body = body;
    auto res = p.Handle(req);
    boost::system::error_code ec;
    auto v = json::parse(res.body, ec);
    return std::make_pair(res.status, ec ? json::value() : v);
  };

  CHECK(call("GET", "/t/list", "status=new").second.at("status") == "new");
  CHECK(call("GET", "/t/list", "").first == 200);
  for (const char* q :
       {"status=new&status=known", "status[]=new", "status[0]=new", "status=new&status=new"}) {
    auto [code, body] = call("GET", "/t/list", q);
    CHECK(code == 400);
    CHECK(body.at("error") == "status must be provided at most once");
  }
  CHECK(call("GET", "/t/list", "status=a%20b").second.at("status") == "a b");

  auto bad = call("POST", "/t/echo", "", "{\"a\":");
  CHECK(bad.first == 400);
  CHECK(bad.second.at("error") == "Invalid JSON in request body");
  std::string deep(200, '[');
  CHECK(call("POST", "/t/echo", "", deep + std::string(200, ']')).first == 400);
  CHECK(call("POST", "/t/echo", "", "{\"a\":1}").second.at("a") == 1);

  auto boom = call("GET", "/t/boom", "");
  CHECK(boom.first == 500);
  CHECK(boom.second.at("error").is_string());
  CHECK(boom.second.at("requestId").as_string().size() == 36);

  // Routes that need a session refuse anonymous callers with JSON 401.
  auto anon = call("GET", "/t/private", "");
  CHECK(anon.first == 401);
  CHECK(anon.second.at("error").is_string());
}
