// POST /v1/ingest: the envelope, fingerprint grouping, counts, regressions,
// occurrence fields, end users, namespaces, events on the bus and the outbox
// hook (Spec 1 "Ingestion", "States and transitions", "End user", "Events").
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "areas/capture/app/runtime.h"
#include "areas/capture/domain/end_user.h"
#include "areas/capture/domain/fingerprint.h"
#include "areas/capture/module.h"
#include "service_internal.h"
#include "support/capture_fixture.h"
#include "support/triage_fixture.h"
#include "util/time.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Str(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

bool IsHex16(const std::string& s) {
  if (s.size() != 16) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// One field of GET /v1/bugs/:id as the setup's admin.
json::value BugField(TestService& t, const CaptureSetup& s, const std::string& bug_id, const char* field) {
  TestResponse r = t.Get("/v1/bugs/" + bug_id, s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  REQUIRE_MESSAGE(r.json.as_object().contains(field), field);
  return r.json.at(field);
}
int64_t BugInt(TestService& t, const CaptureSetup& s, const std::string& bug_id, const char* field) {
  return BugField(t, s, bug_id, field).to_number<int64_t>();
}
std::string BugText(TestService& t, const CaptureSetup& s, const std::string& bug_id, const char* field) {
  json::value v = BugField(t, s, bug_id, field);
  return v.is_string() ? std::string(v.as_string()) : v.is_null() ? "" : json::serialize(v);
}
// A bug's last_seen (ISO 8601 in the API) in milliseconds.
int64_t BugLastSeen(TestService& t, const CaptureSetup& s, const std::string& bug_id) {
  std::optional<int64_t> ms = util::ParseIso8601(BugText(t, s, bug_id, "last_seen"));
  REQUIRE(ms);
  return *ms;
}
// GET /v1/bugs/:id/occurrences as the setup's admin (the first 200).
json::value Occurrences(TestService& t, const CaptureSetup& s, const std::string& bug_id) {
  TestResponse r = t.Get("/v1/bugs/" + bug_id + "/occurrences?limit=200", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json;
}
// One occurrence of a bug, read through GET /v1/bugs/:id/occurrences.
json::object Occurrence(TestService& t, const CaptureSetup& s, const TestResponse& ingested) {
  json::value list = Occurrences(t, s, Str(ingested.json, "id"));
  for (const auto& o : list.at("occurrences").as_array())
    if (o.at("id") == ingested.json.at("occurrenceId")) return o.as_object();
  FAIL("occurrence not listed: ", Str(ingested.json, "occurrenceId"));
  return {};
}
// The status-history rows of a bug (GET /v1/bugs/:id/history).
json::array History(TestService& t, const CaptureSetup& s, const std::string& bug_id) {
  TestResponse r = t.Get("/v1/bugs/" + bug_id + "/history", s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("history").as_array();
}
// The end user with exactly `user_key` among GET /v1/end-users?q=<query>.
json::object EndUser(TestService& t, const CaptureSetup& s, const std::string& query,
                     const std::string& user_key) {
  TestResponse r = t.Get("/v1/end-users?limit=100&q=" + query, s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  for (const auto& u : r.json.at("users").as_array())
    if (u.at("userKey").as_string() == user_key) return u.as_object();
  FAIL("end user not found: ", user_key);
  return {};
}

}  // namespace

TEST_CASE("ingest answers 201 with the envelope and creates a bug, an occurrence and its events") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse r = Ingest(t, s.key, Report("Checkout crashed"));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  CHECK(r.json.at("id").is_string());
  CHECK(r.json.at("occurrenceId").is_string());
  CHECK(IsHex16(Str(r.json, "fingerprint")));
  CHECK(r.json.at("deduplicated") == false);
  CHECK(r.json.at("regression") == false);
  CHECK(r.json.at("is_regression") == false);
  const std::string bug = Str(r.json, "id");
  CHECK(BugText(t, s, bug, "status") == "new");
  CHECK(BugInt(t, s, bug, "report_count") == 1);
  CHECK(BugText(t, s, bug, "project_id") == s.project_id);
  CHECK(BugText(t, s, bug, "fingerprint") == Str(r.json, "fingerprint"));
  CHECK(Occurrences(t, s, bug).at("total") == 1);
  CHECK(Occurrence(t, s, r).at("event_count") == 1);
}

TEST_CASE("the fingerprint is the first 16 hex of SHA-256 of errorType:normalizedMessage:urlPattern") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse r = Ingest(t, s.key, Report("Boom", "Cannot read properties of undefined (reading 'id')"));
  REQUIRE(r.status == 201);
  domain::capture::Event ev;
  ev.type = "error";
  ev.data =
      json::object{{"name", "TypeError"}, {"message", "Cannot read properties of undefined (reading 'id')"}};
  std::vector<domain::capture::Event> events;
  events.push_back(std::move(ev));
  const domain::capture::Fingerprint fp =
      domain::capture::FingerprintReport(events, false, "Boom", "https://app.example.com/orders/123");
  CHECK(fp.canonical ==
        "TypeError:Cannot read properties of undefined (reading 'id'):https://app.example.com/orders/<id>");
  CHECK(Str(r.json, "fingerprint") == fp.short_hex);
}

TEST_CASE("same fingerprint deduplicates, volatile parts of messages and URLs do not split bugs") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse a =
      Ingest(t, s.key, Report("Timeout", "request 12345 to 10.0.0.1:8080 timed out at 2026-01-15T10:00:00Z"));
  REQUIRE(a.status == 201);
  json::object second =
      Report("Timeout again", "request 99999 to 192.168.1.20:9090 timed out at 2025-12-01T08:30:00Z");
  second["url"] = "https://app.example.com/orders/987?tab=2#x";
  TestResponse b = Ingest(t, s.key, second);
  REQUIRE(b.status == 201);
  CHECK(Str(b.json, "id") == Str(a.json, "id"));
  CHECK(Str(b.json, "fingerprint") == Str(a.json, "fingerprint"));
  CHECK(b.json.at("deduplicated") == true);
  CHECK(b.json.at("regression") == false);
  CHECK(Str(b.json, "occurrenceId") != Str(a.json, "occurrenceId"));
  const std::string bug = Str(a.json, "id");
  CHECK(BugInt(t, s, bug, "report_count") == 2);
  CHECK(BugInt(t, s, bug, "occurrence_count") == 2);
  // The first report's title stays the bug's title.
  CHECK(BugText(t, s, bug, "title") == "Timeout");

  TestResponse c = Ingest(t, s.key, Report("Other", "a different failure"));
  REQUIRE(c.status == 201);
  CHECK(Str(c.json, "id") != bug);
  CHECK(c.json.at("deduplicated") == false);
}

TEST_CASE("a match on a resolved bug reopens it as a regression with a status-history row") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  EventRecorder rec(t);
  TestResponse a = Ingest(t, s.key, Report("Crash"));
  REQUIRE(a.status == 201);
  const std::string bug = Str(a.json, "id");
  service::testing::SetBugStatus(t, s.admin.org_id, bug, "resolved");

  TestResponse b = Ingest(t, s.key, Report("Crash"));
  REQUIRE(b.status == 201);
  CHECK(Str(b.json, "id") == bug);
  CHECK(b.json.at("regression") == true);
  CHECK(b.json.at("is_regression") == true);
  CHECK(b.json.at("deduplicated") == true);
  CHECK(BugText(t, s, bug, "status") == "new");
  CHECK(BugField(t, s, bug, "is_regression") == true);
  CHECK(BugField(t, s, bug, "resolved_at").is_null());
  const json::array history = History(t, s, bug);
  CHECK(std::count_if(history.begin(), history.end(), [](const json::value& h) {
          return h.at("old_status") == "resolved" && h.at("new_status") == "new";
        }) == 1);

  // The next report is an ordinary duplicate again.
  TestResponse c = Ingest(t, s.key, Report("Crash"));
  REQUIRE(c.status == 201);
  CHECK(c.json.at("regression") == false);
  CHECK(c.json.at("deduplicated") == true);
  CHECK(History(t, s, bug).size() == 1);

  std::vector<std::string> types;
  for (const auto& e : rec.events())
    if (e.type != "presence") types.push_back(e.type);
  CHECK(types == std::vector<std::string>{"new_bug", "regression", "duplicate"});
}

TEST_CASE("silenced and working bugs stay as they are when reports arrive") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse a = Ingest(t, s.key, Report("Noise"));
  const std::string bug = Str(a.json, "id");
  service::testing::SetBugStatus(t, s.admin.org_id, bug, "silenced");
  TestResponse b = Ingest(t, s.key, Report("Noise"));
  CHECK(b.json.at("regression") == false);
  CHECK(BugText(t, s, bug, "status") == "silenced");
  CHECK(BugInt(t, s, bug, "report_count") == 2);
}

TEST_CASE("counts: distinct users, sessions and reporters, last_seen, latest release and environment") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  auto send = [&](json::object extra, const std::string& ip = "203.0.113.7") {
    TestResponse r = Ingest(t, s.key, Report("Counted", "same", extra), ip);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return Str(r.json, "id");
  };
  const std::string bug = send({{"userId", "u-1"},
                                {"sessionId", "s-1"},
                                {"reporterEmail", "Ann@Example.com"},
                                {"release", "1.0.0"},
                                {"environment", "staging"}});
  CHECK(BugInt(t, s, bug, "affected_user_count") == 1);
  CHECK(BugInt(t, s, bug, "affected_session_count") == 1);
  CHECK(BugInt(t, s, bug, "reporter_count") == 1);
  const int64_t first_seen = BugLastSeen(t, s, bug);

  t.clock().Advance(5000);
  send({{"userId", "u-1"}, {"sessionId", "s-1"}, {"reporterEmail", "ann@example.com"}});  // nothing new
  CHECK(BugInt(t, s, bug, "affected_user_count") == 1);
  CHECK(BugInt(t, s, bug, "affected_session_count") == 1);
  CHECK(BugInt(t, s, bug, "reporter_count") == 1);
  CHECK(BugLastSeen(t, s, bug) == first_seen + 5000);
  // A report without release or environment keeps the latest known ones.
  CHECK(BugText(t, s, bug, "latest_release") == "1.0.0");
  CHECK(BugText(t, s, bug, "latest_environment") == "staging");

  send({{"userId", "u-2"},
        {"sessionId", "s-2"},
        {"reporterEmail", "bob@example.com"},
        {"release", "1.1.0"},
        {"environment", "production"}});
  send({});                  // anonymous, from 203.0.113.7
  send({}, "198.51.100.1");  // anonymous, another address
  send({}, "198.51.100.1");  // same anonymous user again
  CHECK(BugInt(t, s, bug, "affected_user_count") == 4);
  CHECK(BugInt(t, s, bug, "affected_session_count") == 2);
  CHECK(BugInt(t, s, bug, "reporter_count") == 2);
  CHECK(BugInt(t, s, bug, "report_count") == 6);
  CHECK(BugText(t, s, bug, "latest_release") == "1.1.0");
  CHECK(BugText(t, s, bug, "latest_environment") == "production");
  // The counter equals the distinct user keys of the bug's occurrences.
  std::set<std::string> user_keys;
  const json::value occurrences = Occurrences(t, s, bug);
  for (const auto& o : occurrences.at("occurrences").as_array()) user_keys.insert(Str(o, "user_key"));
  CHECK(user_keys.size() == 4);
  // internal state: bug_participants (the distinct users behind the counter) has no read route.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM bug_participants WHERE bug_id = ? AND kind = 'user'", {bug}) == 4);
}

TEST_CASE("occurrence rows carry every field, device and osVersion go into metadata") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  json::object extra{
      {"description", "details"},
      {"severity", "high"},
      {"userAgent",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/120.0.6099.109 Safari/537.36"},
      {"viewport", "1440x900"},
      {"reporterEmail", "ann@example.com"},
      {"reporterId", "rep-7"},
      {"sessionId", "sess-1"},
      {"userId", "user-42"},
      {"release", "2.3.4"},
      {"environment", "production"},
      {"device", "MacBook Pro"},
      {"osVersion", "14.2"},
      {"metadata", json::object{{"autoReport", "error"}, {"cart", 3}}}};
  TestResponse r = Ingest(t, s.key, Report("Fields", "m", extra));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const json::object o = Occurrence(t, s, r);
  auto occ = [&](const char* field) { return Str(o, field); };
  CHECK(occ("project_id") == s.project_id);
  // internal state: org_id and user_kind of an occurrence are not part of any read route.
  CHECK(QueryText(t, "SELECT org_id FROM occurrences WHERE id = ?", {Str(r.json, "occurrenceId")}) ==
        s.admin.org_id);
  CHECK(occ("reporter_email") == "ann@example.com");
  CHECK(occ("reporter_id") == "rep-7");
  CHECK(occ("session_id") == "sess-1");
  CHECK(occ("end_user_id") == "user-42");
  CHECK(occ("user_key") == "user-42");
  // internal state: see org_id above.
  CHECK(QueryText(t, "SELECT user_kind FROM occurrences WHERE id = ?", {Str(r.json, "occurrenceId")}) ==
        "user");
  CHECK(occ("release_version") == "2.3.4");
  CHECK(occ("environment") == "production");
  CHECK(occ("url") == "https://app.example.com/orders/123");
  CHECK(occ("viewport") == "1440x900");
  CHECK(occ("browser") == "Chrome");
  CHECK(occ("os") == "macOS");
  CHECK(occ("platform") == "web");  // inferred from the user agent
  CHECK(occ("ip_hash").size() == 64);
  CHECK(occ("ip_hash").find("203.0.113.7") == std::string::npos);
  const json::value& meta = o.at("metadata");
  CHECK(meta.at("device") == "MacBook Pro");
  CHECK(meta.at("osVersion") == "14.2");
  CHECK(meta.at("cart") == 3);
  CHECK(BugText(t, s, Str(r.json, "id"), "severity") == "high");
  CHECK(BugText(t, s, Str(r.json, "id"), "description") == "details");
}

TEST_CASE("the client address is never stored, the anonymous key derives from its keyed hash") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse r = Ingest(t, s.key, Report("Anon"), "198.51.100.23");
  REQUIRE(r.status == 201);
  const std::string occ = Str(r.json, "occurrenceId");
  const json::object o = Occurrence(t, s, r);
  const std::string hash = Str(o, "ip_hash");
  CHECK(hash == service::internal::ModulesOf(t.service())
                    .Get<service::modules::CaptureModule>()
                    .runtime()
                    .HashClientIp("198.51.100.23"));
  CHECK(Str(o, "user_key") == "anon:" + hash.substr(0, 16));
  // internal state: user_kind is not part of any read route.
  CHECK(QueryText(t, "SELECT user_kind FROM occurrences WHERE id = ?", {occ}) == "anonymous");
  // internal state: only the stored rows prove that the client address is never stored.
  CHECK(QueryInt(t,
                 "SELECT COUNT(*) FROM occurrences WHERE metadata LIKE '%198.51.100.23%' OR "
                 "user_key LIKE '%198.51.100.23%' OR ip_hash LIKE '%198.51.100.23%'") == 0);
  // internal state: as above, for the end users.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM end_users WHERE user_key LIKE '%198.51.100%'") == 0);
}

TEST_CASE("userKey: the application user id, else the reporter email, else the anonymous key") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  auto key_of = [&](json::object extra) {
    TestResponse r = Ingest(t, s.key, Report("Who", "m", extra));
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return Str(Occurrence(t, s, r), "user_key");
  };
  CHECK(key_of({{"userId", "u-9"}, {"reporterEmail", "x@example.com"}}) == "u-9");
  CHECK(key_of({{"reporterEmail", "X@Example.com"}}) == "x@example.com");
  CHECK(key_of({}).rfind("anon:", 0) == 0);
  // End users are recorded per organization with their platforms and counts.
  CHECK(EndUser(t, s, "u-9", "u-9").at("occurrenceCount") == 1);
  CHECK(EndUser(t, s, "x@example.com", "x@example.com").at("email") == "x@example.com");
}

TEST_CASE("platform comes from the body, else from the user agent, else the request header") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  auto platform_of = [&](json::object extra, HeaderList headers = {}) {
    headers.emplace_back("X-Service-Key", s.key);
    TestResponse r = t.Request("POST", "/v1/ingest", json::serialize(Report("P", "m", extra)), headers);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return Str(Occurrence(t, s, r), "platform");
  };
  CHECK(platform_of({{"platform", "flutter"}, {"userAgent", "Mozilla/5.0 (iPhone)"}}) == "flutter");
  CHECK(
      platform_of({{"userAgent",
                    "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A; wv) AppleWebKit/537.36 (KHTML, like "
                    "Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36"}}) == "android");
  CHECK(platform_of({}, {{"User-Agent", "python-requests/2.31.0"}}) == "server");
}

TEST_CASE("events are stored in submission order and read back with their timestamps and data") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  json::array events;
  for (int i = 0; i < 25; ++i) {
    json::object e{{"type", i == 3 ? "error" : "console.log"}, {"data", json::object{{"i", i}}}};
    if (i % 2 == 0) e["timestamp"] = 1768470000000 + i;
    events.push_back(e);
  }
  TestResponse r = Ingest(t, s.key, json::object{{"title", "Ordered"}, {"events", events}});
  REQUIRE_MESSAGE(r.status == 201, r.body);
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  std::optional<std::string> stored;
  REQUIRE(core.db
              ->Read([&](store::Connection& c) -> Status {
                SV_ASSIGN_OR_RETURN(stored,
                                    service::internal::ModulesOf(t.service())
                                        .Get<service::modules::CaptureModule>()
                                        .deps()
                                        .occurrences->Events(c, s.admin.org_id, Str(r.json, "occurrenceId")));
                return Status::Ok();
              })
              .ok());
  REQUIRE(stored);
  json::array back = json::parse(*stored).as_array();
  REQUIRE(back.size() == 25);
  for (int i = 0; i < 25; ++i) {
    CHECK(back[i].at("data").at("i") == i);
    CHECK(back[i].at("type") == (i == 3 ? "error" : "console.log"));
    // Events without a timestamp get the receipt time.
    CHECK(back[i].at("timestamp").to_number<int64_t>() == (i % 2 == 0 ? 1768470000000 + i : kTestEpochMs));
  }
  CHECK(Occurrence(t, s, r).at("event_count") == 25);
}

TEST_CASE("test keys report into their own namespace of the project") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string test_key = CreateKeyVia(t, s.admin, s.project_id, "test");
  CHECK(test_key.rfind("sv_test_", 0) == 0);
  TestResponse live = Ingest(t, s.key, Report("Same"));
  TestResponse test = Ingest(t, test_key, Report("Same"));
  REQUIRE(live.status == 201);
  REQUIRE(test.status == 201);
  CHECK(Str(live.json, "fingerprint") == Str(test.json, "fingerprint"));
  CHECK(Str(live.json, "id") != Str(test.json, "id"));
  CHECK(test.json.at("deduplicated") == false);
  // internal state: a bug's key namespace is not part of any read route.
  CHECK(QueryText(t, "SELECT key_env FROM bugs WHERE id = ?", {Str(test.json, "id")}) == "test");
  CHECK(QueryText(t, "SELECT key_env FROM bugs WHERE id = ?", {Str(live.json, "id")}) == "live");
  TestResponse again = Ingest(t, test_key, Report("Same"));
  CHECK(Str(again.json, "id") == Str(test.json, "id"));
  // The project's counts show the live namespace.
  TestResponse list = t.Get("/v1/projects", s.admin.headers());
  REQUIRE(list.status == 200);
  CHECK(list.json.at("projects").at(0).at("bug_count") == 1);
}

TEST_CASE("every capture outcome is published with the Spec 1 payload fields") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  EventRecorder rec(t);
  TestResponse r = Ingest(t, s.key,
                          Report("Published", "m",
                                 {{"sessionId", "s-1"},
                                  {"userId", "u-1"},
                                  {"release", "1.2.3"},
                                  {"environment", "production"},
                                  {"userAgent",
                                   "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, "
                                   "like Gecko) Chrome/120.0.0.0 Safari/537.36"}}));
  REQUIRE(r.status == 201);
  Ingest(t, s.key, Report("Published", "m"));
  auto news = rec.OfType("new_bug");
  auto dups = rec.OfType("duplicate");
  REQUIRE(news.size() == 1);
  REQUIRE(dups.size() == 1);
  CHECK(news[0].org_id == s.admin.org_id);
  CHECK(news[0].project_id == s.project_id);
  json::value p = json::parse(news[0].payload);
  for (const char* field : {"title", "severity", "url", "occurrenceId", "sessionId", "userId", "release",
                            "environment", "browser", "os", "signal_class", "signal_family", "signal_reason",
                            "classifier_confidence", "bugId", "projectId"}) {
    CHECK_MESSAGE(p.as_object().contains(field), field);
  }
  CHECK(p.at("title") == "Published");
  CHECK(p.at("occurrenceId") == r.json.at("occurrenceId"));
  CHECK(p.at("sessionId") == "s-1");
  CHECK(p.at("userId") == "u-1");
  CHECK(p.at("release") == "1.2.3");
  CHECK(p.at("environment") == "production");
  CHECK(p.at("browser") == "Chrome");
  CHECK(p.at("os") == "Windows");
  CHECK(p.at("signal_class") == "issue");
  CHECK(json::parse(dups[0].payload).at("report_count") == 2);
}

TEST_CASE("signal classification is stored on the bug") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse err = Ingest(t, s.key, Report("Uncaught"));
  CHECK(BugText(t, s, Str(err.json, "id"), "signal_class") == "issue");
  CHECK_FALSE(BugText(t, s, Str(err.json, "id"), "signal_family").empty());
  CHECK_FALSE(BugText(t, s, Str(err.json, "id"), "classifier_confidence").empty());
  TestResponse logs =
      Ingest(t, s.key,
             json::object{{"title", "Console output"},
                          {"metadata", json::object{{"autoReport", "console"}}},
                          {"events", json::array{json::object{
                                         {"type", "console"},
                                         {"data", json::object{{"level", "info"}, {"message", "hi"}}}}}}});
  REQUIRE(logs.status == 201);
  CHECK(BugText(t, s, Str(logs.json, "id"), "signal_class") == "diagnostic");
}

TEST_CASE("transactional event subscribers run inside the ingest transaction, each of them") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  // Beside the integrations area's subscriber, two more: each is called.
  std::vector<std::string> seen;
  const uint64_t first =
      core.events.Subscribe([&core](ports::Tx& tx, const ports::Event& e, std::string_view area) -> Status {
        return core.outbox->Enqueue(tx, core.ids->NewId(), "webhook." + e.type + "." + std::string(area),
                                    e.payload, core.Now());
      });
  const uint64_t second = core.events.Subscribe([&seen](ports::Tx&, const ports::Event& e, std::string_view) {
    seen.push_back(e.type);
    return Status::Ok();
  });
  TestResponse r = Ingest(t, s.key, Report("Hooked"));
  REQUIRE(r.status == 201);
  // internal state: the hook's outbox row is what the rule is about (no route lists the outbox).
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM outbox WHERE kind = 'webhook.new_bug.capture'") == 1);
  CHECK(seen == std::vector<std::string>{"new_bug"});

  // A failing subscriber rolls the report back: nothing is stored.
  core.events.Unsubscribe(second);
  const uint64_t failing =
      core.events.Subscribe([](ports::Tx&, const ports::Event&, std::string_view) -> Status {
        return Status::Public(service::Code::kUnavailable, "queue down");
      });
  TestResponse failed = Ingest(t, s.key, Report("Hooked"));
  CHECK(failed.status == 503);
  CHECK(t.Get("/v1/bugs?signalClass=all", s.admin.headers()).json.at("total") == 1);
  CHECK(Occurrences(t, s, Str(r.json, "id")).at("total") == 1);
  CHECK(BugInt(t, s, Str(r.json, "id"), "report_count") == 1);
  core.events.Unsubscribe(failing);
  core.events.Unsubscribe(first);
  REQUIRE(Ingest(t, s.key, Report("Hooked")).status == 201);
  CHECK(BugInt(t, s, Str(r.json, "id"), "report_count") == 2);
}

TEST_CASE("concurrent reports share transactions, every count stays exact") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  EventRecorder rec(t);
  constexpr int kThreads = 8;
  constexpr int kPerThread = 30;
  std::mutex mu;
  std::vector<TestResponse> answers;
  std::vector<std::thread> threads;
  for (int th = 0; th < kThreads; ++th) {
    threads.emplace_back([&, th] {
      for (int i = 0; i < kPerThread; ++i) {
        // Five shared messages, and one of this thread's own every tenth report.
        const std::string message = i % 10 == 0
                                        ? "own failure " + std::string(1, static_cast<char>('a' + th)) +
                                              std::string(1, static_cast<char>('a' + i / 10))
                                        : "shared failure " + std::string(1, static_cast<char>('a' + i % 5));
        json::object extra{{"userId", "u-" + std::to_string((th + i) % 7)},
                           {"sessionId", "s-" + std::to_string(i % 4)},
                           {"reporterEmail", "r" + std::to_string(i % 3) + "@example.com"},
                           {"release", "1." + std::to_string(i % 2)}};
        TestResponse r = Ingest(t, s.key, Report("Concurrent " + message, message, extra),
                                "198.51.100." + std::to_string(th));
        std::lock_guard lock(mu);
        answers.push_back(std::move(r));
      }
    });
  }
  for (auto& th : threads) th.join();
  REQUIRE(answers.size() == kThreads * kPerThread);
  std::map<std::string, int> new_per_bug;
  std::set<std::string> bugs;
  for (const TestResponse& r : answers) {
    REQUIRE_MESSAGE(r.status == 201, r.body);
    bugs.insert(Str(r.json, "id"));
    if (r.json.at("deduplicated") == false) ++new_per_bug[Str(r.json, "id")];
  }
  // Each bug was created by exactly one report: 5 shared + 3 own per thread.
  CHECK(bugs.size() == 5 + 3 * kThreads);
  CHECK(new_per_bug.size() == bugs.size());
  for (const auto& entry : new_per_bug) CHECK_MESSAGE(entry.second == 1, entry.first);
  CHECK(rec.OfType("new_bug").size() == bugs.size());
  CHECK(rec.OfType("new_bug").size() + rec.OfType("duplicate").size() == answers.size());
  TestResponse listed = t.Get("/v1/bugs?signalClass=all&limit=200", s.admin.headers());
  REQUIRE(listed.status == 200);
  REQUIRE(listed.json.at("bugs").as_array().size() == bugs.size());
  int64_t occurrences = 0;
  int64_t reports = 0;
  for (const auto& b : listed.json.at("bugs").as_array()) {
    occurrences += Occurrences(t, s, Str(b, "id")).at("total").to_number<int64_t>();
    reports += b.at("report_count").to_number<int64_t>();
  }
  CHECK(occurrences == kThreads * kPerThread);
  CHECK(reports == kThreads * kPerThread);
  // Every bug's counters equal what its occurrences say.
  // internal state: one statement compares every stored counter with the stored rows it counts.
  CHECK(QueryInt(t,
                 "SELECT COUNT(*) FROM bugs b WHERE b.report_count <> (SELECT COUNT(*) FROM occurrences o "
                 "WHERE o.bug_id = b.id) OR b.affected_user_count <> (SELECT COUNT(DISTINCT o.user_key) FROM "
                 "occurrences o WHERE o.bug_id = b.id) OR b.affected_session_count <> (SELECT COUNT(DISTINCT "
                 "o.session_id) FROM occurrences o WHERE o.bug_id = b.id) OR b.reporter_count <> (SELECT "
                 "COUNT(DISTINCT o.reporter_email) FROM occurrences o WHERE o.bug_id = b.id)") == 0);
  TestResponse users = t.Get("/v1/end-users?limit=100&q=u-", s.admin.headers());
  REQUIRE(users.status == 200);
  int64_t user_occurrences = 0;
  for (const auto& u : users.json.at("users").as_array())
    user_occurrences += u.at("occurrenceCount").to_number<int64_t>();
  CHECK(user_occurrences == kThreads * kPerThread);
  CHECK(users.json.at("users").as_array().size() == 7);
  TestResponse usage = t.Get("/v1/org/usage", s.admin.headers());
  REQUIRE(usage.status == 200);
  // Every report came in this month: the month's counter holds every bug.
  CHECK(usage.json.at("bugsThisMonth").at("current") == static_cast<int64_t>(bugs.size()));
  const auto stats = service::internal::ModulesOf(t.service())
                         .Get<service::modules::CaptureModule>()
                         .runtime()
                         .committer()
                         .stats();
  MESSAGE("batches: ", stats.batches, " reports: ", stats.items, " fallbacks: ", stats.fallbacks);
  CHECK(stats.items == static_cast<uint64_t>(kThreads * kPerThread + 0));
  CHECK(stats.fallbacks == 0);
}

TEST_CASE("aliases: POST /v1/bugs ingests, nothing else answers under /v1/ingest/") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse r = t.Request("POST", "/v1/bugs", json::serialize(Report("Alias")), KeyHeader(s.key));
  REQUIRE_MESSAGE(r.status == 201, r.body);
  TestResponse again = Ingest(t, s.key, Report("Alias"));
  CHECK(Str(again.json, "id") == Str(r.json, "id"));
  CHECK(again.json.at("deduplicated") == true);
  CHECK(t.Request("POST", "/v1/ingest/bugs", "{}", KeyHeader(s.key)).status == 404);
  CHECK(t.Request("GET", "/v1/ingest", "", KeyHeader(s.key)).status == 404);
  CHECK(t.Request("POST", "/v1/ingest/projects", "{}", KeyHeader(s.key)).status == 404);
  CHECK(t.Request("POST", "/v1/ingest/presence/x", "{}", KeyHeader(s.key)).status == 404);
}

TEST_CASE("ingest shares the ingest rate limit class") {
  TestService t([](Options& o) {
    o.rate_limits.enabled = true;
    o.rate_limits.ingest = 2;
  });
  CaptureSetup s = NewCaptureSetup(t);
  CHECK(Ingest(t, s.key, Report("A")).status == 201);
  CHECK(t.Request("POST", "/v1/ingest/presence", R"({"sessionId":"s"})", KeyHeader(s.key), "203.0.113.7")
            .status == 202);
  TestResponse limited = Ingest(t, s.key, Report("A"));
  CHECK(limited.status == 429);
  CHECK(limited.json.at("retryAfter").is_number());
  // The console is on the general class.
  CHECK(t.Get("/v1/projects", s.admin.headers()).status == 200);
}

}  // namespace service::testing
