// Scrubbing (issue 31 item 3) in-process on both backends: the settings
// routes and who may use them, a scrubbed native report and a scrubbed
// Sentry event read back through the API and checked in the database, IP
// address storage off, messages kept when the project says so, counts per
// rule, and a change made by another process seen within the cache's TTL.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>

#include "areas/capture/app/scrubbing.h"
#include "areas/capture/module.h"
#include "service_internal.h"
#include "support/capture_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string S(const json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::string Path(const std::string& project_id) { return "/v1/projects/" + project_id + "/scrubbing"; }

TestResponse Put(TestService& t, const Member& m, const std::string& project_id, const std::string& body) {
  HeaderList h = m.headers();
  h.emplace_back("Content-Type", "application/json");
  return t.Request("PUT", Path(project_id), body, h);
}

json::value Counts(TestService& t, const CaptureSetup& s) {
  TestResponse r = t.Get(Path(s.project_id), s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("counts");
}

// How many stored rows of the project's reports hold `needle` anywhere a
// report's text is kept.
int64_t StoredContaining(TestService& t, const std::string& project_id, const std::string& needle) {
  const std::string like = "%" + needle + "%";
  return QueryInt(
             t,
             "SELECT COUNT(*) FROM occurrences WHERE project_id = ? AND (metadata LIKE ? OR url LIKE ? OR "
             "COALESCE(user_agent, '') LIKE ? OR COALESCE(events, '') LIKE ?)",
             {project_id, like, like, like, like}) +
         QueryInt(t,
                  "SELECT COUNT(*) FROM occurrence_events e JOIN occurrences o ON o.id = e.occurrence_id "
                  "WHERE o.project_id = ? AND e.events LIKE ?",
                  {project_id, like}) +
         QueryInt(t,
                  "SELECT COUNT(*) FROM bugs WHERE project_id = ? AND (title LIKE ? OR description LIKE ? OR "
                  "COALESCE(signature, '') LIKE ? OR COALESCE(url, '') LIKE ?)",
                  {project_id, like, like, like, like});
}

json::value OnlyBug(TestService& t, const CaptureSetup& s, const std::string& bug_id) {
  TestResponse r = t.Get("/v1/bugs/" + bug_id, s.admin.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json;
}

}  // namespace

TEST_CASE("scrubbing settings: defaults, validation, roles, another organization's project") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  TestResponse got = t.Get(Path(s.project_id), s.admin.headers());
  REQUIRE_MESSAGE(got.status == 200, got.body);
  CHECK(S(got.json, "projectId") == s.project_id);
  CHECK(got.json.at("extraKeys").as_array().empty());
  CHECK(got.json.at("scrubMessages") == true);
  CHECK(got.json.at("storeIpAddress") == true);
  CHECK(S(got.json, "marker") == "[Filtered]");
  CHECK(got.json.at("defaultKeys").as_array().size() == 13);
  CHECK(got.json.at("exactKeys").as_array().size() == 7);
  CHECK(got.json.at("counts") ==
        json::value{{"key", 0}, {"pair", 0}, {"card", 0}, {"bearer", 0}, {"token", 0}, {"ip", 0}});
  CHECK(got.json.at("total") == 0);
  CHECK(got.json.at("updatedAt").is_null());
  CHECK(got.json.at("lastScrubbedAt").is_null());

  std::string many = "[";
  for (int i = 0; i < 51; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\"";
  many += "]";
  for (const std::string& bad :
       {std::string("{}"), std::string(R"({"extraKeys":"iban"})"), std::string(R"({"extraKeys":[1]})"),
        std::string(R"({"extraKeys":["   "]})"), std::string(R"({"extraKeys":["-_-"]})"),
        std::string(R"({"extraKeys":[")") + std::string(65, 'a') + "\"]}",
        std::string(R"({"extraKeys":)") + many + "}", std::string(R"({"scrubMessages":"no"})"),
        std::string(R"({"storeIpAddress":null})"), std::string(R"({"scrubMessages":true,"colour":"red"})"),
        std::string("[1]"), std::string("{not json")}) {
    TestResponse r = Put(t, s.admin, s.project_id, bad);
    CHECK_MESSAGE(r.status == 400, bad);
  }

  TestResponse put = Put(t, s.admin, s.project_id,
                         R"({"extraKeys":["iban"," Social-Security ","iban"],"storeIpAddress":false})");
  REQUIRE_MESSAGE(put.status == 200, put.body);
  CHECK(put.json.at("extraKeys") == json::value{"iban", "Social-Security"});
  CHECK(put.json.at("storeIpAddress") == false);
  CHECK(put.json.at("scrubMessages") == true);
  CHECK(S(put.json, "updatedBy") == s.admin.user_id);
  CHECK(put.json.at("updatedAt").as_int64() > 0);
  got = t.Get(Path(s.project_id), s.admin.headers());
  CHECK(got.json.at("extraKeys") == json::value{"iban", "Social-Security"});
  CHECK(got.json.at("storeIpAddress") == false);

  // Admins and managers write; every role reads.
  Member manager = AddMemberWithRole(t, s.admin.org_id, "manager");
  Member member = AddMemberWithRole(t, s.admin.org_id, "member");
  Member viewer = AddMemberWithRole(t, s.admin.org_id, "viewer");
  put = Put(t, manager, s.project_id, R"({"scrubMessages":false})");
  REQUIRE_MESSAGE(put.status == 200, put.body);
  CHECK(put.json.at("scrubMessages") == false);
  CHECK(put.json.at("extraKeys") == json::value{"iban", "Social-Security"});
  CHECK(Put(t, member, s.project_id, R"({"scrubMessages":true})").status == 403);
  CHECK(Put(t, viewer, s.project_id, R"({"scrubMessages":true})").status == 403);
  CHECK(t.Get(Path(s.project_id), member.headers()).status == 200);
  CHECK(t.Get(Path(s.project_id), viewer.headers()).json.at("scrubMessages") == false);
  CHECK(t.Get(Path(s.project_id)).status == 401);

  // Another organization's project, an unknown one and a malformed id: 404.
  CaptureSetup other = NewCaptureSetup(t);
  CHECK(t.Get(Path(s.project_id), other.admin.headers()).status == 404);
  CHECK(Put(t, other.admin, s.project_id, R"({"scrubMessages":true})").status == 404);
  CHECK(t.Get(Path("00000000-0000-4000-8000-000000000000"), s.admin.headers()).status == 404);
  CHECK(t.Get(Path("not-a-uuid"), s.admin.headers()).status == 404);
  CHECK(t.Get(Path(other.project_id), other.admin.headers()).json.at("scrubMessages") == true);
}

TEST_CASE("a native report is scrubbed before it is stored and the counts show per rule") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  REQUIRE(Put(t, s.admin, s.project_id, R"({"extraKeys":["iban"]})").status == 200);

  json::object body{
      {"title", "Payment failed for 4111111111111111"},
      {"url", "https://app.example.com/pay?session=s3cr3t-sess&page=2"},
      {"events",
       json::array{json::object{
           {"type", "error"},
           {"timestamp", 1768471100000},
           {"data", json::object{{"name", "Error"},
                                 {"message", "login failed for token=tok-abc123"},
                                 {"headers", json::object{{"Authorization", "Bearer ey0123456789-hdr"},
                                                          {"Accept", "application/json"}}}}}}}},
      {"metadata", json::object{{"autoReport", "error"},
                                {"password", "hunter2-meta"},
                                {"iban", "DE89370400440532013000"},
                                {"note", "card 5555 5555 5555 4444 on file"}}}};
  TestResponse r = Ingest(t, s.key, body);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const std::string bug_id = S(r.json, "id");

  const json::value bug = OnlyBug(t, s, bug_id);
  CHECK(S(bug, "title") == "Payment failed for [Filtered]");
  TestResponse events = t.Get("/v1/bugs/" + bug_id + "/events", s.admin.headers());
  REQUIRE(events.status == 200);
  const json::value& data = events.json.at("events").as_array().at(0).at("data");
  CHECK(S(data, "message") == "login failed for token=[Filtered]");
  CHECK(S(data.at("headers"), "Authorization") == "[Filtered]");
  CHECK(S(data.at("headers"), "Accept") == "application/json");
  TestResponse occ = t.Get("/v1/bugs/" + bug_id + "/occurrences", s.admin.headers());
  const json::value& o = occ.json.at("occurrences").as_array().at(0);
  CHECK(S(o, "url") == "https://app.example.com/pay?session=[Filtered]&page=2");
  CHECK(S(o.at("metadata"), "password") == "[Filtered]");
  CHECK(S(o.at("metadata"), "iban") == "[Filtered]");
  CHECK(S(o.at("metadata"), "note") == "card [Filtered] on file");
  CHECK(S(o.at("metadata"), "autoReport") == "error");

  for (const char* secret : {"4111111111111111", "s3cr3t-sess", "tok-abc123", "ey0123456789-hdr",
                             "hunter2-meta", "DE89370400440532013000", "5555 5555 5555 4444"}) {
    CAPTURE(secret);
    CHECK(StoredContaining(t, s.project_id, secret) == 0);
  }
  // The client address is kept only as its keyed hash (storeIpAddress on).
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM occurrences WHERE project_id = ? AND ip_hash IS NOT NULL",
                 {s.project_id}) == 1);
  CHECK(StoredContaining(t, s.project_id, "203.0.113.7") == 0);

  CHECK(Counts(t, s) ==
        json::value{{"key", 3}, {"pair", 2}, {"card", 2}, {"bearer", 0}, {"token", 0}, {"ip", 0}});
  // The counts reach the database with the worker's flush; reads add this
  // process's unwritten ones, so a flush changes nothing seen.
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM scrubbing_counts WHERE project_id = ?", {s.project_id}) == 0);
  app::capture::ScrubbingCache* cache =
      internal::ModulesOf(t.service()).Get<modules::CaptureModule>().deps().scrubbing;
  REQUIRE(cache != nullptr);
  REQUIRE(cache->Flush().ok());
  CHECK(QueryInt(t, "SELECT scrubbed FROM scrubbing_counts WHERE project_id = ? AND rule = 'key'",
                 {s.project_id}) == 3);
  CHECK(Counts(t, s) ==
        json::value{{"key", 3}, {"pair", 2}, {"card", 2}, {"bearer", 0}, {"token", 0}, {"ip", 0}});
  CHECK(t.Get(Path(s.project_id), s.admin.headers()).json.at("lastScrubbedAt").as_int64() > 0);
  // Another report adds to the stored counters.
  REQUIRE(Ingest(t, s.key, Report("again", "password=abc")).status == 201);
  REQUIRE(cache->Flush().ok());
  CHECK(Counts(t, s).at("pair") == 3);
}

TEST_CASE("IP address storage off, messages kept when the project says so") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  REQUIRE(Put(t, s.admin, s.project_id, R"({"storeIpAddress":false,"scrubMessages":false})").status == 200);
  json::object body{
      {"title", "Card 4111111111111111 refused"},
      {"url", "https://app.example.com/checkout"},
      {"events", json::array{json::object{
                     {"type", "error"},
                     {"data", json::object{{"name", "Error"},
                                           {"message", "Card 4111111111111111 refused"},
                                           {"stack", "Error: Card 4111111111111111 refused"},
                                           {"client", json::object{{"ip_address", "198.51.100.4"}}},
                                           {"pass", "p4ss"}}}}}},
      {"metadata", json::object{{"autoReport", "error"}}}};
  TestResponse r = Ingest(t, s.key, body, "198.51.100.9");
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const std::string bug_id = S(r.json, "id");
  CHECK(S(OnlyBug(t, s, bug_id), "title") == "Card 4111111111111111 refused");
  const json::value data = t.Get("/v1/bugs/" + bug_id + "/events", s.admin.headers())
                               .json.at("events")
                               .as_array()
                               .at(0)
                               .at("data");
  CHECK(S(data, "message") == "Card 4111111111111111 refused");
  CHECK(S(data, "stack") == "Error: Card [Filtered] refused");
  CHECK(S(data.at("client"), "ip_address") == "[Filtered]");
  CHECK(S(data, "pass") == "[Filtered]");
  CHECK(QueryInt(t, "SELECT COUNT(*) FROM occurrences WHERE project_id = ? AND ip_hash IS NOT NULL",
                 {s.project_id}) == 0);
  CHECK(StoredContaining(t, s.project_id, "198.51.100") == 0);
  CHECK(Counts(t, s) ==
        json::value{{"key", 1}, {"pair", 0}, {"card", 1}, {"bearer", 0}, {"token", 0}, {"ip", 2}});

  // Messages scrubbed again: the title loses the number.
  REQUIRE(Put(t, s.admin, s.project_id, R"({"scrubMessages":true})").status == 200);
  r = Ingest(t, s.key, Report("Card 4012888888881881 refused"));
  REQUIRE(r.status == 201);
  CHECK(S(OnlyBug(t, s, S(r.json, "id")), "title") == "Card [Filtered] refused");
}

TEST_CASE("a Sentry event is scrubbed everywhere it carries data") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::string key = s.key;
  int64_t number = 0;
  const TestResponse projects = t.Get("/v1/projects", s.admin.headers());
  for (const auto& pr : projects.json.at("projects").as_array())
    if (pr.at("id").as_string() == s.project_id) number = pr.at("project_number").as_int64();
  REQUIRE(number > 0);

  const json::object event{
      {"event_id", "0123456789abcdef0123456789abcdef"},
      {"platform", "node"},
      {"level", "error"},
      {"sdk", json::object{{"name", "sentry.javascript.node"}, {"version", "8.0.0"}}},
      {"user", json::object{{"id", "user-42"}, {"ip_address", "203.0.113.50"}}},
      {"request", json::object{{"url", "https://api.example.com/login?api_key=ak-live-777"},
                               {"headers", json::object{{"Cookie", "sid=cookie-999"}}}}},
      {"extra", json::object{{"password", "hunter2-extra"}, {"order", 17}}},
      {"tags", json::object{{"auth_token", "tag-secret-1"}, {"route", "/login"}}},
      {"contexts", json::object{{"app", json::object{{"session_secret", "ctx-secret-2"}}}}},
      {"breadcrumbs",
       json::array{json::object{{"timestamp", 1768471190.0},
                                {"category", "console"},
                                {"message", "sending Authorization: Bearer abc.def.ghi-123456"}},
                   json::object{{"timestamp", 1768471191.0},
                                {"category", "http"},
                                {"data", json::object{{"url", "https://api.example.com/x?token=crumb-888"},
                                                      {"method", "GET"}}}}}},
      {"exception",
       json::object{
           {"values",
            json::array{json::object{
                {"type", "Error"},
                {"value", "login failed with password=hunter2-msg"},
                {"stacktrace",
                 json::object{{"frames", json::array{json::object{
                                             {"function", "login"},
                                             {"filename", "auth.js"},
                                             {"lineno", 3},
                                             {"vars", json::object{{"password", "hunter2-var"}}}}}}}}}}}}}};
  const std::string payload = json::serialize(event);
  const std::string envelope = R"({"event_id":"0123456789abcdef0123456789abcdef"})"
                               "\n{\"type\":\"event\",\"length\":" +
                               std::to_string(payload.size()) + "}\n" + payload + "\n";
  TestResponse r = t.Request("POST", "/api/" + std::to_string(number) + "/envelope/", envelope,
                             {{"X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=" + key}});
  REQUIRE_MESSAGE(r.status == 200, r.body);

  for (const char* secret : {"ak-live-777", "cookie-999", "hunter2-extra", "tag-secret-1", "ctx-secret-2",
                             "abc.def.ghi-123456", "crumb-888", "hunter2-msg", "hunter2-var"}) {
    CAPTURE(secret);
    CHECK(StoredContaining(t, s.project_id, secret) == 0);
  }
  TestResponse bugs = t.Get("/v1/bugs?signalClass=all&projectId=" + s.project_id, s.admin.headers());
  REQUIRE(bugs.json.at("bugs").as_array().size() == 1);
  const json::value& bug = bugs.json.at("bugs").as_array()[0];
  CHECK(S(bug, "title") == "Error: login failed with password=[Filtered]");
  TestResponse occ = t.Get("/v1/bugs/" + S(bug, "id") + "/occurrences", s.admin.headers());
  const json::value& o = occ.json.at("occurrences").as_array().at(0);
  CHECK(S(o, "url") == "https://api.example.com/login?api_key=[Filtered]");
  const json::value& sentry = o.at("metadata").at("sentry");
  CHECK(S(sentry.at("extra"), "password") == "[Filtered]");
  CHECK(sentry.at("extra").at("order") == 17);
  CHECK(S(sentry.at("tags"), "auth_token") == "[Filtered]");
  CHECK(S(sentry.at("tags"), "route") == "/login");
  CHECK(S(sentry.at("contexts").at("app"), "session_secret") == "[Filtered]");
}

TEST_CASE("presence pings are scrubbed before they are stored") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const json::object body{{"sessionId", "s-scrub"},
                          {"path", "/reset"},
                          {"url", "https://a.example/reset?token=pres-tok-1&step=2"},
                          {"referrer", "https://mail.example/?session=pres-sess-2"},
                          {"interaction", json::object{{"clicks", 3}}},
                          {"metadata", json::object{{"apiKey", "pres-key-3"}, {"k", "v"}}}};
  TestResponse r = t.Request("POST", "/v1/ingest/presence", json::serialize(body), KeyHeader(s.key));
  REQUIRE_MESSAGE(r.status == 202, r.body);
  CHECK(QueryText(t, "SELECT url FROM presence WHERE session_id = 's-scrub'") ==
        "https://a.example/reset?token=[Filtered]&step=2");
  CHECK(QueryText(t, "SELECT referrer FROM presence WHERE session_id = 's-scrub'") ==
        "https://mail.example/?session=[Filtered]");
  const json::value metadata =
      json::parse(QueryText(t, "SELECT metadata FROM presence WHERE session_id = 's-scrub'"));
  CHECK(metadata.at("apiKey") == "[Filtered]");
  CHECK(metadata.at("k") == "v");
  for (const char* secret : {"pres-tok-1", "pres-sess-2", "pres-key-3"}) {
    CAPTURE(secret);
    CHECK(QueryInt(t, "SELECT COUNT(*) FROM presence WHERE url LIKE ? OR referrer LIKE ? OR metadata LIKE ?",
                   {"%" + std::string(secret) + "%", "%" + std::string(secret) + "%",
                    "%" + std::string(secret) + "%"}) == 0);
  }
  CHECK(Counts(t, s).at("pair") == 3);
}

TEST_CASE("a change made by another process is applied within the settings cache's TTL") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  REQUIRE(
      Ingest(t, s.key, Report("first", "x", json::object{{"metadata", json::object{{"iban", "QQ-FIRST"}}}}))
          .status == 201);
  // Another process turns the extra key on: this one's cache holds the defaults.
  ExecSql(
      t,
      "INSERT INTO scrubbing_settings (project_id, org_id, extra_keys, scrub_messages, store_ip, updated_at, "
      "updated_by) VALUES (?, ?, 'iban', 1, 1, 1, '')",
      {s.project_id, s.admin.org_id});
  REQUIRE(
      Ingest(t, s.key, Report("second", "x", json::object{{"metadata", json::object{{"iban", "QQ-SECOND"}}}}))
          .status == 201);
  CHECK(StoredContaining(t, s.project_id, "QQ-SECOND") == 1);
  t.clock().Advance(app::capture::kScrubSettingsTtlMs);
  REQUIRE(
      Ingest(t, s.key, Report("third", "x", json::object{{"metadata", json::object{{"iban", "QQ-THIRD"}}}}))
          .status == 201);
  CHECK(StoredContaining(t, s.project_id, "QQ-THIRD") == 0);
  CHECK(Counts(t, s).at("key") == 1);
}

}  // namespace service::testing
