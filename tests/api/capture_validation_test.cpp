// Bad input on the ingest and presence routes: every refusal is a 400 with
// the spec's body, never a 500, and nothing is stored (Spec 1 "Ingestion"
// field table, "Errors"; issue 4 "Bad input").
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "support/capture_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

std::string Repeat(const std::string& s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

// The details' field names of a 400 Validation failed.
std::vector<std::string> Fields(const TestResponse& r) {
  std::vector<std::string> out;
  if (!r.json.is_object() || !r.json.as_object().contains("details")) return out;
  for (const auto& d : r.json.at("details").as_array()) out.emplace_back(d.at("field").as_string());
  return out;
}

bool HasField(const TestResponse& r, const std::string& field) {
  for (const auto& f : Fields(r))
    if (f == field) return true;
  return false;
}

// Bugs and occurrences of the setup's organization (its only one), read through the API.
int64_t Stored(TestService& t, const CaptureSetup& s) {
  return OccurrencesVia(t, s.admin) + BugsVia(t, s.admin);
}

}  // namespace

TEST_CASE("each field of the ingest table is checked: type, length in characters, format") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  struct Case {
    const char* field;
    json::value value;
  };
  const std::vector<Case> bad = {
      {"title", ""},
      {"title", "   "},
      {"title", 42},
      {"title", json::string(Repeat("a", 501))},
      {"title", json::string(std::string("nul\0byte", 8))},
      {"description", json::string(std::string("nul\0byte", 8))},
      {"userId", json::string(std::string("u\0", 2))},
      {"description", json::string(Repeat("d", 10'001))},
      {"description", json::array{}},
      {"severity", "urgent"},
      {"url", json::string(Repeat("u", 2001))},
      {"userAgent", json::string(Repeat("x", 501))},
      {"viewport", json::string(Repeat("1", 51))},
      {"viewport", "wide"},
      {"events", "not an array"},
      {"reporterEmail", "not-an-email"},
      {"reporterEmail", 7},
      {"reporterId", json::string(Repeat("r", 201))},
      {"sessionId", json::string(Repeat("s", 201))},
      {"userId", json::string(Repeat("u", 201))},
      {"release", json::string(Repeat("1", 201))},
      {"environment", json::string(Repeat("e", 101))},
      {"platform", "windows-phone"},
      {"device", json::string(Repeat("d", 121))},
      {"osVersion", json::string(Repeat("9", 61))},
      {"metadata", "a string"},
      {"metadata", json::array{1, 2}},
      {"encrypted", "nope"},
  };
  for (const Case& c : bad) {
    json::object body = Report("Valid title");
    body[c.field] = c.value;
    TestResponse r = Ingest(t, s.key, body);
    CHECK_MESSAGE(r.status == 400, c.field, " ", json::serialize(c.value).substr(0, 40));
    CHECK_MESSAGE(r.json.at("error") == "Validation failed", c.field);
    CHECK_MESSAGE(HasField(r, c.field), c.field, " got ", r.body.substr(0, 200));
  }
  CHECK(Stored(t, s) == 0);
}

TEST_CASE("lengths count characters, not bytes, the limits themselves are accepted") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  json::object body = Report(Repeat("\xC3\xA9", 500));  // 500 characters, 1000 bytes
  body["description"] = Repeat("\xE2\x82\xAC", 10'000);
  body["url"] = "https://e.example/" + Repeat("p", 2000 - 18);
  body["userAgent"] = Repeat("a", 500);
  body["viewport"] = "1920 x 1080";
  body["reporterId"] = Repeat("r", 200);
  body["environment"] = Repeat("e", 100);
  body["device"] = Repeat("d", 120);
  body["osVersion"] = Repeat("9", 60);
  TestResponse r = Ingest(t, s.key, body);
  CHECK_MESSAGE(r.status == 201, r.body.substr(0, 300));
}

TEST_CASE("1,000 events are accepted and 1,001 refused") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  json::array events;
  for (int i = 0; i < 1000; ++i)
    events.push_back(json::object{{"type", "click"}, {"timestamp", 1768470000000 + i}});
  json::object body{{"title", "Many events"}, {"events", events}};
  TestResponse ok = Ingest(t, s.key, body);
  CHECK(ok.status == 201);
  body["events"].as_array().push_back(json::object{{"type", "click"}});
  TestResponse refused = Ingest(t, s.key, body);
  CHECK(refused.status == 400);
  CHECK(HasField(refused, "events"));
  CHECK(OccurrencesVia(t, s.admin) == 1);
}

TEST_CASE("events must be objects with a string type and a numeric timestamp") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  const std::vector<std::pair<json::value, std::string>> bad = {
      {json::value(5), "events[0]"},
      {json::object{{"timestamp", 1}}, "events[0].type"},
      {json::object{{"type", 12}}, "events[0].type"},
      {json::object{{"type", json::string(Repeat("t", 201))}}, "events[0].type"},
      {json::object{{"type", "x"}, {"timestamp", "yesterday"}}, "events[0].timestamp"},
      {json::object{{"type", "x"}, {"timestamp", -5}}, "events[0].timestamp"},
      {json::object{{"type", "x"}, {"timestamp", 1e300}}, "events[0].timestamp"},
  };
  for (const auto& row : bad) {
    const auto& event = row.first;
    const auto& field = row.second;
    TestResponse r = Ingest(t, s.key, json::object{{"title", "E"}, {"events", json::array{event}}});
    CHECK_MESSAGE(r.status == 400, field);
    CHECK_MESSAGE(HasField(r, field), field, " got ", r.body);
  }
  // Many bad events: details stay bounded.
  json::array many;
  for (int i = 0; i < 500; ++i) many.push_back(7);
  TestResponse r = Ingest(t, s.key, json::object{{"title", "E"}, {"events", many}});
  CHECK(r.status == 400);
  CHECK(r.json.at("details").as_array().size() <= 25);
  CHECK(Stored(t, s) == 0);
}

TEST_CASE("malformed JSON, non-object bodies, invalid UTF-8 and deep nesting are 400s") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  auto post = [&](const std::string& body) {
    return t.Request("POST", "/v1/ingest", body, KeyHeader(s.key));
  };

  TestResponse malformed = post("{\"title\": ");
  CHECK(malformed.status == 400);
  CHECK(malformed.json.at("error") == "Invalid JSON in request body");

  TestResponse array = post("[1,2,3]");
  CHECK(array.status == 400);
  CHECK(array.json.at("error") == "Validation failed");

  TestResponse empty = post("");
  CHECK(empty.status == 400);
  CHECK(HasField(empty, "title"));

  TestResponse utf8 = post("{\"title\":\"ok\",\"description\":\"bad \xC3\x28 byte\"}");
  CHECK(utf8.status == 400);
  CHECK(utf8.json.at("error") == "Validation failed");
  CHECK(HasField(utf8, "description"));

  TestResponse nested_utf8 =
      post("{\"title\":\"ok\",\"events\":[{\"type\":\"x\",\"data\":{\"msg\":\"\xFF\xFE\"}}]}");
  CHECK(nested_utf8.status == 400);
  CHECK(HasField(nested_utf8, "events[0].data.msg"));

  std::string deep = "{\"title\":\"deep\",\"metadata\":";
  for (int i = 0; i < 200; ++i) deep += "{\"a\":";
  deep += "1";
  for (int i = 0; i < 200; ++i) deep += "}";
  deep += "}";
  TestResponse too_deep = post(deep);
  CHECK(too_deep.status == 400);
  CHECK(too_deep.json.at("error") == "Validation failed");
  CHECK(HasField(too_deep, "body"));

  std::string deep_array = "{\"title\":\"deep\",\"events\":[{\"type\":\"x\",\"data\":";
  for (int i = 0; i < 100000; ++i) deep_array += "[";
  TestResponse huge_nesting = post(deep_array);
  CHECK(huge_nesting.status == 400);
  CHECK(Stored(t, s) == 0);
}

TEST_CASE("an empty reporterEmail counts as absent, valid optional fields may be null") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  json::object body = Report("Nulls");
  body["reporterEmail"] = "";
  body["userId"] = nullptr;
  body["metadata"] = nullptr;
  body["screenshot"] = "data:image/png;base64,iVBORw0KGgo=";
  body["audio"] = json::object{{"url", "blob:x"}};
  body["aiSummary"] = json::object{{"summary", "client side"}};
  TestResponse r = Ingest(t, s.key, body);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const std::string bug(r.json.at("id").as_string());
  TestResponse occurrences = t.Get("/v1/bugs/" + bug + "/occurrences", s.admin.headers());
  REQUIRE_MESSAGE(occurrences.status == 200, occurrences.body);
  REQUIRE(occurrences.json.at("occurrences").as_array().size() == 1);
  const json::value& occ = occurrences.json.at("occurrences").at(0);
  CHECK(occ.at("id") == r.json.at("occurrenceId"));
  CHECK((occ.at("reporter_email").is_null() || occ.at("reporter_email") == ""));
  TestResponse stored = t.Get("/v1/bugs/" + bug, s.admin.headers());
  REQUIRE_MESSAGE(stored.status == 200, stored.body);
  CHECK(json::serialize(stored.json.at("ai_summary")).find("client side") != std::string::npos);
}

TEST_CASE("presence bodies are validated") {
  TestService t;
  CaptureSetup s = NewCaptureSetup(t);
  auto post = [&](const json::value& body) {
    return t.Request("POST", "/v1/ingest/presence", json::serialize(body), KeyHeader(s.key));
  };
  CHECK(HasField(post(json::object{}), "sessionId"));
  CHECK(HasField(post(json::object{{"sessionId", json::string(Repeat("s", 201))}}), "sessionId"));
  CHECK(HasField(post(json::object{{"sessionId", "s"}, {"path", json::string(Repeat("p", 1001))}}), "path"));
  CHECK(HasField(post(json::object{{"sessionId", "s"}, {"title", json::string(Repeat("t", 501))}}), "title"));
  CHECK(HasField(post(json::object{{"sessionId", "s"}, {"referrer", json::string(Repeat("r", 2001))}}),
                 "referrer"));
  CHECK(HasField(post(json::object{{"sessionId", "s"}, {"eventType", json::string(Repeat("e", 101))}}),
                 "eventType"));
  CHECK(HasField(post(json::object{{"sessionId", "s"}, {"visibilityState", json::string(Repeat("v", 51))}}),
                 "visibilityState"));
  CHECK(HasField(post(json::object{{"sessionId", "s"}, {"interaction", "click"}}), "interaction"));
  CHECK(HasField(post(json::object{{"sessionId", "s"}, {"metadata", 5}}), "metadata"));
  CHECK(HasField(post(json::object{{"sessionId", "s"}, {"userId", 5}}), "userId"));
  CHECK(post(json::object{{"sessionId", "s"}, {"userId", 5}}).status == 400);
  // Every ping above was sent at this instant: a stored one would be active now.
  TestResponse live = t.Get("/v1/bugs/presence", s.admin.headers());
  REQUIRE_MESSAGE(live.status == 200, live.body);
  CHECK(live.json.at("active_sessions") == 0);
}

}  // namespace service::testing
