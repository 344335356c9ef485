// Sentry SDK endpoints (issue 13) in-process on both backends: the DSN on
// keys and registration, envelope and store bodies with every way SDKs
// authenticate and compress, the mapping read back through the console
// API, event-id dedupe, CORS for browser SDKs, and the answers SDKs back off
// on.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>

#include "support/accounts.h"
#include "support/capture_fixture.h"
#include "support/compress.h"
#include "util/crypto.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

struct Project {
  CaptureSetup s;
  int64_t number = 0;
  std::string dsn;
  std::string key_id;  // of s.key
};

// A project's number as GET /v1/projects shows it to `headers`.
int64_t ProjectNumber(TestService& t, const HeaderList& headers, const std::string& project_id) {
  TestResponse list = t.Get("/v1/projects", headers);
  REQUIRE_MESSAGE(list.status == 200, list.body);
  for (const auto& pr : list.json.at("projects").as_array())
    if (pr.at("id").as_string() == project_id) return pr.at("project_number").as_int64();
  FAIL("project not listed: ", project_id);
  return 0;
}

// Every bug of the project (any signal class), from GET /v1/bugs.
json::array ProjectBugs(TestService& t, const Project& p) {
  TestResponse r =
      t.Get("/v1/bugs?signalClass=all&limit=200&projectId=" + p.s.project_id, p.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("bugs").as_array();
}

// The occurrences of a bug (GET /v1/bugs/:id/occurrences, the first 200).
json::array BugOccurrences(TestService& t, const Project& p, const std::string& bug_id) {
  TestResponse r = t.Get("/v1/bugs/" + bug_id + "/occurrences?limit=200", p.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("occurrences").as_array();
}

// How many occurrences the project's bugs hold, read through the API.
int64_t ProjectOccurrences(TestService& t, const Project& p) {
  int64_t n = 0;
  for (const auto& b : ProjectBugs(t, p)) n += static_cast<int64_t>(BugOccurrences(t, p, S(b, "id")).size());
  return n;
}

// How many of the project's bugs have `title`.
int64_t BugsTitled(TestService& t, const Project& p, const std::string& title) {
  int64_t n = 0;
  for (const auto& b : ProjectBugs(t, p))
    if (b.at("title").as_string() == title) ++n;
  return n;
}

int64_t ReportCount(TestService& t, const Project& p, const std::string& bug_id) {
  TestResponse r = t.Get("/v1/bugs/" + bug_id, p.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("report_count").as_int64();
}

Project NewProject(TestService& t) {
  Project p;
  p.s = NewCaptureSetup(t);
  TestResponse r =
      t.Post("/v1/projects/" + p.s.project_id + "/keys", json::object{{"env", "live"}}, p.s.admin.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  p.dsn = S(r.json, "dsn");
  p.s.key = S(r.json, "key");
  p.key_id = S(r.json, "id");
  p.number = ProjectNumber(t, p.s.admin.headers(), p.s.project_id);
  return p;
}

json::object ErrorEvent(const std::string& id, const std::string& type = "TypeError",
                        const std::string& value = "cart is undefined") {
  return json::object{
      {"event_id", id},
      {"platform", "node"},
      {"level", "error"},
      {"release", "api@2.0.0"},
      {"environment", "staging"},
      {"sdk", json::object{{"name", "sentry.javascript.node"}, {"version", "8.0.0"}}},
      {"user", json::object{{"id", "user-42"}, {"email", "ann@example.com"}}},
      {"breadcrumbs",
       json::array{
           json::object{{"timestamp", 1768471190.0}, {"category", "console"}, {"message", "loading cart"}}}},
      {"exception",
       json::object{
           {"values",
            json::array{json::object{
                {"type", type},
                {"value", value},
                {"stacktrace", json::object{{"frames", json::array{json::object{{"function", "loadCart"},
                                                                                {"filename", "cart.js"},
                                                                                {"lineno", 12}}}}}}}}}}}};
}

std::string Envelope(const json::object& event, const std::string& header_extra = "") {
  const std::string payload = json::serialize(event);
  std::string header =
      "{\"event_id\":\"" + std::string(event.at("event_id").as_string()) + "\"" + header_extra + "}";
  return header + "\n{\"type\":\"event\",\"length\":" + std::to_string(payload.size()) + "}\n" + payload +
         "\n";
}

HeaderList Auth(const std::string& key) {
  return {{"X-Sentry-Auth",
           "Sentry sentry_version=7, sentry_client=sentry.javascript.node/8.0.0, sentry_key=" + key}};
}

TestResponse PostEnvelope(TestService& t, const Project& p, const std::string& body,
                          const HeaderList& headers, const std::string& query = "") {
  return t.Request("POST", "/api/" + std::to_string(p.number) + "/envelope/" + query, body, headers);
}

const char* const kId1 = "0123456789abcdef0123456789abcdef";
const char* const kId2 = "fedcba9876543210fedcba9876543210";

TEST_CASE("keys, projects and registration show the project number and the DSN") {
  TestService t([](Options& o) { o.public_url = "https://bugs.example.com"; });
  UseCheapPasswords(t);
  Project p = NewProject(t);
  CHECK(p.number > 0);
  CHECK(p.dsn == "https://" + p.s.key + "@bugs.example.com/" + std::to_string(p.number));
  TestResponse list = t.Get("/v1/projects", p.s.admin.headers());
  CHECK(list.json.at("projects").as_array()[0].at("project_number").as_int64() == p.number);
  const std::string second = CreateProjectVia(t, p.s.admin, "Second");
  CHECK(ProjectNumber(t, p.s.admin.headers(), second) != p.number);
  Account a = RegisterAccount(t, "reg@example.com");
  const int64_t number = ProjectNumber(t, BearerOrg(a.access_token, a.org_id), a.project_id);
  CHECK(number > 0);
  TestResponse reg = t.Post("/v1/auth/register", json::object{{"email", "reg2@example.com"},
                                                              {"password", kTestPassword},
                                                              {"name", "Reg"},
                                                              {"orgName", "Reg Org"}});
  REQUIRE(reg.status == 201);
  CHECK(S(reg.json, "dsn").find("https://" + S(reg.json, "apiKey") + "@bugs.example.com/") == 0);
}

TEST_CASE(
    "an envelope's event is stored through the capture pipeline and read back through the console API") {
  TestService t;
  Project p = NewProject(t);
  EventRecorder rec(t);
  TestResponse r = PostEnvelope(t, p, Envelope(ErrorEvent(kId1)), Auth(p.s.key));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "id") == kId1);
  CHECK(rec.OfType("new_bug").size() == 1);

  TestResponse bugs = t.Get("/v1/bugs", p.s.admin.headers());
  REQUIRE(bugs.json.at("bugs").as_array().size() == 1);
  const json::value bug = bugs.json.at("bugs").as_array()[0];
  CHECK(S(bug, "title") == "TypeError: cart is undefined");
  CHECK(S(bug, "severity") == "high");
  const std::string id = S(bug, "id");
  TestResponse events = t.Get("/v1/bugs/" + id + "/events", p.s.admin.headers());
  const json::array& ev = events.json.at("events").as_array();
  REQUIRE(ev.size() == 2);
  CHECK(S(ev[0], "event_type") == "console");
  CHECK(S(ev[1], "event_type") == "error");
  CHECK(S(ev[1].at("data"), "stack").find("at loadCart (cart.js:12)") != std::string::npos);
  TestResponse occ = t.Get("/v1/bugs/" + id + "/occurrences", p.s.admin.headers());
  const json::value o = occ.json.at("occurrences").as_array()[0];
  CHECK(S(o, "release_version") == "api@2.0.0");
  CHECK(S(o, "environment") == "staging");
  CHECK(S(o, "platform") == "server");
  TestResponse users = t.Get("/v1/bugs/" + id + "/users", p.s.admin.headers());
  REQUIRE(users.json.at("users").as_array().size() == 1);
  CHECK(S(users.json.at("users").as_array()[0], "endUserId") == "user-42");

  // The same event id again (an SDK retry) is acknowledged and not stored twice.
  r = PostEnvelope(t, p, Envelope(ErrorEvent(kId1)), Auth(p.s.key));
  REQUIRE(r.status == 200);
  CHECK(S(r.json, "id") == kId1);
  CHECK(ReportCount(t, p, id) == 1);
  // Another event of the same error joins the bug (native grouping).
  REQUIRE(PostEnvelope(t, p, Envelope(ErrorEvent(kId2)), Auth(p.s.key)).status == 200);
  CHECK(ReportCount(t, p, id) == 2);
  CHECK(rec.OfType("duplicate").size() == 1);
}

TEST_CASE("every way SDKs authenticate, wrong, revoked and foreign keys store nothing") {
  TestService t;
  Project p = NewProject(t);
  Project other = NewProject(t);
  const std::string body = Envelope(ErrorEvent(kId1));
  // Browser SDKs: ?sentry_key= and text/plain.
  TestResponse r = PostEnvelope(t, p, body, {{"Content-Type", "text/plain;charset=UTF-8"}},
                                "?sentry_key=" + p.s.key + "&sentry_version=7");
  CHECK(r.status == 200);
  r = PostEnvelope(t, p, Envelope(ErrorEvent(kId2)), {{"Authorization", "Sentry sentry_key=" + p.s.key}});
  CHECK(r.status == 200);
  // The envelope header's dsn.
  json::object e3 = ErrorEvent("11111111111111111111111111111111");
  r = PostEnvelope(t, p, Envelope(e3, ",\"dsn\":\"" + p.dsn + "\""), {});
  CHECK_MESSAGE(r.status == 200, r.body);
  CHECK(ProjectOccurrences(t, p) == 3);

  const auto refused = [&](const HeaderList& h, const std::string& query = "") {
    return PostEnvelope(t, p, Envelope(ErrorEvent("22222222222222222222222222222222")), h, query);
  };
  CHECK(refused({}).status == 401);
  CHECK(refused(Auth("sv_live_notakeyatallnotakeyatallnotak")).status == 401);
  TestResponse foreign = refused(Auth(other.s.key));
  CHECK(foreign.status == 403);
  CHECK(foreign.json.as_object().contains("detail"));
  CHECK(t.Request("POST", "/api/999999/envelope/", Envelope(ErrorEvent(kId1)), Auth(p.s.key)).status == 403);
  CHECK(t.Request("POST", "/api/abc/envelope/", Envelope(ErrorEvent(kId1)), Auth(p.s.key)).status == 404);
  REQUIRE(t.Delete("/v1/projects/" + p.s.project_id + "/keys/" + p.key_id, p.s.admin.headers()).status ==
          200);
  CHECK(refused(Auth(p.s.key)).status == 401);
  CHECK(ProjectOccurrences(t, p) == 3);
}

TEST_CASE("compressed bodies: gzip, deflate (zlib and raw), br, bogus encodings ignored, bombs refused") {
  TestService t;
  Project p = NewProject(t);
  int n = 0;
  const auto send = [&](const std::string& body, const std::string& encoding) {
    HeaderList h = Auth(p.s.key);
    if (!encoding.empty()) h.push_back({"Content-Encoding", encoding});
    return PostEnvelope(t, p, body, h);
  };
  const auto next = [&] {
    ++n;
    std::string id = std::to_string(n);
    return Envelope(ErrorEvent(std::string(32 - id.size(), 'a') + id));
  };
  CHECK(send(Deflate(next()), "gzip").status == 200);
  CHECK(send(Deflate(next(), 15), "deflate").status == 200);
  CHECK(send(Deflate(next(), -15), "deflate").status == 200);
  CHECK(send(Brotli(next()), "br").status == 200);
  CHECK(send(next(), "").status == 200);
  CHECK(send(next(), "bogus").status == 200);
  CHECK(ProjectOccurrences(t, p) == 6);
  TestResponse bomb = send(Deflate(std::string(30 << 20, ' ')), "gzip");
  CHECK(bomb.status == 413);
  CHECK(bomb.json.as_object().contains("detail"));
  CHECK(send("not gzip at all", "gzip").status == 400);
}

TEST_CASE("the legacy store body, plain and base64+zlib, malformed bodies are 400 with a detail") {
  TestService t;
  Project p = NewProject(t);
  const std::string path = "/api/" + std::to_string(p.number) + "/store/";
  TestResponse r = t.Request("POST", path, json::serialize(ErrorEvent(kId1)), Auth(p.s.key));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "id") == kId1);
  const std::string packed =
      util::Base64Encode(Deflate(json::serialize(ErrorEvent(kId2, "RangeError", "bad")), 15));
  r = t.Request("POST", path, packed, Auth(p.s.key));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(BugsTitled(t, p, "RangeError: bad") == 1);
  for (const std::string& bad : {std::string("{not json"), std::string("%%%"), std::string("[1,2]")}) {
    r = t.Request("POST", path, bad, Auth(p.s.key));
    CHECK(r.status == 400);
    CHECK(r.json.as_object().contains("detail"));
  }
  CHECK(PostEnvelope(t, p, "not an envelope", Auth(p.s.key)).status == 400);
  CHECK(PostEnvelope(t, p, "{}\n{\"type\":\"event\"}\nnot json\n", Auth(p.s.key)).status == 400);
}

// An envelope exactly as the Python SDK 2.x sends one event: its header
// (event id, sent_at, the trace's dynamic sampling context), one item of
// type event with content type and length, compact JSON, gzip.
std::string PythonEnvelope(const std::string& event_id, const std::string& public_key,
                           const std::string& event) {
  const std::string header =
      R"({"event_id":")" + event_id +
      R"(","sent_at":"2026-01-15T10:00:00.412837Z","trace":{"trace_id":)"
      R"("4c79f60c11214eb38604f4ae0781bfb2","environment":"production","release":"shop@1.4.0",)"
      R"("public_key":")" +
      public_key + R"(","sample_rate":"1.0","sampled":"false"}})";
  return header + "\n" + R"({"type":"event","content_type":"application/json","length":)" +
         std::to_string(event.size()) + "}\n" + event + "\n";
}

// What sentry_sdk.capture_exception() sends for a caught ZeroDivisionError
// after sentry_sdk.set_user({"id": "cust-42"}).
std::string PythonCaughtException(const std::string& event_id) {
  return R"({"level":"error","exception":{"values":[{"mechanism":{"type":"generic","handled":true},)"
         R"("module":null,"type":"ZeroDivisionError","value":"division by zero","stacktrace":{"frames":[)"
         R"({"filename":"shop/checkout.py","abs_path":"/srv/shop/checkout.py","function":"apply_discount",)"
         R"("module":"shop.checkout","lineno":42,"pre_context":["def apply_discount(total, parts):"],)"
         R"("context_line":"    share = total / parts","post_context":["    return share"],"vars":)"
         R"({"total":"120","parts":"0"},"in_app":true}]}}]},"event_id":")" +
         event_id +
         R"(","timestamp":"2026-01-15T10:00:00.401722Z","contexts":{"trace":{"trace_id":)"
         R"("4c79f60c11214eb38604f4ae0781bfb2","span_id":"a1c2b3d4e5f60718","parent_span_id":null},)"
         R"("runtime":{"name":"CPython","version":"3.11.2","build":"3.11.2 (main, Mar 13 2023, 12:18:29) [GCC 12.2.0]"}},)"
         R"("breadcrumbs":{"values":[{"ty":"log","level":"info","category":"shop","message":"cart loaded",)"
         R"("timestamp":"2026-01-15T10:00:00.100000Z","data":{}}]},"transaction_info":{},)"
         R"("modules":{"sentry-sdk":"2.19.2","urllib3":"2.2.3"},"extra":{"sys.argv":["worker.py"]},)"
         R"("user":{"id":"cust-42"},"release":"shop@1.4.0","environment":"production","server_name":"web-1",)"
         R"("sdk":{"name":"sentry.python","version":"2.19.2","packages":[{"name":"pypi:sentry-sdk","version":"2.19.2"}],)"
         R"("integrations":["argv","atexit","dedupe","excepthook","logging","modules","stdlib","threading"]},)"
         R"("platform":"python"})";
}

// What sentry_sdk.capture_message("Nightly export finished") sends.
std::string PythonMessage(const std::string& event_id) {
  return R"({"message":"Nightly export finished","level":"info","event_id":")" + event_id +
         R"(","timestamp":"2026-01-15T10:00:00.402001Z","contexts":{"trace":{"trace_id":)"
         R"("4c79f60c11214eb38604f4ae0781bfb2","span_id":"b2c3d4e5f6071829","parent_span_id":null},)"
         R"("runtime":{"name":"CPython","version":"3.11.2","build":"3.11.2"}},"breadcrumbs":{"values":[]},)"
         R"("transaction_info":{},"modules":{"sentry-sdk":"2.19.2"},"extra":{"sys.argv":["worker.py"]},)"
         R"("user":{"id":"cust-42"},"release":"shop@1.4.0","environment":"production","server_name":"web-1",)"
         R"("sdk":{"name":"sentry.python","version":"2.19.2","packages":[{"name":"pypi:sentry-sdk","version":"2.19.2"}],)"
         R"("integrations":["argv","atexit","dedupe","excepthook","logging","modules","stdlib","threading"]},)"
         R"("platform":"python"})";
}

TEST_CASE("the Python SDK's capture_exception reads as a handled error, capture_message as a message") {
  TestService t;
  Project p = NewProject(t);
  const HeaderList headers = {{"X-Sentry-Auth", "Sentry sentry_key=" + p.s.key +
                                                    ", sentry_version=7, sentry_client=sentry.python/2.19.2"},
                              {"Content-Type", "application/x-sentry-envelope"},
                              {"Content-Encoding", "gzip"},
                              {"User-Agent", "sentry.python/2.19.2"}};
  auto post = [&](const std::string& id, const std::string& event) {
    TestResponse r = PostEnvelope(t, p, Deflate(PythonEnvelope(id, p.s.key, event)), headers);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(S(r.json, "id") == id);
    // The bug whose occurrence carries the event id in its metadata.
    for (const auto& b : ProjectBugs(t, p)) {
      for (const auto& o : BugOccurrences(t, p, S(b, "id")))
        if (json::serialize(o.at("metadata")).find(id) != std::string::npos) return S(b, "id");
    }
    FAIL("no occurrence of event ", id);
    return std::string();
  };
  const std::string caught = post(kId1, PythonCaughtException(kId1));
  TestResponse bug = t.Get("/v1/bugs/" + caught, p.s.admin.headers());
  REQUIRE_MESSAGE(bug.status == 200, bug.body);
  const json::value& b = bug.json;
  CHECK(S(b, "title") == "ZeroDivisionError: division by zero");
  CHECK(S(b, "signal_class") == "issue");
  CHECK(S(b, "signal_family") == "handled_error");
  CHECK(S(b, "signal_reason") == "An error was caught by the app and reported.");
  CHECK(S(b, "severity") == "high");
  // The SDK's user.id is the end user's key.
  TestResponse tl = t.Get("/v1/end-users/cust-42/timeline", p.s.admin.headers());
  REQUIRE_MESSAGE(tl.status == 200, tl.body);
  CHECK(tl.json.at("total") == 1);

  const std::string message = post(kId2, PythonMessage(kId2));
  TestResponse m = t.Get("/v1/bugs/" + message, p.s.admin.headers());
  REQUIRE_MESSAGE(m.status == 200, m.body);
  CHECK(S(m.json, "title") == "Nightly export finished");
  CHECK(S(m.json, "signal_class") == "watch");
  CHECK(S(m.json, "signal_family") == "message");
  CHECK(S(m.json, "severity") == "low");
  CHECK(t.Get("/v1/end-users/cust-42/timeline", p.s.admin.headers()).json.at("total") == 2);

  // An exception left uncaught (the excepthook integration) stays an
  // uncaught error.
  std::string uncaught = PythonCaughtException("99999999999999999999999999999999");
  const std::string handled_mechanism = R"({"type":"generic","handled":true})";
  uncaught.replace(uncaught.find(handled_mechanism), handled_mechanism.size(),
                   R"({"type":"excepthook","handled":false})");
  const std::string value = R"("value":"division by zero")";
  uncaught.replace(uncaught.find(value), value.size(), R"("value":"float division by zero")");
  const std::string thrown = post("99999999999999999999999999999999", uncaught);
  CHECK(S(t.Get("/v1/bugs/" + thrown, p.s.admin.headers()).json, "signal_family") == "uncaught_error");
}

TEST_CASE("other item types are accepted and skipped, an SDK fingerprint groups across messages") {
  TestService t;
  Project p = NewProject(t);
  const std::string body =
      "{\"sent_at\":\"2026-01-15T10:00:00Z\"}\n"
      "{\"type\":\"session\"}\n{\"sid\":\"abc\",\"status\":\"ok\"}\n"
      "{\"type\":\"client_report\"}\n{\"discarded_events\":[]}\n"
      "{\"type\":\"transaction\"}\n{\"type\":\"transaction\"}\n"
      "{\"type\":\"attachment\",\"length\":3,\"filename\":\"a.txt\"}\nabc\n"
      "{\"type\":\"future_type\"}\n{}\n";
  TestResponse r = PostEnvelope(t, p, body, Auth(p.s.key));
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "id").size() == 32);
  CHECK(ProjectOccurrences(t, p) == 0);

  json::object a = ErrorEvent("33333333333333333333333333333333", "Error", "timeout after 3000ms on /a");
  json::object b = ErrorEvent("44444444444444444444444444444444", "Error", "socket hang up");
  a["fingerprint"] = json::array{"backend-unreachable"};
  b["fingerprint"] = json::array{"backend-unreachable"};
  REQUIRE(PostEnvelope(t, p, Envelope(a), Auth(p.s.key)).status == 200);
  REQUIRE(PostEnvelope(t, p, Envelope(b), Auth(p.s.key)).status == 200);
  const json::array grouped = ProjectBugs(t, p);
  REQUIRE(grouped.size() == 1);
  CHECK(grouped[0].at("report_count") == 2);
}

TEST_CASE("browser SDKs get CORS from any origin, limits answer 429 with X-Sentry-Rate-Limits") {
  TestService t([](Options& o) { o.plan_limits["free"]["bugs_per_month"] = 1; });
  Project p = NewProject(t);
  TestResponse pre = t.Request("OPTIONS", "/api/" + std::to_string(p.number) + "/envelope/", "",
                               {{"Origin", "https://shop.example.org"},
                                {"Access-Control-Request-Method", "POST"},
                                {"Access-Control-Request-Headers", "content-type,x-sentry-auth"}});
  CHECK(pre.status == 204);
  CHECK(pre.Header("Access-Control-Allow-Origin") == "*");
  const std::string allowed = pre.Header("Access-Control-Allow-Headers");
  for (const char* h : {"X-Sentry-Auth", "Content-Type", "Content-Encoding", "Sentry-Trace", "Baggage"}) {
    CHECK(allowed.find(h) != std::string::npos);
  }
  HeaderList h = Auth(p.s.key);
  h.push_back({"Origin", "https://shop.example.org"});
  TestResponse r = PostEnvelope(t, p, Envelope(ErrorEvent(kId1)), h);
  REQUIRE(r.status == 200);
  CHECK(r.Header("Access-Control-Allow-Origin") == "*");
  // The second distinct bug of the month passes the free plan's (lowered) limit.
  r = PostEnvelope(t, p, Envelope(ErrorEvent(kId2, "RangeError", "other")), h);
  CHECK(r.status == 429);
  CHECK(!r.Header("Retry-After").empty());
  CHECK(r.Header("X-Sentry-Rate-Limits").find("quota_exceeded") != std::string::npos);
  CHECK(ProjectBugs(t, p).size() == 1);

  TestService limited([](Options& o) {
    o.rate_limits.enabled = true;
    o.rate_limits.ingest = 1;
  });
  Project q = NewProject(limited);
  REQUIRE(limited
              .Request("POST", "/api/" + std::to_string(q.number) + "/envelope/", Envelope(ErrorEvent(kId1)),
                       Auth(q.s.key))
              .status == 200);
  TestResponse lim = limited.Request("POST", "/api/" + std::to_string(q.number) + "/envelope/",
                                     Envelope(ErrorEvent(kId2)), Auth(q.s.key));
  CHECK(lim.status == 429);
  CHECK(!lim.Header("X-Sentry-Rate-Limits").empty());
}

TEST_CASE("both path forms, several events in one envelope are each ingested, an empty encoding is none") {
  TestService t;
  Project p = NewProject(t);
  const std::string base = "/api/" + std::to_string(p.number);
  TestResponse r = t.Request("POST", base + "/envelope", Envelope(ErrorEvent(kId1)), Auth(p.s.key));
  CHECK(r.status == 200);
  r = t.Request("POST", base + "/store", json::serialize(ErrorEvent(kId2, "RangeError", "x")), Auth(p.s.key));
  CHECK(r.status == 200);

  // Two events: the header's event_id answers; each event keeps its own id.
  const std::string a = json::serialize(ErrorEvent("55555555555555555555555555555555", "Error", "first"));
  const std::string b = json::serialize(ErrorEvent("66666666666666666666666666666666", "Error", "second"));
  const std::string body = "{\"event_id\":\"55555555555555555555555555555555\"}\n{\"type\":\"event\"}\n" + a +
                           "\n{\"type\":\"event\",\"length\":" + std::to_string(b.size()) + "}\n" + b + "\n";
  HeaderList h = Auth(p.s.key);
  h.push_back({"Content-Encoding", ""});
  r = t.Request("POST", base + "/envelope/", body, h);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(S(r.json, "id") == "55555555555555555555555555555555");
  CHECK(BugsTitled(t, p, "Error: first") + BugsTitled(t, p, "Error: second") == 2);
  // Sent again, neither is stored twice.
  REQUIRE(t.Request("POST", base + "/envelope/", body, h).status == 200);
  CHECK(ProjectOccurrences(t, p) == 4);
}

}  // namespace
}  // namespace service::testing
